/**
 * Which stored photo belongs to which camera: a camera's `img_name` matched against a model's
 * image paths by file name (with or without extension), and, for a set of cameras none of whose
 * names matches, by the camera's index as the 3DGS render script names its photos.
 */
import { fileNameOf } from '../paths.js';
import type { CameraMetadataEntry } from '../types.js';

/** Extension of a file name: a final '.' and 1–5 letters or digits (null when there is none). */
const extensionOf = (name: string): string | null => /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1] ?? null;
const stemOf = (name: string): string => {
  const ext = extensionOf(name);
  return ext === null || ext.length + 1 >= name.length ? name : name.slice(0, -(ext.length + 1));
};

/**
 * The photo of a camera among a model's stored image paths (`models/{uuid}/images/…`).
 * `img_name` carries an extension in some 3DGS outputs and not in others (samples/SOURCES.md),
 * and may carry a folder (`images/frame_1.jpg`, only its last segment counts). A path matches,
 * best first:
 * 1. its file name equals `img_name`;
 * 2. same name and an extension equal but for case (`frame_1.jpg` ↔ `frame_1.JPG`);
 * 3. its name without extension equals `img_name` (`frame_1` ↔ `frame_1.png`);
 * 4. both names without extension are equal (`frame_1.jpg` ↔ `frame_1.png`, a converted photo).
 * Stems compare case-sensitively (COLMAP names do); ties go to the earlier path.
 * @param imgName the camera's `img_name`
 * @param imagePaths storage paths or file names (e.g. a model's `files.images`)
 * @returns the matching element of `imagePaths`, or null
 */
export function matchCameraImage(imgName: string, imagePaths: readonly string[]): string | null {
  const name = imgName.trim().split(/[/\\]/).pop() ?? '';
  if (name === '') return null;
  const ext = extensionOf(name);
  const stem = stemOf(name);
  let best: { rank: number; path: string } | null = null;
  for (const path of imagePaths) {
    const file = fileNameOf(path);
    const fileExt = extensionOf(file);
    const fileStem = stemOf(file);
    let rank = 0;
    if (file === name) rank = 4;
    else if (fileStem === stem && ext !== null && fileExt !== null && fileExt.toLowerCase() === ext.toLowerCase()) rank = 3;
    else if (fileExt !== null && fileStem === name) rank = 2;
    else if (ext !== null && fileExt !== null && fileStem === stem) rank = 1;
    if (rank === 4) return path;
    if (rank > 0 && (best === null || rank > best.rank)) best = { rank, path };
  }
  return best?.path ?? null;
}

/** How {@link matchCameraImages} found a camera's photo. */
export type CameraImageMatch = 'name' | 'index';

/**
 * Each camera with its photo, in entry order: by {@link matchCameraImage} on `img_name`; and when
 * no camera's name matches any photo at all, by the camera's index, as the 3DGS render script
 * names the ground-truth photos it writes (`render.py`: `{idx:05d}.png`, idx the position of the
 * camera in the unshuffled training list, which is also its `id` in `cameras.json` when training
 * ran without an eval split). A folder of such render outputs (e.g. `train/ours_7000/gt/*.png`)
 * thus still links each camera to its photo; a photo whose name is not all digits never matches
 * by index, and a name match anywhere turns the index rule off for the whole set.
 * @param entries cameras (`id`, `img_name`)
 * @param imagePaths a model's image storage paths
 * @returns `[{entry, imagePath, matchedBy}]`; `imagePath` and `matchedBy` null when no photo matches
 */
export function matchCameraImages<T extends Pick<CameraMetadataEntry, 'img_name'> & { id?: unknown }>(
  entries: readonly T[],
  imagePaths: readonly string[],
): { entry: T; imagePath: string | null; matchedBy: CameraImageMatch | null }[] {
  const byName = entries.map((entry) => (typeof entry.img_name === 'string' ? matchCameraImage(entry.img_name, imagePaths) : null));
  if (byName.some((path) => path !== null)) {
    return entries.map((entry, i) => ({ entry, imagePath: byName[i]!, matchedBy: byName[i] === null ? null : ('name' as const) }));
  }
  const byIndex = new Map<number, string>();
  for (const path of imagePaths) {
    const stem = stemOf(fileNameOf(path));
    if (/^\d{1,9}$/.test(stem) && extensionOf(fileNameOf(path)) !== null && !byIndex.has(Number(stem))) byIndex.set(Number(stem), path);
  }
  return entries.map((entry) => {
    const path = typeof entry.id === 'number' && Number.isInteger(entry.id) ? (byIndex.get(entry.id) ?? null) : null;
    return { entry, imagePath: path, matchedBy: path === null ? null : ('index' as const) };
  });
}
