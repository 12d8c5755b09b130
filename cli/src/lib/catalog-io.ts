/**
 * Export and import of a whole catalog (documents and files) in the layout of
 * `shared/export-layout.ts`, through the ports only, so that it works between any backends.
 * Files stream in both directions (memory stays flat).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import pLimit from 'p-limit';
import secureJson from 'secure-json-parse';
import { assertStoredContent } from '@shared/content-check/index.js';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import type { ExistingAccount, ExportManifest, ExportedAccountEntry, ExportedFile } from '@shared/export-layout.js';
import {
  EXPORT_ACCOUNTS,
  EXPORT_ACCOUNTS_MAX_BYTES,
  EXPORT_COLLECTIONS,
  EXPORT_OPTIONAL_COLLECTIONS,
  EXPORT_DOCUMENTS_DIR,
  EXPORT_DOCUMENTS_MAX_BYTES,
  EXPORT_FILES_DIR,
  EXPORT_FORMAT,
  EXPORT_MANIFEST,
  EXPORT_MANIFEST_MAX_BYTES,
  EXPORT_VERSION,
  exportManifestProblems,
  importedAccountsProblems,
} from '@shared/export-layout.js';
import type { Backend, FileStorePort, StoredFile, WriteOp } from '@shared/ports/index.js';
import { ValidationMessages } from '@shared/messages.js';
import type { CollectionName } from '@shared/types.js';
import { PUBLIC_ID_PATTERN } from '@shared/validation/models.js';
import { locationCoordinatesProblem } from '@shared/validation/project-form.js';
import { ExportFolder, currentIdentity, exportFileByteSource, sameIdentity } from './export-folder.js';
import type { ExportFile, FileIdentity } from './export-folder.js';
import { checkExportedDocument, importRuleProblems } from './import-check.js';
import type { ExportedDoc } from './import-check.js';
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

/** What an import wrote. */
export interface ImportResult {
  counts: Record<string, number>;
  /** Bytes sent; files already stored with the same size are not sent again. */
  bytesSent: number;
  bytesSkipped: number;
  /** Emails (or uids) of the accounts new to the catalog that the import makes admins, sorted. */
  newAdmins: string[];
}

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
const NOTHING_IMPORTED = 'nothing was imported';
/** Problem lines shown in a refusal (all of them are in its context). */
const REFUSAL_LINES_MAX = 200;

/** Options of {@link importCatalog}. */
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
interface PlannedFile {
  entry: ExportedFile;
  identity: FileIdentity;
  mtimeMs: number;
}

/** Everything an import writes, checked. */
interface ImportPlan {
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
}

/**
 * Reads and checks a whole export against the target (nothing is written): see {@link importCatalog}.
 * @returns the plan
 * @throws AppError `invalid-argument`: not an export, or every problem found
 */
async function planImport(backend: Pick<Backend, 'catalog' | 'files'>, dir: string, options: ImportOptions): Promise<ImportPlan> {
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
    throw notExport(error instanceof Error ? error.message : String(error), error);
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
      // An export made before findings existed has no findings or alignments files: none to import.
      if (EXPORT_OPTIONAL_COLLECTIONS.includes(collection) && !(await folder.has(rel))) continue;
      list = parseJsonText(await folder.readFile(rel, EXPORT_DOCUMENTS_MAX_BYTES), rel);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
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
    problems.push(error instanceof Error ? error.message : String(error));
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
          fileProblems.push(error instanceof Error ? error.message : String(error));
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
          fileProblems.push(`${rel}: ${error instanceof Error ? error.message : String(error)}`);
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
      problems.push(error instanceof Error ? error.message : String(error));
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

/** Content checks of an export's files run at once. */
const CONTENT_CHECKS_AT_ONCE = 4;

/**
 * What an import has written, to undo it when it cannot finish: the files it created (deleted on
 * undo), the files it replaced (their previous bytes kept in a private temporary folder and put
 * back), and the documents it wrote with their previous data (set back, or deleted when new).
 * Accounts are written last, in one all-or-nothing request, so they never need undoing.
 */
class ImportUndo {
  private readonly createdFiles: string[] = [];
  private readonly replacedFiles: Array<{ path: string; backup: string; contentType: string | null; size: number }> = [];
  private readonly docs: Array<{ collection: CollectionName; id: string; before: Record<string, unknown> | null }> = [];
  private backupDir: string | null = null;

  constructor(private readonly backend: Pick<Backend, 'catalog' | 'files'>) {}

  /** Keeps the bytes of a stored file about to be replaced. */
  async keepPrevious(stored: StoredFile): Promise<void> {
    this.backupDir ??= await mkdtemp(join(tmpdir(), 'catalog-import-undo-'));
    const backup = join(this.backupDir, String(this.replacedFiles.length));
    const response = await fetch(await this.backend.files.getDownloadUrl(stored.path));
    if (!response.ok || !response.body)
      throw new AppError(ErrorCode.Network, `Keeping ${stored.path} before replacing it failed: HTTP ${response.status}`, {
        context: { path: stored.path },
      });
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(backup, { flags: 'wx', mode: 0o600 }));
    this.replacedFiles.push({ path: stored.path, backup, contentType: stored.contentType ?? null, size: stored.size });
  }

  /** A file about to be created (recorded before it is sent, so a half-sent one is removed too). */
  created(path: string): void {
    this.createdFiles.push(path);
  }

  /** Documents about to be written, with their data before (null: new). */
  writing(entries: ReadonlyArray<{ collection: CollectionName; id: string; before: Record<string, unknown> | null }>): void {
    this.docs.push(...entries);
  }

  /**
   * Undoes everything recorded, documents first (newest first), then files.
   * @returns one line per thing that could not be undone (empty when all was)
   */
  async undo(): Promise<string[]> {
    const failed: string[] = [];
    const ops: WriteOp[] = this.docs
      .reverse()
      .map(({ collection, id, before }) =>
        before === null ? { op: 'delete', collection, id } : { op: 'set', collection, id, data: before },
      );
    for (let i = 0; i < ops.length; i += BATCH_SIZE) {
      const chunk = ops.slice(i, i + BATCH_SIZE);
      try {
        await this.backend.catalog.batch(chunk);
      } catch {
        // one at a time, to undo all that can be
        for (const op of chunk) {
          try {
            await this.backend.catalog.batch([op]);
          } catch (error) {
            failed.push(`${op.collection}/${op.id}: ${(error as Error).message}`);
          }
        }
      }
    }
    for (const path of this.createdFiles.reverse()) {
      try {
        await this.backend.files.delete(path);
      } catch (error) {
        if ((error as AppError).code !== ErrorCode.ObjectNotFound) failed.push(`${path}: ${(error as Error).message}`);
      }
    }
    for (const file of this.replacedFiles.reverse()) {
      try {
        await this.backend.files.upload(
          file.path,
          { size: file.size, input: createReadStream(file.backup), name: basename(file.path), localPath: file.backup },
          file.contentType ? { contentType: file.contentType } : {},
        );
      } catch (error) {
        failed.push(`${file.path}: ${(error as Error).message}`);
      }
    }
    return failed;
  }

  /** Removes the kept bytes. */
  async dispose(): Promise<void> {
    if (this.backupDir) await rm(this.backupDir, { recursive: true, force: true });
  }
}

/**
 * Imports an export into a backend. An export folder is untrusted input (anyone may have prepared
 * it), so the whole export is read and checked before anything is written, and every problem is
 * reported at once, each naming its document or file, with "nothing was imported":
 * - every file it reads (`catalog.json`, `documents/*.json`, `accounts.json`, `files/**`) is a
 *   regular file reached without a symbolic link, with no other hard link, read from the
 *   descriptor that was checked (`export-folder.ts`); `files/` holds exactly the files the
 *   manifest lists;
 * - the manifest has the layout's keys and types; every stored path follows the server's rule
 *   (`models/{uuid}/…`), once;
 * - every document passes its collection's stored-document check (the schema of live writes) and
 *   is written as its output; the Public ID rule ({@link publicIdClashes}) and the projects'
 *   location ranges ({@link projectLocationProblems}) hold; the rules across documents hold
 *   (`importRuleProblems`: references, counts, stored files' models, no existing account made admin);
 * - every stored file has its listed size and passes the content check the server runs on upload;
 * - `accounts.json` (when the backend takes accounts) holds only well-formed accounts that take
 *   over no existing one (`importedAccountsProblems`).
 * Then files are sent (a file already stored at its path with the same size, stored after the
 * export's copy changed, is not sent again), then documents in batches (findings and alignments
 * after the models), then the new accounts in one all-or-nothing request. When any of it fails
 * (an I/O or server error, the file changed since it was checked, `options.signal` aborted),
 * everything the import wrote is undone ({@link ImportUndo}) before the error is reported.
 * Re-running it sends no file again and rewrites the same documents.
 * @param backend the opened backend (admin or service)
 * @param dir the export folder
 * @param options see {@link ImportOptions}
 * @returns counts by collection (and files, accounts), bytes sent and skipped, the new admins
 * @throws AppError `invalid-argument` (not an export; every problem found, nothing written); the
 *   failure's own code when writing failed ("… everything it had written was undone: nothing was
 *   imported", or the things that could not be undone); `storage/canceled` when aborted
 */
export async function importCatalog(
  backend: Pick<Backend, 'catalog' | 'files'>,
  dir: string,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const plan = await planImport(backend, dir, options);
  const folder = await ExportFolder.open(dir);
  const undo = new ImportUndo(backend);
  const counts: Record<string, number> = { files: plan.files.length };
  let bytesSent = 0;
  let bytesSkipped = 0;
  let step = 'starting';
  const stopIfAborted = (): void => {
    if (options.signal?.aborted) throw new AppError(ErrorCode.Canceled, 'The import was interrupted');
  };
  try {
    for (const { entry, identity, mtimeMs } of plan.files) {
      stopIfAborted();
      const existing = plan.storedFiles.get(entry.path);
      const storedAt = existing?.updated ? Date.parse(existing.updated) : Number.NaN;
      if (existing && existing.size === entry.size && storedAt >= mtimeMs) {
        bytesSkipped += entry.size;
        continue;
      }
      step = `sending ${entry.path}`;
      if (existing) await undo.keepPrevious(existing);
      else undo.created(entry.path);
      const rel = `${EXPORT_FILES_DIR}/${entry.path}`;
      const file = await folder.openFile(rel);
      try {
        const changed = (): AppError =>
          new AppError(ErrorCode.InvalidArgument, `${rel} changed after it was checked`, { context: { path: entry.path } });
        if (!sameIdentity(file.identity, identity)) throw changed();
        // Read through the checked descriptor (`/proc/self/fd/N`) where the system names it.
        const readPath = file.descriptorPath ?? join(folder.root, ...rel.split('/'));
        await backend.files.upload(
          entry.path,
          { size: entry.size, input: createReadStream(readPath), name: basename(entry.path) },
          { ...(entry.contentType ? { contentType: entry.contentType } : {}), ...(options.signal ? { signal: options.signal } : {}) },
        );
        if (!sameIdentity(await currentIdentity(file), identity)) throw changed();
      } finally {
        await file.close();
      }
      bytesSent += entry.size;
      options.log?.(`imported ${entry.path}`);
    }
    for (const collection of EXPORT_COLLECTIONS) {
      const list = plan.docs.get(collection) ?? [];
      const previous = plan.before.get(collection) ?? new Map();
      counts[collection] = list.length;
      for (let i = 0; i < list.length; i += BATCH_SIZE) {
        stopIfAborted();
        const chunk = list.slice(i, i + BATCH_SIZE);
        step = `writing ${collection} (${i + 1}–${i + chunk.length} of ${list.length})`;
        undo.writing(chunk.map(({ id }) => ({ collection, id, before: previous.get(id) ?? null })));
        await backend.catalog.batch(chunk.map(({ id, ...data }) => ({ op: 'set', collection, id, data })));
      }
    }
    if (plan.accounts !== null && options.accounts) {
      stopIfAborted();
      step = `adding ${plan.accounts.length} accounts`;
      if (plan.accounts.length > 0) await options.accounts.write(plan.accounts);
      counts.accounts = plan.accountsListed;
    }
  } catch (error) {
    const left = await undo.undo();
    const why = error instanceof Error ? error.message : String(error);
    throw rewrap(
      error,
      left.length === 0
        ? `The import of ${dir} failed while ${step} (${why}); everything it had written was undone: ${NOTHING_IMPORTED}.`
        : `The import of ${dir} failed while ${step} (${why}), and ${left.length} of the things it had written could not be undone (run the same import again to finish it, or \`catalog doctor\`):\n${left.join('\n')}`,
      { dir },
    );
  } finally {
    await undo.dispose();
  }
  return { counts, bytesSent, bytesSkipped, newAdmins: plan.newAdmins };
}
