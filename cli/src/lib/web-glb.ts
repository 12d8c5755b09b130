/**
 * Web-sized GLBs: the copy of a large GLB (a textured photogrammetry mesh of 100–300 MB) that the
 * viewer loads instead of the original. A worker thread (web-glb-worker.mjs) reads the GLB with
 * gltf-transform, resizes every texture to at most {@link WEB_GLB_TEXTURE_MAX_EDGE} pixels on its
 * long edge and re-encodes it as WebP with sharp, and compresses the geometry with
 * EXT_meshopt_compression (meshoptimizer), so a server or CLI keeps answering meanwhile. The
 * copy is kept only when it is at least 2× smaller than the original (`webGlbRefusal`).
 *
 * Why these choices (measured on generated tower meshes with noise and photo textures): meshopt
 * against Draco (draco3dgltf), 3 M triangles and four 4096² textures (127 MB): 11.3 MB in 5.8 s
 * at 800 MB peak against 10.4 MB in 7.5 s at 1,070 MB; on geometry alone Draco is about 2×
 * smaller, but meshopt is faster to make, takes less memory, and decodes in the browser in a
 * fraction of the time without a worker (three's MeshoptDecoder, already in the viewer's
 * GLTFLoader). WebP against JPEG at quality 80 on a site photo resized to 2048²: 233 KB against
 * 447 KB (about 3× slower to encode: 0.75 s against 0.25 s), and WebP keeps an alpha channel.
 * 2048 px: a 4096² texture takes about 90 MB of GPU memory with its mipmaps, so a capture with
 * eight would need 0.7 GB on the viewer's graphics card; at 2048 it needs a quarter of that. The
 * original stays downloadable at full resolution.
 *
 * One copy is made at a time per process: the worker holds the whole GLB in memory, and its
 * geometry once more while compressing (`npm run bench:large`: a 148 MB GLB of 3 M triangles and
 * six 4096² textures gave a 13.1 MB copy in 8.9 s, the process peaking at 511 MiB).
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { AppError, ErrorCode } from '@shared/errors.js';
import { webGlbRefusal } from '@shared/paths.js';
import { packageRoot } from './package-root.js';

/** Longest edge of a texture in a web-sized GLB, in pixels (never enlarged). */
export const WEB_GLB_TEXTURE_MAX_EDGE = 2048;

/** WebP quality (0–100) of a web-sized GLB's textures. */
export const WEB_GLB_TEXTURE_QUALITY = 80;

/** Copies made at once in this process. */
const limit = pLimit(1);

/** Result of {@link compressGlbFile}. */
export interface WebGlbResult {
  /** Size of the original in bytes. */
  originalBytes: number;
  /** Size of the copy in bytes (also when it was not kept). */
  bytes: number;
  /** Time spent reading the GLB and writing the copy, in milliseconds. */
  ms: number;
  /** Null when the copy was kept (written at `output`); else why not (nothing is left at `output`). */
  skipped: string | null;
}

/**
 * Writes the web-sized copy of a GLB, in a worker thread: textures at most
 * {@link WEB_GLB_TEXTURE_MAX_EDGE} px on their long edge as WebP (quality
 * {@link WEB_GLB_TEXTURE_QUALITY}; KTX2 and AVIF textures are left as they are), geometry with
 * EXT_meshopt_compression. The copy is kept only when it is at least 2× smaller than the
 * original; else `output` is removed and `skipped` says why.
 * @param input path of the GLB
 * @param output path of the copy to write (replaced)
 * @returns the sizes, the time, and whether the copy was kept
 * @throws AppError `invalid-argument` when gltf-transform cannot read the GLB (e.g. a
 *   Draco-compressed original, whose decoder is not loaded) or cannot write the copy, `internal`
 *   when the worker dies
 */
export function compressGlbFile(input: string, output: string): Promise<WebGlbResult> {
  return limit(async () => {
    const { size: originalBytes } = await stat(input);
    const made = await new Promise<{ bytes: number; ms: number }>((resolve, reject) => {
      const worker = new Worker(join(packageRoot(), 'cli', 'src', 'lib', 'web-glb-worker.mjs'), {
        workerData: { input, output, textureMaxEdge: WEB_GLB_TEXTURE_MAX_EDGE, textureQuality: WEB_GLB_TEXTURE_QUALITY },
      });
      let settled = false;
      worker.once('message', (message: { ok: true; bytes: number; ms: number } | { ok: false; message: string }) => {
        settled = true;
        if (message.ok) resolve({ bytes: message.bytes, ms: message.ms });
        else reject(new AppError(ErrorCode.InvalidArgument, `The web-sized GLB could not be made: ${message.message}`));
        void worker.terminate();
      });
      worker.once('error', (error) => {
        if (!settled) reject(new AppError(ErrorCode.Internal, `The web-sized GLB could not be made: ${error.message}`, { cause: error }));
        settled = true;
      });
      worker.once('exit', (code) => {
        if (!settled) reject(new AppError(ErrorCode.Internal, `The web-sized GLB's worker stopped (exit code ${code})`));
        settled = true;
      });
    }).catch(async (error: unknown) => {
      await rm(output, { force: true });
      throw error;
    });
    const skipped = webGlbRefusal(originalBytes, made.bytes);
    if (skipped !== null) await rm(output, { force: true });
    return { originalBytes, bytes: made.bytes, ms: made.ms, skipped };
  });
}
