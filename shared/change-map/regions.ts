/**
 * Change regions: the changed patches of one point set grouped into connected components — two
 * changed patches belong together when their centroids are within the link radius (by default
 * three times the patches' typical spacing, so a gap of a missing patch or two does not split a
 * region) — and each component summarised over its points: count, centroid, axis-aligned extent,
 * mean and largest signed distance.
 */
import type { Patches } from './local-surface.js';
import type { ChangeRegion } from './types.js';

/** The link radius is this many times the patches' typical spacing unless the caller gives one. */
export const LINK_SPACINGS = 3;

/**
 * The typical spacing of the patches: the median distance from a patch centroid to the nearest
 * other one, over up to 2 000 patches spread through the set.
 * @returns model units (0 with fewer than two patches)
 */
export function patchSpacing(patches: Patches): number {
  if (patches.count < 2) return 0;
  const stride = Math.max(1, Math.floor(patches.count / 2000));
  const ids = new Uint32Array(2);
  const d2 = new Float64Array(2);
  const gaps: number[] = [];
  for (let p = 0; p < patches.count; p += stride) {
    const c = patches.centroid;
    if (patches.centroidIndex.nearest(c[p * 3]!, c[p * 3 + 1]!, c[p * 3 + 2]!, 2, Infinity, ids, d2) === 2) gaps.push(Math.sqrt(d2[1]!));
  }
  gaps.sort((a, b) => a - b);
  return gaps[gaps.length >> 1] ?? 0;
}

/**
 * Groups the changed patches into connected components (union–find over radius searches of the
 * patch centroids; only changed patches are searched from).
 * @param patches the patches
 * @param changed per patch, 1 when changed
 * @param linkRadius model units
 * @returns per patch its component (0-based) or −1, and the number of components
 */
export function clusterPatches(patches: Patches, changed: Uint8Array, linkRadius: number): { clusterOf: Int32Array; clusters: number } {
  const m = patches.count;
  const parent = new Int32Array(m).map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  let from = 0;
  const link = (q: number): void => {
    if (changed[q] !== 1) return;
    const a = root(from);
    const b = root(q);
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  };
  const c = patches.centroid;
  for (let p = 0; p < m; p += 1) {
    if (changed[p] !== 1) continue;
    from = p;
    patches.centroidIndex.within(c[p * 3]!, c[p * 3 + 1]!, c[p * 3 + 2]!, linkRadius, link);
  }
  const clusterOf = new Int32Array(m).fill(-1);
  const numberOf = new Int32Array(m).fill(-1);
  let clusters = 0;
  for (let p = 0; p < m; p += 1) {
    if (changed[p] !== 1) continue;
    const r = root(p);
    if (numberOf[r] === -1) numberOf[r] = clusters++;
    clusterOf[p] = numberOf[r]!;
  }
  return { clusterOf, clusters };
}

/** A component summarised, before it is numbered. */
export type RegionSummary = Omit<ChangeRegion, 'id'> & { cluster: number };

/**
 * Summarises each component over its points.
 * @param side which point set the points are from
 * @param positions flat xyz of the points, in the reference frame
 * @param patches their patches
 * @param clusterOf per patch, its component or −1
 * @param clusters number of components
 * @param patchDistance per patch, the signed distance its points report
 * @returns one summary per component, in component order
 */
export function summariseClusters(
  side: ChangeRegion['side'],
  positions: Float32Array,
  patches: Patches,
  clusterOf: Int32Array,
  clusters: number,
  patchDistance: Float64Array,
): RegionSummary[] {
  const out: RegionSummary[] = [];
  for (let k = 0; k < clusters; k += 1) {
    out.push({
      cluster: k,
      side,
      centroid: [0, 0, 0],
      min: [Infinity, Infinity, Infinity],
      max: [-Infinity, -Infinity, -Infinity],
      count: 0,
      meanDistance: 0,
      maxDistance: 0,
    });
  }
  const { order, start: leafStart } = patches;
  for (let p = 0; p < patches.count; p += 1) {
    const k = clusterOf[p]!;
    if (k < 0) continue;
    const region = out[k]!;
    const d = patchDistance[p]!;
    for (let s = leafStart[p]!; s < leafStart[p + 1]!; s += 1) {
      const id = order[s]!;
      for (let a = 0; a < 3; a += 1) {
        const v = positions[id * 3 + a]!;
        region.centroid[a] += v;
        if (v < region.min[a]) region.min[a] = v;
        if (v > region.max[a]) region.max[a] = v;
      }
      region.count += 1;
      region.meanDistance += d;
      if (Math.abs(d) > Math.abs(region.maxDistance)) region.maxDistance = d;
    }
  }
  for (const region of out) {
    if (region.count === 0) continue;
    for (let a = 0; a < 3; a += 1) region.centroid[a] /= region.count;
    region.meanDistance /= region.count;
  }
  return out;
}
