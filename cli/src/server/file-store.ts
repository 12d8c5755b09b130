/**
 * File storage of the embedded backend: files on disk under `<dataDir>/storage/` at the catalog's
 * storage paths (`models/{uuid}/model.ply`…), metadata (size, content type, update
 * time, an unguessable download token per file) in SQLite. Writes land atomically (temporary
 * file in the data folder, then rename). Every model file whose path calls for a content check
 * (`contentKindOfPath`: the splat, the GLB, camera metadata, photos and thumbnails) is
 * checked on the received bytes before it is moved into place, so no client can store a file the
 * checks refuse. Paths are checked by `storage-path.ts`; paths being stored are held
 * (`storage-holds.ts`) from the storage scan and repair of `storage-scan.ts`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { lstat, mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import pLimit from 'p-limit';
import { guessContentType } from '@shared/content-type.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FolderListing, StoredFile } from '@shared/ports/files.js';
import type { StorageScanReport } from '@shared/wire/routes.js';
import { checkReceivedContent } from './content-check-pool.js';
import type { SqliteDatabase } from './db.js';
import { StorageHolds } from './storage-holds.js';
import { normalizeFolder, validateStoragePath } from './storage-path.js';
import { repairStorage, scanStorage } from './storage-scan.js';
import type { ScannedStorage, StorageRepairResult, StorageScanOptions } from './storage-scan.js';

/** Received files checked at once (a batch holds up to 64). */
const CONTENT_CHECK_CONCURRENCY = 4;

interface FileRow {
  path: string;
  size: number;
  content_type: string | null;
  updated: string;
  token: string;
}

const toStoredFile = (row: FileRow): StoredFile => ({
  path: row.path,
  size: row.size,
  contentType: row.content_type,
  updated: row.updated,
});

/** Files on disk plus their metadata rows. */
export class FileStore {
  /** Absolute directory holding the stored files. */
  readonly root: string;
  private readonly tmp: string;
  /** Storage paths being stored now ({@link hold}). */
  private readonly holds = new StorageHolds();

  /**
   * @param db the catalog database
   * @param dataDir the data folder; files go to `<dataDir>/storage/`, temporary files to `<dataDir>/tmp/`
   */
  constructor(
    private readonly db: SqliteDatabase,
    dataDir: string,
  ) {
    this.root = join(dataDir, 'storage');
    this.tmp = join(dataDir, 'tmp');
    mkdirSync(this.root, { recursive: true });
    // Leftovers of an interrupted one-shot upload are never referenced: start with an empty tmp/.
    rmSync(this.tmp, { recursive: true, force: true });
    mkdirSync(this.tmp, { recursive: true });
  }

  /** Absolute on-disk location of a (validated) storage path. */
  diskPath(path: string): string {
    return join(this.root, ...validateStoragePath(path).split('/'));
  }

  /** A fresh temporary file name inside the data folder (same file system as the storage root). */
  tempFile(): string {
    return join(this.tmp, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  private row(path: string): FileRow | undefined {
    return this.db.prepare<[string], FileRow>('SELECT * FROM files WHERE path = ?').get(path);
  }

  /**
   * Metadata of one file.
   * @throws AppError `storage/object-not-found`
   */
  metadata(path: string): StoredFile {
    const row = this.row(validateStoragePath(path));
    if (!row) throw new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });
    return toStoredFile(row);
  }

  /**
   * The download token of a file.
   * @throws AppError `storage/object-not-found`
   */
  token(path: string): string {
    const row = this.row(validateStoragePath(path));
    if (!row) throw new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });
    return row.token;
  }

  /** True when `token` is the download token of the file at `path` (constant-time compare). */
  checkToken(path: string, token: string): boolean {
    const row = this.row(path);
    if (!row) return false;
    const a = Buffer.from(row.token);
    const b = Buffer.from(token);
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /**
   * Moves a finished file (already inside the data folder) to its storage path, replacing any
   * file there, and records its metadata with a new download token.
   * @param source absolute path of the finished file (same file system)
   * @param size size in bytes
   * @throws AppError `invalid-argument` when the path collides with a folder (or a file is in the way)
   */
  async adopt(path: string, source: string, size: number, contentType: string | null | undefined): Promise<StoredFile> {
    const [stored] = await this.adoptMany([{ path, source, size, contentType }]);
    return stored;
  }

  /**
   * {@link adopt} for several files: every file's content is checked ({@link checkReceivedContent}),
   * then every file is moved, then every row is written in one transaction. A refused file, or a
   * file or folder in the way of any path, is found before anything is moved, so that no file
   * already stored is replaced by a batch that then fails; the sources are removed and nothing is
   * recorded. Only an I/O failure in the middle of the moves can still cost a
   * replaced file its bytes (its row stays: `catalog doctor` reports it).
   * @param entries storage path, absolute source (same file system), size in bytes, content type
   * @returns the stored files' metadata, in the order of `entries`
   * @throws AppError `invalid-argument` with the first refused file's problem, or naming the first
   *   path that collides with a folder (or has a file in the way)
   */
  async adoptMany(
    entries: ReadonlyArray<{ path: string; source: string; size: number; contentType: string | null | undefined }>,
  ): Promise<StoredFile[]> {
    // Held from before the moves until the rows are committed (or the moved files removed), so a
    // storage repair never takes a moved file for one without a record.
    const release = this.hold(entries.map((entry) => entry.path));
    try {
      return await this.moveAndRecord(entries);
    } finally {
      release();
    }
  }

  /** {@link adoptMany}'s work, while its paths are held. */
  private async moveAndRecord(
    entries: ReadonlyArray<{ path: string; source: string; size: number; contentType: string | null | undefined }>,
  ): Promise<StoredFile[]> {
    const targets = entries.map((entry) => this.diskPath(entry.path));
    const inTheWay = (path: string, cause?: unknown): AppError =>
      new AppError(ErrorCode.InvalidArgument, `A file or folder is in the way of ${path}`, { cause, context: { path } });
    /** `work`, with a collision (a file where a folder goes, or a folder where the file goes) reported as in the way of `path`. */
    const at = async <T>(path: string, work: Promise<T>): Promise<T> =>
      work.catch((error: unknown) => {
        const code = (error as NodeJS.ErrnoException).code;
        throw code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENOTEMPTY' || code === 'EEXIST' ? inTheWay(path, error) : error;
      });
    const moved: string[] = [];
    try {
      const limit = pLimit(CONTENT_CHECK_CONCURRENCY);
      const checks = await Promise.allSettled(
        entries.map((entry) => limit(() => checkReceivedContent(entry.path, entry.source, entry.size))),
      );
      const refused = checks.find((check): check is PromiseRejectedResult => check.status === 'rejected');
      if (refused) throw refused.reason;
      const folders = new Map(targets.map((target, i) => [dirname(target), entries[i].path]));
      await Promise.all([...folders].map(([dir, path]) => at(path, mkdir(dir, { recursive: true }))));
      const isFolder = await Promise.all(
        targets.map((target) =>
          lstat(target).then(
            (stats) => stats.isDirectory(),
            () => false,
          ),
        ),
      );
      const blocked = isFolder.indexOf(true);
      if (blocked >= 0) throw inTheWay(entries[blocked].path);
      await Promise.all(
        entries.map(async (entry, i) => {
          await at(entry.path, rename(entry.source, targets[i]));
          moved.push(targets[i]);
        }),
      );
    } catch (error) {
      await Promise.all([...entries.map((entry) => entry.source), ...moved].map((file) => rm(file, { force: true })));
      throw error;
    }
    const updated = new Date().toISOString();
    const rows: FileRow[] = entries.map((entry) => ({
      path: entry.path,
      size: entry.size,
      // decided from the path, never by the uploader (who could say text/html)
      content_type: guessContentType(entry.path),
      updated,
      token: randomBytes(24).toString('base64url'),
    }));
    const upsert = this.db.prepare(
      'INSERT INTO files (path, size, content_type, updated, token) VALUES (@path, @size, @content_type, @updated, @token) ON CONFLICT (path) DO UPDATE SET size = excluded.size, content_type = excluded.content_type, updated = excluded.updated, token = excluded.token',
    );
    this.db.transaction((all: FileRow[]) => {
      for (const row of all) upsert.run(row);
    })(rows);
    return rows.map(toStoredFile);
  }

  /**
   * Stores a small file given in memory (one-shot upload).
   * @returns the stored file's metadata
   */
  async put(path: string, body: Buffer, contentType: string | null | undefined): Promise<StoredFile> {
    const [stored] = await this.putMany([{ path, body, contentType }]);
    return stored;
  }

  /**
   * Stores files given in memory, all or none (a batch upload): each is written to a temporary
   * file, then all are moved and recorded by {@link adoptMany}. On any failure the temporary
   * files are removed and nothing is recorded.
   * @param entries storage path, bytes, content type
   * @returns the stored files' metadata, in the order of `entries`
   * @throws AppError `invalid-argument` (a bad path, a file the content checks refuse, or a file or folder in the way)
   */
  async putMany(entries: ReadonlyArray<{ path: string; body: Buffer; contentType: string | null | undefined }>): Promise<StoredFile[]> {
    for (const entry of entries) validateStoragePath(entry.path);
    const temps = entries.map(() => this.tempFile());
    try {
      await Promise.all(entries.map((entry, i) => writeFile(temps[i], entry.body)));
    } catch (error) {
      await Promise.all(temps.map((temp) => rm(temp, { force: true })));
      throw error;
    }
    return this.adoptMany(
      entries.map((entry, i) => ({ path: entry.path, source: temps[i], size: entry.body.length, contentType: entry.contentType })),
    );
  }

  /**
   * Deletes one file and its metadata: the bytes first, then the row, then emptied folders up
   * to the storage root. A kill in between leaves a row without bytes, which listings still show
   * (so `catalog doctor` sees and removes it), never bytes without a row.
   * @throws AppError `storage/object-not-found`
   */
  async delete(path: string): Promise<void> {
    validateStoragePath(path);
    if (!this.row(path)) throw new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });
    const target = this.diskPath(path);
    await rm(target, { force: true });
    this.db.prepare('DELETE FROM files WHERE path = ?').run(path);
    let dir = dirname(target);
    while (dir.startsWith(this.root + sep)) {
      try {
        await rmdir(dir);
      } catch {
        break;
      }
      dir = dirname(dir);
    }
  }

  /**
   * Gives every file under `prefix` a new download token, so links handed out before stop
   * working (a model hidden or deleted). Synchronous: runs inside the caller's transaction.
   * @param prefix a folder ending in '/', e.g. `models/{uuid}/`
   * @returns how many tokens were replaced
   */
  rotateTokens(prefix: string): number {
    const rows = this.db
      .prepare<[string, string], { path: string }>('SELECT path FROM files WHERE path >= ? AND path < ?')
      .all(prefix, `${prefix}\u{10FFFF}`);
    const update = this.db.prepare<[string, string]>('UPDATE files SET token = ? WHERE path = ?');
    let rotated = 0;
    for (const { path } of rows) if (path.startsWith(prefix)) rotated += update.run(randomBytes(24).toString('base64url'), path).changes;
    return rotated;
  }

  /**
   * Marks storage paths as being stored until the returned function is called: a storage repair
   * ({@link repairScan}) leaves them alone, and the scan reports their model folders as uploads
   * in progress. Several holds of one path may overlap (each release undoes its own).
   * @param paths storage paths about to be written (a batch being received, a file being moved
   *   into place and recorded, a web-sized copy being made)
   * @returns the release; calling it again does nothing
   */
  hold(paths: readonly string[]): () => void {
    return this.holds.hold(paths);
  }

  /**
   * Compares the storage folder with the metadata rows, leaving alone what belongs to live work
   * (a held path, a model folder with an upload in progress or resumable, a file younger than
   * the grace period): {@link scanStorage}. Reads only.
   * @param options the grace period in ms, the server's unfinished resumable uploads, the clock (tests)
   * @returns the untracked files and the rows without bytes a repair removes, what it leaves
   *   alone and why, the model folders with live uploads, the grace period used
   */
  async scan(options: StorageScanOptions): Promise<StorageScanReport> {
    return scanStorage(this.scanned(), options);
  }

  /**
   * Repairs what {@link scan} finds, checking each file and row again just before it goes:
   * {@link repairStorage}.
   * @param options as for {@link scan}
   * @returns how many files and rows were removed, and what was left alone and why
   */
  async repairScan(options: StorageScanOptions): Promise<StorageRepairResult> {
    return repairStorage(this.scanned(), options);
  }

  /** What the storage scan compares: the folder, the records, the holds. */
  private scanned(): ScannedStorage {
    return { root: this.root, db: this.db, holds: this.holds };
  }

  /**
   * Lists one folder level, as Cloud Storage's list with delimiter '/'.
   * @param folder '' for the root, or a folder path with or without trailing '/'
   * @param hidePrefix optional filter dropping sub-folders (e.g. hidden models for non-admins)
   */
  list(folder: unknown, hidePrefix: (prefix: string) => boolean = () => false): FolderListing {
    const prefix = normalizeFolder(folder);
    // A binary range scan (LIKE would be case-insensitive), then an exact prefix check.
    const rows = this.db
      .prepare<[string, string], FileRow>('SELECT * FROM files WHERE path >= ? AND path < ? ORDER BY path')
      .all(prefix, `${prefix}\u{10FFFF}`)
      .filter((row) => row.path.startsWith(prefix));
    const items: StoredFile[] = [];
    const prefixes = new Set<string>();
    for (const row of rows) {
      const rest = row.path.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) items.push(toStoredFile(row));
      else prefixes.add(`${prefix}${rest.slice(0, slash)}/`);
    }
    return { items, prefixes: [...prefixes].filter((p) => !hidePrefix(p)) };
  }
}
