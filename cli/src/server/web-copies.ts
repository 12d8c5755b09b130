/**
 * The web-sized copies of stored model files on the embedded backend (`routes.webSplat`,
 * `routes.webGlb`): an SPZ copy (and, for a large capture, a preview) of a stored PLY or .splat,
 * and a smaller copy of a stored GLB. Each is made in a worker thread, so the server keeps
 * answering, and stored through {@link FileStore.adopt} while its paths are held from storage
 * repairs.
 */
import { rm, stat } from 'node:fs/promises';
import { AppError, ErrorCode } from '@shared/errors.js';
import { MODEL_FILE_BASE_NAME, parseModelPath, webGlbPath, webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import type { WebGlbOutcome, WebSplatOutcome } from '@shared/ports/files.js';
import { compressGlbFile } from '../lib/web-glb.js';
import { compressSplatFile, PREVIEW_GAUSSIANS } from '../lib/web-splat.js';
import type { FileStore } from './file-store.js';
import { validateStoragePath } from './storage-path.js';

/**
 * Makes the web-sized copy (SPZ) of a stored splat in a worker thread and stores it at
 * `webSplatPath(uuid)`, replacing any copy there; for a capture of more than
 * `PREVIEW_ABOVE_GAUSSIANS` (400,000) Gaussians also its preview (the `PREVIEW_GAUSSIANS` most
 * important Gaussians, SH degree 0) at `webSplatPreviewPath(uuid)`. Both are written to temporary
 * files and adopted (content-checked as SPZ) while their paths are held from storage repairs.
 * @param files the server's file store
 * @param path the splat's storage path, `models/{uuid}/model.ply` or `models/{uuid}/model.splat`
 * @returns the stored copy's metadata and the preview's (null for a smaller capture)
 * @throws AppError `invalid-argument` (another path, or a splat that cannot be read),
 *   `storage/object-not-found` (no PLY stored there), `internal` (the worker died)
 */
export async function makeWebSplat(files: FileStore, path: string): Promise<WebSplatOutcome> {
  const parsed = parseModelPath(validateStoragePath(path));
  if (parsed === null || (parsed.rest !== `${MODEL_FILE_BASE_NAME}.ply` && parsed.rest !== `${MODEL_FILE_BASE_NAME}.splat`)) {
    const from = `models/{uuid}/${MODEL_FILE_BASE_NAME}.ply or .splat`;
    throw new AppError(ErrorCode.InvalidArgument, `A web-sized splat is made from ${from}, not ${path}`, {
      context: { path },
    });
  }
  files.metadata(path);
  const temp = files.tempFile();
  // a web-sized copy being made is an upload in progress for storage repairs
  const previewTemp = files.tempFile();
  const release = files.hold([webSplatPath(parsed.uuid), webSplatPreviewPath(parsed.uuid)]);
  try {
    const result = await compressSplatFile(files.diskPath(path), temp, parsed.rest, {
      preview: { output: previewTemp, gaussians: PREVIEW_GAUSSIANS },
    });
    const { size } = await stat(temp);
    const file = await files.adopt(webSplatPath(parsed.uuid), temp, size, null);
    const preview =
      result.preview === null ? null : await files.adopt(webSplatPreviewPath(parsed.uuid), previewTemp, result.preview.bytes, null);
    return { file, preview };
  } finally {
    release();
    await rm(temp, { force: true });
    await rm(previewTemp, { force: true });
  }
}

/**
 * Makes the web-sized copy of a stored GLB in a worker thread (`compressGlbFile`: textures at most
 * 2048 px as WebP, meshopt geometry) and stores it at `webGlbPath(uuid)`, replacing any copy
 * there, when it is at least 2× smaller than the original; else stores nothing (a copy stored
 * before stays).
 * @param files the server's file store
 * @param path the GLB's storage path, `models/{uuid}/model.glb`
 * @returns the stored copy's metadata, or `file: null` with why none was kept
 * @throws AppError `invalid-argument` (another path, or a GLB the copy cannot read),
 *   `storage/object-not-found` (no GLB stored there), `internal` (the worker died)
 */
export async function makeWebGlb(files: FileStore, path: string): Promise<WebGlbOutcome> {
  const parsed = parseModelPath(validateStoragePath(path));
  if (parsed === null || parsed.rest !== `${MODEL_FILE_BASE_NAME}.glb`) {
    throw new AppError(ErrorCode.InvalidArgument, `A web-sized GLB is made from models/{uuid}/${MODEL_FILE_BASE_NAME}.glb, not ${path}`, {
      context: { path },
    });
  }
  files.metadata(path);
  const temp = files.tempFile();
  // a web-sized copy being made is an upload in progress for storage repairs
  const release = files.hold([webGlbPath(parsed.uuid)]);
  try {
    const result = await compressGlbFile(files.diskPath(path), temp);
    if (result.skipped !== null) return { file: null, skipped: result.skipped };
    return { file: await files.adopt(webGlbPath(parsed.uuid), temp, result.bytes, null), skipped: null };
  } finally {
    release();
    await rm(temp, { force: true });
  }
}
