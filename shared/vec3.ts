/**
 * Small 3-vector helpers over plain `[x, y, z]` tuples (no classes, no allocation beyond the
 * result): what the camera poses (`shared/camera-poses.ts`), the photo projection, the alignment of
 * two captures (`shared/alignment.ts`), the viewer's framing and the demo-data generator
 * (`cli/src/lib/demo-data/`) compute with. Units are the caller's (metres for positions).
 */

/** A 3-vector `[x, y, z]`: a point or a direction. */
export type Vec3 = [number, number, number];

/**
 * The sum `a + b`.
 * @returns a new vector
 */
export function add(a: Vec3, b: Vec3): Vec3 {
  return [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
}

/**
 * The difference `a − b` (the vector from `b` to `a`).
 * @returns a new vector
 */
export function sub(a: Vec3, b: Vec3): Vec3 {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

/**
 * The vector `a` times the number `s`.
 * @returns a new vector
 */
export function scale(a: Vec3, s: number): Vec3 {
  return [a[0] * s, a[1] * s, a[2] * s];
}

/**
 * The dot product `a · b`.
 * @returns a number (|a| |b| cos θ)
 */
export function dot(a: Vec3, b: Vec3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/**
 * The cross product `a × b` (right-handed: x × y = z).
 * @returns a new vector, perpendicular to both
 */
export function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

/**
 * The Euclidean length `|a|`.
 * @returns a number ≥ 0
 */
export function length(a: Vec3): number {
  return Math.hypot(a[0], a[1], a[2]);
}

/**
 * The unit vector along `a`; the zero vector stays the zero vector (no division by zero).
 * @returns a new vector of length 1, or `[0, 0, 0]`
 */
export function normalize(a: Vec3): Vec3 {
  return scale(a, 1 / (length(a) || 1));
}

/** A point or direction as an object, the form of the stored documents (`ModelPoint`). */
export interface XYZ {
  x: number;
  y: number;
  z: number;
}

/**
 * The tuple of an `{x, y, z}` object (no checks: see the callers for finite coordinates).
 * @returns a new vector `[x, y, z]`
 */
export function vec3Of(p: XYZ): Vec3 {
  return [p.x, p.y, p.z];
}

/**
 * The `{x, y, z}` object of a tuple.
 * @returns a new object
 */
export function xyzOf(v: Vec3): XYZ {
  return { x: v[0], y: v[1], z: v[2] };
}
