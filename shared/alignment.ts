/**
 * The alignment of two captures of one structure (issue 18 "Across captures"), as pure math: a
 * similarity transform (rotation, uniform scale, translation) solved from three picked point
 * pairs, model → reference, by Horn's closed form (B. K. P. Horn, "Closed-form solution of
 * absolute orientation using unit quaternions", JOSA A 4(4), 1987: the rotation is the unit
 * quaternion of the largest eigenvalue of a 4×4 symmetric matrix built from the pairs' cross
 * covariance), the least-squares scale of the rotated model points, and the translation between
 * the centroids. Matrices are 4×4, column-major (three.js `Matrix4.elements` order), and map the
 * model's coordinates into the reference model's frame (`AlignmentData.matrix`). No three.js here.
 */
import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { AppError, ErrorCode } from './errors.js';
import type { ModelPoint } from './types.js';

/** One picked pair: a point on the model and the same physical point on the reference model. */
export interface AlignmentPair {
  model: ModelPoint;
  reference: ModelPoint;
}

/** The messages of the alignment (issue 18), shown as they are. */
export const AlignmentMessages = {
  pairCount: 'An alignment needs exactly 3 point pairs',
  notFinite: 'Every alignment point needs finite coordinates',
  coincidentModel: 'Two of the points on the model are the same point: pick three distinct points',
  coincidentReference: 'Two of the points on the reference model are the same point: pick three distinct points',
  collinearModel: 'The three points on the model lie on one line: pick three points that form a triangle',
  collinearReference: 'The three points on the reference model lie on one line: pick three points that form a triangle',
  matrixInvalid: 'An alignment matrix is 16 finite numbers (column-major) of an invertible transform with last row 0 0 0 1',
  sameModel: 'A model cannot be aligned with itself',
  methodInvalid: "Alignment method must be 'same-frame' or '3-point'",
  alreadyCarried: 'This finding is already carried over to that model',
  notInPair: 'The finding and the target model must be the two models of the alignment',
} as const;

/** The identity matrix (two captures declared to be in one frame: 'same-frame'). */
export const IDENTITY_MATRIX: readonly number[] = Object.freeze([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);

/** A solved alignment. */
export interface SolvedAlignment {
  /** 4×4 column-major: model coordinates → reference coordinates. */
  matrix: number[];
  /** Root-mean-square distance, in reference units, between each transformed model point and its reference point. */
  rmsError: number;
  /** The uniform scale (reference units per model unit). */
  scale: number;
}

/** Relative size under which two points count as one, or three as one line (fraction of the triangle's size). */
const DEGENERATE_TOLERANCE = 1e-9;

const sub = (a: ModelPoint, b: ModelPoint): ModelPoint => ({ x: a.x - b.x, y: a.y - b.y, z: a.z - b.z });
const dot = (a: ModelPoint, b: ModelPoint): number => a.x * b.x + a.y * b.y + a.z * b.z;
const norm = (a: ModelPoint): number => Math.hypot(a.x, a.y, a.z);
const cross = (a: ModelPoint, b: ModelPoint): ModelPoint => ({
  x: a.y * b.z - a.z * b.y,
  y: a.z * b.x - a.x * b.z,
  z: a.x * b.y - a.y * b.x,
});
const centroid = (points: readonly ModelPoint[]): ModelPoint => {
  const n = points.length;
  return {
    x: points.reduce((s, p) => s + p.x, 0) / n,
    y: points.reduce((s, p) => s + p.y, 0) / n,
    z: points.reduce((s, p) => s + p.z, 0) / n,
  };
};
const isFinitePoint = (p: unknown): p is ModelPoint =>
  typeof p === 'object' &&
  p !== null &&
  [(p as ModelPoint).x, (p as ModelPoint).y, (p as ModelPoint).z].every((v) => typeof v === 'number' && Number.isFinite(v));

/**
 * Why three points cannot define a frame, or null when they can: two points coincide (an edge
 * shorter than 1e-9 of the longest), or all three lie on one line (twice the triangle's area
 * under 1e-9 of the longest edge squared).
 * @param points three points
 * @param side which model they are on (chooses the message)
 * @returns an {@link AlignmentMessages} text, or null
 */
export function degenerateTriangle(points: readonly ModelPoint[], side: 'model' | 'reference'): string | null {
  const [a, b, c] = points as [ModelPoint, ModelPoint, ModelPoint];
  const edges = [norm(sub(b, a)), norm(sub(c, b)), norm(sub(a, c))];
  const longest = Math.max(...edges);
  if (!(longest > 0) || Math.min(...edges) <= DEGENERATE_TOLERANCE * longest) {
    return side === 'model' ? AlignmentMessages.coincidentModel : AlignmentMessages.coincidentReference;
  }
  if (norm(cross(sub(b, a), sub(c, a))) <= DEGENERATE_TOLERANCE * longest * longest) {
    return side === 'model' ? AlignmentMessages.collinearModel : AlignmentMessages.collinearReference;
  }
  return null;
}

/**
 * The eigenvector of the largest eigenvalue of a symmetric 4×4 matrix (ml-matrix's symmetric
 * eigen-decomposition).
 * @param input the matrix, rows
 * @returns the unit eigenvector, 4 numbers
 */
function largestEigenvector(input: number[][]): number[] {
  const decomposition = new EigenvalueDecomposition(new Matrix(input), { assumeSymmetric: true });
  const values = decomposition.realEigenvalues;
  let best = 0;
  for (let i = 1; i < values.length; i += 1) if (values[i]! > values[best]!) best = i;
  return decomposition.eigenvectorMatrix.getColumn(best);
}

/**
 * Applies a 4×4 column-major affine matrix to a point.
 * @param matrix 16 numbers, three.js `Matrix4.elements` order (last row 0 0 0 1)
 * @param point a point in the source frame
 * @returns the point in the target frame
 */
export function applyAlignment(matrix: readonly number[], point: ModelPoint): ModelPoint {
  const m = matrix;
  return {
    x: m[0]! * point.x + m[4]! * point.y + m[8]! * point.z + m[12]!,
    y: m[1]! * point.x + m[5]! * point.y + m[9]! * point.z + m[13]!,
    z: m[2]! * point.x + m[6]! * point.y + m[10]! * point.z + m[14]!,
  };
}

/**
 * Applies only the linear part of a matrix to a direction and normalises the result (e.g. a
 * finding's up axis carried into the other frame).
 * @param matrix 16 numbers, column-major
 * @param direction a non-zero direction
 * @returns the unit direction in the target frame
 */
export function applyAlignmentToDirection(matrix: readonly number[], direction: ModelPoint): ModelPoint {
  const m = matrix;
  const out = {
    x: m[0]! * direction.x + m[4]! * direction.y + m[8]! * direction.z,
    y: m[1]! * direction.x + m[5]! * direction.y + m[9]! * direction.z,
    z: m[2]! * direction.x + m[6]! * direction.y + m[10]! * direction.z,
  };
  const length = norm(out) || 1;
  return { x: out.x / length, y: out.y / length, z: out.z / length };
}

/**
 * Checks that a value is an alignment matrix: 16 finite numbers, last row (elements 3, 7, 11,
 * 15) 0 0 0 1, and an invertible linear part.
 * @returns true when it is
 */
export function isAlignmentMatrix(matrix: unknown): matrix is number[] {
  if (!Array.isArray(matrix) || matrix.length !== 16 || !matrix.every((v) => typeof v === 'number' && Number.isFinite(v))) return false;
  if (matrix[3] !== 0 || matrix[7] !== 0 || matrix[11] !== 0 || matrix[15] !== 1) return false;
  const m = matrix as number[];
  const det = m[0]! * (m[5]! * m[10]! - m[9]! * m[6]!) - m[4]! * (m[1]! * m[10]! - m[9]! * m[2]!) + m[8]! * (m[1]! * m[6]! - m[5]! * m[2]!);
  return Number.isFinite(det) && Math.abs(det) > 1e-300;
}

/**
 * Inverts an affine alignment matrix (reference → model when given model → reference).
 * @param matrix 16 numbers, column-major, last row 0 0 0 1
 * @returns the inverse, column-major
 * @throws AppError `invalid-argument` ({@link AlignmentMessages.matrixInvalid}) when it is not an invertible affine matrix
 */
export function invertAlignment(matrix: readonly number[]): number[] {
  if (!isAlignmentMatrix([...matrix])) throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.matrixInvalid);
  const m = matrix;
  // Linear part L (row r, column c at m[c*4 + r]); inverse by the adjugate.
  const l = (r: number, c: number): number => m[c * 4 + r]!;
  const det =
    l(0, 0) * (l(1, 1) * l(2, 2) - l(1, 2) * l(2, 1)) -
    l(0, 1) * (l(1, 0) * l(2, 2) - l(1, 2) * l(2, 0)) +
    l(0, 2) * (l(1, 0) * l(2, 1) - l(1, 1) * l(2, 0));
  const inv = [
    [l(1, 1) * l(2, 2) - l(1, 2) * l(2, 1), l(0, 2) * l(2, 1) - l(0, 1) * l(2, 2), l(0, 1) * l(1, 2) - l(0, 2) * l(1, 1)],
    [l(1, 2) * l(2, 0) - l(1, 0) * l(2, 2), l(0, 0) * l(2, 2) - l(0, 2) * l(2, 0), l(0, 2) * l(1, 0) - l(0, 0) * l(1, 2)],
    [l(1, 0) * l(2, 1) - l(1, 1) * l(2, 0), l(0, 1) * l(2, 0) - l(0, 0) * l(2, 1), l(0, 0) * l(1, 1) - l(0, 1) * l(1, 0)],
  ].map((row) => row.map((v) => v / det));
  const t = [m[12]!, m[13]!, m[14]!];
  const it = [0, 1, 2].map((r) => -(inv[r]![0]! * t[0]! + inv[r]![1]! * t[1]! + inv[r]![2]! * t[2]!));
  const out = new Array<number>(16).fill(0);
  for (let c = 0; c < 3; c += 1) for (let r = 0; r < 3; r += 1) out[c * 4 + r] = inv[r]![c]!;
  out[12] = it[0]!;
  out[13] = it[1]!;
  out[14] = it[2]!;
  out[15] = 1;
  return out;
}

/**
 * Root-mean-square distance between each pair's model point mapped by `matrix` and its reference point.
 * @param matrix model → reference, column-major
 * @param pairs the pairs
 * @returns the RMS error in reference units (0 for no pairs)
 */
export function alignmentRmsError(matrix: readonly number[], pairs: readonly AlignmentPair[]): number {
  if (pairs.length === 0) return 0;
  const sum = pairs.reduce(
    (s, { model, reference }) => s + dot(sub(applyAlignment(matrix, model), reference), sub(applyAlignment(matrix, model), reference)),
    0,
  );
  return Math.sqrt(sum / pairs.length);
}

/**
 * Solves the similarity transform (rotation, uniform scale, translation) that maps three model
 * points onto the same three points picked on the reference model (issue 18 "Across captures",
 * the manual 3-point alignment), by Horn's quaternion method: least-squares in the rotation and
 * the scale, exact when the pairs are consistent. The rotation is proper (no mirror).
 * @param pairs exactly 3 pairs, model → reference, in each model's own units
 * @returns the matrix (column-major, model → reference), its RMS error over the pairs (reference units) and the scale
 * @throws AppError `invalid-argument` with an {@link AlignmentMessages} text: not 3 pairs, a
 *   non-finite coordinate, two coincident points or three collinear points on either side
 */
export function solveAlignment(pairs: readonly AlignmentPair[]): SolvedAlignment {
  const fail = (message: string): never => {
    throw new AppError(ErrorCode.InvalidArgument, message);
  };
  if (!Array.isArray(pairs) || pairs.length !== 3) fail(AlignmentMessages.pairCount);
  if (!pairs.every((p) => isFinitePoint(p?.model) && isFinitePoint(p?.reference))) fail(AlignmentMessages.notFinite);
  const model = pairs.map((p) => p.model);
  const reference = pairs.map((p) => p.reference);
  const problem = degenerateTriangle(model, 'model') ?? degenerateTriangle(reference, 'reference');
  if (problem !== null) fail(problem);

  const cm = centroid(model);
  const cr = centroid(reference);
  const m = model.map((p) => sub(p, cm));
  const r = reference.map((p) => sub(p, cr));
  // Cross covariance S_ab = Σ m_a r_b.
  const key = ['x', 'y', 'z'] as const;
  const S = key.map((a) => key.map((b) => m.reduce((s, p, i) => s + p[a] * r[i]![b], 0)));
  const [[sxx, sxy, sxz], [syx, syy, syz], [szx, szy, szz]] = S as [number[], number[], number[]] as [
    [number, number, number],
    [number, number, number],
    [number, number, number],
  ];
  const N = [
    [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
    [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
    [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
    [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
  ];
  const [w, x, y, z] = largestEigenvector(N) as [number, number, number, number];
  const qn = Math.hypot(w, x, y, z);
  const [qw, qx, qy, qz] = [w / qn, x / qn, y / qn, z / qn];
  // Rotation matrix of the unit quaternion (row-major R[r][c]).
  const R = [
    [1 - 2 * (qy * qy + qz * qz), 2 * (qx * qy - qz * qw), 2 * (qx * qz + qy * qw)],
    [2 * (qx * qy + qz * qw), 1 - 2 * (qx * qx + qz * qz), 2 * (qy * qz - qx * qw)],
    [2 * (qx * qz - qy * qw), 2 * (qy * qz + qx * qw), 1 - 2 * (qx * qx + qy * qy)],
  ];
  const rotate = (p: ModelPoint): ModelPoint => ({
    x: R[0]![0]! * p.x + R[0]![1]! * p.y + R[0]![2]! * p.z,
    y: R[1]![0]! * p.x + R[1]![1]! * p.y + R[1]![2]! * p.z,
    z: R[2]![0]! * p.x + R[2]![1]! * p.y + R[2]![2]! * p.z,
  });
  const scale = m.reduce((s, p, i) => s + dot(r[i]!, rotate(p)), 0) / m.reduce((s, p) => s + dot(p, p), 0);
  const rc = rotate(cm);
  const t = { x: cr.x - scale * rc.x, y: cr.y - scale * rc.y, z: cr.z - scale * rc.z };
  const matrix = [
    scale * R[0]![0]!,
    scale * R[1]![0]!,
    scale * R[2]![0]!,
    0,
    scale * R[0]![1]!,
    scale * R[1]![1]!,
    scale * R[2]![1]!,
    0,
    scale * R[0]![2]!,
    scale * R[1]![2]!,
    scale * R[2]![2]!,
    0,
    t.x,
    t.y,
    t.z,
    1,
  ];
  return { matrix, rmsError: alignmentRmsError(matrix, pairs), scale };
}

/**
 * The alignment of two captures declared to be in one frame ('same-frame'): the identity, no pairs, no error.
 * @returns a fresh identity matrix and an RMS error of 0
 */
export function sameFrameAlignment(): SolvedAlignment {
  return { matrix: [...IDENTITY_MATRIX], rmsError: 0, scale: 1 };
}
