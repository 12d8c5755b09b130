/**
 * The upload panel's additions to an existing model, with their stages: images, thumbnails and
 * assets into the model's folders, and its camera metadata. Files are written first and the
 * record last (a failed record write removes the uploaded files); photos are content-checked
 * first and added to the model's validation report, whose camera count is kept up to date.
 */
import { AppError, ErrorCode } from '../errors.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { UploadProgress } from '../ports/files.js';
import { validateCameraMetadataFiles } from '../validation/camera.js';
import { parseCameraMetadata } from '../camera-metadata.js';
import { cameraMetadataPath, modelSubfolderFilePath, thumbnailPath, type ModelSubfolder } from '../paths.js';
import type { Model, ValidationReport } from '../types.js';
import type { AddModelFile } from './add-model.js';
import type { FileStatus, FilesBackend } from './util.js';
import { deleteFilesQuietly, getModel, unwrap, uploadFiles, uuidOf } from './util.js';
import { bytesSource } from '../content-check/byte-source.js';
import { checkImage } from '../content-check/image.js';
import type { ImageCheck } from '../content-check/image.js';
import { checkCameraMetadata, CONTENT_CHECKS_VERSION, photosReport } from '../content-check/index.js';
import type { ContentPlatform } from '../content-check/platform.js';
import { byteSourceOf, refusals, thumbnailFromFirstPhoto } from './content.js';

/** Additional-file upload stages, in order (then back to preparing after 3 s). */
export const ADDITIONAL_UPLOAD_STAGES = ['preparing', 'uploading', 'processing', 'completed'] as const;
export type AdditionalUploadStage = (typeof ADDITIONAL_UPLOAD_STAGES)[number];

/** The kinds of additional files the panel uploads. */
export type AdditionalFileKind = 'images' | 'thumbnails' | 'assets' | 'cameraMetadata';

/** Storage folder of each list kind, and the record list it is written to. */
const KIND_FOLDERS: Record<
  Exclude<AdditionalFileKind, 'cameraMetadata'>,
  { folder: ModelSubfolder; list: 'images' | 'thumbnails' | 'assets' }
> = {
  images: { folder: 'images', list: 'images' },
  thumbnails: { folder: 'images_thumbnails', list: 'thumbnails' },
  assets: { folder: 'assets', list: 'assets' },
};

/** Observers of the additional-file uploads. */
export interface AdditionalUploadHooks {
  onStage?: (stage: AdditionalUploadStage) => void;
  /** Per-file status, keyed by file name. */
  onFile?: (name: string, status: FileStatus, progress?: UploadProgress) => void;
  /** The platform's help for the photo checks and thumbnails (see `AddModelHooks.content`). */
  content?: ContentPlatform;
  /** Aborting cancels the upload (AppError `storage/canceled`; files already sent are removed, the record is unchanged). */
  signal?: AbortSignal;
}

/** A report to extend: the model's own, or an empty one for a model stored before reports existed. */
function baseReport(model: Model): ValidationReport {
  return (
    model.validation ?? {
      version: CONTENT_CHECKS_VERSION,
      checkedAt: new Date().toISOString(),
      checker: `catalog content checks ${CONTENT_CHECKS_VERSION}`,
      splat: null,
      glb: null,
      cameraMetadata: null,
      photos: null,
      notes: ['Only files uploaded since the content checks exist were checked.'],
    }
  );
}

/** The report's photos part with the checks of newly added photos merged in (counts, bytes and pixel sizes). */
function withPhotos(report: ValidationReport, added: readonly ImageCheck[]): ValidationReport {
  const fresh = photosReport(added);
  if (fresh === null) return report;
  const old = report.photos;
  if (old === null) return { ...report, photos: fresh };
  const dims = new Map(old.dimensions.map((d) => [`${d.width}x${d.height}`, { ...d }]));
  for (const d of fresh.dimensions) {
    const key = `${d.width}x${d.height}`;
    const entry = dims.get(key) ?? { width: d.width, height: d.height, count: 0 };
    entry.count += d.count;
    dims.set(key, entry);
  }
  return {
    ...report,
    photos: {
      count: old.count + fresh.count,
      bytes: old.bytes + fresh.bytes,
      verdict: old.verdict === 'refused' ? 'refused' : fresh.verdict,
      dimensions: [...dims.values()].sort((a, b) => b.count - a.count),
      refused: [...old.refused, ...fresh.refused],
    },
  };
}

/**
 * The camera-metadata part of a report recounted against the model's photos (how many cameras
 * have one), from the stored camera metadata; the report as it was when it cannot be read.
 */
async function recountCameras(backend: FilesBackend, report: ValidationReport, cameraPath: string | null | undefined, images: string[]) {
  if (!cameraPath) return report;
  try {
    const response = await fetch(await backend.files.getDownloadUrl(cameraPath));
    if (!response.ok) return report;
    const bytes = new Uint8Array(await response.arrayBuffer());
    const check = await checkCameraMetadata(bytesSource(bytes, report.cameraMetadata?.fileName ?? CAMERA_FILE_NAME), images);
    return { ...report, cameraMetadata: check };
  } catch {
    return report;
  }
}

const CAMERA_FILE_NAME = 'camera-metadata.json';

/**
 * Uploads additional images, thumbnails or assets to a model (the upload-additional-files
 * panel; stages preparing → uploading → processing → completed). Files go to
 * `models/{uuid}/{images|images_thumbnails|assets}/{name}`; the record's list gains the new paths
 * (a file of the same name is replaced, not listed twice) and `last_updated` is stamped.
 * Images and thumbnails are content-checked first (a real, decodable image of the
 * declared type; nothing is written when one is refused); new photos are added to the model's
 * validation report (and its cameras recounted), and a model without a thumbnail gets one made
 * from the first new photo.
 *
 * @param backend catalog and file-store ports (admin)
 * @param modelId the model's id
 * @param kind 'images', 'thumbnails' or 'assets'
 * @param files the files (at least one)
 * @returns the number of files uploaded and the folder name (for 'Successfully uploaded N files to {folder}.')
 * @throws AppError `invalid-argument` (no files; a refused image, one message a line),
 *   `not-found` (model), upload errors; files already uploaded are removed on a failure
 */
export async function uploadAdditionalFiles(
  backend: FilesBackend,
  modelId: string,
  kind: Exclude<AdditionalFileKind, 'cameraMetadata'>,
  files: readonly AddModelFile[],
  hooks: AdditionalUploadHooks = {},
): Promise<{ count: number; folder: string }> {
  hooks.onStage?.('preparing');
  if (files.length === 0) throw new AppError(ErrorCode.InvalidArgument, 'Select at least one file to upload.');
  const model = await getModel(backend, modelId);
  const uuid = uuidOf(model);
  const { folder, list } = KIND_FOLDERS[kind];
  const plan = files.map((file) => ({ file, path: modelSubfolderFilePath(uuid, folder, file.name) }));
  // each file's check, in plan order (null: not an image folder, or not readable on this platform)
  let checks: Array<ImageCheck | null> = plan.map(() => null);
  if (kind !== 'assets') {
    checks = await Promise.all(
      plan.map(({ file }) => {
        const source = byteSourceOf(file, hooks.content);
        return source === null ? null : checkImage(source, { decodeImage: hooks.content?.decodeImage });
      }),
    );
    const problems = refusals(checks.filter((c): c is ImageCheck => c !== null));
    if (problems.length > 0) throw new AppError(ErrorCode.InvalidArgument, problems.join('\n'), { context: { problems } });
  }
  let report: ValidationReport | null = null;
  const thumbnailPlan: Array<{ file: AddModelFile; path: string }> = [];
  if (kind === 'images') {
    // a photo that replaces one of the same name is already counted
    const listed = new Set(model.files?.images ?? []);
    const added = checks.filter((c, i): c is ImageCheck => c !== null && !listed.has(plan[i]!.path));
    report = withPhotos(baseReport(model), added);
    if ((model.files?.thumbnails ?? []).length === 0) {
      const made = await thumbnailFromFirstPhoto(files, hooks.content, report.notes);
      if (made !== null) thumbnailPlan.push({ file: made, path: thumbnailPath(uuid, made.name) });
    }
  }
  for (const { file } of plan) hooks.onFile?.(file.name, 'waiting');
  hooks.onStage?.('uploading');
  const uploaded: string[] = [];
  const existing = new Set(model.files?.[list] ?? []);
  try {
    await uploadFiles(
      backend.files,
      plan.map(({ file, path }) => ({ key: file.name, path, source: file.source })),
      uploaded,
      { onFile: hooks.onFile, signal: hooks.signal },
    );
    if (thumbnailPlan.length > 0) {
      await uploadFiles(
        backend.files,
        thumbnailPlan.map(({ file, path }) => ({ key: `images_thumbnails/${file.name}`, path, source: file.source })),
        uploaded,
        { signal: hooks.signal },
      );
    }
    hooks.onStage?.('processing');
    const next = [...(model.files?.[list] ?? [])];
    for (const { path } of plan) if (!next.includes(path)) next.push(path);
    const data: Record<string, unknown> = { [`files.${list}`]: next, last_updated: SERVER_TIMESTAMP };
    if (thumbnailPlan.length > 0) data['files.thumbnails'] = thumbnailPlan.map((t) => t.path);
    if (report !== null) data.validation = await recountCameras(backend, report, model.files?.cameraMetadata, next);
    await backend.catalog.update('models', modelId, data);
  } catch (error) {
    // Files that replaced ones already in the record stay: the record still lists them.
    await deleteFilesQuietly(
      backend.files,
      uploaded.filter((path) => !existing.has(path)),
    );
    throw error;
  }
  hooks.onStage?.('completed');
  return { count: plan.length, folder };
}

/**
 * Uploads a model's camera metadata: exactly one .json file whose
 * content is a non-empty array of valid cameras; nothing is written otherwise. The file goes to
 * `models/{uuid}/camera-metadata.json` (replacing the one there) and the record's
 * `files.cameraMetadata` is set, with `files.cameraMetadataUploadedAt` the server's time: the
 * path stays the same, so the time is what tells a change map that the cameras changed.
 *
 * @param backend catalog and file-store ports (admin)
 * @param modelId the model's id
 * @param files the chosen files, each with its name and text content
 * @returns the number of cameras saved (for 'Camera metadata uploaded successfully. N camera position information saved.')
 * @throws AppError `invalid-argument` with the message ('Only one JSON file can be uploaded for
 *   camera metadata', 'Only JSON files are allowed for camera metadata', 'Invalid JSON file',
 *   'Metadata must be in array format', 'At least one camera data is required', 'JSON format
 *   error: Camera N: …'), `not-found` (model), upload errors
 */
export async function uploadCameraMetadata(
  backend: FilesBackend,
  modelId: string,
  files: readonly { name: string; text: string }[],
  hooks: AdditionalUploadHooks = {},
): Promise<{ cameras: number }> {
  hooks.onStage?.('preparing');
  const file = unwrap(validateCameraMetadataFiles(files));
  const cameras = unwrap(parseCameraMetadata(file.text));
  const model = await getModel(backend, modelId);
  const path = cameraMetadataPath(uuidOf(model));
  hooks.onFile?.(file.name, 'waiting');
  hooks.onStage?.('uploading');
  hooks.onFile?.(file.name, 'uploading');
  try {
    await backend.files.upload(path, new Blob([file.text], { type: 'application/json' }), {
      contentType: 'application/json',
      signal: hooks.signal,
    });
  } catch (error) {
    hooks.onFile?.(file.name, 'error');
    throw error;
  }
  hooks.onFile?.(file.name, 'completed');
  hooks.onStage?.('processing');
  const check = await checkCameraMetadata(bytesSource(new TextEncoder().encode(file.text), file.name), model.files?.images ?? []);
  await backend.catalog.update('models', modelId, {
    'files.cameraMetadata': path,
    'files.cameraMetadataUploadedAt': SERVER_TIMESTAMP,
    validation: { ...baseReport(model), cameraMetadata: check },
    last_updated: SERVER_TIMESTAMP,
  });
  hooks.onStage?.('completed');
  return { cameras: cameras.length };
}
