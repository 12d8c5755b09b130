/**
 * Deleting a model's files from the model management screen: one file (never a main file), or
 * "delete all files" (every image, thumbnail, asset and the camera metadata). The record is
 * updated first and the files removed after, so a file that cannot be removed is reported,
 * never left referenced.
 */
import { AppError, ErrorCode } from '../errors.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ValidationMessages } from '../messages.js';
import { isDeletedByDeleteAll, isMainModelFile, modelFolder, toFileEntry } from '../paths.js';
import type { FileEntry, ModelFiles } from '../types.js';
import { collectFileEntries } from './model-files-list.js';
import type { FilesBackend } from './util.js';
import { deleteFilesQuietly, getModel, uuidOf } from './util.js';

/** The record's file fields without `paths` (lists filtered, camera metadata and its upload time cleared when listed). */
function recordWithout(files: ModelFiles | undefined, paths: ReadonlySet<string>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const list of ['images', 'thumbnails', 'assets'] as const) {
    const current = files?.[list] ?? [];
    const next = current.filter((p) => !paths.has(p));
    if (next.length !== current.length) data[`files.${list}`] = next;
  }
  if (files?.cameraMetadata && paths.has(files.cameraMetadata)) {
    data['files.cameraMetadata'] = null;
    data['files.cameraMetadataUploadedAt'] = null;
  }
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
    'files.cameraMetadataUploadedAt': null,
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
 * @param entries a model's file entries (from `listModelFiles`, model-files-list.ts)
 * @returns those entries, in their order
 */
export function deletableFiles<T extends Pick<FileEntry, 'type'>>(entries: readonly T[]): T[] {
  return entries.filter((entry) => isDeletedByDeleteAll(entry.type));
}
