/**
 * The job a content-check worker runs (cli/src/lib/content-check-worker.mjs): the stored-content
 * check of one received file, answered as data so that it crosses the thread boundary intact.
 */
import { assertStoredContent } from '@shared/content-check/index.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { fileNameOf } from '@shared/paths.js';
import { fileByteSource } from './byte-source.js';

/** A received file to check. */
export interface ReceivedFile {
  /** The storage path it is about to be stored at (its name is the declared type). */
  path: string;
  /** Absolute path of the received bytes. */
  file: string;
  /** Their size in bytes. */
  size: number;
}

/**
 * Checks a received file as `assertStoredContent` does.
 * @param job the file
 * @returns null when it may be stored, else `{ problem }` with the check's message
 * @throws the read error when the file cannot be read
 */
export async function checkReceivedFile(job: ReceivedFile): Promise<{ problem: string } | null> {
  try {
    await assertStoredContent(job.path, fileByteSource(job.file, job.size, fileNameOf(job.path)));
    return null;
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.InvalidArgument) return { problem: error.message };
    throw error;
  }
}
