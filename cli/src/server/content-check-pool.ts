/**
 * The content checks of received files run in a kept pool of worker threads (piscina), so a
 * 300 MB GLB in the glTF validator or a large camera-metadata file being parsed never holds up
 * the server's other requests. Threads start on the first check and stop after 30 s idle; the
 * process does not wait for them.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { ReceivedFile } from '../lib/content-check-job.js';
import { packageRoot } from '../lib/package-root.js';

/** Checks that run at once: two threads at least (a long GLB check leaves one for the rest), at most four. */
export const CONTENT_CHECK_THREADS = Math.min(4, Math.max(2, availableParallelism() - 1));

let pool: Piscina<ReceivedFile, { problem: string } | null> | null = null;

function checkPool(): Piscina<ReceivedFile, { problem: string } | null> {
  pool ??= new Piscina({
    filename: pathToFileURL(join(packageRoot(), 'cli', 'src', 'lib', 'content-check-worker.mjs')).href,
    minThreads: 0,
    maxThreads: CONTENT_CHECK_THREADS,
    idleTimeout: 30_000,
  });
  return pool;
}

/**
 * The content check of a received file before it is recorded (`assertStoredContent`, in a
 * worker thread): the splat's header and size, the GLB with the validator (up to its size
 * budget), camera metadata (up to its size limit), a photo's type and pixel size (within the pixel
 * limit, a PNG or WebP ending where the file ends), the web-sized copy as SPZ (inflated in a
 * stream, never held). Photos are not decoded here: the clients decode them whole, and a decode
 * costs 4–16 ms a photo of the server's CPU. Assets are not checked.
 * @param path the storage path the file is about to be stored at (its name is the declared type)
 * @param file absolute path of the received bytes
 * @param size their size in bytes
 * @throws AppError `invalid-argument` whose message is the check's problem (context `{path}`);
 *   the read error when the file cannot be read
 */
export async function checkReceivedContent(path: string, file: string, size: number): Promise<void> {
  const outcome = await checkPool().run({ path, file, size });
  if (outcome !== null) throw new AppError(ErrorCode.InvalidArgument, outcome.problem, { context: { path } });
}
