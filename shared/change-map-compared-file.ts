/**
 * Which file of a model a change map compares: its splat file when it has one (a splat or hybrid
 * model: a hybrid's GLB stays out of it), else its GLB (a mesh-only model, whose surface is
 * sampled). One rule for the comparison itself, for the stamp a stored map records of each
 * model, and for the server's jobs that decide when a map must be computed again.
 */
import type { ModelData } from './types.js';

/** The file a change map reads of a model: what it is, its storage path and its size in bytes (null when not recorded). */
export interface ComparedFile {
  kind: 'splat' | 'mesh';
  path: string;
  size: number | null;
}

/**
 * The file a change map compares of a model: the splat file when there is one, else the GLB.
 * @param model the model record (its `files`)
 * @returns the file's kind ('splat' or 'mesh'), storage path and size (bytes, null when not
 *   recorded); null when the model has neither file
 */
export function comparedFileOf(model: Pick<ModelData, 'files'>): ComparedFile | null {
  const files = model.files;
  const size = (value: number | null | undefined) => (typeof value === 'number' ? value : null);
  if (files?.splatPath) return { kind: 'splat', path: files.splatPath, size: size(files.splatSize) };
  if (files?.glbPath) return { kind: 'mesh', path: files.glbPath, size: size(files.glbSize) };
  return null;
}
