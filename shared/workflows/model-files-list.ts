/**
 * Listing a model's files for the model management screen: the main files and camera metadata
 * its record names (those still in storage, with their size) and every file in its images/,
 * images_thumbnails/ and assets/ folders, as FileEntry rows, with loading progress.
 */
import { AppError, ErrorCode } from '../errors.js';
import { modelSubfolderPath, MODEL_SUBFOLDERS, toFileEntry } from '../paths.js';
import type { FileEntry, Model } from '../types.js';
import type { FilesBackend } from './util.js';
import { getModel, uuidOf } from './util.js';

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
 * @param backend the file-store port (listing, metadata)
 * @param model the model's record (its uuid names the folders)
 * @param recordPaths storage paths from the record; empty and missing ones are skipped, and a
 *   path no longer in storage is left out
 * @param onProgress called with (loaded, total): total counts the record paths and folder items
 * @returns the record paths' entries in the given order, then the folder items in listing order
 *   (paths that are no model file of a known kind are left out)
 * @throws storage errors other than a missing object
 */
export async function collectFileEntries(
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
