/**
 * Reading and checking a catalog export before an import writes anything: the manifest, every
 * document, every stored file's size and content, the accounts, and the rules across documents
 * (Public IDs, project locations, references). Every problem is gathered into one refusal.
 * `catalog-import.ts` writes what this plans.
 */
import pLimit from 'p-limit';
import secureJson from 'secure-json-parse';
import { assertStoredContent } from '@shared/content-check/index.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import type { ExistingAccount, ExportManifest, ExportedAccountEntry, ExportedFile } from '@shared/export-layout.js';
import {
  EXPORT_ACCOUNTS,
  EXPORT_ACCOUNTS_MAX_BYTES,
  EXPORT_COLLECTIONS,
  EXPORT_OPTIONAL_COLLECTIONS,
  EXPORT_DOCUMENTS_DIR,
  EXPORT_DOCUMENTS_MAX_BYTES,
  EXPORT_FILES_DIR,
  EXPORT_MANIFEST,
  EXPORT_MANIFEST_MAX_BYTES,
  exportManifestProblems,
  importedAccountsProblems,
} from '@shared/export-layout.js';
import type { Backend, StoredFile } from '@shared/ports/index.js';
import { ValidationMessages } from '@shared/messages.js';
import type { CollectionName } from '@shared/types.js';
import { PUBLIC_ID_PATTERN } from '@shared/validation/models.js';
import { locationCoordinatesProblem } from '@shared/validation/project-form.js';
import { listStoredDeep } from './catalog-io.js';
import type { AccountsApi } from './catalog-io.js';
import { ExportFolder, currentIdentity, exportFileByteSource, sameIdentity } from './export-folder.js';
import type { ExportFile, FileIdentity } from './export-folder.js';
import { checkExportedDocument, importRuleProblems } from './import-check.js';
import type { ExportedDoc } from './import-check.js';

/**
 * The Public ID rule over the catalog an import would give: every exported model's
 * Public ID matches PUBLIC_ID_PATTERN, and no two models of one project (the exported ones and
 * the target's models the import does not overwrite) share one.
 * @param exported the export's model documents
 * @param existing the target catalog's models
 * @returns one line per broken rule, naming the models (empty when the import may go on)
 */
export function publicIdClashes(
  exported: ReadonlyArray<Record<string, unknown> & { id: string }>,
  existing: ReadonlyArray<{ id: string; publicId?: unknown; projectId?: unknown }>,
): string[] {
  const lines: string[] = [];
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  for (const model of exported) {
    if (!PUBLIC_ID_PATTERN.test(text(model.publicId))) {
      lines.push(
        `model ${model.id}: Public ID ${JSON.stringify(model.publicId ?? null)} is not allowed (${ValidationMessages.publicIdPattern})`,
      );
    }
  }
  const importedIds = new Set(exported.map((m) => m.id));
  const byKey = new Map<string, string[]>();
  for (const model of [...exported, ...existing.filter((m) => !importedIds.has(m.id))]) {
    const publicId = text(model.publicId);
    if (publicId === '') continue;
    const key = `${text(model.projectId)}\u0000${publicId}`;
    byKey.set(key, [...(byKey.get(key) ?? []), `${importedIds.has(model.id) ? '' : 'existing '}${model.id}`]);
  }
  for (const [key, ids] of byKey) {
    if (ids.length < 2) continue;
    const [projectId, publicId] = key.split('\u0000');
    lines.push(`Public ID ${publicId} is used by ${ids.length} models of project ${projectId || '(none)'}: ${ids.join(', ')}`);
  }
  return lines;
}

/**
 * The location rule over an export's projects: each `location` has lat and lng absent,
 * null, or numbers within −90..90 and −180..180 degrees (`locationCoordinatesProblem`).
 * @param projects the export's project documents
 * @returns one line per project that breaks it, naming the project, its coordinates and the rule
 *   (empty when the import may go on)
 */
export function projectLocationProblems(projects: ReadonlyArray<Record<string, unknown> & { id: string }>): string[] {
  const lines: string[] = [];
  for (const project of projects) {
    const problem = locationCoordinatesProblem(project.location);
    if (problem === null) continue;
    const { lat, lng } = project.location as { lat?: unknown; lng?: unknown };
    lines.push(`project ${project.id}: location ${JSON.stringify({ lat: lat ?? null, lng: lng ?? null })}: ${problem}`);
  }
  return lines;
}

/** What the person importing is told when an import writes nothing. */
export const NOTHING_IMPORTED = 'nothing was imported';
/** Problem lines shown in a refusal (all of them are in its context). */
const REFUSAL_LINES_MAX = 200;

/** Content checks of an export's files run at once. */
const CONTENT_CHECKS_AT_ONCE = 4;

/** Options of `importCatalog` (`catalog-import.ts`). */
export interface ImportOptions {
  /** Progress lines. */
  log?: (line: string) => void;
  /** The backend's account API (embedded server): `accounts.json` is imported through it. */
  accounts?: AccountsApi;
  /** Aborting it (Ctrl-C) stops the import and undoes what it wrote. */
  signal?: AbortSignal;
}

/** A group of problems of a refusal, with its own heading (or none). */
interface ProblemGroup {
  heading: string | null;
  lines: string[];
}

/** The refusal of an export: every problem, grouped, each naming its document or file. */
function refusal(dir: string, found: readonly ProblemGroup[]): AppError {
  // a problem found twice (a link seen by the folder walk and by the file's open) is named once
  const groups = found.map((g) => ({ ...g, lines: [...new Set(g.lines)] }));
  const all = groups.flatMap((g) => g.lines);
  const out = [`${dir} cannot be imported (${all.length} problem${all.length === 1 ? '' : 's'}): ${NOTHING_IMPORTED}.`];
  let shown = 0;
  for (const group of groups) {
    if (group.lines.length === 0) continue;
    if (group.heading) out.push(group.heading);
    for (const line of group.lines) if (shown++ < REFUSAL_LINES_MAX) out.push(line);
  }
  if (all.length > REFUSAL_LINES_MAX) out.push(`… and ${all.length - REFUSAL_LINES_MAX} more`);
  return new AppError(ErrorCode.InvalidArgument, out.join('\n'), { context: { problems: all } });
}

/** A checked stored file of the export, ready to be sent. */
export interface PlannedFile {
  entry: ExportedFile;
  identity: FileIdentity;
  mtimeMs: number;
}

/** Everything an import writes, checked. */
export interface ImportPlan {
  files: PlannedFile[];
  /** The documents to write (their schemas' output) by collection, in import order. */
  docs: Map<CollectionName, ExportedDoc[]>;
  /** The target's documents before the import, by collection and id. */
  before: Map<CollectionName, Map<string, Record<string, unknown>>>;
  /** The target's stored files before the import, by path. */
  storedFiles: Map<string, StoredFile>;
  /** The accounts to add (none already there), or null when the export has none or the backend takes none. */
  accounts: ExportedAccountEntry[] | null;
  /** How many accounts the export lists. */
  accountsListed: number;
  newAdmins: string[];
}

/** Parses JSON text, refusing `__proto__` and `constructor.prototype` keys. */
function parseJsonText(bytes: Buffer, rel: string): unknown {
  try {
    return secureJson.parse(bytes.toString('utf8'), undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    throw new Error(`${rel}: is not valid JSON (${(error as Error).message})`);
  }
} /**
 * Reads and checks a whole export against the target (nothing is written): see `importCatalog`
 * (`catalog-import.ts`) for the checks, in words.
 * @param backend the opened backend the import would write to (its documents, files and accounts are read)
 * @param dir the export folder
 * @param options the import's options (accounts API, abort signal)
 * @returns the plan
 * @throws AppError `invalid-argument`: not an export, or every problem found; `storage/canceled` when aborted
 */
export async function planImport(backend: Pick<Backend, 'catalog' | 'files'>, dir: string, options: ImportOptions): Promise<ImportPlan> {
  const notExport = (why: string, cause?: unknown): AppError =>
    new AppError(ErrorCode.InvalidArgument, `${dir} is not a readable catalog export: ${why}: ${NOTHING_IMPORTED}`, { cause });
  let folder: ExportFolder;
  let manifest: ExportManifest;
  let rawManifest: unknown;
  const problems: string[] = [];
  try {
    folder = await ExportFolder.open(dir);
    rawManifest = parseJsonText(await folder.readFile(EXPORT_MANIFEST, EXPORT_MANIFEST_MAX_BYTES), EXPORT_MANIFEST);
    const checked = exportManifestProblems(rawManifest);
    if (checked.manifest === null) throw new Error(checked.problems.join('; '));
    manifest = checked.manifest;
    problems.push(...checked.problems);
  } catch (error) {
    throw notExport(errorMessage(error), error);
  }

  // The documents, each through its collection's stored-document check.
  const docs = new Map<CollectionName, ExportedDoc[]>();
  const exported = new Map<CollectionName, Map<string, Record<string, unknown>>>();
  for (const collection of EXPORT_COLLECTIONS) {
    const rel = `${EXPORT_DOCUMENTS_DIR}/${collection}.json`;
    const kept: ExportedDoc[] = [];
    const byId = new Map<string, Record<string, unknown>>();
    docs.set(collection, kept);
    exported.set(collection, byId);
    let list: unknown;
    try {
      // An export made before findings (or change maps) existed has no such files: none to import.
      if (EXPORT_OPTIONAL_COLLECTIONS.includes(collection) && !(await folder.has(rel))) continue;
      list = parseJsonText(await folder.readFile(rel, EXPORT_DOCUMENTS_MAX_BYTES), rel);
    } catch (error) {
      problems.push(errorMessage(error));
      continue;
    }
    if (!Array.isArray(list)) {
      problems.push(`${rel}: is not a list of documents`);
      continue;
    }
    list.forEach((doc: unknown, index) => {
      const raw = doc as Record<string, unknown> | null;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || typeof raw.id !== 'string')
        return void problems.push(`${rel}: entry ${index + 1} is not a document with an id`);
      const { id, ...data } = raw as ExportedDoc;
      if (byId.has(id)) return void problems.push(`${collection}/${id.slice(0, 120)}: is listed twice in ${rel}`);
      const checked = checkExportedDocument(collection, id, data);
      problems.push(...checked.problems);
      // A document with problems still takes part in the rules across documents (so they do not
      // report its references as missing); only checked documents are ever written.
      byId.set(id, checked.value ?? data);
      if (checked.value) kept.push({ ...checked.value, id });
    });
  }

  // The stored files: exactly those the manifest lists, each a regular file of its size whose
  // content passes the check the server runs on upload.
  const filesDir = EXPORT_FILES_DIR;
  // every path the manifest names, refused ones too (those are reported as the manifest's problems)
  const named = new Set(
    ((rawManifest as { files: unknown[] }).files ?? []).map((f) => `${filesDir}/${String((f as { path?: unknown } | null)?.path)}`),
  );
  try {
    const tree = await folder.listTree(filesDir);
    problems.push(...tree.problems);
    for (const rel of tree.files)
      if (!named.has(rel)) problems.push(`${rel}: is not listed in ${EXPORT_MANIFEST} (an export holds only the files it lists)`);
  } catch (error) {
    problems.push(errorMessage(error));
  }
  const planned: PlannedFile[] = [];
  // checked a few at a time: their problems are sorted afterwards, so a refusal reads the same every time
  const fileProblems: string[] = [];
  const limit = pLimit(CONTENT_CHECKS_AT_ONCE);
  await Promise.all(
    manifest.files.map((entry) =>
      limit(async () => {
        if (options.signal?.aborted) return;
        const rel = `${filesDir}/${entry.path}`;
        let file: ExportFile;
        try {
          file = await folder.openFile(rel);
        } catch (error) {
          fileProblems.push(errorMessage(error));
          return;
        }
        try {
          if (file.size !== entry.size)
            return void fileProblems.push(`${rel}: is ${file.size} bytes, ${EXPORT_MANIFEST} says ${entry.size}`);
          await assertStoredContent(entry.path, exportFileByteSource(file, entry.path.slice(entry.path.lastIndexOf('/') + 1)));
          if (!sameIdentity(await currentIdentity(file), file.identity))
            return void fileProblems.push(`${rel}: changed while it was being checked`);
          planned.push({ entry, identity: file.identity, mtimeMs: file.mtimeMs });
        } catch (error) {
          fileProblems.push(`${rel}: ${errorMessage(error)}`);
        } finally {
          await file.close();
        }
      }),
    ),
  );
  problems.push(...fileProblems.sort());
  if (options.signal?.aborted) throw new AppError(ErrorCode.Canceled, `The import was interrupted: ${NOTHING_IMPORTED}`);
  planned.sort((a, b) => (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0));

  // The target as it is.
  const before = new Map<CollectionName, Map<string, Record<string, unknown>>>();
  for (const collection of EXPORT_COLLECTIONS) {
    const list = await backend.catalog.query(collection);
    before.set(collection, new Map(list.map(({ id, ...data }) => [id, data as Record<string, unknown>])));
  }
  const storedFiles = new Map((await listStoredDeep(backend.files, 'models/')).map((f) => [f.path, f]));

  // Sign-in accounts: only through a backend that takes them.
  let accounts: ExportedAccountEntry[] | null = null;
  let accountsListed = 0;
  let importedAccounts: ExistingAccount[] = [];
  let targetAccounts: ExistingAccount[] | null = null;
  if (options.accounts) {
    const current = await options.accounts.read();
    targetAccounts = current === null ? null : (current as ExistingAccount[]).map((a) => ({ uid: a.uid, email: a.email }));
    try {
      if (current !== null && (await folder.has(EXPORT_ACCOUNTS))) {
        const list = parseJsonText(await folder.readFile(EXPORT_ACCOUNTS, EXPORT_ACCOUNTS_MAX_BYTES), EXPORT_ACCOUNTS);
        const checked = importedAccountsProblems(list, targetAccounts ?? []);
        problems.push(...checked.problems.map((p) => `${EXPORT_ACCOUNTS}: ${p}`));
        accounts = checked.added;
        accountsListed = Array.isArray(list) ? list.length : 0;
        importedAccounts = [...checked.added, ...checked.kept];
      }
    } catch (error) {
      problems.push(errorMessage(error));
    }
  }

  const rules = importRuleProblems({ exported, target: before, files: manifest.files, targetAccounts, importedAccounts });
  problems.push(...rules.problems);
  const asList = (collection: CollectionName): ExportedDoc[] =>
    [...(exported.get(collection) ?? new Map())].map(([id, data]) => ({ ...data, id }));
  const targetModels = [...(before.get('models') ?? new Map())].map(([id, data]) => ({ ...(data as object), id }));
  const groups: ProblemGroup[] = [
    { heading: null, lines: problems },
    {
      heading: `${dir} breaks the Public ID rule (${ValidationMessages.publicIdPattern}; one Public ID per project): ${NOTHING_IMPORTED}.`,
      lines: publicIdClashes(asList('models'), targetModels),
    },
    {
      heading: `${dir} has projects whose location is out of range (latitude -90..90, longitude -180..180): ${NOTHING_IMPORTED}.`,
      lines: projectLocationProblems(asList('projects')),
    },
  ];
  if (groups.some((g) => g.lines.length > 0)) throw refusal(dir, groups);
  return { files: planned, docs, before, storedFiles, accounts, accountsListed, newAdmins: rules.newAdmins };
}
