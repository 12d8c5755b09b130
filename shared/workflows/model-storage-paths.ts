/**
 * The storage paths of a model: those its record names and those found under its folder, the
 * set a delete must remove (and `catalog doctor` compares with storage) so nothing is orphaned.
 */
import type { FileStorePort } from '../ports/files.js';
import { modelFolder } from '../paths.js';
import type { ModelData } from '../types.js';
import { listFilesDeep } from './util.js';

/**
 * Every stored file of a model: what lies under its folder `models/{uuid}/` and every path its
 * record names (the set a delete must remove so that nothing is orphaned).
 * @param files the file store (listing)
 * @param model the model record
 * @returns the storage paths, without duplicates
 */
export async function modelFilePaths(
  files: FileStorePort,
  model: Pick<ModelData, 'files' | 'uuid'> & { id: string },
): Promise<Set<string>> {
  const paths = new Set(await listFilesDeep(files, modelFolder(model.uuid || model.id)));
  for (const path of referencedPaths(model)) paths.add(path);
  return paths;
}

/**
 * Every storage path a model record refers to: the splat, the GLB, the camera metadata and the
 * listed images, thumbnails and assets (the web-sized copies lie in its folder, which
 * {@link modelFilePaths} lists).
 * @param model the record (its `files` may be absent)
 * @returns the paths in that order, empty and missing ones left out
 */
export function referencedPaths(model: Pick<ModelData, 'files'>): string[] {
  const f = model.files ?? {};
  return [f.splatPath, f.glbPath, f.cameraMetadata, ...(f.images ?? []), ...(f.thumbnails ?? []), ...(f.assets ?? [])].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
}
