/**
 * Where a viewport is with its model (finding it, downloading, shown, failed) and the texts that
 * say so: the `data-state` tests read, the canvas's accessible description, the polite status
 * line and the failure's detail. Pure functions, so the wording is one place.
 */
import type { Model } from '@shared/types.js';
import type { ViewerFile, ViewerModel } from '../api/viewer-models.js';
import { formatNumber } from '@shared/format.js';

/** A viewport's progress with its model. */
export type Phase =
  | { kind: 'resolving' }
  | { kind: 'not-found' }
  | { kind: 'no-files'; found: ViewerModel }
  | { kind: 'loading'; found: ViewerModel }
  | { kind: 'ready'; found: ViewerModel }
  | { kind: 'error'; found: ViewerModel | null; message: string };

/** What the engine counted in the loaded files (null: that kind of file is not loaded). */
export interface ModelStats {
  splats: number | null;
  triangles: number | null;
}

/** Appended to the viewport's status while a splat is shown from its preview. */
export const PREVIEW_STATUS_NOTE = ' (preview; full detail loading)';

/** The view keys' hint, with the pick key while a click picks a point. */
export const PICK_KEY_HINT = 'P picks the point at the centre of the view (marked by the cross).';

/** The model a phase has found, if any. */
export function foundIn(phase: Phase): ViewerModel | null {
  return phase.kind === 'no-files' || phase.kind === 'loading' || phase.kind === 'ready' || phase.kind === 'error' ? phase.found : null;
}

/**
 * The text alternative of a model's 3D view (WCAG 1.1.1): its name and publicId, its type
 * (Gaussian splat, GLB mesh or hybrid of both) and, once loaded, its splat and triangle counts,
 * e.g. 'Tower 2025 (TWR-2), a Gaussian splat of 3,600 splats.'
 * @param model the model
 * @param kinds the kinds of 3D file it has (viewerFiles)
 * @param stats the counts, or null while loading
 */
export function describeModel(model: Model, kinds: readonly ViewerFile['kind'][], stats: ModelStats | null): string {
  const splat = kinds.includes('splat');
  const mesh = kinds.includes('glb');
  const type =
    splat && mesh
      ? 'a hybrid model (Gaussian splat and GLB mesh)'
      : splat
        ? 'a Gaussian splat'
        : mesh
          ? 'a GLB mesh'
          : 'a model with no 3D file';
  const counts = [
    stats?.splats != null ? `${formatNumber(stats.splats)} ${stats.splats === 1 ? 'splat' : 'splats'}` : null,
    stats?.triangles != null ? `${formatNumber(stats.triangles)} ${stats.triangles === 1 ? 'triangle' : 'triangles'}` : null,
  ].filter((c): c is string => c !== null);
  return `${model.name} (${model.publicId}), ${type}${counts.length > 0 ? ` of ${counts.join(' and ')}` : ''}.`;
}

/** What a viewport says about its state, derived from its phase. */
export interface ViewportTexts {
  /** `data-state` on the viewport element: loading, ready or error. */
  state: 'loading' | 'ready' | 'error';
  /** True when the viewport shows a failure (compare's reference side then says one thing whatever it was). */
  failed: boolean;
  /** What went wrong, in a sentence (null: nothing did). */
  failureDetail: string | null;
  /** The canvas's accessible description of the model. */
  summary: string;
  /** The polite status line (errors go to the alert region instead). */
  announcement: string;
}

/**
 * The texts of a viewport's state.
 * @param phase where the viewport is with its model
 * @param webglError why WebGL could not start (null: it did); it wins over the phase
 * @param publicId the model asked for
 * @param kinds the kinds of 3D file the model has
 * @param stats the engine's counts of the loaded files
 * @param refining true while a splat is shown from its preview
 */
export function viewportTexts(
  phase: Phase,
  webglError: string | null,
  publicId: string,
  kinds: readonly ViewerFile['kind'][],
  stats: ModelStats,
  refining: boolean,
): ViewportTexts {
  const model = foundIn(phase)?.model ?? null;
  const state =
    webglError !== null
      ? 'error'
      : phase.kind === 'ready'
        ? 'ready'
        : phase.kind === 'resolving' || phase.kind === 'loading'
          ? 'loading'
          : 'error';
  const failed = webglError !== null || phase.kind === 'not-found' || phase.kind === 'no-files' || phase.kind === 'error';
  const failureDetail =
    webglError ??
    (phase.kind === 'error'
      ? phase.message
      : phase.kind === 'no-files'
        ? 'This model has no 3D file.'
        : phase.kind === 'not-found'
          ? `No model with public ID ${publicId}.`
          : null);
  const summary = model
    ? `${describeModel(model, kinds, phase.kind === 'ready' ? stats : null)}${phase.kind === 'loading' ? ' Loading…' : ''}`
    : phase.kind === 'resolving'
      ? `Finding model ${publicId}…`
      : `Model ${publicId}.`;
  const announcement =
    webglError !== null
      ? ''
      : phase.kind === 'resolving'
        ? `Finding model ${publicId}…`
        : phase.kind === 'loading'
          ? `Loading ${phase.found.model.name}…`
          : phase.kind === 'ready'
            ? `Shown: ${describeModel(phase.found.model, kinds, stats)}${refining ? PREVIEW_STATUS_NOTE : ''}`
            : '';
  return { state, failed, failureDetail, summary, announcement };
}
