/**
 * Storage paths, exactly as every backend stores them, and the file-entry classifier of
 * the model file listing:
 *
 * ```
 * models/{uuid}/model.<ext>               splat (ext 'ply' or 'splat')
 * models/{uuid}/model.glb                 GLB mesh
 * models/{uuid}/images/{name}             photos
 * models/{uuid}/images_thumbnails/{name}  thumbnails (files.thumbnails[0] is the model's thumbnail)
 * models/{uuid}/assets/{name}             other assets
 * models/{uuid}/camera-metadata.json      camera metadata
 * models/{uuid}/changes/{ref}.bin         a change map's per-Gaussian values against reference model {ref}
 * ```
 *
 * File names are sanitised before they become part of a path (no '/', no '..', no control
 * characters), so an uploaded name can never leave its folder.
 */
import { AppError, ErrorCode } from './errors.js';
import type { UploadSource } from './ports/files.js';
import type { FileEntry, FileEntryType } from './types.js';

/** Root folder of every model's files. */
export const MODELS_ROOT = 'models';
/** File name of the camera metadata. */
export const CAMERA_METADATA_FILE_NAME = 'camera-metadata.json';
/** Base name of the main model files (model.<ext>, model.glb). */
export const MODEL_FILE_BASE_NAME = 'model';

/** Splat file extensions (the splat input accepts .splat and .ply). */
export type SplatExtension = 'ply' | 'splat';
/** The sub-folders of a model folder that hold additional files. */
export type ModelSubfolder = 'images' | 'images_thumbnails' | 'assets';
export const MODEL_SUBFOLDERS: readonly ModelSubfolder[] = ['images', 'images_thumbnails', 'assets'];
/**
 * The folder of a capture's change-map values (`models/{uuid}/changes/`): one file per reference
 * model it was compared with, written with its change map, not an additional file a person uploads.
 */
export const CHANGE_VALUES_FOLDER = 'changes';
/** The extension of a change map's values file. */
export const CHANGE_VALUES_EXTENSION = '.bin';

// Control characters: C0, DEL and C1.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS_RE = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const HAS_CONTROL_CHAR_RE = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Makes an uploaded file's name safe as the last segment of a storage path: control characters
 * are removed, '/' and '\' become '_', runs of dots become one dot ('..' never survives), and
 * surrounding whitespace is trimmed.
 * @returns the safe name, or '' when nothing usable remains (e.g. '..', '/', '')
 */
export function sanitizeFileName(name: string): string {
  const cleaned = name
    .replace(CONTROL_CHARS_RE, '')
    .replace(/[/\\]/g, '_')
    .replace(/\.{2,}/g, '.')
    .trim();
  return cleaned === '.' ? '' : cleaned;
}

/** Longest file name (one path segment) in UTF-8 bytes: what every common file system takes (ext4, APFS, NTFS). */
export const MAX_FILE_NAME_BYTES = 255;

/**
 * Checks a file name (the last segment of a stored path) as it will be stored: not empty, not
 * '.' or '..', no '..' inside, no '/', '\' or control characters, no surrounding spaces, at most
 * {@link MAX_FILE_NAME_BYTES} bytes. What {@link sanitizeFileName} returns passes, unless too long.
 * @returns the name unchanged
 * @throws AppError `invalid-argument` saying what is wrong
 */
export function checkFileName(name: string): string {
  const bad = (reason: string): AppError =>
    new AppError(
      ErrorCode.InvalidArgument,
      `Invalid file name ${JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name)}: ${reason}`,
      { context: { name: name.slice(0, 300) } },
    );
  if (name === '' || name === '.' || name === '..') throw bad('empty');
  const bytes = new TextEncoder().encode(name).length;
  if (bytes > MAX_FILE_NAME_BYTES) throw bad(`too long (${bytes} bytes; at most ${MAX_FILE_NAME_BYTES})`);
  if (/[/\\]/.test(name) || HAS_CONTROL_CHAR_RE.test(name)) throw bad("it contains '/', '\\' or a control character");
  if (name.includes('..')) throw bad("it contains '..'");
  if (name.trim() !== name) throw bad('it starts or ends with a space');
  return name;
}

function requireFileName(name: string): string {
  const safe = sanitizeFileName(name);
  if (safe === '') throw new AppError(ErrorCode.InvalidArgument, `Invalid file name: ${JSON.stringify(name)}`, { context: { name } });
  return checkFileName(safe);
}

/** A model uuid as this product creates them (`crypto.randomUUID()`): 8-4-4-4-12 hex digits. */
const MODEL_UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the form of a model uuid (8-4-4-4-12 hex digits, any case). */
export function isModelUuid(value: string): boolean {
  return MODEL_UUID_RE.test(value);
}

/** The files directly in a model folder: the main model files and the camera metadata. */
/** File name of a model's web-sized splat (SPZ), beside the original. */
export const WEB_SPLAT_FILE_NAME = `${MODEL_FILE_BASE_NAME}.spz`;

/**
 * File name of the preview of a large capture's web-sized splat (SPZ of its most important
 * Gaussians, SH degree 0), beside the copy: the viewer shows it first.
 */
export const WEB_SPLAT_PREVIEW_FILE_NAME = `${MODEL_FILE_BASE_NAME}.preview.spz`;

/** File name of a model's web-sized GLB (meshopt geometry, WebP textures), beside the original. */
export const WEB_GLB_FILE_NAME = `${MODEL_FILE_BASE_NAME}.web.glb`;

const MODEL_FOLDER_FILES: ReadonlySet<string> = new Set([
  WEB_SPLAT_FILE_NAME,
  WEB_SPLAT_PREVIEW_FILE_NAME,
  WEB_GLB_FILE_NAME,
  `${MODEL_FILE_BASE_NAME}.ply`,
  `${MODEL_FILE_BASE_NAME}.splat`,
  `${MODEL_FILE_BASE_NAME}.glb`,
  CAMERA_METADATA_FILE_NAME,
]);

/**
 * The one rule for a path a file may be stored at, enforced by the
 * embedded server on every upload route and by the adapters before they upload:
 * `models/{uuid}/model.ply|model.splat|model.glb`, the web-sized copies `models/{uuid}/model.spz` and
 * `models/{uuid}/model.web.glb`, the splat copy's preview `models/{uuid}/model.preview.spz`,
 * `models/{uuid}/camera-metadata.json`,
 * `models/{uuid}/images|images_thumbnails|assets/{name}`, or a change map's values
 * `models/{uuid}/changes/{name}.bin`, with `{uuid}` a model uuid ({@link isModelUuid}) and
 * `{name}` a valid file name ({@link checkFileName}).
 * @returns the path unchanged
 * @throws AppError `invalid-argument` "Invalid storage path '…': …" saying which part is wrong
 */
export function validateModelFilePath(path: unknown): string {
  const shown = typeof path === 'string' ? (path.length > 80 ? `${path.slice(0, 80)}…` : path) : String(path);
  const bad = (reason: string, cause?: unknown): AppError =>
    new AppError(ErrorCode.InvalidArgument, `Invalid storage path '${shown}': ${reason}`, { cause, context: { path: shown } });
  if (typeof path !== 'string' || path === '') throw bad('empty');
  const parts = path.split('/');
  if (parts[0] !== MODELS_ROOT || parts.length < 3) throw bad(`files are stored only under ${MODELS_ROOT}/{uuid}/`);
  if (!isModelUuid(parts[1]!)) throw bad(`'${parts[1]!.slice(0, 60)}' is not a model uuid`);
  const folders = [...MODEL_SUBFOLDERS, CHANGE_VALUES_FOLDER];
  if (parts.length === 3) {
    if (!MODEL_FOLDER_FILES.has(parts[2]!))
      throw bad(`a model folder holds only ${[...MODEL_FOLDER_FILES].join(', ')} and the folders ${folders.join(', ')}`);
    return path;
  }
  if (parts.length !== 4 || !folders.includes(parts[2]!)) {
    throw bad(`files below a model folder go directly into ${folders.map((f) => `${f}/`).join(', ')}`);
  }
  try {
    checkFileName(parts[3]!);
  } catch (error) {
    throw bad((error as Error).message, error);
  }
  if (parts[2] === CHANGE_VALUES_FOLDER && (!parts[3]!.endsWith(CHANGE_VALUES_EXTENSION) || parts[3] === CHANGE_VALUES_EXTENSION)) {
    throw bad(`${CHANGE_VALUES_FOLDER}/ holds only change-map values, {referenceModelId}${CHANGE_VALUES_EXTENSION}`);
  }
  return path;
}

/** True when `uuid` is usable as a folder name: non-empty, no '/', '\', '..' or control characters. */
export function isSafeModelUuid(uuid: string): boolean {
  return uuid !== '' && uuid.trim() === uuid && !/[/\\]/.test(uuid) && !uuid.includes('..') && !HAS_CONTROL_CHAR_RE.test(uuid);
}

function requireUuid(uuid: string): string {
  if (!isSafeModelUuid(uuid))
    throw new AppError(ErrorCode.InvalidArgument, `Invalid model uuid: ${JSON.stringify(uuid)}`, { context: { uuid } });
  return uuid;
}

/** `models/{uuid}`: the model's folder, without a trailing '/'. */
export function modelFolder(uuid: string): string {
  return `${MODELS_ROOT}/${requireUuid(uuid)}`;
}

/** `models/{uuid}/{subfolder}`, without a trailing '/'. */
export function modelSubfolderPath(uuid: string, subfolder: ModelSubfolder): string {
  return `${modelFolder(uuid)}/${subfolder}`;
}

/**
 * The splat extension of a file name or an extension ('scene.PLY', '.splat', 'ply'), lower-cased.
 * @returns 'ply' or 'splat', or null for anything else
 */
export function splatExtensionOf(fileNameOrExt: string): SplatExtension | null {
  const ext = (fileNameOrExt.includes('.') ? fileNameOrExt.slice(fileNameOrExt.lastIndexOf('.') + 1) : fileNameOrExt).trim().toLowerCase();
  return ext === 'ply' || ext === 'splat' ? ext : null;
}

/**
 * `models/{uuid}/model.<ext>`, ext lower-cased.
 * @param ext 'ply' or 'splat' (any case, with or without the dot), or the uploaded file's name
 * @throws AppError `invalid-argument` for another extension or an unsafe uuid
 */
export function splatPath(uuid: string, ext: string): string {
  const normalised = splatExtensionOf(ext);
  if (normalised === null) {
    throw new AppError(ErrorCode.InvalidArgument, `A splat file must be .ply or .splat, not ${JSON.stringify(ext)}`, { context: { ext } });
  }
  return `${modelFolder(uuid)}/${MODEL_FILE_BASE_NAME}.${normalised}`;
}

/** `models/{uuid}/model.spz`: the web-sized copy of a splat, beside it ({@link WEB_SPLAT_FILE_NAME}). */
export function webSplatPath(uuid: string): string {
  return `${modelFolder(uuid)}/${WEB_SPLAT_FILE_NAME}`;
}

/**
 * `models/{uuid}/model.preview.spz`: the preview of a large capture's web-sized splat, beside the
 * copy ({@link WEB_SPLAT_PREVIEW_FILE_NAME}).
 * @param uuid the model's uuid
 * @returns the storage path
 */
export function webSplatPreviewPath(uuid: string): string {
  return `${modelFolder(uuid)}/${WEB_SPLAT_PREVIEW_FILE_NAME}`;
}

/**
 * Whether a splat file gets a web-sized copy: a 3DGS PLY (any SH degree up to 3) or a `.splat`.
 * An SPZ is already web-sized.
 * @param path a storage path or file name
 * @returns true for a `.ply` or `.splat` name (any case)
 */
export function hasWebSplatCopy(path: string): boolean {
  return /\.(ply|splat)$/i.test(path);
}

/** `models/{uuid}/model.web.glb`: the web-sized copy of a GLB, beside it ({@link WEB_GLB_FILE_NAME}). */
export function webGlbPath(uuid: string): string {
  return `${modelFolder(uuid)}/${WEB_GLB_FILE_NAME}`;
}

/**
 * Smallest GLB that gets a web-sized copy, in bytes (8 MiB): below it the download is quick
 * anyway and the copy would save little, so none is made (by the upload or by `catalog doctor --fix`).
 */
export const WEB_GLB_MIN_BYTES = 8 * 1024 * 1024;

/**
 * How many times smaller than the original a web-sized GLB must be to be kept (2): a copy that
 * saves less is not worth a second file (and a second, lossy, version of the model); the viewer
 * then loads the original.
 */
export const WEB_GLB_MIN_RATIO = 2;

/**
 * Whether a GLB of this size gets a web-sized copy made: at least {@link WEB_GLB_MIN_BYTES}.
 * @param glbBytes the original GLB's size in bytes (null or missing: unknown, no copy)
 * @returns true when a copy is worth trying
 */
export function wantsWebGlbCopy(glbBytes: number | null | undefined): boolean {
  return typeof glbBytes === 'number' && glbBytes >= WEB_GLB_MIN_BYTES;
}

/**
 * Whether a web-sized GLB is kept: when it is at least {@link WEB_GLB_MIN_RATIO} times smaller
 * than the original.
 * @param originalBytes the original GLB's size in bytes
 * @param copyBytes the copy's size in bytes
 * @returns null when it is kept, else why not (for the report's notes), e.g. 'the copy would be
 *   7.9 MB of 10.2 MB, not 2× smaller'
 */
export function webGlbRefusal(originalBytes: number, copyBytes: number): string | null {
  if (copyBytes > 0 && copyBytes * WEB_GLB_MIN_RATIO <= originalBytes) return null;
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
  return `the copy would be ${mb(copyBytes)} of ${mb(originalBytes)}, not ${WEB_GLB_MIN_RATIO}× smaller`;
}

/** `models/{uuid}/model.glb`. */
export function glbPath(uuid: string): string {
  return `${modelFolder(uuid)}/${MODEL_FILE_BASE_NAME}.glb`;
}

/** `models/{uuid}/camera-metadata.json`. */
export function cameraMetadataPath(uuid: string): string {
  return `${modelFolder(uuid)}/${CAMERA_METADATA_FILE_NAME}`;
}

/**
 * `models/{uuid}/{subfolder}/{name}` with the name sanitised.
 * @throws AppError `invalid-argument` when the name has nothing usable or the uuid is unsafe
 */
export function modelSubfolderFilePath(uuid: string, subfolder: ModelSubfolder, name: string): string {
  return `${modelSubfolderPath(uuid, subfolder)}/${requireFileName(name)}`;
}

/**
 * `models/{uuid}/changes/{referenceModelId}.bin`: the per-Gaussian values of the change map of
 * capture `uuid` against reference model `referenceModelId`, in the capture's folder (so it goes
 * with the capture, and a reader who may not open the capture may not read it).
 * @param modelUuid the capture's uuid (its folder)
 * @param referenceModelId the reference model's id; `{id}.bin` must be a valid file name as it is
 *   (never sanitised: the path must name that model exactly)
 * @returns the storage path
 * @throws AppError `invalid-argument` for an unsafe uuid or an id that is no valid file name
 */
export function changeValuesPath(modelUuid: string, referenceModelId: string): string {
  try {
    checkFileName(`${referenceModelId}${CHANGE_VALUES_EXTENSION}`);
  } catch (error) {
    throw new AppError(ErrorCode.InvalidArgument, `Invalid reference model id for a change map: ${JSON.stringify(referenceModelId)}`, {
      cause: error,
      context: { referenceModelId },
    });
  }
  return `${modelFolder(modelUuid)}/${CHANGE_VALUES_FOLDER}/${referenceModelId}${CHANGE_VALUES_EXTENSION}`;
}

/**
 * The parts of a change map's values path ({@link changeValuesPath}).
 * @param path a storage path
 * @returns `{uuid, referenceModelId}` for `models/{uuid}/changes/{referenceModelId}.bin`, else null
 */
export function parseChangeValuesPath(path: string): { uuid: string; referenceModelId: string } | null {
  const parts = path.split('/');
  if (parts.length !== 4 || parts[0] !== MODELS_ROOT || parts[1] === '' || parts[2] !== CHANGE_VALUES_FOLDER) return null;
  const name = parts[3]!;
  if (!name.endsWith(CHANGE_VALUES_EXTENSION) || name.length === CHANGE_VALUES_EXTENSION.length) return null;
  return { uuid: parts[1]!, referenceModelId: name.slice(0, -CHANGE_VALUES_EXTENSION.length) };
}

/** `models/{uuid}/images/{name}`, name sanitised. */
export function imagePath(uuid: string, name: string): string {
  return modelSubfolderFilePath(uuid, 'images', name);
}

/** `models/{uuid}/images_thumbnails/{name}`, name sanitised. */
export function thumbnailPath(uuid: string, name: string): string {
  return modelSubfolderFilePath(uuid, 'images_thumbnails', name);
}

/** `models/{uuid}/assets/{name}`, name sanitised. */
export function assetPath(uuid: string, name: string): string {
  return modelSubfolderFilePath(uuid, 'assets', name);
}

/** The last segment of a '/'-separated path ('models/u/images/a.jpg' → 'a.jpg'). */
export function fileNameOf(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

/**
 * Splits a storage path under `models/` into the model uuid and the rest.
 * @returns `{uuid, rest}` ('models/u/images/a.jpg' → {uuid: 'u', rest: 'images/a.jpg'}), or null
 *   when the path is not inside a model folder
 */
export function parseModelPath(path: string): { uuid: string; rest: string } | null {
  const parts = path.replace(/^\/+/, '').split('/');
  if (parts.length < 3 || parts[0] !== MODELS_ROOT || parts[1] === '') return null;
  const rest = parts.slice(2).join('/');
  return rest === '' ? null : { uuid: parts[1] as string, rest };
}

/**
 * The FileEntry type of a storage path:
 * - `models/{uuid}/camera-metadata.json` → 'cameraMetadata'
 * - `models/{uuid}/images/…` → 'image'; `…/images_thumbnails/…` → 'thumbnail'; `…/assets/…` → 'asset'
 * - a file directly in the model folder ending in .ply, .splat or .spz (the web-sized copy) → 'splat', in .glb
 *   (the original or its web-sized copy `model.web.glb`) → 'glb'
 *   (`model.<ext>` as written by this product, or another name from older uploads)
 * @returns the type, or null for a path that is none of these (outside `models/{uuid}/`, a
 *   folder, another file directly in the model folder, a change map's values in `changes/`: that
 *   file is written and deleted with its change map, never listed or deleted as a model file)
 */
export function fileEntryType(path: string): FileEntryType | null {
  const parsed = parseModelPath(path);
  if (parsed === null) return null;
  const { rest } = parsed;
  const slash = rest.indexOf('/');
  if (slash === -1) {
    if (rest === CAMERA_METADATA_FILE_NAME) return 'cameraMetadata';
    const lower = rest.toLowerCase();
    if (lower.endsWith('.glb')) return 'glb';
    if (lower.endsWith('.ply') || lower.endsWith('.splat') || lower.endsWith('.spz')) return 'splat';
    return null;
  }
  const folder = rest.slice(0, slash);
  if (rest.length === slash + 1) return null; // a folder, not a file
  if (folder === 'images') return 'image';
  if (folder === 'images_thumbnails') return 'thumbnail';
  if (folder === 'assets') return 'asset';
  return null;
}

/**
 * A FileEntry for a stored file.
 * @param size size in bytes, when known
 * @returns the entry, or null when {@link fileEntryType} does not know the path
 */
export function toFileEntry(path: string, size?: number | null): FileEntry | null {
  const type = fileEntryType(path);
  if (type === null) return null;
  return typeof size === 'number' && Number.isFinite(size) ? { path, type, size } : { path, type };
}

/**
 * True for the main model files (splat and GLB), which cannot be deleted one by one ('Cannot
 * delete main model files. Delete the entire model instead.').
 */
export function isMainModelFile(type: FileEntryType | null): boolean {
  return type === 'splat' || type === 'glb';
}

/** The file types "delete all files" removes: images, thumbnails, assets and camera metadata. */
export const DELETE_ALL_FILE_TYPES: readonly FileEntryType[] = ['image', 'thumbnail', 'asset', 'cameraMetadata'];

/** True when "delete all files" applies to a file of this type. */
export function isDeletedByDeleteAll(type: FileEntryType | null): boolean {
  return type !== null && DELETE_ALL_FILE_TYPES.includes(type);
}

/**
 * {@link validateModelFilePath} for an adapter's upload of one or more files: when any path is
 * refused, every platform stream source (`{ input }`, e.g. an `fs.ReadStream`) of the call is
 * destroyed, as the port promises that the store consumes them, so no file handle is left open.
 * @param uploads the storage paths and sources of one upload call
 * @throws AppError `invalid-argument` for the first refused path
 */
export function checkUploadTargets(uploads: ReadonlyArray<{ path: string; source: UploadSource }>): void {
  try {
    for (const upload of uploads) validateModelFilePath(upload.path);
  } catch (error) {
    for (const { source } of uploads) {
      if (!(typeof Blob !== 'undefined' && source instanceof Blob))
        (source as { input?: { destroy?: () => void } | null }).input?.destroy?.();
    }
    throw error;
  }
}

/** {@link checkUploadTargets} for one file. @returns the path unchanged */
export function checkUploadTarget(path: string, source: UploadSource): string {
  checkUploadTargets([{ path, source }]);
  return path;
}
