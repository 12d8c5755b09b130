/**
 * Signed distances from points to the other point set's local surface, and the level of
 * detection that says which of them are real. The surface near a point is the patch, among the
 * few whose centroids are nearest, that the point lies closest to; a patch is a disc — its fitted
 * plane out to the patch's reach (half as wide again as its points, so that neighbouring discs
 * overlap) — and the distance is along the patch's normal while the point stands over the disc and
 * grows with the overhang beyond its rim. The sign is the side of the
 * (oriented) normal the point is on: positive outside.
 *
 * The level of detection follows the multiscale model-to-model comparison of point clouds: a
 * distance between two averaged patches is significant at 95 % when it exceeds
 * 1.96 · √(σ₁²/n₁ + σ₂²/n₂) + the registration's error, σ being each patch's roughness and n its
 * points.
 */
import type { Patches } from './local-surface.js';

/** How many nearest patch centroids are tried for each point. */
const CANDIDATES = 4;
/** The confidence factor of the margin by which another candidate must beat the nearest one. */
const PLANE_CONFIDENCE = 1.96;
/** How many nearest patch centroids are tried for the points of a patch. */
const PATCH_CANDIDATES = 6;

/** Where each point meets the surface: the patch and the signed distance to it. */
export interface SurfaceMatch {
  /** Per point, the matched patch, or −1 when none is within reach. */
  patch: Int32Array;
  /** Per point, the signed distance (positive on the normal's side), NaN when unmatched. */
  distance: Float64Array;
  /** Per point, the patch whose centroid is nearest (−1 when none is within reach). */
  nearest: Int32Array;
}

/**
 * The signed distance from a point to one patch's disc: the height h over its plane along the
 * normal while the point is within the patch's reach of its centre in the plane, else
 * √(h² + overhang²). Sign: that of h (positive when h is 0).
 * @returns model units
 */
export function distanceToPatch(surface: Patches, p: number, x: number, y: number, z: number): number {
  const ox = x - surface.origin[p * 3]!;
  const oy = y - surface.origin[p * 3 + 1]!;
  const oz = z - surface.origin[p * 3 + 2]!;
  const h = ox * surface.normal[p * 3]! + oy * surface.normal[p * 3 + 1]! + oz * surface.normal[p * 3 + 2]!;
  const lateral = Math.sqrt(Math.max(0, ox * ox + oy * oy + oz * oz - h * h));
  const overhang = Math.max(0, lateral - surface.reach[p]!);
  const d = overhang > 0 ? Math.sqrt(h * h + overhang * overhang) : Math.abs(h);
  return h < 0 ? -d : d;
}

/**
 * Matches points to a patch surface: for each point, of the 4 patches whose centroids are nearest,
 * the one it lies closest to (smallest |distance|).
 * @param xyz flat xyz of the points, in the surface's frame
 * @param count points
 * @param surface the patches of the other point set
 * @param maxDistance candidate patches farther than this (centroid distance) are not tried; model units, Infinity for no limit
 * @returns the matched patch and signed distance per point
 */
export function matchToSurface(xyz: Float32Array | Float64Array, count: number, surface: Patches, maxDistance: number): SurfaceMatch {
  const patch = new Int32Array(count).fill(-1);
  const nearest = new Int32Array(count).fill(-1);
  const distance = new Float64Array(count).fill(NaN);
  const ids = new Uint32Array(CANDIDATES);
  const d2 = new Float64Array(CANDIDATES);
  for (let i = 0; i < count; i += 1) {
    const x = xyz[i * 3]!;
    const y = xyz[i * 3 + 1]!;
    const z = xyz[i * 3 + 2]!;
    const found = surface.centroidIndex.nearest(x, y, z, CANDIDATES, maxDistance, ids, d2);
    let best = -1;
    let bestD = NaN;
    for (let c = 0; c < found; c += 1) {
      const d = distanceToPatch(surface, ids[c]!, x, y, z);
      if (best < 0 || Math.abs(d) < Math.abs(bestD)) {
        best = ids[c]!;
        bestD = d;
      }
    }
    patch[i] = best;
    distance[i] = bestD;
    if (found > 0) nearest[i] = ids[0]!;
  }
  return { patch, distance, nearest };
}

/**
 * Measures one point set's patches against another's surface, point by point: the 6 patches of
 * the surface whose centroids are nearest a patch's centroid are its candidates; each of the
 * patch's own points takes the nearest one unless another fits it better by more than the two
 * planes' uncertainty (1.96 · √(σ₁²/n₁ + σ₂²/n₂)); and the patch's distance is the mean
 * of its points' signed distances. Where a patch straddles a corner or a joint, each point still
 * meets the face it lies on, so the joint does not read as a change; the mean averages the points'
 * noise out.
 * @param from the measured patches
 * @param positions flat xyz of `from`'s points, in the surface's frame
 * @param surface the other point set's patches
 * @param maxDistance candidates whose centroids are farther than this are not tried; model units, Infinity for no limit
 * @returns per patch of `from`: the surface patch its centroid lies closest to and the one whose
 *   centroid is nearest (−1 when none), and the mean signed distance (NaN when none)
 */
export function measurePatches(from: Patches, positions: Float32Array, surface: Patches, maxDistance: number): SurfaceMatch {
  const m = from.count;
  const patch = new Int32Array(m).fill(-1);
  const nearest = new Int32Array(m).fill(-1);
  const distance = new Float64Array(m).fill(NaN);
  const ids = new Uint32Array(PATCH_CANDIDATES);
  const d2 = new Float64Array(PATCH_CANDIDATES);
  const { order, leafStart } = from.index;
  const c = from.centroid;
  for (let p = 0; p < m; p += 1) {
    const found = surface.centroidIndex.nearest(c[p * 3]!, c[p * 3 + 1]!, c[p * 3 + 2]!, PATCH_CANDIDATES, maxDistance, ids, d2);
    if (found === 0) continue;
    let best = -1;
    let bestD = Infinity;
    for (let k = 0; k < found; k += 1) {
      const d = Math.abs(distanceToPatch(surface, ids[k]!, c[p * 3]!, c[p * 3 + 1]!, c[p * 3 + 2]!));
      if (d < bestD) {
        bestD = d;
        best = ids[k]!;
      }
    }
    let sum = 0;
    for (let s = leafStart[p]!; s < leafStart[p + 1]!; s += 1) {
      const id = order[s]! * 3;
      const x = positions[id]!;
      const y = positions[id + 1]!;
      const z = positions[id + 2]!;
      // The patch whose centroid is nearest the patch's own speaks for the surface unless another
      // candidate fits the point clearly better — by more than the two planes' own uncertainty, so
      // that noise in the normals does not pull every distance towards zero, while a point by a
      // joint still meets the face it lies on.
      const first = ids[0]!;
      let pointD = distanceToPatch(surface, first, x, y, z);
      let pointAbs = Math.abs(pointD);
      for (let k = 1; k < found; k += 1) {
        const q = ids[k]!;
        const d = distanceToPatch(surface, q, x, y, z);
        const margin = pairLevelOfDetection(
          PLANE_CONFIDENCE,
          surface.roughness[first]!,
          surface.fitted[first]!,
          surface.roughness[q]!,
          surface.fitted[q]!,
          0,
        );
        if (Math.abs(d) < pointAbs - margin || !Number.isFinite(pointD)) {
          pointD = d;
          pointAbs = Math.abs(d) + margin;
        }
      }
      sum += pointD;
    }
    patch[p] = best;
    nearest[p] = ids[0]!;
    distance[p] = sum / (leafStart[p + 1]! - leafStart[p]!);
  }
  return { patch, distance, nearest };
}

/**
 * The level of detection of one pair of patches: z · √(σa²/na + σb²/nb) + rms.
 * @param z the confidence factor (1.96 for 95 %)
 * @param sigmaA roughness of one patch, model units; na its points (≥ 1)
 * @param sigmaB roughness of the other; nb its points (≥ 1)
 * @param rms the registration's error, model units
 * @returns model units
 */
export function pairLevelOfDetection(z: number, sigmaA: number, na: number, sigmaB: number, nb: number, rms: number): number {
  return z * Math.sqrt((sigmaA * sigmaA) / Math.max(1, na) + (sigmaB * sigmaB) / Math.max(1, nb)) + rms;
}

/**
 * The median of the finite values (NaN when there are none). Sorts a copy.
 */
export function median(values: ArrayLike<number>): number {
  const all = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i += 1) if (Number.isFinite(values[i])) all[n++] = values[i]!;
  if (n === 0) return NaN;
  const finite = all.subarray(0, n).sort();
  const mid = finite.length >> 1;
  return finite.length % 2 === 1 ? finite[mid]! : (finite[mid - 1]! + finite[mid]!) / 2;
}

/**
 * The robust cut that separates a registration's well-matched pairs from far ones (changed parts,
 * wrong pairs): |d| ≤ max(3 × 1.4826 × median |d|, floor) — three robust standard deviations —
 * and, of those, at most `keepFraction` of all pairs, the closest.
 * @param distances signed distances of the pairs (NaN = no pair)
 * @param keepFraction 0..1
 * @param floor the cut is never below this, model units
 * @returns the largest |d| kept (−1 when none is)
 */
export function inlierCut(distances: ArrayLike<number>, keepFraction: number, floor: number): number {
  const abs = new Float64Array(distances.length);
  let n = 0;
  for (let i = 0; i < distances.length; i += 1) if (Number.isFinite(distances[i])) abs[n++] = Math.abs(distances[i]!);
  if (n === 0) return -1;
  const sorted = abs.subarray(0, n).sort();
  const med = sorted[sorted.length >> 1]!;
  const robust = Math.max(3 * 1.4826 * med, floor);
  const kept = Math.max(1, Math.floor(sorted.length * Math.min(1, Math.max(0, keepFraction))));
  return Math.min(robust, sorted[kept - 1]!);
}

/**
 * The root mean square of the distances within the cut (see {@link inlierCut}).
 * @returns the RMS (0 when none is kept) and how many were kept
 */
export function inlierRms(distances: ArrayLike<number>, cut: number): { rms: number; kept: number } {
  let sum = 0;
  let kept = 0;
  for (let i = 0; i < distances.length; i += 1) {
    const d = distances[i]!;
    if (Number.isFinite(d) && Math.abs(d) <= cut) {
      sum += d * d;
      kept += 1;
    }
  }
  return { rms: kept > 0 ? Math.sqrt(sum / kept) : 0, kept };
}
