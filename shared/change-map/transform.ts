/**
 * The 4×4 matrices of the change map (column-major, three.js `Matrix4.elements` order, capture →
 * reference): checking one, applying one to a whole point set, composing two, and the rigid motion
 * of a small rotation vector and a translation that each registration step produces.
 */
import { AlignmentMessages, isAlignmentMatrix } from '../alignment.js';
import { AppError, ErrorCode } from '../errors.js';
import type { PointSet } from './types.js';

/** The messages of the change map's input checks, shown as they are. */
export const PointSetMessages = {
  pointSet: 'A point set needs a non-negative whole count and at least 3 × count finite positions',
  viewpoints: "A point set's viewpoints must be a Float32Array of finite x y z triples (camera centres)",
  normals: "A point set's normals must be a Float32Array of 3 × count finite numbers (x y z per point)",
  up: 'The up direction must be three finite numbers, not all 0',
  matrix: AlignmentMessages.matrixInvalid,
} as const;

/**
 * Checks a point set: a whole count ≥ 0 and a Float32Array holding at least 3 × count numbers;
 * its viewpoints, when given, a Float32Array of finite numbers whose length is a multiple of 3;
 * its normals, when given, a Float32Array of 3 × count finite numbers.
 * @throws AppError `invalid-argument` ({@link PointSetMessages.pointSet}, {@link PointSetMessages.viewpoints},
 *   {@link PointSetMessages.normals}) otherwise
 */
export function checkPointSet(points: PointSet): void {
  const ok =
    typeof points === 'object' &&
    points !== null &&
    Number.isInteger(points.count) &&
    points.count >= 0 &&
    points.positions instanceof Float32Array &&
    points.positions.length >= points.count * 3;
  if (!ok) throw new AppError(ErrorCode.InvalidArgument, PointSetMessages.pointSet);
  const { viewpoints, normals } = points;
  if (
    viewpoints !== undefined &&
    (!(viewpoints instanceof Float32Array) || viewpoints.length % 3 !== 0 || !viewpoints.every(Number.isFinite))
  )
    throw new AppError(ErrorCode.InvalidArgument, PointSetMessages.viewpoints);
  if (
    normals !== undefined &&
    (!(normals instanceof Float32Array) || normals.length !== points.count * 3 || !normals.every(Number.isFinite))
  )
    throw new AppError(ErrorCode.InvalidArgument, PointSetMessages.normals);
}

/**
 * Checks an up direction: absent, or three finite numbers not all 0.
 * @returns the direction made unit length, or null when absent
 * @throws AppError `invalid-argument` ({@link PointSetMessages.up}) otherwise
 */
export function checkUp(up: readonly number[] | undefined): [number, number, number] | null {
  if (up === undefined) return null;
  const length = Array.isArray(up) && up.length === 3 && up.every(Number.isFinite) ? Math.hypot(up[0]!, up[1]!, up[2]!) : 0;
  if (!(length > 0)) throw new AppError(ErrorCode.InvalidArgument, PointSetMessages.up);
  return [up[0]! / length, up[1]! / length, up[2]! / length];
}

/**
 * Checks a capture → reference matrix: 16 finite numbers, last row 0 0 0 1, invertible.
 * @returns a copy as a plain array
 * @throws AppError `invalid-argument` ({@link PointSetMessages.matrix}) otherwise
 */
export function checkMatrix(matrix: readonly number[]): number[] {
  const copy = Array.isArray(matrix) ? [...matrix] : [];
  if (!isAlignmentMatrix(copy)) throw new AppError(ErrorCode.InvalidArgument, PointSetMessages.matrix);
  return copy;
}

/**
 * Applies a matrix to the first `count` points.
 * @param positions flat xyz
 * @param count points
 * @param m 16 numbers, column-major
 * @returns a new Float32Array of 3 × count numbers
 */
export function transformPositions(positions: Float32Array, count: number, m: readonly number[]): Float32Array {
  const out = new Float32Array(count * 3);
  const [m0, m1, m2, , m4, m5, m6, , m8, m9, m10, , m12, m13, m14] = m as number[];
  for (let i = 0; i < count * 3; i += 3) {
    const x = positions[i]!;
    const y = positions[i + 1]!;
    const z = positions[i + 2]!;
    out[i] = m0! * x + m4! * y + m8! * z + m12!;
    out[i + 1] = m1! * x + m5! * y + m9! * z + m13!;
    out[i + 2] = m2! * x + m6! * y + m10! * z + m14!;
  }
  return out;
}

/**
 * Turns the first `count` directions by a matrix's linear part (its translation left out), for
 * normals carried with a rigid motion.
 * @param directions flat xyz
 * @param count directions
 * @param m 16 numbers, column-major
 * @returns a new Float32Array of 3 × count numbers
 */
export function transformDirections(directions: Float32Array, count: number, m: readonly number[]): Float32Array {
  const linear = [...m];
  linear[12] = 0;
  linear[13] = 0;
  linear[14] = 0;
  return transformPositions(directions, count, linear);
}

/**
 * The product a · b of two column-major 4×4 matrices (b applied first).
 * @returns 16 numbers, column-major
 */
export function multiply(a: readonly number[], b: readonly number[]): number[] {
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c += 1) {
    for (let r = 0; r < 4; r += 1) {
      let s = 0;
      for (let k = 0; k < 4; k += 1) s += a[k * 4 + r]! * b[c * 4 + k]!;
      out[c * 4 + r] = s;
    }
  }
  return out;
}

/**
 * The rigid motion that turns by the rotation vector ω (axis × angle in radians, Rodrigues'
 * formula) about the point `pivot`, then moves by `t`: x ↦ R (x − pivot) + pivot + t.
 * @returns 16 numbers, column-major
 */
export function rigidMotion(
  omega: readonly [number, number, number],
  t: readonly [number, number, number],
  pivot: readonly [number, number, number],
): number[] {
  const angle = Math.hypot(omega[0], omega[1], omega[2]);
  const R = [1, 0, 0, 0, 1, 0, 0, 0, 1]; // row-major
  if (angle > 0) {
    const [x, y, z] = [omega[0] / angle, omega[1] / angle, omega[2] / angle];
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    const C = 1 - c;
    R.splice(
      0,
      9,
      c + x * x * C,
      x * y * C - z * s,
      x * z * C + y * s,
      y * x * C + z * s,
      c + y * y * C,
      y * z * C - x * s,
      z * x * C - y * s,
      z * y * C + x * s,
      c + z * z * C,
    );
  }
  const out = new Array<number>(16).fill(0);
  for (let r = 0; r < 3; r += 1) {
    for (let c = 0; c < 3; c += 1) out[c * 4 + r] = R[r * 3 + c]!;
    const rp = R[r * 3]! * pivot[0] + R[r * 3 + 1]! * pivot[1] + R[r * 3 + 2]! * pivot[2];
    out[12 + r] = pivot[r]! - rp + t[r]!;
  }
  out[15] = 1;
  return out;
}
