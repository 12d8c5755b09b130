/**
 * Which model folders without a record `catalog doctor` leaves alone: a folder with an upload in
 * progress or resumable on the embedded server, or whose newest stored file is younger than the
 * grace period (uploads store their files first and write the model record last); and the
 * listing of a folder's stored files with their update times that the rule reads.
 */
import type { FileStorePort, StoredFile } from '@shared/ports/index.js';
import type { LeftAloneReason } from './report.js';

/**
 * Every stored file under `folder`, recursively, with its listed metadata (its update time).
 * @param files the file-store port
 * @param folder a folder path ending in '/', e.g. `models/{uuid}/`
 * @returns the files, folder by folder in listing order
 */
export async function listStoredDeep(files: FileStorePort, folder: string): Promise<StoredFile[]> {
  const listing = await files.list(folder);
  const items = [...listing.items];
  for (const prefix of listing.prefixes) items.push(...(await listStoredDeep(files, prefix)));
  return items;
}

/** True when the newest of `files` was stored less than `graceMs` before `now` (a file without an update time counts as old). */
function hasRecentFile(files: readonly StoredFile[], graceMs: number, now: number): boolean {
  return files.some((file) => {
    const updated = file.updated ? Date.parse(file.updated) : Number.NaN;
    return !Number.isNaN(updated) && now - updated < graceMs;
  });
}

/**
 * Why a folder without a record is left alone now, or null when it may go: the live upload's
 * reason when the embedded server reports one for the folder, else `recent` when its newest file
 * is younger than the grace period.
 * @param uuid the model folder's uuid
 * @param files its stored files (with their update times)
 * @param live the folders with an upload in progress or resumable, by uuid
 * @param graceMs the grace period in ms
 * @param now the current time in ms since the epoch
 * @returns the reason, or null
 */
export function folderLeftAlone(
  uuid: string,
  files: readonly StoredFile[],
  live: ReadonlyMap<string, 'in-flight' | 'resumable'>,
  graceMs: number,
  now: number,
): LeftAloneReason | null {
  return live.get(uuid) ?? (hasRecentFile(files, graceMs, now) ? 'recent' : null);
}
