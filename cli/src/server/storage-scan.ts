/**
 * Storage consistency of the embedded backend (`catalog doctor` on `catalog serve`): compares the
 * files on disk under the storage folder with the `files` records in SQLite, and repairs what
 * differs, leaving alone whatever belongs to live work (a held path, a model folder with an upload
 * in progress or resumable, a file younger than the grace period).
 */
import { existsSync, unlinkSync } from 'node:fs';
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { parseModelPath } from '@shared/paths.js';
import type { StorageScanReport } from '@shared/wire/routes.js';
import type { SqliteDatabase } from './db.js';
import type { StorageHolds } from './storage-holds.js';

/** The stored files a scan compares: the folder on disk, the database of their records, the paths held now. */
export interface ScannedStorage {
  /** Absolute directory holding the stored files. */
  root: string;
  /** The catalog database (its `files` table holds one record per stored file). */
  db: SqliteDatabase;
  /** Storage paths being stored now. */
  holds: StorageHolds;
}

/** What a scan or repair takes. */
export interface StorageScanOptions {
  /** The grace period in ms (0: only what is held or uploading now). */
  graceMs: number;
  /**
   * The server's unfinished resumable uploads: their storage path and whether a request of
   * theirs runs now (`in-flight`) or they can still be resumed (`resumable`).
   */
  uploads?: readonly { path: string; reason: 'in-flight' | 'resumable' }[];
  /** The current time in ms since the epoch (tests). */
  now?: number;
}

/** What a repair did: how many files and records it removed, and what it left alone and why. */
export interface StorageRepairResult {
  removedFiles: number;
  removedRows: number;
  leftAlone: StorageScanReport['leftAlone'];
}

/** Every regular file under `root`, as '/'-separated storage paths. */
async function filesOnDisk(root: string): Promise<Set<string>> {
  const onDisk = new Set<string>();
  // folder by folder: a folder emptied and removed by a delete meanwhile is skipped, not an error
  const walk = async (dir: string): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw error;
    }
    const folders: string[] = [];
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) folders.push(full);
      else if (entry.isFile()) onDisk.add(relative(root, full).split(sep).join('/'));
    }
    await Promise.all(folders.map(walk));
  };
  await walk(root);
  return onDisk;
}

/**
 * Compares the storage folder with the metadata rows, leaving alone what belongs to live work.
 * A file on disk without a row is left alone while its path is held (being stored now), while
 * its model folder has an upload in progress or resumable (`uploads`, or a held path in the
 * folder), or while it is younger than `graceMs` (its last change, a move into place included).
 * A row without bytes is left alone while its path is held; a row is written only after its bytes
 * are in place, so no grace applies to rows. Reads only.
 * @param storage the storage folder, its records and its holds
 * @param options the grace period, the live resumable uploads and the clock
 * @returns `untracked` (files a repair removes) and `missing` (rows it removes), both sorted
 *   storage paths; `leftAlone` with reasons; `liveUploads`, the model folders (uuids) with an
 *   upload in progress (`in-flight`) or resumable; the grace period used
 */
export async function scanStorage(storage: ScannedStorage, options: StorageScanOptions): Promise<StorageScanReport> {
  const { root, db, holds } = storage;
  const now = options.now ?? Date.now();
  const onDisk = await filesOnDisk(root);
  const rows = new Set(
    db
      .prepare<[], { path: string }>('SELECT path FROM files')
      .all()
      .map((row) => row.path),
  );
  // model folders with live work: a held path in them is in flight; a tus upload may be either
  const live = new Map<string, 'in-flight' | 'resumable'>();
  const mark = (path: string, reason: 'in-flight' | 'resumable'): void => {
    const uuid = parseModelPath(path)?.uuid;
    if (uuid !== undefined && live.get(uuid) !== 'in-flight') live.set(uuid, reason);
  };
  for (const upload of options.uploads ?? []) mark(upload.path, upload.reason);
  for (const path of holds.paths()) mark(path, 'in-flight');
  const untracked: string[] = [];
  const missing: string[] = [];
  const leftAlone: StorageScanReport['leftAlone'] = [];
  for (const path of [...onDisk].filter((p) => !rows.has(p)).sort()) {
    if (holds.has(path)) {
      leftAlone.push({ path, reason: 'in-flight' });
      continue;
    }
    const folder = live.get(parseModelPath(path)?.uuid ?? '');
    if (folder !== undefined) {
      leftAlone.push({ path, reason: folder });
      continue;
    }
    const changed = await lstat(join(root, ...path.split('/'))).then(
      (stats) => Math.max(stats.mtimeMs, stats.ctimeMs),
      () => null,
    );
    if (changed === null) continue; // gone since the listing
    if (now - changed < options.graceMs) leftAlone.push({ path, reason: 'recent' });
    else untracked.push(path);
  }
  for (const path of [...rows].filter((p) => !onDisk.has(p)).sort()) {
    if (holds.has(path)) leftAlone.push({ path, reason: 'in-flight' });
    else missing.push(path);
  }
  return {
    untracked,
    missing,
    leftAlone,
    liveUploads: [...live].map(([uuid, reason]) => ({ uuid, reason })).sort((a, b) => (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0)),
    graceMs: options.graceMs,
  };
}

/**
 * Repairs what {@link scanStorage} finds: removes the untracked files from disk and the rows
 * without bytes. Each is checked again just before it goes, with no await between the check and
 * the removal (the server runs one JavaScript thread, so no store can slip in between): a file
 * whose path is held now or that has a row now stays, and so does a row whose path is held now or
 * whose bytes are back. Emptied folders are kept: a store may be about to move a file into one.
 * @param storage the storage folder, its records and its holds
 * @param options as for {@link scanStorage}
 * @returns how many files and rows were removed, and what was left alone and why (sorted by path)
 */
export async function repairStorage(storage: ScannedStorage, options: StorageScanOptions): Promise<StorageRepairResult> {
  const { root, db, holds } = storage;
  const found = await scanStorage(storage, options);
  const leftAlone = [...found.leftAlone];
  const hasRow = db.prepare<[string], { path: string }>('SELECT path FROM files WHERE path = ?');
  let removedFiles = 0;
  for (const path of found.untracked) {
    if (holds.has(path)) {
      leftAlone.push({ path, reason: 'in-flight' });
      continue;
    }
    if (hasRow.get(path)) continue; // recorded since the scan
    try {
      unlinkSync(join(root, ...path.split('/')));
      removedFiles += 1;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const remove = db.prepare<[string]>('DELETE FROM files WHERE path = ?');
  let removedRows = 0;
  db.transaction(() => {
    for (const path of found.missing) {
      if (holds.has(path)) {
        leftAlone.push({ path, reason: 'in-flight' });
        continue;
      }
      if (existsSync(join(root, ...path.split('/')))) continue; // stored again since the scan
      removedRows += remove.run(path).changes;
    }
  })();
  leftAlone.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { removedFiles, removedRows, leftAlone };
}
