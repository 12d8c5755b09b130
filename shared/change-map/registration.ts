/**
 * Refines the stored alignment of a capture onto its reference by iterative closest points,
 * point-to-plane. Both point sets are cut into small planar patches; a spread-out sample of the
 * capture's patch centroids (smoothed points, so splat noise does not steer it) is paired each
 * iteration with the reference patch whose centroid is nearest — and, once that stops improving,
 * with the nearby patch each fits best, which is more exact but would crawl from far away — and the small rigid motion that
 * minimises the pairs' distances along the reference normals is solved in closed form (the 6×6
 * normal equations of the linearised rotation and translation, ml-matrix) and composed onto the
 * matrix, until the motion or the improvement of the error becomes negligible. Far pairs are rejected robustly (beyond three robust standard deviations of the pairs'
 * distances, and never more than the closest `keepFraction`), so parts that really changed do not
 * pull the registration. The search starts from the given matrix, which may carry a scale; only a
 * rigid motion is added to it.
 */
import { Matrix, solve } from 'ml-matrix';
import { inlierCut, inlierRms, matchToSurface } from './distances.js';
import type { Patches } from './local-surface.js';
import { buildPatches } from './local-surface.js';
import { checkMatrix, checkPointSet, multiply, rigidMotion } from './transform.js';
import type { PointSet, Registration, RegistrationOptions } from './types.js';

const DEFAULTS = { maxPairs: 10_000, maxIterations: 60, tolerance: 1e-7, keepFraction: 0.9, patchSize: 16 } as const;
/** An iteration that lowers the error by less than this fraction has stalled… */
const STALL_RATIO = 1e-2;
/** …of the coarse pairing; the fine pairing creeps, so it stalls only below this fraction. */
const FINE_STALL_RATIO = 1e-3;
/** …and this many stalls in a row end the search. */
const STALL_ITERATIONS = 3;

/** The diagonal of the bounding box of the first `count` points (0 for none). */
export function boundingDiagonal(positions: Float32Array, count: number): number {
  if (count === 0) return 0;
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i += 1) {
    for (let a = 0; a < 3; a += 1) {
      const v = positions[i * 3 + a]!;
      if (v < lo[a]!) lo[a] = v;
      if (v > hi[a]!) hi[a] = v;
    }
  }
  return Math.hypot(hi[0]! - lo[0]!, hi[1]! - lo[1]!, hi[2]! - lo[2]!);
}

/**
 * Pairs each point with the reference patch whose centroid is nearest (plain proximity, as ICP
 * pairs: choosing the patch that fits best would understate every pair's error and make the
 * search crawl) and measures its height over that patch's plane.
 * @returns per point the patch (−1 = none within `maxDistance`) and the signed height (NaN = none)
 */
function pairWithPlanes(xyz: Float64Array, n: number, ref: Patches, maxDistance: number): { patch: Int32Array; distance: Float64Array } {
  const patch = new Int32Array(n).fill(-1);
  const distance = new Float64Array(n).fill(NaN);
  const id = new Uint32Array(1);
  const d2 = new Float64Array(1);
  for (let j = 0; j < n; j += 1) {
    const x = xyz[j * 3]!;
    const y = xyz[j * 3 + 1]!;
    const z = xyz[j * 3 + 2]!;
    if (ref.centroidIndex.nearest(x, y, z, 1, maxDistance, id, d2) === 0) continue;
    const p = id[0]!;
    patch[j] = p;
    distance[j] =
      (x - ref.origin[p * 3]!) * ref.normal[p * 3]! +
      (y - ref.origin[p * 3 + 1]!) * ref.normal[p * 3 + 1]! +
      (z - ref.origin[p * 3 + 2]!) * ref.normal[p * 3 + 2]!;
  }
  return { patch, distance };
}

/**
 * Pairs each point with the reference patch it lies closest to among those nearest it (see
 * `matchToSurface`) and measures its height over that patch's plane: the fine pairing, once the
 * coarse one has brought the point sets close.
 * @returns per point the patch (−1 = none) and the signed height (NaN = none)
 */
function pairBestFit(xyz: Float64Array, n: number, ref: Patches, maxDistance: number): { patch: Int32Array; distance: Float64Array } {
  const { patch } = matchToSurface(xyz, n, ref, maxDistance);
  const distance = new Float64Array(n).fill(NaN);
  for (let j = 0; j < n; j += 1) {
    const p = patch[j]!;
    if (p < 0) continue;
    distance[j] =
      (xyz[j * 3]! - ref.origin[p * 3]!) * ref.normal[p * 3]! +
      (xyz[j * 3 + 1]! - ref.origin[p * 3 + 1]!) * ref.normal[p * 3 + 1]! +
      (xyz[j * 3 + 2]! - ref.origin[p * 3 + 2]!) * ref.normal[p * 3 + 2]!;
  }
  return { patch, distance };
}

/**
 * Refines a capture → reference matrix by robust point-to-plane ICP (see the module's comment).
 * @param capture the capture's points, in its own coordinates
 * @param reference the reference's points
 * @param initial the stored alignment to start from (16 numbers, column-major, capture → reference)
 * @param options {@link RegistrationOptions}
 * @returns the refined matrix, the RMS of the kept pairs' distances under it (reference units),
 *   the iterations run and the pairs kept; with an empty point set, the initial matrix and 0s
 * @throws AppError `invalid-argument` for a malformed point set or matrix
 */
export function refineRegistration(
  capture: PointSet,
  reference: PointSet,
  initial: readonly number[],
  options: RegistrationOptions = {},
): Registration {
  checkPointSet(capture);
  checkPointSet(reference);
  let matrix = checkMatrix(initial);
  if (capture.count === 0 || reference.count === 0) return { matrix, rmsError: 0, iterations: 0, pairs: 0 };
  const maxPairs = Math.max(6, options.maxPairs ?? DEFAULTS.maxPairs);
  const maxIterations = Math.max(0, options.maxIterations ?? DEFAULTS.maxIterations);
  const tolerance = options.tolerance ?? DEFAULTS.tolerance;
  const keepFraction = options.keepFraction ?? DEFAULTS.keepFraction;
  const maxDistance = options.maxDistance ?? Infinity;
  const patchSize = options.patchSize ?? DEFAULTS.patchSize;

  const cap = buildPatches(capture.positions, capture.count, patchSize, { shapes: 'own' });
  const ref = buildPatches(reference.positions, reference.count, patchSize, { shapes: 'own' });
  const size = boundingDiagonal(reference.positions, reference.count);
  const floor = 1e-9 * size;

  // A spread-out sample: every s-th patch in the index's leaf order, which follows space.
  const stride = Math.max(1, Math.ceil(cap.count / maxPairs));
  const n = Math.ceil(cap.count / stride);
  const sample = new Float64Array(n * 3);
  for (let j = 0; j < n; j += 1) for (let a = 0; a < 3; a += 1) sample[j * 3 + a] = cap.centroid[j * stride * 3 + a]!;
  const moved = new Float64Array(n * 3);
  const place = (m: readonly number[]): void => {
    for (let j = 0; j < n; j += 1) {
      const x = sample[j * 3]!;
      const y = sample[j * 3 + 1]!;
      const z = sample[j * 3 + 2]!;
      for (let r = 0; r < 3; r += 1) moved[j * 3 + r] = m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!;
    }
  };

  let iterations = 0;
  let previousRms = Infinity;
  let stalls = 0;
  let fine = false;
  while (iterations < maxIterations) {
    place(matrix);
    const match = fine ? pairBestFit(moved, n, ref, maxDistance) : pairWithPlanes(moved, n, ref, maxDistance);
    const cut = inlierCut(match.distance, keepFraction, floor);
    if (cut < 0) break;
    // Noise keeps the pairs shuffling by tiny amounts: stop once the error has stopped improving.
    const { rms } = inlierRms(match.distance, cut);
    stalls = rms > previousRms * (1 - (fine ? FINE_STALL_RATIO : STALL_RATIO)) ? stalls + 1 : 0;
    previousRms = Math.min(previousRms, rms);
    if (stalls >= STALL_ITERATIONS) {
      if (fine) break;
      // The coarse pairing has done what it can: finish with each point on the plane it fits best.
      fine = true;
      stalls = 0;
      previousRms = Infinity;
      continue;
    }
    // Pivot: the kept points' centroid (keeps the normal equations well conditioned).
    const pivot: [number, number, number] = [0, 0, 0];
    let kept = 0;
    for (let j = 0; j < n; j += 1) {
      if (!(Math.abs(match.distance[j]!) <= cut)) continue;
      for (let a = 0; a < 3; a += 1) pivot[a] += moved[j * 3 + a]!;
      kept += 1;
    }
    if (kept < 6) break;
    for (let a = 0; a < 3; a += 1) pivot[a] /= kept;
    const A = new Float64Array(36);
    const b = new Float64Array(6);
    const J = new Float64Array(6);
    for (let j = 0; j < n; j += 1) {
      if (!(Math.abs(match.distance[j]!) <= cut)) continue;
      const p = match.patch[j]!;
      const nx = ref.normal[p * 3]!;
      const ny = ref.normal[p * 3 + 1]!;
      const nz = ref.normal[p * 3 + 2]!;
      const px = moved[j * 3]!;
      const py = moved[j * 3 + 1]!;
      const pz = moved[j * 3 + 2]!;
      const h = match.distance[j]!;
      const rx = px - pivot[0];
      const ry = py - pivot[1];
      const rz = pz - pivot[2];
      // d(h)/d(ω) = (p − pivot) × n; d(h)/d(t) = n.
      J[0] = ry * nz - rz * ny;
      J[1] = rz * nx - rx * nz;
      J[2] = rx * ny - ry * nx;
      J[3] = nx;
      J[4] = ny;
      J[5] = nz;
      for (let r = 0; r < 6; r += 1) {
        b[r] -= J[r]! * h;
        for (let c = 0; c < 6; c += 1) A[r * 6 + c] += J[r]! * J[c]!;
      }
    }
    // A touch of damping keeps directions the surface cannot fix (sliding along a plane) at rest.
    let trace = 0;
    for (let r = 0; r < 6; r += 1) trace += A[r * 7]!;
    const damping = 1e-9 * (trace / 6 || 1);
    const rows = [0, 1, 2, 3, 4, 5].map((r) => [0, 1, 2, 3, 4, 5].map((c) => A[r * 6 + c]! + (r === c ? damping : 0)));
    const x = solve(new Matrix(rows), Matrix.columnVector(Array.from(b))).getColumn(0);
    if (!x.every((v) => Number.isFinite(v))) break;
    const omega: [number, number, number] = [x[0]!, x[1]!, x[2]!];
    const t: [number, number, number] = [x[3]!, x[4]!, x[5]!];
    matrix = multiply(rigidMotion(omega, t, pivot), matrix);
    iterations += 1;
    if (Math.hypot(...omega) < tolerance && Math.hypot(...t) < tolerance * size) break;
  }

  place(matrix);
  const match = pairBestFit(moved, n, ref, maxDistance);
  const { rms, kept } = inlierRms(match.distance, inlierCut(match.distance, keepFraction, floor));
  return { matrix, rmsError: rms, iterations, pairs: kept };
}
