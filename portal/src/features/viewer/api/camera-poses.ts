/**
 * The camera poses of a model for the viewer: its
 * `camera-metadata.json` downloaded through the file-store port, checked with the rules, and
 * each camera matched to its photo among the model's `images/` (shared/camera-poses.ts).
 */
import { matchCameraImages, type CameraImageMatch } from '@shared/camera-poses.js';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import type { FileStorePort } from '@shared/ports/files.js';
import type { CameraMetadataEntry, Model } from '@shared/types.js';
import { createPromiseCache, type PromiseCache } from '@shared/promise-cache.js';
import { usePromise, type Resource } from '../../../lib/resource.js';
import { fetchBytes } from '../lib/fetch-bytes.js';

/** One camera as the viewer lists it. */
export interface ViewerCamera {
  entry: CameraMetadataEntry;
  /** The name the list shows: `img_name`, or 'Camera {id}' when it is empty. */
  label: string;
  /** Storage path of its photo, or null when the model has none for it. */
  imagePath: string | null;
  /** How the photo was found: by `img_name`, or by the 3DGS render script's index names. */
  matchedBy: CameraImageMatch | null;
}

/** Whether a model has camera metadata to show. */
export function hasCameraMetadata(model: Model): boolean {
  return typeof model.files?.cameraMetadata === 'string' && model.files.cameraMetadata !== '';
}

/**
 * Downloads and reads a model's camera metadata.
 * @param files the file-store port (its download links)
 * @param model a model with `files.cameraMetadata`
 * @returns its cameras in file order, each with its photo (or null)
 * @throws Error naming what went wrong: the download ('the file is missing (HTTP 404)'…) or the
 * message of a malformed file ('Invalid JSON file', 'JSON format error: Camera 3: …')
 */
export async function loadViewerCameras(files: FileStorePort, model: Model): Promise<ViewerCamera[]> {
  const path = model.files.cameraMetadata;
  if (!path) return [];
  const url = await files.getDownloadUrl(path);
  const bytes = await fetchBytes(url, () => undefined);
  const parsed = parseCameraMetadata(new TextDecoder().decode(bytes));
  if (!parsed.ok) throw new Error(parsed.message);
  return matchCameraImages(parsed.cameras, model.files.images ?? []).map(({ entry, imagePath, matchedBy }) => ({
    entry,
    label: entry.img_name.trim() !== '' ? entry.img_name : `Camera ${entry.id}`,
    imagePath,
    matchedBy,
  }));
}

/**
 * The cameras of a model, loaded once per model and version (nothing is loaded while `enabled` is
 * false or the model has no camera metadata: stays 'loading'); every caller shares one download.
 */
export function useViewerCameras(files: FileStorePort, model: Model | null, enabled: boolean): Resource<ViewerCamera[]> {
  const key = enabled && model && hasCameraMetadata(model) ? `${model.id}:${model.files.cameraMetadata}:${model.last_updated ?? ''}` : null;
  return usePromise(key, () => sharedLoad(files, key!, () => loadViewerCameras(files, model!)));
}

/** How many models' camera lists are kept per file store (a compare view shows two). */
const CAMERAS_KEPT = 4;
/** Camera lists loaded lately, per file store, by model, file and last update. */
const loaded = new WeakMap<FileStorePort, PromiseCache<ViewerCamera[]>>();

/**
 * One download per model and version of its camera metadata: the viewport (frustums and the
 * camera list) and the findings side (photos of a point) ask for the same cameras at once
 * (without this it was downloaded and parsed twice). A failed load is not kept.
 */
function sharedLoad(files: FileStorePort, key: string, load: () => Promise<ViewerCamera[]>): Promise<ViewerCamera[]> {
  let kept = loaded.get(files);
  if (!kept) loaded.set(files, (kept = createPromiseCache({ max: CAMERAS_KEPT })));
  return kept.get(key, load);
}
