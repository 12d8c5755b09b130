/**
 * The pure rules of the compare view's findings: which side of the pair a finding is on, the
 * points picked for a 3-point alignment and their solve, which reference findings are drawn on the
 * compared model (those the alignment maps there and not yet carried over), and how finding
 * numbers, RMS errors and failures read in the panel.
 */
import { solveAlignment, type AlignmentPair, type SolvedAlignment } from '@shared/alignment.js';
import type { Alignment, Annotation, ModelPoint } from '@shared/types.js';
import { mapAnnotationAcross } from '@shared/workflows/alignments.js';
import { errorMessage } from '@shared/errors.js';

/** Which viewport of the pair: the compared model, or its reference model. */
export type CompareSide = 'model' | 'reference';

/** The points picked so far for a 3-point alignment, in order, on each side. */
export interface AlignmentPicks {
  model: ModelPoint[];
  reference: ModelPoint[];
}

/** The solve of 3 picked pairs: the pairs, and the alignment or the reason it cannot be solved. */
export type SolvedPicks =
  { pairs: AlignmentPair[]; result: SolvedAlignment; error: null } | { pairs: AlignmentPair[]; result: null; error: string };

/** A reference finding drawn on the compared model: the finding and its points in the model's frame. */
export interface CarriedFinding {
  annotation: Annotation;
  points: ModelPoint[];
}

/** 'F-3' of a finding id `{modelId}_{seq}`. */
export function numberOfId(annotationId: string): string {
  const seq = annotationId.slice(annotationId.lastIndexOf('_') + 1);
  return `F-${seq}`;
}

/** An RMS error in reference units (and metres when the reference has a scale). */
export function formatRms(rms: number, unitsPerMetre: number | null | undefined): string {
  const units = `${rms.toPrecision(3)} reference units`;
  return unitsPerMetre && unitsPerMetre > 0 ? `${units} (${(rms / unitsPerMetre).toPrecision(3)} m)` : units;
}

/**
 * The alignment of the picked pairs once both sides have 3 points (the i-th model point pairs
 * with the i-th reference point); null before. A triple that cannot be solved (coincident or
 * collinear points) gives its message instead of a result.
 */
export function solvePicks(picks: AlignmentPicks | null): SolvedPicks | null {
  if (!picks || picks.model.length < 3 || picks.reference.length < 3) return null;
  const pairs: AlignmentPair[] = picks.model.map((point, i) => ({ model: point, reference: picks.reference[i]! }));
  try {
    return { pairs, result: solveAlignment(pairs), error: null };
  } catch (error) {
    return { pairs, result: null, error: errorMessage(error) };
  }
}

/**
 * The reference findings where the alignment puts them in the compared model, leaving out those
 * that already have a follow-up among the model's own findings; none without an alignment.
 */
export function carriedFindings(alignment: Alignment | null, own: readonly Annotation[], theirs: readonly Annotation[]): CarriedFinding[] {
  if (!alignment) return [];
  const followed = new Set(own.map((a) => a.followUpOf?.annotationId).filter((id): id is string => typeof id === 'string'));
  return theirs.filter((a) => !followed.has(a.id)).map((a) => ({ annotation: a, points: mapAnnotationAcross(alignment, a).points }));
}
