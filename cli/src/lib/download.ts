/**
 * Downloading a stored file to disk through its download link, streamed (a capture of gigabytes
 * never sits in memory), for the commands that work on a stored file's bytes.
 */
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';

/**
 * Downloads the stored file `path` into the local file `target` (created or replaced).
 * @param files the backend's file port
 * @param path the storage path, e.g. `models/{uuid}/model.ply`
 * @param target the local file to write
 * @throws AppError `unavailable` ('Could not download {path} (HTTP {status})') when the download
 *   fails; the write's own error when the disk refuses
 */
export async function downloadStoredFile(files: Backend['files'], path: string, target: string): Promise<void> {
  const response = await fetch(await files.getDownloadUrl(path));
  if (!response.ok || response.body === null) {
    throw new AppError(ErrorCode.Unavailable, `Could not download ${path} (HTTP ${response.status})`, { context: { path } });
  }
  await pipeline(Readable.fromWeb(response.body as WebReadableStream<Uint8Array>), createWriteStream(target));
}
