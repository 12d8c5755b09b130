/**
 * Model folders (the CLI's `catalog validate` and `catalog models upload`): from the list of
 * files in a folder on disk to an upload plan. Pure: the caller walks the folder and passes
 * relative paths with their sizes.
 *
 * Two layouts are understood:
 * - **flat**: `*.ply` / `*.splat` (the splat), `*.glb` (the mesh), `cameras.json` or
 *   `camera-metadata.json` (camera metadata), `images/`, `images_thumbnails/` and
 *   `assets/` (the model's extra files);
 * - **3dgs**: a Gaussian-splatting training output: `point_cloud/iteration_<N>/point_cloud.ply`
 *   (the one with the highest N is the splat), `cameras.json`, photos in `images/` (or `input/`);
 *   a `*.glb` at the top level is taken as the mesh.
 *
 * The model type is the one given, or inferred: splat and GLB →
 * hybrid, splat only → splat, GLB only → mesh.
 */
import { ValidationMessages } from './messages.js';
import type { ModelType } from './types.js';
import { inferModelTypeFromFiles } from './model-type.js';

/** One file found in the folder. `path` is relative to the folder, '/'-separated; `size` in bytes. */
export interface FolderFile {
  path: string;
  size: number;
}

/** Which layout a folder was read as. */
export type FolderLayout = 'flat' | '3dgs';

/** The kind of a planned file, as in a model's file listing. */
export type PlannedFileKind = 'splat' | 'glb' | 'cameraMetadata' | 'image' | 'thumbnail' | 'asset';

/** A file of the plan: where it is in the folder and what it becomes. */
export interface PlannedFile {
  kind: PlannedFileKind;
  /** Path relative to the folder. */
  path: string;
  /** Name the file is stored under (`model.<ext>` for main files is decided by the upload). */
  fileName: string;
  /** Size in bytes. */
  size: number;
}

/** A problem that stops the upload. `path` names the file concerned, when there is one. */
export interface FolderProblem {
  code:
    | 'empty-folder'
    | 'no-model-file'
    | 'ambiguous-splat'
    | 'ambiguous-glb'
    | 'ambiguous-camera-metadata'
    | 'missing-required-file'
    | 'bad-file';
  message: string;
  path?: string;
}

/** The upload plan for one model folder. */
export interface ModelFolderPlan {
  layout: FolderLayout;
  /** The given type, or the inferred one; null when no model file was found. */
  modelType: ModelType | null;
  /** True when `modelType` was inferred from the files rather than given. */
  typeInferred: boolean;
  splat: PlannedFile | null;
  glb: PlannedFile | null;
  cameraMetadata: PlannedFile | null;
  images: PlannedFile[];
  thumbnails: PlannedFile[];
  assets: PlannedFile[];
  /** Files left out, with the reason (unknown files, older 3DGS iterations, a splat not needed by a mesh…). */
  ignored: { path: string; reason: string }[];
  /** Problems; an empty list means the plan can be uploaded. */
  problems: FolderProblem[];
  /** Total bytes of every planned file. */
  totalBytes: number;
}

const SPLAT_RE = /\.(ply|splat)$/i;
const GLB_RE = /\.glb$/i;
const IMAGE_RE = /\.(jpe?g|png|webp|gif|bmp|tiff?)$/i;
const ITERATION_RE = /^point_cloud\/iteration_(\d+)\/point_cloud\.ply$/;
const CAMERA_NAMES = ['cameras.json', 'camera-metadata.json'];

/** The file name part of a '/'-separated path. */
function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i === -1 ? path : path.slice(i + 1);
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '').replace(/^\/+/, '');
}

function isHidden(path: string): boolean {
  return path.split('/').some((part) => part.startsWith('.'));
}

function planned(kind: PlannedFileKind, file: FolderFile): PlannedFile {
  return { kind, path: file.path, fileName: baseName(file.path), size: file.size };
}

/**
 * Reads a folder's file list as a model upload plan (see the module comment for the layouts).
 *
 * @param files every file in the folder, relative '/'-separated paths with sizes in bytes
 *   (hidden files and folders, starting with '.', are ignored)
 * @param options.modelType the type asked for; when absent it is inferred. A given type keeps only
 *   the files it uses (mesh drops a splat, splat drops a GLB) and must find them (else
 *   'Required file types are missing based on the selected model type.')
 * @returns the plan; `problems` lists everything that stops an upload (two splats, two GLBs, two
 *   camera files, no model file, a missing required file). Never throws.
 */
export function planModelFolder(files: readonly FolderFile[], options: { modelType?: ModelType | null } = {}): ModelFolderPlan {
  const all = files.map((f) => ({ path: normalise(f.path), size: f.size })).sort((a, b) => a.path.localeCompare(b.path));
  const ignored: { path: string; reason: string }[] = [];
  const problems: FolderProblem[] = [];
  const visible = all.filter((f) => {
    if (isHidden(f.path)) {
      ignored.push({ path: f.path, reason: 'hidden file' });
      return false;
    }
    return true;
  });

  const iterations = visible
    .map((f) => ({ file: f, match: ITERATION_RE.exec(f.path) }))
    .filter((x): x is { file: FolderFile; match: RegExpExecArray } => x.match !== null)
    .map((x) => ({ file: x.file, n: Number(x.match[1]) }))
    .sort((a, b) => b.n - a.n);
  const layout: FolderLayout = iterations.length > 0 ? '3dgs' : 'flat';

  const splats: FolderFile[] = [];
  const glbs: FolderFile[] = [];
  const cameras: FolderFile[] = [];
  const images: PlannedFile[] = [];
  const thumbnails: PlannedFile[] = [];
  const assets: PlannedFile[] = [];

  const hasImagesDir = visible.some((f) => f.path.startsWith('images/'));

  for (const file of visible) {
    const topLevel = !file.path.includes('/');
    const [dir] = file.path.split('/');
    const rest = file.path.slice(dir.length + 1);
    if (layout === '3dgs' && file.path.startsWith('point_cloud/')) {
      if (iterations[0].file === file) splats.push(file);
      else ignored.push({ path: file.path, reason: `older training output (iteration ${iterations[0].n} is used)` });
      continue;
    }
    if (topLevel) {
      if (CAMERA_NAMES.includes(file.path.toLowerCase())) cameras.push(file);
      else if (GLB_RE.test(file.path)) glbs.push(file);
      else if (SPLAT_RE.test(file.path)) {
        if (layout === '3dgs') ignored.push({ path: file.path, reason: 'not the trained splat (point_cloud/iteration_N is used)' });
        else splats.push(file);
      } else ignored.push({ path: file.path, reason: 'not a model file' });
      continue;
    }
    const direct = !rest.includes('/');
    if (dir === 'images' && direct && IMAGE_RE.test(rest)) images.push(planned('image', file));
    else if (dir === 'input' && layout === '3dgs' && !hasImagesDir && direct && IMAGE_RE.test(rest)) images.push(planned('image', file));
    else if (dir === 'images_thumbnails' && direct && IMAGE_RE.test(rest)) thumbnails.push(planned('thumbnail', file));
    else if (dir === 'assets' && direct) assets.push(planned('asset', file));
    else ignored.push({ path: file.path, reason: 'not part of a model folder' });
  }

  if (visible.length === 0) {
    problems.push({ code: 'empty-folder', message: 'The folder is empty.' });
  }
  if (splats.length > 1) {
    problems.push({
      code: 'ambiguous-splat',
      message: `Found ${splats.length} splat files (${splats.map((f) => f.path).join(', ')}): keep exactly one .ply or .splat in the folder.`,
    });
  }
  if (glbs.length > 1) {
    problems.push({
      code: 'ambiguous-glb',
      message: `Found ${glbs.length} GLB files (${glbs.map((f) => f.path).join(', ')}): keep exactly one .glb in the folder.`,
    });
  }
  if (cameras.length > 1) {
    problems.push({
      code: 'ambiguous-camera-metadata',
      message: `${ValidationMessages.cameraOneFile} (found ${cameras.map((f) => f.path).join(' and ')}).`,
    });
  }

  let splat: PlannedFile | null = splats.length === 1 ? planned('splat', splats[0]) : null;
  let glb: PlannedFile | null = glbs.length === 1 ? planned('glb', glbs[0]) : null;
  const cameraMetadata = cameras.length === 1 ? planned('cameraMetadata', cameras[0]) : null;

  const given = options.modelType ?? null;
  let modelType: ModelType | null;
  if (given === null) {
    modelType = inferModelTypeFromFiles(splats.length > 0, glbs.length > 0);
    if (modelType === null && visible.length > 0) {
      problems.push({
        code: 'no-model-file',
        message:
          'No model file found: the folder needs a splat (.ply or .splat, or point_cloud/iteration_<N>/point_cloud.ply) or a GLB (.glb).',
      });
    }
  } else {
    modelType = given;
    const missing =
      (given === 'splat' && splats.length === 0) ||
      (given === 'mesh' && glbs.length === 0) ||
      (given === 'hybrid' && splats.length === 0 && glbs.length === 0);
    if (missing) {
      const need = given === 'splat' ? 'a splat (.ply or .splat)' : given === 'mesh' ? 'a GLB (.glb)' : 'a splat or a GLB';
      problems.push({
        code: 'missing-required-file',
        message: `${ValidationMessages.addModelFilesMissing} Type ${given} needs ${need}.`,
      });
    }
    if (given === 'mesh' && splat !== null) {
      ignored.push({ path: splat.path, reason: 'model type mesh uses only the GLB' });
      splat = null;
    }
    if (given === 'splat' && glb !== null) {
      ignored.push({ path: glb.path, reason: 'model type splat uses only the splat' });
      glb = null;
    }
  }

  const planFiles = [splat, glb, cameraMetadata, ...images, ...thumbnails, ...assets].filter((f): f is PlannedFile => f !== null);
  return {
    layout,
    modelType,
    typeInferred: given === null,
    splat,
    glb,
    cameraMetadata,
    images,
    thumbnails,
    assets,
    ignored,
    problems,
    totalBytes: planFiles.reduce((sum, f) => sum + f.size, 0),
  };
}

/**
 * Every file the plan uploads, main files first.
 * @param plan a plan from {@link planModelFolder}
 */
export function plannedFiles(plan: ModelFolderPlan): PlannedFile[] {
  return [plan.splat, plan.glb, plan.cameraMetadata, ...plan.images, ...plan.thumbnails, ...plan.assets].filter(
    (f): f is PlannedFile => f !== null,
  );
}
