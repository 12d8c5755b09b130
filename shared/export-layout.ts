/**
 * The layout of a catalog export (`catalog export <dir>` / `catalog import <dir>`), so that a
 * catalog can move between backends. Pure: names and the manifest check; the CLI does the I/O.
 *
 * ```
 * <dir>/catalog.json                  manifest: {format, version, exportedAt, source, counts, files}
 * <dir>/documents/<collection>.json   every document of users, admins, projects, models,
 *                                     annotations and alignments (issue 18's findings):
 *                                     a JSON array of {id, ...data}, sorted by id
 * <dir>/files/<storage path>          every stored file under models/, byte for byte
 * <dir>/accounts.json                 sign-in accounts [{uid, email, password_hash, disabled}]
 *                                     (embedded backend only; file mode 0600: keep it private)
 * ```
 * Timestamps are kept as written (ISO strings). Accounts are not part of the ports: they are
 * read and written through the embedded server's service-key-only account API; a backend
 * without it exports none, and its users are registered again on the target.
 */
import type { CollectionName } from './types.js';

/** `format` of an export manifest. */
export const EXPORT_FORMAT = 'inspection-catalog-export';
/** Version of the layout described above. */
export const EXPORT_VERSION = 1;
/** The manifest's file name. */
export const EXPORT_MANIFEST = 'catalog.json';
/** Folder of the document files. */
export const EXPORT_DOCUMENTS_DIR = 'documents';
/** Folder of the stored files. */
export const EXPORT_FILES_DIR = 'files';
/** Sign-in accounts file (embedded backend). */
export const EXPORT_ACCOUNTS = 'accounts.json';
/**
 * Collections exported, in import order (findings after their models, so the models' counts
 * arrive with the findings they count).
 */
export const EXPORT_COLLECTIONS: readonly CollectionName[] = ['users', 'admins', 'projects', 'models', 'annotations', 'alignments'];

/**
 * Collections an export may lack: exports made before issue 18 have no `annotations.json` or
 * `alignments.json`; an import reads them as empty.
 */
export const EXPORT_OPTIONAL_COLLECTIONS: readonly CollectionName[] = ['annotations', 'alignments'];

/** One stored file listed in the manifest. size in bytes. */
export interface ExportedFile {
  path: string;
  size: number;
  contentType?: string | null;
}

/** The export manifest (`catalog.json`). */
export interface ExportManifest {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  /** ISO timestamp. */
  exportedAt: string;
  /** Where it came from (a URL), for people. */
  source: string;
  counts: Record<string, number>;
  files: ExportedFile[];
}

/**
 * Checks a parsed `catalog.json`.
 * @param value the parsed JSON
 * @returns the manifest
 * @throws Error with a readable message when it is not an export manifest of this version, or
 *   a file path leaves `models/`
 */
export function checkExportManifest(value: unknown): ExportManifest {
  const m = value as Partial<ExportManifest> | null;
  if (typeof m !== 'object' || m === null || m.format !== EXPORT_FORMAT)
    throw new Error(`${EXPORT_MANIFEST} is not a catalog export (format "${EXPORT_FORMAT}")`);
  if (m.version !== EXPORT_VERSION)
    throw new Error(`${EXPORT_MANIFEST} has version ${String(m.version)}; this CLI reads version ${EXPORT_VERSION}`);
  if (!Array.isArray(m.files)) throw new Error(`${EXPORT_MANIFEST} has no file list`);
  for (const f of m.files) {
    if (typeof f?.path !== 'string' || !f.path.startsWith('models/') || f.path.split('/').includes('..') || typeof f.size !== 'number') {
      throw new Error(`${EXPORT_MANIFEST} lists a bad file: ${JSON.stringify(f)}`);
    }
  }
  return m as ExportManifest;
}
