/**
 * `catalog doctor --fix` for models stored before the content checks: their stored
 * files are downloaded to a temporary folder and checked (`checkModelContent`), and what they
 * lack is written: the validation report (a stored bad file keeps its 'refused' verdict; nothing
 * is deleted), a thumbnail made from the first photo (`images_thumbnails/thumbnail.jpg`), the
 * web-sized copy of a splat beside it (by the file store when it can, else made here and uploaded
 * to `models/{uuid}/model.spz`; with it the preview of a large capture, `model.preview.spz`), and that of a GLB of 8 MiB or more (`models/{uuid}/model.web.glb`,
 * kept only when at least 2× smaller; likewise by the file store or made here).
 */
import { openAsBlob } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { checkModelContent } from '@shared/content-check/index.js';
import { GENERATED_THUMBNAIL_NAME } from '@shared/content-check/platform.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import {
  fileNameOf,
  hasWebSplatCopy,
  MODEL_FILE_BASE_NAME,
  parseModelPath,
  thumbnailPath,
  wantsWebGlbCopy,
  webGlbPath,
  webSplatPath,
  webSplatPreviewPath,
} from '@shared/paths.js';
import type { Backend } from '@shared/ports/index.js';
import type { WebGlbOutcome, WebSplatOutcome } from '@shared/ports/files.js';
import type { Model, ValidationReport } from '@shared/types.js';
import { fileByteSource } from './byte-source.js';
import { downloadStoredFile } from './download.js';
import { decodeImageWithSharp, thumbnailWithSharp } from './images.js';
import { compressGlbFile } from './web-glb.js';
import { compressSplatFile, PREVIEW_GAUSSIANS } from './web-splat.js';

/** What a model stored before the content checks may lack. */
export type BackfillNeed = 'report' | 'thumbnail' | 'webSplat' | 'webGlb';

/** Note written in a backfilled report. */
export const BACKFILL_NOTE = 'Checked by catalog doctor --fix from the stored files (the model was stored before the checks existed).';

/**
 * What a model lacks: 'report' (no `validation`), 'thumbnail' (photos but no thumbnail),
 * 'webSplat' (a splat that gets a web-sized copy, a `.ply` or `.splat`, without `files.webSplatPath`,
 * unless its stored report already refuses the splat: no copy can be made of it, and the report says why),
 * 'webGlb' (a GLB of at least 8 MiB by its recorded `glbSize` whose record has no `files.webGlbPath`
 * at all: a null one means a copy was made and not kept; again not when its report refuses the GLB).
 * A small GLB never needs one.
 * @param model the model record
 * @returns the needs, in that order (empty when it lacks nothing)
 */
export function missingBackfill(model: Pick<Model, 'validation' | 'files'>): BackfillNeed[] {
  const files = model.files ?? {};
  const needs: BackfillNeed[] = [];
  if (!model.validation) needs.push('report');
  if ((files.images ?? []).length > 0 && (files.thumbnails ?? []).length === 0) needs.push('thumbnail');
  const copied = typeof files.splatPath === 'string' && hasWebSplatCopy(files.splatPath);
  if (copied && !files.webSplatPath && model.validation?.splat?.verdict !== 'refused') needs.push('webSplat');
  const glb = typeof files.glbPath === 'string' && files.glbPath !== '' && wantsWebGlbCopy(files.glbSize);
  if (glb && files.webGlbPath === undefined && model.validation?.glb?.verdict !== 'refused') needs.push('webGlb');
  return needs;
}

/**
 * Downloads a stored file into `dir` (through its download link).
 * @returns the local file as a byte source named after the stored file
 * @throws AppError `unavailable` when the download fails
 */
async function download(files: Backend['files'], path: string, dir: string, index: number): Promise<ByteSource & { localPath: string }> {
  const local = join(dir, `${index}-${fileNameOf(path)}`);
  await downloadStoredFile(files, path, local);
  const { size } = await stat(local);
  return { ...fileByteSource(local, size, fileNameOf(path)), localPath: local };
}

/**
 * Backfills one model: downloads the stored files it needs, then writes the validation report,
 * the thumbnail (stored and added to `files.thumbnails`) and the web-sized copies
 * (`files.webSplatPath`/`webSplatSize`, `files.webGlbPath`/`webGlbSize`; a GLB copy not kept
 * sets both to null). The preview of a splat is made only with its copy: whenever a copy is made
 * here, a capture of more than 400,000 Gaussians also gets `files.webSplatPreviewPath`/`Size`
 * (null for a smaller one); a model whose copy was made before previews existed gets none that {@link missingBackfill} finds missing, in one record update. A step
 * that fails (a photo that cannot be decoded, a splat or GLB the copy refuses) does not stop the
 * others.
 * @param backend the opened backend (service)
 * @param model the model record
 * @returns what was done, e.g. ['report', 'thumbnail', 'web-sized copy', 'web-sized GLB'] ('web-sized
 *   copy with preview' for a large capture; 'no
 *   web-sized GLB kept (…why…)' when the GLB's copy was made and not kept)
 * @throws AppError `failed-precondition` naming every step that failed (after writing the others);
 *   `unavailable` when a download fails
 */
export async function backfillModel(backend: Pick<Backend, 'catalog' | 'files'>, model: Model): Promise<string[]> {
  const needs = missingBackfill(model);
  if (needs.length === 0) return [];
  const uuid = model.uuid || model.id;
  const f = model.files ?? {};
  const dir = await mkdtemp(join(tmpdir(), 'catalog-doctor-'));
  const downloaded = new Map<string, ByteSource & { localPath: string }>();
  const get = async (path: string) => {
    let source = downloaded.get(path);
    if (source === undefined) {
      source = await download(backend.files, path, dir, downloaded.size);
      downloaded.set(path, source);
    }
    return source;
  };
  const update: Record<string, unknown> = {};
  const done: string[] = [];
  const failed: string[] = [];
  try {
    let report: ValidationReport | null = model.validation ?? null;
    if (needs.includes('report')) {
      const images = [];
      for (const path of f.images ?? []) images.push(await get(path));
      const checked = await checkModelContent(
        {
          splat: f.splatPath ? await get(f.splatPath) : null,
          glb: f.glbPath ? await get(f.glbPath) : null,
          cameraMetadata: f.cameraMetadata ? await get(f.cameraMetadata) : null,
          images,
        },
        { decodeImage: decodeImageWithSharp },
      );
      report = { ...checked.report, notes: [...checked.report.notes, BACKFILL_NOTE] };
      update.validation = report;
      done.push('report');
    }
    if (needs.includes('thumbnail')) {
      const first = (f.images ?? [])[0] as string;
      try {
        const jpeg = await thumbnailWithSharp(await get(first));
        const path = thumbnailPath(uuid, GENERATED_THUMBNAIL_NAME);
        await backend.files.upload(path, jpeg, { contentType: 'image/jpeg' });
        update['files.thumbnails'] = [...(f.thumbnails ?? []).filter((p) => p !== path), path];
        done.push('thumbnail');
      } catch (error) {
        if (error instanceof AppError && error.code === ErrorCode.Unavailable) throw error;
        failed.push(`no thumbnail from ${fileNameOf(first)}: ${errorMessage(error)}`);
      }
    }
    if (needs.includes('webSplat')) {
      const plyPath = f.splatPath as string;
      if (report?.splat?.verdict === 'refused') {
        failed.push(`no web-sized copy: the stored splat is refused (${report.splat.problem ?? 'see its report'})`);
      } else {
        try {
          const stored = await webSizedCopy(backend.files, uuid, plyPath, get, dir);
          update['files.webSplatPath'] = stored.file.path;
          update['files.webSplatSize'] = stored.file.size;
          update['files.webSplatPreviewPath'] = stored.preview?.path ?? null;
          update['files.webSplatPreviewSize'] = stored.preview?.size ?? null;
          done.push(stored.preview !== null ? 'web-sized copy with preview' : 'web-sized copy');
        } catch (error) {
          if (error instanceof AppError && error.code === ErrorCode.Unavailable) throw error;
          failed.push(`no web-sized copy: ${errorMessage(error)}`);
        }
      }
    }
    if (needs.includes('webGlb')) {
      const glbPath = f.glbPath as string;
      if (report?.glb?.verdict === 'refused') {
        failed.push(`no web-sized GLB: the stored GLB is refused (${report.glb.problem ?? 'see its report'})`);
      } else {
        try {
          const outcome = await webSizedGlb(backend.files, uuid, glbPath, get, dir);
          update['files.webGlbPath'] = outcome.file?.path ?? null;
          update['files.webGlbSize'] = outcome.file?.size ?? null;
          done.push(outcome.file !== null ? 'web-sized GLB' : `no web-sized GLB kept (${outcome.skipped ?? 'none made'})`);
        } catch (error) {
          if (error instanceof AppError && error.code === ErrorCode.Unavailable) throw error;
          failed.push(`no web-sized GLB: ${errorMessage(error)}`);
        }
      }
    }
    if (Object.keys(update).length > 0) await backend.catalog.update('models', model.id, update);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (failed.length > 0) {
    throw new AppError(ErrorCode.FailedPrecondition, `${done.length > 0 ? `${done.join(', ')} written; ` : ''}${failed.join('; ')}`, {
      context: { modelId: model.id },
    });
  }
  return done;
}

/**
 * The web-sized copy of a stored splat, stored beside it (`models/{uuid of the splat's
 * folder}/model.spz`), with the preview of a capture of more than `PREVIEW_ABOVE_GAUSSIANS`
 * (`model.preview.spz`): made by the file store when it can (`makeWebSplat`, for a
 * `models/{uuid}/model.ply` or `model.splat`); else compressed here and uploaded.
 */
async function webSizedCopy(
  files: Backend['files'],
  uuid: string,
  plyPath: string,
  get: (path: string) => Promise<{ localPath: string }>,
  dir: string,
): Promise<WebSplatOutcome> {
  const parsed = parseModelPath(plyPath);
  const own = parsed?.rest === `${MODEL_FILE_BASE_NAME}.ply` || parsed?.rest === `${MODEL_FILE_BASE_NAME}.splat`;
  if (files.makeWebSplat && own) return files.makeWebSplat(plyPath);
  const ply = await get(plyPath);
  const spz = join(dir, 'web-sized.spz');
  const previewSpz = join(dir, 'web-sized.preview.spz');
  const result = await compressSplatFile(ply.localPath, spz, fileNameOf(plyPath), {
    preview: { output: previewSpz, gaussians: PREVIEW_GAUSSIANS },
  });
  const folder = parsed?.uuid ?? uuid;
  const contentType = 'application/octet-stream';
  const file = await files.upload(webSplatPath(folder), await openAsBlob(spz), { contentType });
  const preview =
    result.preview === null ? null : await files.upload(webSplatPreviewPath(folder), await openAsBlob(previewSpz), { contentType });
  return { file, preview };
}

/**
 * The web-sized copy of a stored GLB, stored beside it (`models/{uuid of the GLB's folder}/model.web.glb`)
 * when it is at least 2× smaller: made by the file store when it can (`makeWebGlb`, for a
 * `models/{uuid}/model.glb`); else made here and uploaded.
 */
async function webSizedGlb(
  files: Backend['files'],
  uuid: string,
  glbPath: string,
  get: (path: string) => Promise<{ localPath: string }>,
  dir: string,
): Promise<WebGlbOutcome> {
  const parsed = parseModelPath(glbPath);
  if (files.makeWebGlb && parsed?.rest === `${MODEL_FILE_BASE_NAME}.glb`) return files.makeWebGlb(glbPath);
  const glb = await get(glbPath);
  const copy = join(dir, 'web-sized.glb');
  const result = await compressGlbFile(glb.localPath, copy);
  if (result.skipped !== null) return { file: null, skipped: result.skipped };
  const file = await files.upload(webGlbPath(parsed?.uuid ?? uuid), await openAsBlob(copy), { contentType: 'model/gltf-binary' });
  return { file, skipped: null };
}
