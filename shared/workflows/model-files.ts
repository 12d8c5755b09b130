/**
 * The model management screen's file operations, with their upload stages, messages and
 * delete-all and loading-progress rules: list a model's files, upload additional files
 * (images, thumbnails, assets) and camera metadata, delete one file, delete all extra files.
 *
 * Record and files: uploads write the files first and the record last (a failed record write
 * removes the uploaded files); deletes update the record first and remove the files after (a
 * file that cannot be removed is reported, never left referenced).
 */
import { AppError, ErrorCode } from '../errors.js';
import type { Backend } from '../ports/index.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { UploadProgress } from '../ports/files.js';
import { ValidationMessages } from '../messages.js';
import { validateCameraMetadataFiles } from '../validation/camera.js';
import { parseCameraMetadata } from '../camera-metadata.js';
import {
  cameraMetadataPath,
  isDeletedByDeleteAll,
  isMainModelFile,
  modelFolder,
  modelSubfolderFilePath,
  modelSubfolderPath,
  MODEL_SUBFOLDERS,
  toFileEntry,
  type ModelSubfolder,
} from '../paths.js';
import type { FileEntry, Model, ModelFiles, ValidationReport } from '../types.js';
import type { AddModelFile, FileStatus } from './models.js';
import { deleteFilesQuietly, unwrap, uploadFiles } from './util.js';
import { bytesSource } from '../content-check/byte-source.js';
import { checkImage } from '../content-check/image.js';
import type { ImageCheck } from '../content-check/image.js';
import { checkCameraMetadata, CONTENT_CHECKS_VERSION, photosReport } from '../content-check/index.js';
import type { ContentPlatform } from '../content-check/platform.js';
import { thumbnailPath } from '../paths.js';
import { byteSourceOf, refusals, thumbnailFromFirstPhoto } from './content.js';

type FilesBackend = Pick<Backend, 'catalog' | 'files'>;

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

async function getModel(backend: FilesBackend, modelId: string): Promise<Model> {
  const model = await backend.catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
  return model;
}

const uuidOf = (model: Model): string => model.uuid || model.id;

/**
 * Lists a model's files as FileEntry rows: the main files (with the web-sized splat, its
 * preview and the web-sized GLB, when there are) and camera metadata of its record (with their stored size) and every file in its images/, images_thumbnails/ and assets/ folders.
 * Files of the record that are missing in storage are left out.
 *
 * @param backend catalog and file-store ports
 * @param modelId the model's id
 * @param onProgress called with (loaded, total) as the listing proceeds; total counts the main
 *   files, the camera metadata and the folder items
 * @returns the entries, main files first, then camera metadata, then folder items in listing order
 * @throws AppError `not-found` (model), storage errors
 */
export async function listModelFiles(
  backend: FilesBackend,
  modelId: string,
  onProgress?: (loaded: number, total: number) => void,
): Promise<FileEntry[]> {
  return listFilesOfModel(backend, await getModel(backend, modelId), onProgress);
}

/**
 * {@link listModelFiles} for a model record already read, so a caller can tell a failed read of
 * the model from a failed listing of its files (they have different messages).
 * @param backend catalog and file-store ports
 * @param model the model's record
 * @param onProgress as for {@link listModelFiles}
 * @returns the entries, as {@link listModelFiles}
 * @throws storage errors
 */
export async function listFilesOfModel(
  backend: FilesBackend,
  model: Model,
  onProgress?: (loaded: number, total: number) => void,
): Promise<FileEntry[]> {
  const { splatPath, glbPath, webSplatPath, webSplatPreviewPath, webGlbPath, cameraMetadata } = model.files ?? {};
  const paths = [splatPath, glbPath, webSplatPath, webSplatPreviewPath, webGlbPath, cameraMetadata];
  return collectFileEntries(backend, model, paths, onProgress);
}

/**
 * The FileEntry rows of the given record paths (those still in storage, with their size) and of
 * every file in the model's images/, images_thumbnails/ and assets/ folders.
 */
async function collectFileEntries(
  backend: FilesBackend,
  model: Model,
  recordPaths: ReadonlyArray<string | null | undefined>,
  onProgress?: (loaded: number, total: number) => void,
): Promise<FileEntry[]> {
  const uuid = uuidOf(model);
  const paths = recordPaths.filter((p): p is string => typeof p === 'string' && p !== '');
  const listings = await Promise.all(MODEL_SUBFOLDERS.map((sub) => backend.files.list(modelSubfolderPath(uuid, sub))));
  const folderItems = listings.flatMap((listing) => listing.items);
  const total = paths.length + folderItems.length;
  let loaded = 0;
  onProgress?.(loaded, total);
  const entries: FileEntry[] = [];
  for (const path of paths) {
    try {
      const stored = await backend.files.getMetadata(path);
      const entry = toFileEntry(path, stored.size);
      if (entry) entries.push(entry);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.ObjectNotFound)) throw error;
    }
    onProgress?.(++loaded, total);
  }
  for (const item of folderItems) {
    const entry = toFileEntry(item.path, item.size);
    if (entry) entries.push(entry);
    onProgress?.(++loaded, total);
  }
  return entries;
}

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
 * `models/{uuid}/camera-metadata.json` and the record's `files.cameraMetadata` is set.
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
    validation: { ...baseReport(model), cameraMetadata: check },
    last_updated: SERVER_TIMESTAMP,
  });
  hooks.onStage?.('completed');
  return { cameras: cameras.length };
}

/** The record's file fields without `paths` (lists filtered, camera metadata cleared when listed). */
function recordWithout(files: ModelFiles | undefined, paths: ReadonlySet<string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const list of ['images', 'thumbnails', 'assets'] as const) {
    const current = files?.[list] ?? [];
    const next = current.filter((p) => !paths.has(p));
    if (next.length !== current.length) data[`files.${list}`] = next;
  }
  if (files?.cameraMetadata && paths.has(files.cameraMetadata)) data['files.cameraMetadata'] = null;
  return data;
}

/**
 * Deletes one file of a model (the current files table): the main splat and GLB files are
 * refused. The record stops referring to the file (same update stamps `last_updated`), then the
 * file is deleted (a file already gone counts as deleted).
 *
 * @param backend catalog and file-store ports (admin)
 * @param modelId the model's id
 * @param path the file's storage path; it must lie in the model's folder
 * @throws AppError `invalid-argument` ('Cannot delete main model files. Delete the entire model
 *   instead.', or a path outside the model), `not-found` (model), storage errors
 */
export async function deleteModelFile(backend: FilesBackend, modelId: string, path: string): Promise<void> {
  const model = await getModel(backend, modelId);
  const entry = toFileEntry(path);
  if (entry !== null && isMainModelFile(entry.type)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.cannotDeleteMainFiles, { context: { modelId, path } });
  }
  if (entry === null || !path.startsWith(`${modelFolder(uuidOf(model))}/`)) {
    throw new AppError(ErrorCode.InvalidArgument, `${path} is not a file of model ${modelId}`, { context: { modelId, path } });
  }
  const data = recordWithout(model.files, new Set([path]));
  if (Object.keys(data).length > 0) await backend.catalog.update('models', modelId, { ...data, last_updated: SERVER_TIMESTAMP });
  const failed = await deleteFilesQuietly(backend.files, [path]);
  if (failed.length > 0) throw new AppError(ErrorCode.Internal, `Could not delete ${path}`, { context: { modelId, failed } });
}

/**
 * Deletes every image, thumbnail, asset and the camera metadata of a model ("Delete all
 * files": never the main files). The record is cleared in one update, then the files go.
 * The caller asks 'Are you sure you want to delete all N files?' first, with N from
 * {@link deletableFiles}.
 *
 * @param backend catalog and file-store ports (admin)
 * @param modelId the model's id
 * @returns the number of files deleted (0: nothing to delete, 'No files to delete.')
 * @throws AppError `not-found` (model), `internal` when some files could not be deleted (context.failed)
 */
export async function deleteAllModelFiles(backend: FilesBackend, modelId: string): Promise<number> {
  const model = await getModel(backend, modelId);
  // The main files are never deleted here: only the camera metadata and the folders are read.
  const entries = deletableFiles(await collectFileEntries(backend, model, [model.files?.cameraMetadata]));
  const paths = new Set(entries.map((entry) => entry.path));
  for (const list of ['images', 'thumbnails', 'assets'] as const) for (const p of model.files?.[list] ?? []) paths.add(p);
  if (model.files?.cameraMetadata) paths.add(model.files.cameraMetadata);
  if (paths.size === 0) return 0;
  await backend.catalog.update('models', modelId, {
    'files.images': [],
    'files.thumbnails': [],
    'files.assets': [],
    'files.cameraMetadata': null,
    last_updated: SERVER_TIMESTAMP,
  });
  const failed = await deleteFilesQuietly(backend.files, [...paths]);
  if (failed.length > 0) {
    throw new AppError(ErrorCode.Internal, `${failed.length} files could not be deleted`, { context: { modelId, failed } });
  }
  return entries.length;
}

/**
 * The entries "delete all files" removes (images, thumbnails, assets, camera metadata).
 * @param entries a model's file entries (from {@link listModelFiles})
 */
export function deletableFiles<T extends Pick<FileEntry, 'type'>>(entries: readonly T[]): T[] {
  return entries.filter((entry) => isDeletedByDeleteAll(entry.type));
}
