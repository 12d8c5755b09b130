/**
 * Signed distances from one point set's patches to the other set's local surface. The surface
 * near a point is made of the elements (see local-surface.ts) among the few whose centroids are
 * nearest: a plane element is a disc — its plane out to its reach (half as wide again as its
 * points, so that neighbouring discs overlap) — and a line element (a thin member) a segment of its
 * axis. A point's offset from an element is the vector from the element's nearest point to it:
 * along the normal while the point stands over a disc, growing with the overhang beyond its rim;
 * across the axis for a line. The sign is the side of the (oriented) normal the point is on,
 * positive outside; off a line is always outside.
 *
 * Each point's offset averages those of the elements that place it as near as the best one does,
 * within their uncertainty, so the error of any one element's position averages out; a patch's
 * distance is the mean offset of its points pooled with its neighbours' (where their own means
 * agree), so the splats' noise averages over some 50 to 100 points, and it comes with the variance
 * of that mean, from which the level of detection follows (change-map.ts).
 */
import type { Patches } from './local-surface.js';

/** How many nearest patch centroids are tried for each point. */
const CANDIDATES = 4;
/** The confidence factor of the margin by which another candidate must beat the nearest one. */
const PLANE_CONFIDENCE = 1.96;
/** How many nearest patch centroids are tried for the points of a patch. */
const PATCH_CANDIDATES = 5;
/** A neighbour's points are pooled with a patch's only when the two patches' own mean distances differ by less than this many times a point's noise. */
const POOL_CONFIDENCE = 3;

/** Where each point meets the surface: the patch and the signed distance to it. */
export interface SurfaceMatch {
  /** Per point, the matched patch, or −1 when none is within reach. */
  patch: Int32Array;
  /** Per point, the signed distance (positive on the normal's side), NaN when unmatched. */
  distance: Float64Array;
  /** Per point, the patch whose centroid is nearest (−1 when none is within reach). */
  nearest: Int32Array;
}

/** A patch set measured against another's surface (see {@link measurePatches}). */
export interface PatchMeasure extends SurfaceMatch {
  /** Per patch, the variance of its distance as an estimate: the pooled points' spread over their count (model units², NaN when unmatched). */
  variance: Float64Array;
  /** Per patch, the mean signed distance of its own points alone, before pooling (NaN when unmatched). */
  own: Float64Array;
  /** Per patch, the variance of `own` as an estimate: its points' spread over their count (model units², NaN when unmatched). */
  ownVariance: Float64Array;
  /** Per patch, 1 when most of the pooled points met line elements: the distance is then a length across a line, in two directions. */
  across: Uint8Array;
}

/**
 * The offset of a point from one surface element: the vector from the element's nearest point to
 * it, and its signed length. A plane element is a disc — its plane out to its reach from its
 * centre — and the sign is that of the point's height over the plane along the normal (positive
 * when 0); a line element is a segment along its axis, reaching as far each way, and the length
 * is unsigned (a line has no inside: whatever is off it is outside).
 * @param out receives the offset vector (xyz, model units) at `out[at .. at + 2]`
 * @returns the signed length, model units
 */
function offsetFromPatch(surface: Patches, p: number, x: number, y: number, z: number, out: Float64Array, at = 0): number {
  const ox = x - surface.origin[p * 3]!;
  const oy = y - surface.origin[p * 3 + 1]!;
  const oz = z - surface.origin[p * 3 + 2]!;
  const reach = surface.reach[p]!;
  if (surface.linear[p] === 1) {
    const ax = surface.axis[p * 3]!;
    const ay = surface.axis[p * 3 + 1]!;
    const az = surface.axis[p * 3 + 2]!;
    const t = ox * ax + oy * ay + oz * az;
    const along = Math.min(reach, Math.max(-reach, t));
    const vx = ox - along * ax;
    const vy = oy - along * ay;
    const vz = oz - along * az;
    out[at] = vx;
    out[at + 1] = vy;
    out[at + 2] = vz;
    return Math.sqrt(vx * vx + vy * vy + vz * vz);
  }
  const nx = surface.normal[p * 3]!;
  const ny = surface.normal[p * 3 + 1]!;
  const nz = surface.normal[p * 3 + 2]!;
  const h = ox * nx + oy * ny + oz * nz;
  // The in-plane part beyond the rim stays in the offset.
  const lx = ox - h * nx;
  const ly = oy - h * ny;
  const lz = oz - h * nz;
  const lateral = Math.sqrt(lx * lx + ly * ly + lz * lz);
  const beyond = lateral > reach ? (lateral - reach) / lateral : 0;
  const vx = h * nx + beyond * lx;
  const vy = h * ny + beyond * ly;
  const vz = h * nz + beyond * lz;
  out[at] = vx;
  out[at + 1] = vy;
  out[at + 2] = vz;
  const d = Math.sqrt(vx * vx + vy * vy + vz * vz);
  return h < 0 ? -d : d;
}

const OFFSET = new Float64Array(3);

/**
 * The signed distance from a point to one surface element (see {@link offsetFromPatch}): for a
 * plane, the height h over it along the normal while the point is within the disc's reach of its
 * centre in the plane, else √(h² + overhang²), signed as h; for a line, the distance to its segment.
 * @returns model units
 */
export function distanceToPatch(surface: Patches, p: number, x: number, y: number, z: number): number {
  return offsetFromPatch(surface, p, x, y, z, OFFSET);
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
 * Measures one point set's patches against another's surface. Each point of a patch meets the
 * surface at one element: of the 5 elements whose centroids are nearest the patch's centroid, the
 * nearest one unless another fits the point better by more than the two elements' uncertainty
 * (1.96 · √(u₁ + u₂), u the variance of an element's position) — so where a patch straddles a
 * corner or a joint each point still meets the face it lies on, while noise in the normals does
 * not pull every distance towards zero. The point's offset (see {@link offsetFromPatch}) is then
 * the precision-weighted mean of its offsets from that element and from the candidates of the
 * same kind that place it as near within their uncertainty, so no single element's error of
 * position speaks alone. A patch's distance is the mean offset of its points pooled with those of
 * its neighbouring patches (see `Patches.neighbours`) whose own mean distances differ from its own
 * by less than 3 times a point's noise (the median spread of the points about their patch's mean,
 * locally or over the set, whichever is larger) — so the splats' noise averages over some 50 to
 * 100 points, and a patch of a few points that the index cut off one side of the noise pools back
 * into its surface, but not across the edge of a change: its length, signed as the mean height
 * over the planes where most of the pooled points met plane elements, positive where they met
 * lines (whose offsets are across the axis either way, so only their mean, not each one's length,
 * is free of the noise). The estimate's variance is the pooled offsets' spread about their mean
 * over the number of points.
 * @param from the measured patches
 * @param positions flat xyz of `from`'s points, in the surface's frame
 * @param surface the other point set's patches
 * @param maxDistance candidates whose centroids are farther than this are not tried; model units, Infinity for no limit
 * @returns per patch of `from`: the surface patch its centroid lies closest to and the one whose
 *   centroid is nearest (−1 when none), the pooled signed distance and its variance, the patch's
 *   own mean distance and its variance (NaN when none), and whether the distance is across lines
 */
export function measurePatches(from: Patches, positions: Float32Array, surface: Patches, maxDistance: number): PatchMeasure {
  const m = from.count;
  const patch = new Int32Array(m).fill(-1);
  const nearest = new Int32Array(m).fill(-1);
  const distance = new Float64Array(m).fill(NaN);
  const variance = new Float64Array(m).fill(NaN);
  const own = new Float64Array(m).fill(NaN);
  const ownVariance = new Float64Array(m).fill(NaN);
  const across = new Uint8Array(m);
  // Per patch: points met, the sum of their offset vectors, of their squared lengths, and of the
  // signed heights of those that met planes, with their count.
  const met = new Uint32Array(m);
  const sum = new Float64Array(m * 3);
  const squares = new Float64Array(m);
  const heights = new Float64Array(m);
  const onPlanes = new Uint32Array(m);
  const ids = new Uint32Array(PATCH_CANDIDATES);
  const d2 = new Float64Array(PATCH_CANDIDATES);
  const length = new Float64Array(PATCH_CANDIDATES);
  const vectors = new Float64Array(PATCH_CANDIDATES * 3);
  const spreadOf = new Float64Array(PATCH_CANDIDATES);
  const weightOf = new Float64Array(PATCH_CANDIDATES);
  const kindOf = new Uint8Array(PATCH_CANDIDATES);
  const margins = new Float64Array(PATCH_CANDIDATES * PATCH_CANDIDATES);
  // The weights' floor: a hundredth of the typical element's uncertainty (elements fitted to exact points have none).
  const floor = 0.01 * (median(surface.uncertainty) || 0) + Number.MIN_VALUE;
  const { order, start: leafStart } = from;
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
    patch[p] = best;
    nearest[p] = ids[0]!;
    // Per candidate: its uncertainty, its weight (precision) and kind; per pair, the margin of their uncertainties.
    for (let k = 0; k < found; k += 1) {
      const q = ids[k]!;
      spreadOf[k] = surface.uncertainty[q]!;
      weightOf[k] = 1 / (spreadOf[k]! + floor);
      kindOf[k] = surface.linear[q]!;
    }
    for (let a = 0; a < found; a += 1)
      for (let b = a; b < found; b += 1) {
        const margin = PLANE_CONFIDENCE * Math.sqrt(spreadOf[a]! + spreadOf[b]!);
        margins[a * PATCH_CANDIDATES + b] = margin;
        margins[b * PATCH_CANDIDATES + a] = margin;
      }
    for (let s = leafStart[p]!; s < leafStart[p + 1]!; s += 1) {
      const id = order[s]! * 3;
      const x = positions[id]!;
      const y = positions[id + 1]!;
      const z = positions[id + 2]!;
      for (let k = 0; k < found; k += 1) length[k] = Math.abs(offsetFromPatch(surface, ids[k]!, x, y, z, vectors, k * 3));
      // The element whose centroid is nearest the patch's own speaks for the surface unless another
      // candidate fits the point clearly better — by more than the two elements' own uncertainty.
      let chosen = 0;
      let rival = length[0]!;
      for (let k = 1; k < found; k += 1) {
        const margin = margins[k]!;
        if (length[k]! < rival - margin || !Number.isFinite(length[chosen]!)) {
          chosen = k;
          rival = length[k]! + margin;
        }
      }
      // The surface there is that element together with the candidates of its kind that place the
      // point as near, within their uncertainty: their offsets, weighted by their precision, average
      // out the error of any one element's position.
      const c = ids[chosen]!;
      let wx = 0;
      let wy = 0;
      let wz = 0;
      let weights = 0;
      for (let k = 0; k < found; k += 1) {
        if (kindOf[k] !== kindOf[chosen]) continue;
        if (k !== chosen && !(length[k]! <= length[chosen]! + margins[chosen * PATCH_CANDIDATES + k]!)) continue;
        const w = weightOf[k]!;
        wx += w * vectors[k * 3]!;
        wy += w * vectors[k * 3 + 1]!;
        wz += w * vectors[k * 3 + 2]!;
        weights += w;
      }
      wx /= weights;
      wy /= weights;
      wz /= weights;
      let d = Math.sqrt(wx * wx + wy * wy + wz * wz);
      met[p] += 1;
      sum[p * 3] += wx;
      sum[p * 3 + 1] += wy;
      sum[p * 3 + 2] += wz;
      squares[p] += d * d;
      if (surface.linear[c] === 0) {
        if (wx * surface.normal[c * 3]! + wy * surface.normal[c * 3 + 1]! + wz * surface.normal[c * 3 + 2]! < 0) d = -d;
        heights[p] += d;
        onPlanes[p] += 1;
      }
    }
  }
  // Each patch's own mean offset and its points' spread about it, for the pooling test.
  const spread = new Float64Array(m).fill(NaN);
  for (let p = 0; p < m; p += 1) {
    const n = met[p]!;
    if (n === 0) continue;
    const mean2 = (sum[p * 3]! ** 2 + sum[p * 3 + 1]! ** 2 + sum[p * 3 + 2]! ** 2) / (n * n);
    spread[p] = Math.max(0, squares[p]! / n - mean2);
    ownVariance[p] = spread[p]! / n;
    own[p] = 2 * onPlanes[p]! >= n && heights[p]! < 0 ? -Math.sqrt(mean2) : Math.sqrt(mean2);
  }
  const K = from.neighbours.length / Math.max(1, m);
  const local = new Float64Array(K + 1);
  const typical = median(spread);
  for (let p = 0; p < m; p += 1) {
    const n = met[p]!;
    if (n === 0) continue;
    // The noise of a point: the median spread of the patch's and its neighbours' points, or of all
    // patches' if more (where the set is dense the index cuts a few points off one side of the
    // noise into a patch of their own: their spread is small and their mean far off).
    let k0 = 0;
    local[k0++] = spread[p]!;
    for (let k = 0; k < K; k += 1) {
      const q = from.neighbours[p * K + k]!;
      if (q >= 0 && met[q]! > 0) local[k0++] = spread[q]!;
    }
    // (A few numbers: an insertion sort in place.)
    for (let i = 1; i < k0; i += 1) {
      const v = local[i]!;
      let j = i;
      while (j > 0 && local[j - 1]! > v) {
        local[j] = local[j - 1]!;
        j -= 1;
      }
      local[j] = v;
    }
    const noise = Math.max(local[k0 >> 1]!, Number.isFinite(typical) ? typical : 0);
    let pooled = n;
    let [vx, vy, vz] = [sum[p * 3]!, sum[p * 3 + 1]!, sum[p * 3 + 2]!];
    let q2 = squares[p]!;
    let h = heights[p]!;
    let planes = onPlanes[p]!;
    for (let k = 0; k < K; k += 1) {
      const q = from.neighbours[p * K + k]!;
      if (q < 0) break;
      const nq = met[q]!;
      if (nq === 0) continue;
      // Their own distances, not their offset vectors: the halves of a thick member's cross-section
      // lie off its axis opposite ways but at one distance, and pool back into its middle.
      if ((own[q]! - own[p]!) ** 2 > POOL_CONFIDENCE ** 2 * noise) continue;
      pooled += nq;
      vx += sum[q * 3]!;
      vy += sum[q * 3 + 1]!;
      vz += sum[q * 3 + 2]!;
      q2 += squares[q]!;
      h += heights[q]!;
      planes += onPlanes[q]!;
    }
    const length = Math.hypot(vx, vy, vz) / pooled;
    distance[p] = 2 * planes >= pooled && h < 0 ? -length : length;
    across[p] = 2 * planes < pooled ? 1 : 0;
    variance[p] = Math.max(0, q2 / pooled - length * length) / pooled;
  }
  return { patch, nearest, distance, variance, own, ownVariance, across };
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
