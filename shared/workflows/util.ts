import { AppError, ErrorCode } from '../errors.js';
import type { FileStorePort } from '../ports/files.js';

/** Throws AppError `invalid-argument` carrying a validator's spec message, or returns its value. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new AppError(ErrorCode.InvalidArgument, result.message);
  return result.value;
}

/**
 * Every file path under `folder` (recursively, through sub-folder prefixes).
 * @param files the file-store port
 * @param folder a folder path such as `models/{uuid}` (with or without a trailing '/')
 * @returns storage paths of every file found, in listing order
 */
export async function listFilesDeep(files: FileStorePort, folder: string): Promise<string[]> {
  const listing = await files.list(folder);
  const paths = listing.items.map((item) => item.path);
  for (const prefix of listing.prefixes) paths.push(...(await listFilesDeep(files, prefix)));
  return paths;
}

/**
 * Deletes the given files, ignoring files already gone.
 * @returns the paths that could not be deleted (other errors)
 */
export async function deleteFilesQuietly(files: FileStorePort, paths: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const path of paths) {
    try {
      await files.delete(path);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.ObjectNotFound)) failed.push(path);
    }
  }
  return failed;
}
