/**
 * The alignment of two captures of one structure, as pure math: a
 * similarity transform (rotation, uniform scale, translation) solved from three picked point
 * pairs, model → reference, by Horn's closed form (B. K. P. Horn, "Closed-form solution of
 * absolute orientation using unit quaternions", JOSA A 4(4), 1987: the rotation is the unit
 * quaternion of the largest eigenvalue of a 4×4 symmetric matrix built from the pairs' cross
 * covariance), the least-squares scale of the rotated model points, and the translation between
 * the centroids. Matrices are 4×4, column-major (three.js `Matrix4.elements` order), and map the
 * model's coordinates into the reference model's frame (`AlignmentData.matrix`). No three.js here.
 */
import { EigenvalueDecomposition, inverse, Matrix } from 'ml-matrix';
import { AppError, ErrorCode } from './errors.js';
import type { ModelPoint } from './types.js';
import { cross, dot, length, normalize, scale as times, sub, vec3Of as vec, xyzOf as point, type Vec3 } from './vec3.js';

/** One picked pair: a point on the model and the same physical point on the reference model. */
export interface AlignmentPair {
  model: ModelPoint;
  reference: ModelPoint;
}

/** The messages of the alignment, shown as they are. */
export const AlignmentMessages = {
  pairCount: 'An alignment needs exactly 3 point pairs',
  notFinite: 'Every alignment point needs finite coordinates',
  coincidentModel: 'Two of the points on the model are the same point: pick three distinct points',
  coincidentReference: 'Two of the points on the reference model are the same point: pick three distinct points',
  collinearModel: 'The three points on the model lie on one line: pick three points that form a triangle',
  collinearReference: 'The three points on the reference model lie on one line: pick three points that form a triangle',
  matrixInvalid: 'An alignment matrix is 16 finite numbers (column-major) of an invertible transform with last row 0 0 0 1',
  sameModel: 'A model cannot be aligned with itself',
  methodInvalid: "Alignment method must be 'same-frame', '3-point' or 'icp'",
  icpByHand: "An 'icp' alignment is accepted from the pair's change map (its registration), not saved by hand",
  noChangeMap: 'This pair has no change map: compute it before accepting its registration as the alignment',
  /**
   * Accepting the registration of a change map whose files changed since it was computed.
   * @param reason why the map is out of date (a `ChangeMapMessages` text)
   */
  registrationOutOfDate: (reason: string): string =>
    `${reason}: its registration no longer describes these captures. Compute the change map again before accepting it`,
  notAccepted: "Only an alignment accepted from the change map's registration ('icp') can be reset",
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

const centroid = (points: readonly Vec3[]): Vec3 => {
  const n = points.length;
  return [0, 1, 2].map((axis) => points.reduce((s, p) => s + p[axis]!, 0) / n) as Vec3;
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
  const [a, b, c] = points.slice(0, 3).map(vec) as [Vec3, Vec3, Vec3];
  const edges = [length(sub(b, a)), length(sub(c, b)), length(sub(a, c))];
  const longest = Math.max(...edges);
  if (!(longest > 0) || Math.min(...edges) <= DEGENERATE_TOLERANCE * longest) {
    return side === 'model' ? AlignmentMessages.coincidentModel : AlignmentMessages.coincidentReference;
  }
  if (length(cross(sub(b, a), sub(c, a))) <= DEGENERATE_TOLERANCE * longest * longest) {
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
  const out: Vec3 = [
    m[0]! * direction.x + m[4]! * direction.y + m[8]! * direction.z,
    m[1]! * direction.x + m[5]! * direction.y + m[9]! * direction.z,
    m[2]! * direction.x + m[6]! * direction.y + m[10]! * direction.z,
  ];
  return point(normalize(out));
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
  // The inverse of an affine matrix is affine (last row 0 0 0 1): ml-matrix inverts the 4×4.
  const rows = [0, 1, 2, 3].map((r) => [0, 1, 2, 3].map((c) => matrix[c * 4 + r]!));
  const inv = inverse(new Matrix(rows));
  const out = new Array<number>(16);
  for (let c = 0; c < 4; c += 1) for (let r = 0; r < 4; r += 1) out[c * 4 + r] = r === 3 ? (c === 3 ? 1 : 0) : inv.get(r, c);
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
  const sum = pairs.reduce((s, { model, reference }) => {
    const miss = sub(vec(applyAlignment(matrix, model)), vec(reference));
    return s + dot(miss, miss);
  }, 0);
  return Math.sqrt(sum / pairs.length);
}

/**
 * Solves the similarity transform (rotation, uniform scale, translation) that maps three model
 * points onto the same three points picked on the reference model (the manual 3-point alignment
 * of two captures), by Horn's quaternion method: least-squares in the rotation and the scale,
 * exact when the pairs are consistent. The rotation is proper (no mirror).
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
  const problem =
    degenerateTriangle(
      pairs.map((p) => p.model),
      'model',
    ) ??
    degenerateTriangle(
      pairs.map((p) => p.reference),
      'reference',
    );
  if (problem !== null) fail(problem);
  const model = pairs.map((p) => vec(p.model));
  const reference = pairs.map((p) => vec(p.reference));

  const cm = centroid(model);
  const cr = centroid(reference);
  const m = model.map((p) => sub(p, cm));
  const r = reference.map((p) => sub(p, cr));
  // Cross covariance S_ab = Σ m_a r_b.
  const axes = [0, 1, 2] as const;
  const S = axes.map((a) => axes.map((b) => m.reduce((s, p, i) => s + p[a] * r[i]![b], 0)));
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
  const rotate = (p: Vec3): Vec3 => R.map((row) => dot(row as Vec3, p)) as Vec3;
  const scale = m.reduce((s, p, i) => s + dot(r[i]!, rotate(p)), 0) / m.reduce((s, p) => s + dot(p, p), 0);
  const rc = rotate(cm);
  const t = point(sub(cr, times(rc, scale)));
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
