/**
 * Writing a catalog export: every document and every stored file of a backend into a new folder in
 * the layout of `shared/export-layout.ts`, through the ports only (so it works from any backend).
 * Files stream to disk, so memory stays flat.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { ExportManifest, ExportedFile } from '@shared/export-layout.js';
import {
  EXPORT_ACCOUNTS,
  EXPORT_COLLECTIONS,
  EXPORT_DOCUMENTS_DIR,
  EXPORT_FILES_DIR,
  EXPORT_FORMAT,
  EXPORT_MANIFEST,
  EXPORT_VERSION,
} from '@shared/export-layout.js';
import type { Backend } from '@shared/ports/index.js';
import { listStoredDeep } from './catalog-io.js';
import type { AccountsApi } from './catalog-io.js';

/**
 * Where a stored file goes in an export: `<dir>/files/<path>`. A backend's listing is not trusted
 * either: a path that would leave `files/models/` (an empty, '.' or '..' part, a backslash) is refused.
 * @throws AppError `invalid-argument` naming the path
 */
function exportTarget(filesRoot: string, path: string): string {
  const parts = path.split('/');
  if (parts[0] !== 'models' || parts.length < 3 || parts.some((p) => p === '' || p === '.' || p === '..' || /[\\\0]/.test(p)))
    throw new AppError(
      ErrorCode.InvalidArgument,
      `The backend lists a file at ${JSON.stringify(path.slice(0, 200))}, outside models/{uuid}/: it cannot be exported`,
      {
        context: { path: path.slice(0, 300) },
      },
    );
  return join(filesRoot, ...parts);
}

/**
 * Exports every document and every file under `models/` into `dir` (created; it must be empty).
 * Nothing of the data folder is written but the catalog: its documents, its stored files and, when
 * the backend lends its account API, the sign-in accounts (`accounts.json`, mode 0600). Every file
 * is created new (never written through an existing name or link), and a stored path that would
 * leave the folder is refused.
 * @param backend the opened backend (service: reads hidden models too)
 * @param dir the target folder
 * @param options.source a label written in the manifest (the server URL)
 * @param options.log progress lines
 * @returns the manifest written
 * @throws AppError `already-exists` when `dir` is not empty; `invalid-argument` for a listed path
 *   outside `models/`; storage/network errors
 */
export async function exportCatalog(
  backend: Pick<Backend, 'catalog' | 'files'>,
  dir: string,
  options: { source: string; log?: (line: string) => void; accounts?: AccountsApi },
): Promise<ExportManifest> {
  const existing = await readdir(dir).catch(() => [] as string[]);
  if (existing.length > 0)
    throw new AppError(ErrorCode.AlreadyExists, `${dir} is not empty: export into a new folder`, { context: { dir } });
  await mkdir(join(dir, EXPORT_DOCUMENTS_DIR), { recursive: true });
  const counts: Record<string, number> = {};
  for (const collection of EXPORT_COLLECTIONS) {
    const docs = await backend.catalog.query(collection);
    docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    counts[collection] = docs.length;
    await writeFile(join(dir, EXPORT_DOCUMENTS_DIR, `${collection}.json`), `${JSON.stringify(docs, null, 2)}\n`, { flag: 'wx' });
  }
  if (options.accounts) {
    const accounts = await options.accounts.read();
    if (accounts !== null) {
      await writeFile(join(dir, EXPORT_ACCOUNTS), `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      counts.accounts = accounts.length;
    }
  }
  const stored = (await listStoredDeep(backend.files, 'models/')).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files: ExportedFile[] = [];
  const filesRoot = join(dir, EXPORT_FILES_DIR);
  for (const meta of stored) {
    const { path } = meta;
    const target = exportTarget(filesRoot, path);
    const url = await backend.files.getDownloadUrl(path);
    const response = await fetch(url);
    if (!response.ok || !response.body)
      throw new AppError(ErrorCode.Network, `Download of ${path} failed: HTTP ${response.status}`, { context: { path } });
    await mkdir(dirname(target), { recursive: true });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(target, { flags: 'wx' }));
    files.push({ path, size: meta.size, contentType: meta.contentType ?? null });
    options.log?.(`exported ${path}`);
  }
  counts.files = files.length;
  const manifest: ExportManifest = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date().toISOString(),
    source: options.source,
    counts,
    files,
  };
  await writeFile(join(dir, EXPORT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { flag: 'wx' });
  return manifest;
}
