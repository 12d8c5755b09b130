/**
 * Measurements of a finding's points: distance, polyline length and height difference along an
 * up axis, in model units and (with the model's scale) metres, and how a measurement or a point
 * is written as text.
 */
import { dot, length, sub, vec3Of } from '../vec3.js';
import type { AnnotationData, MeasureKind, ModelPoint } from '../types.js';

/** Straight-line distance between two points, in their units. */
export function pointDistance(a: ModelPoint, b: ModelPoint): number {
  return length(sub(vec3Of(b), vec3Of(a)));
}

/** Length along every point of a polyline, in model units (0 for fewer than two points). */
export function polylineLength(points: readonly ModelPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i += 1) total += pointDistance(points[i - 1]!, points[i]!);
  return total;
}

/**
 * Height difference from the first to the last point along `up`, in model units (signed: positive
 * when the last point is higher).
 * @param up the up axis, model coordinates (normalised here); default +Y
 */
export function heightDifference(points: readonly ModelPoint[], up: ModelPoint = { x: 0, y: 1, z: 0 }): number {
  if (points.length < 2) return 0;
  const rise = sub(vec3Of(points[points.length - 1]!), vec3Of(points[0]!));
  return dot(rise, vec3Of(up)) / (length(vec3Of(up)) || 1);
}

/** A measurement's value in model units and, when the model has a scale, in metres. */
export interface MeasurementValue {
  kind: MeasureKind;
  /** In model units. */
  modelUnits: number;
  /** In metres (`modelUnits / unitsPerMetre`), or null when the model has no scale. */
  metres: number | null;
}

/**
 * What points measure.
 * @param kind the measurement
 * @param points two or more points, model units
 * @param unitsPerMetre the model's scale (`metadata.unitsPerMetre`), or null/undefined
 * @param up the up axis for 'height'
 */
export function measure(
  kind: MeasureKind,
  points: readonly ModelPoint[],
  unitsPerMetre?: number | null,
  up?: ModelPoint | null,
): MeasurementValue {
  const modelUnits =
    kind === 'height'
      ? heightDifference(points, up ?? undefined)
      : kind === 'distance'
        ? pointDistance(points[0]!, points[points.length - 1]!)
        : polylineLength(points);
  const metres = unitsPerMetre && unitsPerMetre > 0 ? modelUnits / unitsPerMetre : null;
  return { kind, modelUnits, metres };
}

/**
 * A finding's measurement, or null for a point finding.
 * @param annotation the finding
 * @param unitsPerMetre its model's scale
 */
export function annotationMeasurement(
  annotation: Pick<AnnotationData, 'measure' | 'points' | 'up'>,
  unitsPerMetre?: number | null,
): MeasurementValue | null {
  if (!annotation.measure || annotation.points.length < 2) return null;
  return measure(annotation.measure, annotation.points, unitsPerMetre, annotation.up);
}

/** A number with `digits` significant decimals, no trailing zeros ('1.5', '0.0312'). */
function trimNumber(value: number, digits: number): string {
  const fixed = Math.abs(value) >= 1 ? value.toFixed(digits) : value.toPrecision(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * A measurement as text: '2.431 units' or '2.431 units (0.741 m)'; 'Height difference' keeps its sign.
 * @returns e.g. '12.5 units (3.81 m)'
 */
export function formatMeasurement(value: MeasurementValue): string {
  const units = `${trimNumber(value.modelUnits, 3)} units`;
  return value.metres === null ? units : `${units} (${trimNumber(value.metres, 3)} m)`;
}

/** A point as text in model units, '(1.234, -0.5, 2)'. */
export function formatPoint(point: ModelPoint): string {
  return `(${trimNumber(point.x, 3)}, ${trimNumber(point.y, 3)}, ${trimNumber(point.z, 3)})`;
}
