/**
 * The content side of the upload workflows: every file is checked before anything is
 * written (shared/content-check/), the model's validation report is built from the checks, a
 * thumbnail is made from the first photo when the model has none, a splat (PLY or .splat) gets its
 * web-sized copy (SPZ) beside it, and a large GLB its web-sized copy (`model.web.glb`) when that
 * is at least 2× smaller.
 */
import { AppError, ErrorCode, errorMessage } from '../errors.js';
import type { ByteSource } from '../content-check/byte-source.js';
import { blobSource, bytesSource, isBlobLike } from '../content-check/byte-source.js';
import type { ImageCheck } from '../content-check/image.js';
import { checkModelContent } from '../content-check/index.js';
import type { ContentPlatform } from '../content-check/platform.js';
import { GENERATED_THUMBNAIL_NAME } from '../content-check/platform.js';
import type { FileStorePort, StoredFile, UploadSource, WebSplatOutcome } from '../ports/files.js';
import { fileNameOf, webGlbPath, webSplatPath, webSplatPreviewPath } from '../paths.js';
import type { ValidationReport } from '../types.js';

/** A file to check: its upload source and the name the user gave it. */
export interface CheckedFileInput {
  source: UploadSource;
  name: string;
}

/**
 * A byte source over an upload source: a Blob directly, a platform source through
 * `platform.open` (Node: the local file).
 * @returns the source, or null when the platform cannot read it (its content is then not checked here)
 */
export function byteSourceOf(file: CheckedFileInput, platform: ContentPlatform | undefined): ByteSource | null {
  if (isBlobLike(file.source)) return blobSource(file.source, file.name);
  return platform?.open?.(file.source, file.name) ?? null;
}

/** The files of an add-model upload, as {@link checkUploadContent} takes them. */
export interface UploadContent {
  splat?: CheckedFileInput;
  glb?: CheckedFileInput;
  /** Camera metadata text and file name. */
  cameraMetadata?: { text: string; name: string };
  images?: readonly CheckedFileInput[];
  thumbnails?: readonly CheckedFileInput[];
}

/**
 * Checks every file of an upload and builds the validation report.
 * @param files the upload's files
 * @param platform the platform's help (reading native sources, decoding photos)
 * @returns the report (with a note for each file that could not be read here)
 * @throws AppError `invalid-argument` whose message lists every refused file, one a line
 *   (context `{problems}`): nothing has been written
 */
export async function checkUploadContent(files: UploadContent, platform: ContentPlatform | undefined): Promise<ValidationReport> {
  const notes: string[] = [];
  const open = (file: CheckedFileInput | undefined): ByteSource | null => {
    if (file === undefined) return null;
    const source = byteSourceOf(file, platform);
    if (source === null) notes.push(`${file.name} was not checked on this machine (no reader for its source).`);
    return source;
  };
  const images = (files.images ?? []).map(open).filter((s): s is ByteSource => s !== null);
  const thumbnails = (files.thumbnails ?? []).map(open).filter((s): s is ByteSource => s !== null);
  const camera = files.cameraMetadata ? bytesSource(new TextEncoder().encode(files.cameraMetadata.text), files.cameraMetadata.name) : null;
  const { report, problems } = await checkModelContent(
    { splat: open(files.splat), glb: open(files.glb), cameraMetadata: camera, images, thumbnails },
    { decodeImage: platform?.decodeImage },
  );
  if (problems.length > 0) throw new AppError(ErrorCode.InvalidArgument, problems.join('\n'), { context: { problems } });
  return { ...report, notes: [...report.notes, ...notes] };
}

/** The problems of refused image checks. */
export function refusals(checks: readonly Pick<ImageCheck, 'verdict' | 'problem'>[]): string[] {
  return checks.filter((c) => c.verdict === 'refused').map((c) => c.problem ?? '');
}

/**
 * A thumbnail from the first photo, when the platform can make one.
 * @param photos the model's photos, first one first
 * @param platform the platform (its `makeThumbnail`)
 * @param notes where a failure is noted (the upload goes on without a thumbnail)
 * @returns the thumbnail file ({@link GENERATED_THUMBNAIL_NAME}), or null
 */
export async function thumbnailFromFirstPhoto(
  photos: readonly CheckedFileInput[],
  platform: ContentPlatform | undefined,
  notes: string[],
): Promise<CheckedFileInput | null> {
  const first = photos[0];
  if (first === undefined || platform?.makeThumbnail === undefined) return null;
  const source = byteSourceOf(first, platform);
  if (source === null) return null;
  try {
    return { source: await platform.makeThumbnail(source), name: GENERATED_THUMBNAIL_NAME };
  } catch (error) {
    notes.push(`No thumbnail was made from ${first.name}: ${errorMessage(error)}`);
    return null;
  }
}

/**
 * Makes the web-sized copy of a stored splat (PLY or .splat), with the preview of a capture of
 * more than 400,000 Gaussians: by the file store when it can (`makeWebSplat`, the embedded
 * server), else on this machine (`platform.compressSplat`, the CLI) and uploaded to
 * `models/{uuid}/model.spz` and `models/{uuid}/model.preview.spz`; else nothing, with a note. A
 * failure is a note too: the model stays viewable from its original (or, when only the preview's
 * upload fails, from the copy without a preview).
 * @param files the file-store port
 * @param uuid the model's uuid
 * @param plyPath the stored PLY's path
 * @param ply the PLY's content on this machine (for `compressSplat`), or null
 * @param platform the platform
 * @param notes where a missing or failed copy is noted
 * @param signal cancels the upload of a locally made copy
 * @returns the stored copy and preview (null for a smaller capture), or null when no copy was made
 * @throws AppError `storage/canceled` when the signal aborts an upload
 */
export async function makeWebSplat(
  files: FileStorePort,
  uuid: string,
  plyPath: string,
  ply: ByteSource | null,
  platform: ContentPlatform | undefined,
  notes: string[],
  signal?: AbortSignal,
): Promise<WebSplatOutcome | null> {
  try {
    if (files.makeWebSplat) return await files.makeWebSplat(plyPath);
    if (platform?.compressSplat && ply !== null) {
      const made = await platform.compressSplat(ply);
      const file = await files.upload(webSplatPath(uuid), made.copy, { contentType: 'application/octet-stream', signal });
      let preview: StoredFile | null = null;
      try {
        if (made.preview !== null) {
          preview = await files.upload(webSplatPreviewPath(uuid), made.preview, { contentType: 'application/octet-stream', signal });
        }
      } catch (error) {
        if (error instanceof AppError && error.code === ErrorCode.Canceled) throw error;
        notes.push(`No preview of the web-sized copy was stored: ${errorMessage(error)}`);
      }
      return { file, preview };
    }
    notes.push(
      `No web-sized copy of ${fileNameOf(plyPath)} was made here: viewers load the original until 'catalog doctor --fix' makes it.`,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.Canceled) throw error;
    notes.push(`No web-sized copy was made: ${errorMessage(error)}`);
  }
  return null;
}

/**
 * Makes the web-sized copy of a stored GLB (meshopt geometry, textures at most 2048 px as WebP)
 * and keeps it only when it is at least 2× smaller than the original: by the file store when it
 * can (`makeWebGlb`, the embedded server), else on this machine (`platform.compressGlb`, the
 * CLI) and uploaded to `models/{uuid}/model.web.glb`; else nothing, with a note. A copy not kept
 * and a failure are notes too: the model stays viewable from its original.
 * @param files the file-store port
 * @param uuid the model's uuid
 * @param glbPath the stored GLB's path
 * @param glb the GLB's content on this machine (for `compressGlb`), or null
 * @param platform the platform
 * @param notes where a missing, refused or failed copy is noted
 * @param signal cancels the upload of a locally made copy
 * @returns `made: true` with the stored copy, or with `file: null` when one was made and not kept
 *   (the record says so with a null `webGlbPath`, so that it is not tried again); `made: false`
 *   when none could be made here (the record leaves `webGlbPath` out: `catalog doctor --fix` tries)
 * @throws AppError `storage/canceled` when the signal aborts the upload
 */
export async function makeWebGlb(
  files: FileStorePort,
  uuid: string,
  glbPath: string,
  glb: ByteSource | null,
  platform: ContentPlatform | undefined,
  notes: string[],
  signal?: AbortSignal,
): Promise<{ made: true; file: StoredFile | null } | { made: false }> {
  const notKept = (skipped: string) => notes.push(`No web-sized copy of ${fileNameOf(glbPath)} was kept: ${skipped}.`);
  try {
    if (files.makeWebGlb) {
      const outcome = await files.makeWebGlb(glbPath);
      if (outcome.file === null) notKept(outcome.skipped ?? 'the server kept none');
      return { made: true, file: outcome.file };
    }
    if (platform?.compressGlb && glb !== null) {
      const result = await platform.compressGlb(glb);
      if (result.copy === null) {
        notKept(result.skipped);
        return { made: true, file: null };
      }
      const file = await files.upload(webGlbPath(uuid), result.copy, { contentType: 'model/gltf-binary', signal });
      return { made: true, file };
    }
    notes.push(
      `No web-sized copy of ${fileNameOf(glbPath)} was made here: viewers load the original until 'catalog doctor --fix' makes it.`,
    );
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.Canceled) throw error;
    notes.push(`No web-sized copy of ${fileNameOf(glbPath)} was made: ${errorMessage(error)}`);
  }
  return { made: false };
}
