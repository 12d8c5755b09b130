/**
 * Model types and file kinds: the project-detail type label, the model-list
 * kind label, the add-model type options and file rules, accepted file extensions, and a model's
 * total file size.
 */
import type { ModelData, ModelType } from './types.js';

/** The model types, in the order of the add-model radio. */
export const MODEL_TYPES: readonly ModelType[] = ['hybrid', 'splat', 'mesh'];

/** True for 'hybrid', 'splat' and 'mesh'. */
export function isModelType(value: unknown): value is ModelType {
  return value === 'hybrid' || value === 'splat' || value === 'mesh';
}

/** The add-model radio labels. */
export const MODEL_TYPE_OPTION_LABELS: Readonly<Record<ModelType, string>> = {
  hybrid: 'Hybrid (Splat + Mesh)',
  splat: 'Splat Only',
  mesh: 'Mesh Only',
};

/** The project-detail type labels. */
export type ModelTypeLabel = 'Hybrid' | 'Splat' | 'Mesh' | 'Unknown';

const TYPE_LABELS: Readonly<Record<ModelType, ModelTypeLabel>> = { hybrid: 'Hybrid', splat: 'Splat', mesh: 'Mesh' };

function hasPath(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** Which main files a model record has (a non-empty splatPath / glbPath). */
export function mainFilesOf(model: Pick<ModelData, 'files'>): { hasSplat: boolean; hasGlb: boolean } {
  return { hasSplat: hasPath(model.files?.splatPath), hasGlb: hasPath(model.files?.glbPath) };
}

/**
 * The model's type from its files: both → 'hybrid', splat → 'splat', glb → 'mesh', none → null.
 */
export function inferModelTypeFromFiles(hasSplat: boolean, hasGlb: boolean): ModelType | null {
  if (hasSplat && hasGlb) return 'hybrid';
  if (hasSplat) return 'splat';
  if (hasGlb) return 'mesh';
  return null;
}

/**
 * The type label of project detail: the stored modelType ('Hybrid', 'Splat', 'Mesh'); else,
 * from the files, 'Hybrid' when both a splat and a glb path exist, 'Splat', 'Mesh', or 'Unknown'.
 * A stored value other than the three types is ignored.
 */
export function modelTypeLabel(model: Pick<ModelData, 'modelType' | 'files'>): ModelTypeLabel {
  if (isModelType(model.modelType)) return TYPE_LABELS[model.modelType];
  const { hasSplat, hasGlb } = mainFilesOf(model);
  const inferred = inferModelTypeFromFiles(hasSplat, hasGlb);
  return inferred === null ? 'Unknown' : TYPE_LABELS[inferred];
}

/** The kind labels of the model list. */
export type ModelKindLabel = '3D Gaussian Splat' | 'GLB Model' | 'No 3D file';

/**
 * The kind shown in the model list: '3D Gaussian Splat' when a splat path exists, else 'GLB
 * Model' when a glb path exists, else 'No 3D file'.
 */
export function modelKindLabel(model: Pick<ModelData, 'files'>): ModelKindLabel {
  const { hasSplat, hasGlb } = mainFilesOf(model);
  if (hasSplat) return '3D Gaussian Splat';
  if (hasGlb) return 'GLB Model';
  return 'No 3D file';
}

/**
 * The model list's kind line: the kind label and, for a model whose type label is 'Hybrid', that
 * label after it ('3D Gaussian Splat · Hybrid'). The kind names the file 'View 3D' opens; the
 * type label is what every other screen calls the model, so a hybrid is a hybrid everywhere.
 */
export function modelKindLine(model: Pick<ModelData, 'modelType' | 'files'>): string {
  const kind = modelKindLabel(model);
  return kind !== 'No 3D file' && modelTypeLabel(model) === 'Hybrid' ? `${kind} · Hybrid` : kind;
}

/**
 * Whether the files present satisfy the model type: splat needs a splat file, mesh
 * needs a glb file, hybrid needs at least one of them.
 */
export function filesSatisfyModelType(modelType: ModelType, hasSplat: boolean, hasGlb: boolean): boolean {
  switch (modelType) {
    case 'splat':
      return hasSplat;
    case 'mesh':
      return hasGlb;
    case 'hybrid':
      return hasSplat || hasGlb;
  }
}

/**
 * A model's total file size in bytes: splatSize + glbSize, a missing or
 * invalid size counting 0. Format it with `formatBytes`.
 */
export function totalFileSize(model: Pick<ModelData, 'files'>): number {
  const size = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);
  return size(model.files?.splatSize) + size(model.files?.glbSize);
}

/** `accept` of the splat file input: .splat and .ply. */
export const SPLAT_FILE_ACCEPT = '.splat,.ply';
/** `accept` of the GLB file input: .glb. */
export const GLB_FILE_ACCEPT = '.glb';

/** True when the file name ends in .splat or .ply (any case), as the splat input accepts. */
export function isSplatFileName(name: string): boolean {
  return /\.(splat|ply)$/i.test(name.trim());
}

/** True when the file name ends in .glb (any case), as the GLB input accepts. */
export function isGlbFileName(name: string): boolean {
  return /\.glb$/i.test(name.trim());
}
