/**
 * Web-sized splats: the compressed copy of a 3DGS training PLY that the viewer loads (SPZ version 2,
 * about 12× smaller), written by Spark's `transcodeSpz` (@sparkjsdev/spark, the viewer's own
 * splat library, so the copy reads back exactly as the viewer expects) in a worker thread, so
 * a server or CLI keeps answering while a large file compresses. One compression runs at a time
 * per process (each holds the whole PLY in memory, about 3.5× its size at peak).
 *
 * Measured here (2 cores, Node 20): the 2.25 MB 9,080-Gaussian sample → 189 KB in 0.16 s;
 * a 248 MB 1,000,000-Gaussian PLY → 30.5 MB in 11.6 s, 858 MB peak (`npm run bench:upload`
 * prints the current figures). splat-transform 2.7.1 gave 31.2 MB in 15 s, 1.13 GB peak, and
 * needs its SPZ flipped in y and z for Spark; SOG needs a GPU.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { AppError, ErrorCode } from '@shared/errors.js';
import { packageRoot } from './package-root.js';

/** Compressions run at once in this process. */
const limit = pLimit(1);

/** Result of {@link compressPlyFile}. */
export interface WebSplatResult {
  /** Size of the SPZ in bytes. */
  bytes: number;
  /** Time spent transcoding in milliseconds (reading and writing the files excluded). */
  ms: number;
}

/**
 * Writes the web-sized copy (SPZ, version 2 as Spark writes it) of a training PLY, in a worker thread.
 * @param input path of the PLY
 * @param output path of the SPZ to write (replaced)
 * @param name the PLY's file name (tells the transcoder the format; default 'model.ply')
 * @returns the SPZ's size and the transcode time
 * @throws AppError `invalid-argument` when the transcoder cannot read the PLY, `internal` when
 *   the worker dies
 */
export function compressPlyFile(input: string, output: string, name = 'model.ply'): Promise<WebSplatResult> {
  return limit(
    () =>
      new Promise<WebSplatResult>((resolve, reject) => {
        const worker = new Worker(join(packageRoot(), 'cli', 'src', 'lib', 'web-splat-worker.mjs'), {
          workerData: { input, output, name },
        });
        let settled = false;
        worker.once('message', (message: { ok: true; bytes: number; ms: number } | { ok: false; message: string }) => {
          settled = true;
          if (message.ok) resolve({ bytes: message.bytes, ms: message.ms });
          else reject(new AppError(ErrorCode.InvalidArgument, `The web-sized copy could not be made: ${message.message}`));
          void worker.terminate();
        });
        worker.once('error', (error) => {
          if (!settled)
            reject(new AppError(ErrorCode.Internal, `The web-sized copy could not be made: ${error.message}`, { cause: error }));
          settled = true;
        });
        worker.once('exit', (code) => {
          if (!settled) reject(new AppError(ErrorCode.Internal, `The web-sized copy's worker stopped (exit code ${code})`));
          settled = true;
        });
      }),
  );
}
