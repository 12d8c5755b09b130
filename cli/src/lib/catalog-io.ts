/**
 * Export and import of a whole catalog (documents and files) in the layout of
 * `shared/export-layout.ts`, through the ports only, so that it works between any backends.
 * Files stream in both directions (memory stays flat).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { ExportManifest, ExportedFile } from '@shared/export-layout.js';
import {
  EXPORT_ACCOUNTS,
  EXPORT_COLLECTIONS,
  EXPORT_OPTIONAL_COLLECTIONS,
  EXPORT_DOCUMENTS_DIR,
  EXPORT_FILES_DIR,
  EXPORT_FORMAT,
  EXPORT_MANIFEST,
  EXPORT_VERSION,
  checkExportManifest,
} from '@shared/export-layout.js';
import type { Backend, FileStorePort, StoredFile, WriteOp } from '@shared/ports/index.js';
import { ValidationMessages } from '@shared/messages.js';
import { PUBLIC_ID_PATTERN } from '@shared/validation/models.js';
import { locationCoordinatesProblem } from '@shared/validation/project-form.js';
import { resumingFiles } from './resume.js';
import { routes, type ReplyOf, type StorageScanReport } from '@shared/wire/routes.js';

/** Reading and writing sign-in accounts (password hashes): the embedded server's service-only API. */
export interface AccountsApi {
  /** The accounts, or null when the backend cannot export them. */
  read(): Promise<unknown[] | null>;
  write(accounts: unknown[]): Promise<void>;
}

/**
 * The embedded server's account API (`routes.exportAccounts`, `routes.importAccounts`; service key only).
 * @param baseUrl the server's origin
 * @param serviceKey the service key
 */
export function embeddedAccountsApi(baseUrl: string, serviceKey: string): AccountsApi {
  const headers = { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' };
  return {
    async read() {
      const response = await fetch(`${baseUrl}${routes.exportAccounts.path()}`, { method: routes.exportAccounts.method, headers });
      if (response.status === 404) return null;
      if (!response.ok)
        throw new AppError(ErrorCode.PermissionDenied, `Account export refused: HTTP ${response.status} ${await response.text()}`);
      return ((await response.json()) as ReplyOf<typeof routes.exportAccounts>).accounts;
    },
    async write(accounts) {
      const response = await fetch(`${baseUrl}${routes.importAccounts.path()}`, {
        method: routes.importAccounts.method,
        headers,
        body: JSON.stringify({ accounts }),
      });
      if (!response.ok)
        throw new AppError(ErrorCode.PermissionDenied, `Account import refused: HTTP ${response.status} ${await response.text()}`);
    },
  };
}

/** Files on the embedded server's disk compared with its file records (`routes.storageScan`, service key only). */
export interface StorageScanApi {
  /**
   * `untracked`: files on disk without a record; `missing`: records without bytes on disk
   * (storage paths); what a repair leaves alone and why; the model folders with an upload in
   * progress or resumable.
   * @param graceMs the grace period in ms (default: the server's, 24 h)
   */
  scan(graceMs?: number): Promise<StorageScanReport>;
  /** Removes both kinds, leaving alone what the scan leaves alone; returns how many files and records went and what stayed. */
  repair(graceMs?: number): Promise<ReplyOf<typeof routes.storageRepair>>;
}

/**
 * The embedded server's storage scan (`catalog doctor`): what the file listing cannot show,
 * because a listing reads the records.
 * @param baseUrl the server's origin
 * @param serviceKey the service key
 * @throws AppError `permission-denied` when the server refuses
 */
export function embeddedStorageScanApi(baseUrl: string, serviceKey: string): StorageScanApi {
  const headers = { authorization: `Bearer ${serviceKey}` };
  const call = async <R extends typeof routes.storageScan | typeof routes.storageRepair>(
    route: R,
    graceMs?: number,
  ): Promise<ReplyOf<R>> => {
    const response = await fetch(`${baseUrl}${route.path(graceMs)}`, { method: route.method, headers });
    if (!response.ok)
      throw new AppError(ErrorCode.PermissionDenied, `Storage scan refused: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as ReplyOf<R>;
  };
  return {
    scan: (graceMs) => call(routes.storageScan, graceMs),
    repair: (graceMs) => call(routes.storageRepair, graceMs),
  };
}

/**
 * Every file under `folder`, recursively, with its listed metadata (size, content type): the
 * listing already carries them, so no request per file.
 */
async function listStoredDeep(files: FileStorePort, folder: string): Promise<StoredFile[]> {
  const listing = await files.list(folder);
  const items = [...listing.items];
  for (const prefix of listing.prefixes) items.push(...(await listStoredDeep(files, prefix)));
  return items;
}

/** Documents per batch write on import (the server accepts 500). */
const BATCH_SIZE = 400;

/**
 * Exports every document and every file under `models/` into `dir` (created; it must be empty).
 * @param backend the opened backend (service: reads hidden models too)
 * @param dir the target folder
 * @param options.source a label written in the manifest (the server URL)
 * @param options.log progress lines
 * @returns the manifest written
 * @throws AppError `already-exists` when `dir` is not empty; storage/network errors
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
    await writeFile(join(dir, EXPORT_DOCUMENTS_DIR, `${collection}.json`), `${JSON.stringify(docs, null, 2)}\n`);
  }
  if (options.accounts) {
    const accounts = await options.accounts.read();
    if (accounts !== null) {
      await writeFile(join(dir, EXPORT_ACCOUNTS), `${JSON.stringify(accounts, null, 2)}\n`, { mode: 0o600 });
      counts.accounts = accounts.length;
    }
  }
  const stored = (await listStoredDeep(backend.files, 'models/')).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files: ExportedFile[] = [];
  for (const meta of stored) {
    const { path } = meta;
    const url = await backend.files.getDownloadUrl(path);
    const response = await fetch(url);
    if (!response.ok || !response.body)
      throw new AppError(ErrorCode.Network, `Download of ${path} failed: HTTP ${response.status}`, { context: { path } });
    const target = join(dir, EXPORT_FILES_DIR, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(target));
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
  await writeFile(join(dir, EXPORT_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** What an import wrote. */
export interface ImportResult {
  counts: Record<string, number>;
  /** Bytes sent; files already stored with the same size are not sent again. */
  bytesSent: number;
  bytesSkipped: number;
}

/**
 * The Public ID rule (issue 16) over the catalog an import would give: every exported model's
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
 * The location rule (issue 17) over an export's projects: each `location` has lat and lng absent,
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

/**
 * Imports an export into a backend: the Public ID rule is checked first ({@link publicIdClashes}),
 * and the projects' location ranges ({@link projectLocationProblems}),
 * then every file (checked against the manifest's sizes before anything is written), then every
 * document with its id, in batches (findings and alignments after the models; an export made
 * before issue 18, without their files, imports none). Re-running it sends no file again and
 * rewrites the same documents.
 * @param backend the opened backend (admin)
 * @param dir the export folder
 * @param options.log progress lines
 * @throws AppError `invalid-argument` (not an export; models breaking the Public ID rule, the
 *   message naming each clash, nothing written; projects with a latitude or longitude out of
 *   range or not a number, each named, nothing written; a file missing or of another size),
 *   storage/network errors
 */
export async function importCatalog(
  backend: Pick<Backend, 'catalog' | 'files'>,
  dir: string,
  options: { log?: (line: string) => void; accounts?: AccountsApi } = {},
): Promise<ImportResult> {
  let manifest: ExportManifest;
  const docs = new Map<string, Array<Record<string, unknown> & { id: string }>>();
  try {
    manifest = checkExportManifest(JSON.parse(await readFile(join(dir, EXPORT_MANIFEST), 'utf8')));
    for (const collection of EXPORT_COLLECTIONS) {
      const path = join(dir, EXPORT_DOCUMENTS_DIR, `${collection}.json`);
      // An export made before issue 18 has no findings or alignments files: none to import.
      if (EXPORT_OPTIONAL_COLLECTIONS.includes(collection) && !(await stat(path).catch(() => null))) {
        docs.set(collection, []);
        continue;
      }
      const list = JSON.parse(await readFile(path, 'utf8')) as unknown;
      if (!Array.isArray(list) || list.some((d) => typeof d?.id !== 'string' || d.id === ''))
        throw new Error(`${collection}.json is not an array of documents with ids`);
      docs.set(collection, list);
    }
  } catch (error) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `${dir} is not a readable catalog export: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const clashes = publicIdClashes(docs.get('models') ?? [], await backend.catalog.query('models'));
  if (clashes.length > 0) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `${dir} breaks the Public ID rule (${ValidationMessages.publicIdPattern}; one Public ID per project): nothing was imported.\n${clashes.join('\n')}`,
      { context: { clashes } },
    );
  }
  const badLocations = projectLocationProblems(docs.get('projects') ?? []);
  if (badLocations.length > 0) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `${dir} has projects whose location is out of range (latitude -90..90, longitude -180..180): nothing was imported.\n${badLocations.join('\n')}`,
      { context: { locations: badLocations } },
    );
  }
  for (const file of manifest.files) {
    const info = await stat(join(dir, EXPORT_FILES_DIR, ...file.path.split('/'))).catch(() => null);
    if (info?.size !== file.size) {
      throw new AppError(ErrorCode.InvalidArgument, `${file.path} is missing from the export or has another size: nothing was imported`, {
        context: { path: file.path },
      });
    }
  }
  const { files, counters } = resumingFiles(backend.files);
  for (const file of manifest.files) {
    const local = join(dir, EXPORT_FILES_DIR, ...file.path.split('/'));
    await files.upload(
      file.path,
      { size: file.size, input: createReadStream(local), name: file.path.split('/').pop() },
      { contentType: file.contentType ?? undefined },
    );
    options.log?.(`imported ${file.path}`);
  }
  const counts: Record<string, number> = { files: manifest.files.length };
  const accountsText = options.accounts ? await readFile(join(dir, EXPORT_ACCOUNTS), 'utf8').catch(() => null) : null;
  if (accountsText !== null && options.accounts) {
    const accounts = JSON.parse(accountsText) as unknown[];
    await options.accounts.write(accounts);
    counts.accounts = accounts.length;
  }
  for (const collection of EXPORT_COLLECTIONS) {
    const list = docs.get(collection) ?? [];
    counts[collection] = list.length;
    for (let i = 0; i < list.length; i += BATCH_SIZE) {
      const ops: WriteOp[] = list.slice(i, i + BATCH_SIZE).map(({ id, ...data }) => ({ op: 'set', collection, id, data }));
      await backend.catalog.batch(ops);
    }
  }
  return { counts, bytesSent: counters.sent, bytesSkipped: counters.skipped };
}
