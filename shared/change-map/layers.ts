/**
 * Leaves of a point index cut where they hold two layers — the two faces of a thin plate, two
 * members side by side — so that no patch of the local surface straddles a gap and fits a plane
 * between two surfaces that are both there.
 */
import { EIGEN, fitMoments, isLinear, mergeMoments, type Moments } from './moments.js';

/** The leaves a point set's index cut it into: each one's point count, centroid and scatter (see `Moments`), and the set's noise. */
export interface LeafMoments {
  count: Uint32Array;
  centroid: Float64Array;
  scatter: Float64Array;
  /** The typical spread of a point across its surface, model units. */
  noise: number;
}

/** A neighbourhood may hold two layers across its surface when the kurtosis of its points' heights is under this (see `kurtoses`)… */
const LAYER_KURTOSIS = 2.2;

/** …or in any direction, under this… */
const LAYER_KURTOSIS_ANY = 1.5;

/** …and a leaf of it is cut in two when the spread of heights within its two runs is under this fraction of the whole… */
const LAYER_SPREAD = 0.2;

/** …and the two runs' mean heights are more than this many times the set's noise apart… */
const LAYER_GAP = 4;

/** …and each run keeps at least this many points. */
const MIN_LAYER_POINTS = 3;

/**
 * The kurtosis of a neighbourhood's points along each of three directions: the fourth central
 * moment of their heights over the squared variance — 3 for one noisy layer, 1.8 for an even
 * spread, 1 for two thin layers, about 1.4 for two layers six times their own spread apart.
 * @param groups the leaves of the neighbourhood (−1 skipped), their points `ids[starts[g] .. starts[g + 1])`
 * @param axes three unit directions, xyz each
 * @param centre the neighbourhood's centroid
 * @param variances its variance along each direction
 * @param out receives the three kurtoses (Infinity where the variance is 0)
 */
function kurtoses(
  xyz: Float32Array,
  ids: Uint32Array,
  starts: Uint32Array,
  groups: ArrayLike<number>,
  axes: Float64Array,
  centre: Float64Array,
  variances: ArrayLike<number>,
  out: Float64Array,
): void {
  let [f0, f1, f2] = [0, 0, 0];
  let count = 0;
  for (let k = 0; k < groups.length; k += 1) {
    const g = groups[k]!;
    if (g < 0) continue;
    for (let s = starts[g]!; s < starts[g + 1]!; s += 1) {
      const id = ids[s]! * 3;
      const x = xyz[id]! - centre[0]!;
      const y = xyz[id + 1]! - centre[1]!;
      const z = xyz[id + 2]! - centre[2]!;
      const h0 = x * axes[0]! + y * axes[1]! + z * axes[2]!;
      const h1 = x * axes[3]! + y * axes[4]! + z * axes[5]!;
      const h2 = x * axes[6]! + y * axes[7]! + z * axes[8]!;
      f0 += h0 * h0 * h0 * h0;
      f1 += h1 * h1 * h1 * h1;
      f2 += h2 * h2 * h2 * h2;
      count += 1;
    }
  }
  const fourth = [f0, f1, f2];
  for (let a = 0; a < 3; a += 1) {
    const v = variances[a]!;
    out[a] = v > 0 && count > 0 ? fourth[a]! / count / (v * v) : Infinity;
  }
}

/** Scratch of {@link cutLayers}. */
interface CutScratch {
  height: Float64Array;
  rank: Uint32Array;
  copy: Uint32Array;
}

/**
 * Cuts the points `ids[from .. to)` (one leaf) in two layers along `n` where its own points form
 * two: the cut into a lower and an upper run that leaves the least spread of heights within them,
 * taken when that spread is under {@link LAYER_SPREAD} of the whole, the runs' mean heights are
 * more than {@link LAYER_GAP} × `noise` apart (so that the noise of one layer is never cut in two
 * biased halves) and each run keeps at least {@link MIN_LAYER_POINTS}. Reorders `ids` within the
 * range so that each part is a run, and appends each part's start to `starts`.
 */
function cutLayers(
  xyz: Float32Array,
  ids: Uint32Array,
  from: number,
  to: number,
  n: ArrayLike<number>,
  noise: number,
  starts: number[],
  scratch: CutScratch,
): void {
  starts.push(from);
  const count = to - from;
  const { height, rank, copy } = scratch;
  let mean = 0;
  for (let k = 0; k < count; k += 1) {
    const id = ids[from + k]! * 3;
    height[k] = xyz[id]! * n[0]! + xyz[id + 1]! * n[1]! + xyz[id + 2]! * n[2]!;
    mean += height[k]!;
    rank[k] = k;
  }
  mean /= count;
  let whole = 0;
  for (let k = 0; k < count; k += 1) {
    height[k] -= mean;
    whole += height[k]! ** 2;
  }
  if (!(whole > 0)) return;
  // Insertion sort by height: a leaf holds a few dozen points at most.
  for (let i = 1; i < count; i += 1) {
    const r = rank[i]!;
    let j = i;
    while (j > 0 && height[rank[j - 1]!]! > height[r]!) {
      rank[j] = rank[j - 1]!;
      j -= 1;
    }
    rank[j] = r;
  }
  let best = LAYER_SPREAD;
  let cut = 0;
  let left = 0;
  let leftSq = 0;
  for (let j = 1; j < count; j += 1) {
    const v = height[rank[j - 1]!]!;
    left += v;
    leftSq += v * v;
    if (j < MIN_LAYER_POINTS || count - j < MIN_LAYER_POINTS) continue;
    // The heights are centred: the upper run's sum is −left.
    const within = leftSq - (left * left) / j + (whole - leftSq) - (left * left) / (count - j);
    const apart = -left / (count - j) - left / j;
    if (within / whole < best && apart > LAYER_GAP * noise) {
      best = within / whole;
      cut = j;
    }
  }
  if (cut === 0) return;
  for (let k = 0; k < count; k += 1) copy[k] = ids[from + rank[k]!]!;
  ids.set(copy.subarray(0, count), from);
  starts.push(from + cut);
}

/**
 * Cuts each leaf whose neighbourhood (the leaf and its nearest leaves) holds two layers (see
 * {@link cutLayers}): across the neighbourhood's surface (the two faces of a thin plate), across a
 * strip in its plane (two members side by side) or, where the neighbourhood is no wider than the
 * layers are apart, along it. Along each principal direction the kurtosis of the points' heights
 * tells (see {@link kurtoses}): across the surface one noisy layer is a bell, 3, so anything under
 * {@link LAYER_KURTOSIS} may be two; in the other directions points spread evenly, 1.8, so only
 * under {@link LAYER_KURTOSIS_ANY} are they two; the flattest direction that qualifies is cut, and
 * only one whose spread is wide enough to hold two layers {@link LAYER_GAP} × the noise apart.
 * Across a line there is no surface to have layers: a member's cross-section is spread evenly.
 * @param positions flat xyz of the points
 * @param order point ids in leaf order, reordered within each leaf that is cut
 * @param leafStart the leaves' offsets into `order`
 * @param leaf the leaves' moments and the set's noise
 * @param leafNeighbours each leaf's nearest leaves, the same number each (−1 padding)
 * @returns the patches' starts in `order` (with the point count at the end), and each leaf's first
 *   patch (with the patch count at the end)
 */
export function splitLeaves(
  positions: Float32Array,
  order: Uint32Array,
  leafStart: Uint32Array,
  leaf: LeafMoments,
  leafNeighbours: Int32Array,
): { start: Uint32Array; firstPatch: Uint32Array } {
  const leaves = leaf.count.length;
  const neighbours = leaves > 0 ? leafNeighbours.length / leaves : 0;
  const eigen = new Float64Array(EIGEN);
  const merged: Moments = { n: 0, c: new Float64Array(3), s: new Float64Array(6) };
  const all = new Int32Array(neighbours + 1);
  const starts: number[] = [];
  const firstPatch = new Uint32Array(leaves + 1);
  let most = 0;
  for (let l = 0; l < leaves; l += 1) most = Math.max(most, leaf.count[l]!);
  const cut: CutScratch = { height: new Float64Array(most), rank: new Uint32Array(most), copy: new Uint32Array(most) };
  const axes = new Float64Array(9);
  const variances = new Float64Array(3);
  const kurtosis = new Float64Array(3);
  // Two layers g apart, each holding at least a quarter of the points, spread at least 3g²/16 across.
  const wide = (3 / 16) * (LAYER_GAP * leaf.noise) ** 2;
  for (let l = 0; l < leaves; l += 1) {
    firstPatch[l] = starts.length;
    if (leaf.count[l]! < 2 * MIN_LAYER_POINTS) {
      starts.push(leafStart[l]!);
      continue;
    }
    all[0] = l;
    for (let k = 0; k < neighbours; k += 1) all[k + 1] = leafNeighbours[l * neighbours + k]!;
    mergeMoments(all, all.length, leaf.count, leaf.centroid, leaf.scatter, merged);
    fitMoments(merged, eigen);
    if (isLinear(eigen[0]!, eigen[1]!, eigen[2]!) || !(eigen[2]! > wide || eigen[1]! > wide)) {
      starts.push(leafStart[l]!);
      continue;
    }
    // The principal directions: across the surface, across a strip in its plane, along it.
    const [nx, ny, nz, ax, ay, az] = [eigen[3]!, eigen[4]!, eigen[5]!, eigen[6]!, eigen[7]!, eigen[8]!];
    axes.set([nx, ny, nz, ny * az - nz * ay, nz * ax - nx * az, nx * ay - ny * ax, ax, ay, az]);
    variances.set([eigen[2]!, eigen[1]!, eigen[0]!]);
    kurtoses(positions, order, leafStart, all, axes, merged.c, variances, kurtosis);
    let best = -1;
    for (let a = 0; a < 3; a += 1) {
      const limit = a === 0 ? LAYER_KURTOSIS : LAYER_KURTOSIS_ANY;
      if (variances[a]! > wide && kurtosis[a]! < limit && (best < 0 || kurtosis[a]! < kurtosis[best]!)) best = a;
    }
    if (best >= 0)
      cutLayers(positions, order, leafStart[l]!, leafStart[l + 1]!, axes.subarray(best * 3, best * 3 + 3), leaf.noise, starts, cut);
    else starts.push(leafStart[l]!);
  }
  firstPatch[leaves] = starts.length;
  const start = new Uint32Array(starts.length + 1);
  start.set(starts);
  start[starts.length] = leafStart[leaves]!;
  return { start, firstPatch };
}
