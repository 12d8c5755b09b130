/**
 * The local surface of a point set, as small patches each with a fitted shape: the leaves of the
 * point index (about 10 to 16 neighbouring points), a leaf that holds two layers (the two faces of
 * a thin plate, two members side by side) cut in two; each patch's shape is fitted by principal
 * components to its own points and those of the neighbouring patches that lie on it — a plane
 * (centroid, normal as the direction of least spread, roughness as the spread along it) or, where
 * the points run along a line with a round cross-section, a line (a thin member: its axis). The
 * normals are then oriented towards the outside, the side a viewer stands on (see
 * {@link orientNormals}): towards the cameras that took the capture where their positions are
 * known (sensor orientation, as CloudCompare and M3C2 practice do it); without them, a
 * near-horizontal patch faces up when the scene's up direction is known (a ground plane has no
 * inside to point away from), and every other patch points away from the centroid of a larger
 * neighbourhood, walking up coarser groupings of the patches until one side is clear; the
 * patches' votes are then pooled among neighbours. Fitting to the index's leaves and merging
 * their moments, rather than searching the neighbours of every point, gives the same local
 * shapes for a fraction of the cost.
 */
import { splitLeaves, type LeafMoments } from './layers.js';
import { EIGEN, fitMoments, isLinear, LINE_LENGTH, mergeMoments, momentsOf, symmetricEigen, type Moments } from './moments.js';
import { buildPointIndex, type PointIndex } from './point-index.js';

/**
 * The patches of one point set, each a small local surface element: a plane disc, or a line
 * segment where the points lie along one (a thin member). Patch p holds the points
 * `order[start[p] .. start[p + 1])`.
 */
export interface Patches {
  count: number;
  /** The index of the points the patches were cut from. */
  index: PointIndex;
  /** Point ids in patch order. */
  order: Uint32Array;
  /** Patch offsets into `order`, `count + 1` entries. */
  start: Uint32Array;
  /** An index over the patch centroids (ids are patch numbers). */
  centroidIndex: PointIndex;
  /** Per point, the patch it belongs to. */
  patchOf: Uint32Array;
  /** Mean of the patch's own points, xyz per patch. */
  centroid: Float64Array;
  /** Unit normal of the fitted plane (for a line, some direction across it), xyz per patch. */
  normal: Float64Array;
  /** Unit direction of the points' largest spread: a line's axis, xyz per patch. */
  axis: Float64Array;
  /** 1 when the patch is a line element (distances are to its axis), 0 for a plane. */
  linear: Uint8Array;
  /** Standard deviation of the fitted points about the shape (across the plane, or per axis across the line), model units. */
  roughness: Float64Array;
  /** Points the shape was fitted to. */
  fitted: Uint32Array;
  /**
   * The variance of the element's position across its shape (model units²): σ² over the points
   * that fix it — a plane's own points (it stands at their mean), a line's fitted points (it is
   * the fitted axis).
   */
  uncertainty: Float64Array;
  /** Points of the patch itself. */
  members: Uint32Array;
  /** Largest distance of the patch's own points from its centroid: its footprint (model units). */
  radius: Float64Array;
  /**
   * How far from its centre the element stands for the surface: 1.5 × its radius, so that
   * neighbouring discs overlap over the gaps between their points, but never more than 1.5 × the
   * set's median radius — a leaf cut across an edge is large and its plane leans, and must not
   * speak for the faces beside it (model units). A plane's disc has this radius; a line's segment
   * reaches this far each way along its axis.
   */
  reach: Float64Array;
  /** The element's centre, xyz per patch: a plane's is the patch's own centroid, a line's the point of its axis nearest that. */
  origin: Float64Array;
  /** The {@link NEIGHBOURS} patches whose centroids are nearest each patch's, `NEIGHBOURS` per patch, −1 padding (none for 'own' shapes). */
  neighbours: Int32Array;
}

/** An element reaches this many times as far as its patch's farthest point (see {@link Patches.reach}). */
const DISC_REACH = 1.5;
/** A leaf with fewer points than this is always fitted with its neighbours. */
const MIN_FIT_POINTS = 6;
/** The nearest patches each patch keeps as its neighbours: its shape is fitted to them too, and its distance pooled with theirs. */
const NEIGHBOURS = 6;
/** A neighbour is left out of a patch's fit when its centroid lies off the shape by more than this many standard errors… */
const NEIGHBOUR_CONFIDENCE = 3;
/** …plus this fraction of the gap between the two centroids. */
const NEIGHBOUR_TILT = 0.05;
/** The leaves' nearest neighbours are gathered within this many times their median radius (see `nearestOthers`). */
const NEIGHBOUR_MARGIN = 3;
/** A patch running along a line joins it only when the two directions' cosine is at least this (30°). */
const LINE_PARALLEL = Math.cos(Math.PI / 6);
/** A normal is oriented by a level of grouping only when the offset from that level's centroid leans this much (cosine) along it. */
const ORIENT_COSINE = 0.25;
/** …and by at least this fraction of the patch's radius… */
const ORIENT_REACH = 0.5;
/** …and by at least this many times its roughness. */
const ORIENT_NOISE = 3;
/** The weight of a patch's vote when no level decided it (its normal's largest component made positive). */
const FALLBACK_WEIGHT = 0.05;
/** A patch faces the mean direction of this many viewpoints (camera centres), the ones nearest its centroid. */
const NEAREST_VIEWPOINTS = 3;
/** Without viewpoints, a patch whose normal is within 45° of the up direction (this cosine) faces up. */
const HORIZONTAL_COSINE = Math.SQRT1_2;

/** What {@link orientNormals} orients the normals by, besides the shape of the point set itself. */
export interface Orientation {
  /**
   * The camera centres that saw the points (a capture's camera metadata positions), flat xyz in
   * the patches' frame, model units; at least one for them to count. Empty or absent: none known.
   */
  viewpoints?: Float32Array;
  /** The scene's up direction in the patches' frame (any length but 0; e.g. [0, −1, 0] for a y-down 3DGS splat). Absent: unknown. */
  up?: readonly [number, number, number];
  /**
   * Per point of the patches' set, the outward unit normal of the surface it lies on (a GLB's
   * triangle normal), flat xyz in the patches' frame, indexed as the points are. Given, it decides
   * alone: the viewpoints and `up` are not asked.
   */
  normals?: Float32Array;
}

/** Options of {@link buildPatches}. */
export interface PatchOptions {
  /**
   * 'neighbourhood' (default): leaves holding two layers are cut in two, each patch keeps its
   * nearest patches as neighbours, and its shape — a plane or a line — is fitted to the patch and
   * the neighbours that lie on it. 'own': each leaf is a patch with the plane of its own points
   * (of its nearest leaves' too when it has fewer than 6), no neighbours kept: enough for pairing
   * points with planes, at a fraction of the cost.
   */
  shapes?: 'neighbourhood' | 'own';
}

/**
 * Cuts a point set into patches and fits each one's local shape: a plane, or a line where the
 * points lie along one (a thin member). The patches are the leaves of the point index, a leaf that
 * holds two separate layers cut in two (see {@link cutLayers}). Each shape is fitted to the points
 * of the patch and of those of its nearest patches and theirs that lie on it — a noisy patch of a
 * dozen points has an unsteady normal of its own, but its neighbourhood's is steady: starting from
 * the patch's own shape, a candidate is taken in when its centroid lies on the shape fitted so far
 * through the patch's centroid, within three standard errors (of the patch's own spread across it
 * and of the shape's tilt over the gap between the centroids) plus a twentieth of that gap (a
 * surface's bend), and, for a line, when its own points run the line's way; twice. So a joint, an
 * edge or the far face of a thin plate stays out of the fit. Normals are not yet oriented (see
 * {@link orientNormals}).
 * @param positions flat xyz, model units
 * @param count points
 * @param patchSize points a patch aims at (the index's leaf size)
 * @param options {@link PatchOptions}
 * @returns the patches, with the index built over the points and (by default) each patch's neighbours
 */
export function buildPatches(positions: Float32Array, count: number, patchSize: number, options: PatchOptions = {}): Patches {
  const index = buildPointIndex(positions, count, patchSize);
  const order = Uint32Array.from(index.order);
  const leaves = index.leafCount;
  const leaf = leafShapes(positions, order, index.leafStart, leaves);
  const leafIndex = buildPointIndex(Float32Array.from(leaf.centroid), leaves, patchSize);
  if (options.shapes === 'own') return ownPlanes(index, order, leaf, leafIndex);

  const leafNeighbours = nearestOthers(leafIndex, leaf.centroid, leaves, NEIGHBOUR_MARGIN * medianOf(leaf.radius));
  const { start, firstPatch } = splitLeaves(positions, order, index.leafStart, leaf, leafNeighbours);
  const m = start.length - 1;
  const patches = emptyPatches(index, order, start, m);
  // The patches' own moments (a leaf that was not cut keeps its own).
  const scatter = new Float64Array(m * 6);
  const { centroid } = patches;
  const moments: Moments = { n: 0, c: new Float64Array(3), s: new Float64Array(6) };
  for (let l = 0; l < leaves; l += 1) {
    for (let p = firstPatch[l]!; p < firstPatch[l + 1]!; p += 1) {
      if (firstPatch[l + 1]! - firstPatch[l]! === 1) {
        patches.radius[p] = leaf.radius[l]!;
        patches.members[p] = leaf.count[l]!;
        copy(leaf.centroid, l * 3, centroid, p * 3, 3);
        copy(leaf.scatter, l * 6, scatter, p * 6, 6);
      } else {
        patches.radius[p] = momentsOf(positions, order, start[p]!, start[p + 1]!, moments);
        patches.members[p] = moments.n;
        centroid.set(moments.c, p * 3);
        scatter.set(moments.s, p * 6);
      }
      for (let k = start[p]!; k < start[p + 1]!; k += 1) patches.patchOf[order[k]!] = p;
    }
  }
  if (m === leaves) {
    patches.centroidIndex = leafIndex;
    patches.neighbours.set(leafNeighbours);
  } else {
    patches.centroidIndex = buildPointIndex(Float32Array.from(centroid), m, patchSize);
    patchNeighbours(patches, leafNeighbours, firstPatch);
  }
  fitShapes(patches, scatter);
  return patches;
}

/** The moments and own principal axes of every leaf, and the set's noise. */
interface LeafShapes extends LeafMoments {
  /** Per leaf, the largest distance of its points from its centroid, model units. */
  radius: Float64Array;
  /** Per leaf, its own {@link symmetricEigen} output, {@link EIGEN} numbers. */
  eigen: Float64Array;
}

/** The moments and principal axes of the leaves `order[leafStart[l] .. leafStart[l + 1])` (see {@link LeafShapes}). */
function leafShapes(positions: Float32Array, order: Uint32Array, leafStart: Uint32Array, leaves: number): LeafShapes {
  const shapes: LeafShapes = {
    count: new Uint32Array(leaves),
    centroid: new Float64Array(leaves * 3),
    scatter: new Float64Array(leaves * 6),
    radius: new Float64Array(leaves),
    eigen: new Float64Array(leaves * EIGEN),
    noise: 0,
  };
  const moments: Moments = { n: 0, c: new Float64Array(3), s: new Float64Array(6) };
  const eigen = new Float64Array(EIGEN);
  const across = new Float64Array(leaves);
  for (let l = 0; l < leaves; l += 1) {
    shapes.radius[l] = momentsOf(positions, order, leafStart[l]!, leafStart[l + 1]!, moments);
    shapes.count[l] = moments.n;
    shapes.centroid.set(moments.c, l * 3);
    shapes.scatter.set(moments.s, l * 6);
    fitMoments(moments, eigen);
    shapes.eigen.set(eigen, l * EIGEN);
    across[l] = Math.sqrt(Math.max(0, eigen[2]!));
  }
  shapes.noise = leaves > 0 ? across.sort()[leaves >> 1]! : 0;
  return shapes;
}

/** Copies n numbers from src at `from` to dst at `to` (a loop: no view is made). */
function copy(src: ArrayLike<number>, from: number, dst: { [i: number]: number }, to: number, n: number): void {
  for (let k = 0; k < n; k += 1) dst[to + k] = src[from + k]!;
}

/** The median of the values (0 for none). */
function medianOf(values: Float64Array): number {
  return values.length > 0 ? Float64Array.from(values).sort()[values.length >> 1]! : 0;
}

/**
 * For each of `count` points of an index, the {@link NEIGHBOURS} nearest others (−1 padding),
 * exactly. A leaf of the index at a time: the points within `margin` of the leaf's bounding
 * sphere are gathered with one radius query and each of the leaf's points takes its nearest from
 * them — right whenever its farthest one is within `margin` (anything nearer lies in the gathered
 * ball); the rare point for which it is not asks the index itself.
 * @param margin model units: about the points' spacing a few times over
 */
function nearestOthers(index: PointIndex, xyz: Float64Array, count: number, margin: number): Int32Array {
  const out = new Int32Array(count * NEIGHBOURS).fill(-1);
  const ids = new Uint32Array(NEIGHBOURS + 1);
  const d2 = new Float64Array(NEIGHBOURS + 1);
  let gathered = new Uint32Array(256);
  let size = 0;
  const gather = (id: number): void => {
    if (size === gathered.length) {
      const bigger = new Uint32Array(size * 2);
      bigger.set(gathered);
      gathered = bigger;
    }
    gathered[size++] = id;
  };
  const bestD = new Float64Array(NEIGHBOURS);
  const bestI = new Int32Array(NEIGHBOURS);
  const { order, leafStart } = index;
  for (let g = 0; g < index.leafCount; g += 1) {
    // The leaf's bounding sphere: its centroid and the farthest of its points.
    let [cx, cy, cz] = [0, 0, 0];
    const n = leafStart[g + 1]! - leafStart[g]!;
    for (let s = leafStart[g]!; s < leafStart[g + 1]!; s += 1) {
      const i = order[s]! * 3;
      cx += xyz[i]!;
      cy += xyz[i + 1]!;
      cz += xyz[i + 2]!;
    }
    [cx, cy, cz] = [cx / n, cy / n, cz / n];
    let r2 = 0;
    for (let s = leafStart[g]!; s < leafStart[g + 1]!; s += 1) {
      const i = order[s]! * 3;
      r2 = Math.max(r2, (xyz[i]! - cx) ** 2 + (xyz[i + 1]! - cy) ** 2 + (xyz[i + 2]! - cz) ** 2);
    }
    size = 0;
    index.within(cx, cy, cz, Math.sqrt(r2) + margin, gather);
    for (let s = leafStart[g]!; s < leafStart[g + 1]!; s += 1) {
      const i = order[s]!;
      const [x, y, z] = [xyz[i * 3]!, xyz[i * 3 + 1]!, xyz[i * 3 + 2]!];
      let kept = 0;
      for (let t = 0; t < size; t += 1) {
        const j = gathered[t]!;
        if (j === i) continue;
        const d = (xyz[j * 3]! - x) ** 2 + (xyz[j * 3 + 1]! - y) ** 2 + (xyz[j * 3 + 2]! - z) ** 2;
        if (kept === NEIGHBOURS && d >= bestD[kept - 1]!) continue;
        let k = kept < NEIGHBOURS ? kept++ : kept - 1;
        while (k > 0 && bestD[k - 1]! > d) {
          bestD[k] = bestD[k - 1]!;
          bestI[k] = bestI[k - 1]!;
          k -= 1;
        }
        bestD[k] = d;
        bestI[k] = j;
      }
      if (kept === NEIGHBOURS && bestD[kept - 1]! <= margin * margin) {
        for (let k = 0; k < kept; k += 1) out[i * NEIGHBOURS + k] = bestI[k]!;
        continue;
      }
      const found = index.nearest(x, y, z, NEIGHBOURS + 1, Infinity, ids, d2);
      let k = 0;
      for (let f = 0; f < found && k < NEIGHBOURS; f += 1) if (ids[f] !== i) out[i * NEIGHBOURS + k++] = ids[f]!;
    }
  }
  return out;
}

/** Patches with their arrays allocated, `count` of them over the runs `order[start[p] .. start[p + 1])`. */
function emptyPatches(index: PointIndex, order: Uint32Array, start: Uint32Array, m: number): Patches {
  return {
    count: m,
    index,
    order,
    start,
    centroidIndex: index,
    patchOf: new Uint32Array(index.count),
    centroid: new Float64Array(m * 3),
    normal: new Float64Array(m * 3),
    axis: new Float64Array(m * 3),
    linear: new Uint8Array(m),
    roughness: new Float64Array(m),
    fitted: new Uint32Array(m),
    uncertainty: new Float64Array(m),
    members: new Uint32Array(m),
    radius: new Float64Array(m),
    reach: new Float64Array(m),
    origin: new Float64Array(m * 3),
    neighbours: new Int32Array(m * NEIGHBOURS).fill(-1),
  };
}

/** Each element reaches {@link DISC_REACH} × its radius, but never more than that × the set's median radius. */
function setReach(patches: Patches): void {
  const m = patches.count;
  const typical = medianOf(patches.radius);
  for (let p = 0; p < m; p += 1) patches.reach[p] = DISC_REACH * Math.min(patches.radius[p]!, typical);
}

/** The roughness of a fit: the residual spread per point across its shape, with the shape's fitted parameters taken off. */
function roughnessOf(eigen: Float64Array, linear: boolean, fitted: number): number {
  const residual = Math.max(0, linear ? (eigen[1]! + eigen[2]!) / 2 : eigen[2]!);
  const dof = linear ? 2 : 3; // parameters fitted per residual axis: a line's offset and tilt, a plane's offset and two tilts
  return fitted > dof ? Math.sqrt((residual * fitted) / (fitted - dof)) : 0;
}

/** The 'own' patches (see {@link PatchOptions}): each leaf with the plane of its own points, or of its nearest leaves' too when small. */
function ownPlanes(index: PointIndex, order: Uint32Array, leaf: LeafShapes, leafIndex: PointIndex): Patches {
  const m = index.leafCount;
  const patches = emptyPatches(index, order, index.leafStart, m);
  patches.neighbours = new Int32Array(0);
  patches.centroidIndex = leafIndex;
  patches.centroid.set(leaf.centroid);
  patches.radius.set(leaf.radius);
  patches.members.set(leaf.count);
  patches.origin.set(leaf.centroid);
  const ids = new Int32Array(NEIGHBOURS + 1);
  const found = new Uint32Array(NEIGHBOURS + 1);
  const d2 = new Float64Array(NEIGHBOURS + 1);
  const merged: Moments = { n: 0, c: new Float64Array(3), s: new Float64Array(6) };
  const eigen = new Float64Array(EIGEN);
  for (let p = 0; p < m; p += 1) {
    for (let k = index.leafStart[p]!; k < index.leafStart[p + 1]!; k += 1) patches.patchOf[order[k]!] = p;
    copy(leaf.eigen, p * EIGEN, eigen, 0, EIGEN);
    let fitted = leaf.count[p]!;
    if (fitted < MIN_FIT_POINTS) {
      const n = leafIndex.nearest(
        leaf.centroid[p * 3]!,
        leaf.centroid[p * 3 + 1]!,
        leaf.centroid[p * 3 + 2]!,
        NEIGHBOURS + 1,
        Infinity,
        found,
        d2,
      );
      for (let k = 0; k < n; k += 1) ids[k] = found[k]!;
      mergeMoments(ids, n, leaf.count, leaf.centroid, leaf.scatter, merged);
      fitMoments(merged, eigen);
      fitted = merged.n;
    }
    copy(eigen, 3, patches.normal, p * 3, 3);
    copy(eigen, 6, patches.axis, p * 3, 3);
    patches.roughness[p] = roughnessOf(eigen, false, fitted);
    patches.fitted[p] = fitted;
    patches.uncertainty[p] = patches.roughness[p]! ** 2 / leaf.count[p]!;
  }
  setReach(patches);
  return patches;
}

/** Each patch's {@link NEIGHBOURS} nearest among the patches of its own leaf and of that leaf's nearest leaves. */
function patchNeighbours(patches: Patches, leafNeighbours: Int32Array, firstPatch: Uint32Array): void {
  const leaves = firstPatch.length - 1;
  const { centroid } = patches;
  const pool = new Int32Array((NEIGHBOURS + 1) * (NEIGHBOURS + 1) * 2);
  const gap = new Float64Array(pool.length);
  const best = new Int32Array(NEIGHBOURS);
  const bestGap = new Float64Array(NEIGHBOURS);
  for (let l = 0; l < leaves; l += 1) {
    let size = 0;
    for (let k = -1; k < NEIGHBOURS; k += 1) {
      const j = k < 0 ? l : leafNeighbours[l * NEIGHBOURS + k]!;
      if (j < 0) continue;
      for (let q = firstPatch[j]!; q < firstPatch[j + 1]! && size < pool.length; q += 1) pool[size++] = q;
    }
    for (let p = firstPatch[l]!; p < firstPatch[l + 1]!; p += 1) {
      // Insertion into the nearest so far.
      let kept = 0;
      for (let i = 0; i < size; i += 1) {
        const q = pool[i]!;
        if (q === p) continue;
        const d =
          (centroid[q * 3]! - centroid[p * 3]!) ** 2 +
          (centroid[q * 3 + 1]! - centroid[p * 3 + 1]!) ** 2 +
          (centroid[q * 3 + 2]! - centroid[p * 3 + 2]!) ** 2;
        gap[i] = d;
        if (kept === NEIGHBOURS && d >= bestGap[kept - 1]!) continue;
        let j = kept < NEIGHBOURS ? kept++ : kept - 1;
        while (j > 0 && bestGap[j - 1]! > d) {
          bestGap[j] = bestGap[j - 1]!;
          best[j] = best[j - 1]!;
          j -= 1;
        }
        bestGap[j] = d;
        best[j] = q;
      }
      for (let k = 0; k < kept; k += 1) patches.neighbours[p * NEIGHBOURS + k] = best[k]!;
    }
  }
}

/** Fits every patch's shape over the neighbours that lie on it (see {@link buildPatches}). */
function fitShapes(patches: Patches, scatter: Float64Array): void {
  const m = patches.count;
  const { centroid } = patches;
  const eigen = new Float64Array(EIGEN);
  const merged: Moments = { n: 0, c: new Float64Array(3), s: new Float64Array(6) };
  // A patch's candidates: its neighbours, then theirs; `take` says which go into the fit.
  const candidates = new Int32Array(NEIGHBOURS * (NEIGHBOURS + 1));
  const take = new Uint8Array(candidates.length);
  const seen = new Int32Array(m).fill(-1);
  let found = 0;
  const chosen = new Int32Array(candidates.length + 1);
  /** Merges the moments of patch p and of the candidates with `take` into `merged`, and fits them into `eigen`. */
  const fit = (p: number): void => {
    let n = 0;
    chosen[n++] = p;
    for (let k = 0; k < found; k += 1) if (take[k] === 1) chosen[n++] = candidates[k]!;
    mergeMoments(chosen, n, patches.members, centroid, scatter, merged);
    fitMoments(merged, eigen);
  };
  // Each patch's own shape: its direction, where its points run along one (for the neighbours of a line).
  const ownEigen = new Float64Array(m * EIGEN);
  const elongated = new Uint8Array(m);
  for (let p = 0; p < m; p += 1) {
    const n = patches.members[p]!;
    const o = p * 6;
    symmetricEigen(
      scatter[o]! / n,
      scatter[o + 1]! / n,
      scatter[o + 2]! / n,
      scatter[o + 3]! / n,
      scatter[o + 4]! / n,
      scatter[o + 5]! / n,
      eigen,
    );
    copy(eigen, 0, ownEigen, p * EIGEN, EIGEN);
    elongated[p] = eigen[0]! > LINE_LENGTH ** 2 * Math.max(0, eigen[1]!) ? 1 : 0;
  }
  for (let p = 0; p < m; p += 1) {
    const n = patches.members[p]!;
    const [cx, cy, cz] = [centroid[p * 3]!, centroid[p * 3 + 1]!, centroid[p * 3 + 2]!];
    // The candidates: the nearest patches and theirs.
    seen[p] = p;
    found = 0;
    for (let k = 0; k < NEIGHBOURS; k += 1) {
      const q = patches.neighbours[p * NEIGHBOURS + k]!;
      if (q < 0) break;
      seen[q] = p;
      candidates[found++] = q;
    }
    const ring = found;
    for (let k = 0; k < ring; k += 1) {
      const q = candidates[k]!;
      for (let j = 0; j < NEIGHBOURS; j += 1) {
        const r = patches.neighbours[q * NEIGHBOURS + j]!;
        if (r < 0) break;
        if (seen[r] === p) continue;
        seen[r] = p;
        candidates[found++] = r;
      }
    }
    // Start from the patch's own shape (a small patch: its nearest neighbours'), then take in the
    // candidates that lie on the shape fitted so far, twice.
    if (n < MIN_FIT_POINTS) {
      for (let k = 0; k < found; k += 1) take[k] = k < ring ? 1 : 0;
      fit(p);
    } else {
      copy(ownEigen, p * EIGEN, eigen, 0, EIGEN);
      merged.n = n;
    }
    const [sxx, sxy, sxz] = [scatter[p * 6]!, scatter[p * 6 + 1]!, scatter[p * 6 + 2]!];
    const [syy, syz, szz] = [scatter[p * 6 + 3]!, scatter[p * 6 + 4]!, scatter[p * 6 + 5]!];
    for (let round = 0; round < 2; round += 1) {
      const line = isLinear(eigen[0]!, eigen[1]!, eigen[2]!);
      const [nx, ny, nz] = line ? [eigen[6]!, eigen[7]!, eigen[8]!] : [eigen[3]!, eigen[4]!, eigen[5]!];
      // The patch's own spread across the shape (σ² per point and axis) and the shape's tilt error
      // (radians²): of the normal, the residual over the in-plane spread; of the axis, over the length.
      const along = (sxx * nx * nx + syy * ny * ny + szz * nz * nz + 2 * (sxy * nx * ny + sxz * nx * nz + syz * ny * nz)) / n;
      const spread2 = line ? ((sxx + syy + szz) / n - along) / 2 : along;
      const residual = line ? (eigen[1]! + eigen[2]!) / 2 : eigen[2]!;
      const span = line ? eigen[0]! : eigen[1]!;
      const tilt2 = span > 0 ? Math.max(0, residual) / (merged.n * span) : 1;
      for (let k = 0; k < found; k += 1) {
        const q = candidates[k]!;
        const dx = centroid[q * 3]! - cx;
        const dy = centroid[q * 3 + 1]! - cy;
        const dz = centroid[q * 3 + 2]! - cz;
        const gap2 = dx * dx + dy * dy + dz * dz;
        const h = dx * nx + dy * ny + dz * nz;
        const off = line ? Math.sqrt(Math.max(0, gap2 - h * h)) : Math.abs(h);
        const tolerance =
          NEIGHBOUR_CONFIDENCE * Math.sqrt(spread2 * (1 / n + 1 / patches.members[q]!) + tilt2 * gap2) + NEIGHBOUR_TILT * Math.sqrt(gap2);
        // A line takes in only the patches that run its way (not a member crossing it at a joint).
        const qa = q * EIGEN + 6;
        const crossing =
          line && elongated[q] === 1 && Math.abs(ownEigen[qa]! * nx + ownEigen[qa + 1]! * ny + ownEigen[qa + 2]! * nz) < LINE_PARALLEL;
        take[k] = off <= tolerance && !crossing ? 1 : 0;
      }
      fit(p);
    }
    const linear = isLinear(eigen[0]!, eigen[1]!, eigen[2]!);
    const fitted = merged.n;
    patches.roughness[p] = roughnessOf(eigen, linear, fitted);
    patches.fitted[p] = fitted;
    patches.linear[p] = linear ? 1 : 0;
    copy(eigen, 3, patches.normal, p * 3, 3);
    copy(eigen, 6, patches.axis, p * 3, 3);
    // A plane element stands at the patch's own centroid: on a curved surface the neighbourhood's
    // plane passes beside the patch, its own points' mean does not. A line element is the fitted
    // axis itself (a member is straight), at the point nearest the patch's centroid.
    if (linear) {
      const [ox, oy, oz] = [merged.c[0]!, merged.c[1]!, merged.c[2]!];
      const t = (cx - ox) * eigen[6]! + (cy - oy) * eigen[7]! + (cz - oz) * eigen[8]!;
      patches.origin[p * 3] = ox + t * eigen[6]!;
      patches.origin[p * 3 + 1] = oy + t * eigen[7]!;
      patches.origin[p * 3 + 2] = oz + t * eigen[8]!;
      patches.uncertainty[p] = patches.roughness[p]! ** 2 / fitted;
    } else {
      patches.origin[p * 3] = cx;
      patches.origin[p * 3 + 1] = cy;
      patches.origin[p * 3 + 2] = cz;
      patches.uncertainty[p] = patches.roughness[p]! ** 2 / n;
    }
  }
  setReach(patches);
}

/**
 * Orients every patch normal towards the outside of the surface, the side its viewer stands on,
 * so that a positive distance means material added or moved outward on both point sets. Each
 * patch first casts its own vote, a side and how clearly (a cosine):
 * - with viewpoints (the camera centres that saw the points): the side of the 3 viewpoints nearest
 *   the patch's centroid — the sign of the mean of the cosines between the normal and the unit
 *   directions to them, its size the clarity. A surface faces the cameras that saw it: a ground
 *   plane faces up at the drones, a wall outward at the orbit. (Both faces of a thin panel take
 *   the side of the cameras nearest it, so the whole panel reads one sign when it moves.)
 * - without viewpoints, a patch whose normal lies within 45° of the `up` direction (when given)
 *   faces up, its clarity the cosine: a ground plane has no inside, and the rule below would turn
 *   it down into the ground, away from whatever stands on it. (An overhang's underside then faces
 *   up too: where that matters, pass the viewpoints.)
 * - otherwise the normal points away from the centroid of a larger group of patches around it —
 *   first the groups of about 16 patches that an index over the patch centroids makes, then
 *   groups of those groups, then the whole set — taking the first level at which the patch's
 *   offset from that centroid leans clearly along the normal (cosine ≥ 0.25, and by more than half
 *   the patch's radius and three times its roughness). On a thin member this is its own axis; on
 *   a wall, the structure's middle. Where no level decides (a single flat plane), the normal's
 *   largest component is made positive, with a weak vote.
 * The votes are then pooled among neighbouring patches (the groups of about 16), each weighted by
 * how clearly it was decided and by how parallel the two normals are, so that a patch whose normal
 * noise tilted follows its face.
 *
 * When the points carry their own outward normals (a mesh's samples), those decide alone: each
 * patch takes the side of the sum of its points' normals, and nothing is pooled (the two faces of
 * a thin plate lie close together and face opposite ways, as they should).
 * @param patches the patches to orient, changed in place
 * @param groupSize patches per group at each level
 * @param orientation the viewpoints and the up direction, in the patches' frame (see {@link Orientation}); default neither
 */
export function orientNormals(patches: Patches, groupSize: number, orientation: Orientation = {}): void {
  const m = patches.count;
  if (m === 0) return;
  const vote = new Float64Array(m);
  if (orientation.normals !== undefined) {
    alongNormals(patches, orientation.normals);
    return;
  }
  const viewpoints = orientation.viewpoints ?? new Float32Array(0);
  if (viewpoints.length >= 3) facingViewpoints(patches, viewpoints, vote);
  else awayFromCentroids(patches, groupSize, orientation.up ?? null, vote);
  poolVotes(patches, vote);
}

/** Turns each patch's normal to the side of the sum of its points' own outward normals. */
function alongNormals(patches: Patches, normals: Float32Array): void {
  const { order, start, normal } = patches;
  for (let p = 0; p < patches.count; p += 1) {
    let side = 0;
    for (let s = start[p]!; s < start[p + 1]!; s += 1) {
      const i = order[s]! * 3;
      side += normals[i]! * normal[p * 3]! + normals[i + 1]! * normal[p * 3 + 1]! + normals[i + 2]! * normal[p * 3 + 2]!;
    }
    if (side < 0) for (let a = 0; a < 3; a += 1) normal[p * 3 + a] = -normal[p * 3 + a]!;
  }
}

/** Each patch's vote for the side of its {@link NEAREST_VIEWPOINTS} nearest viewpoints: the mean cosine of its normal with the unit directions to them. */
function facingViewpoints(patches: Patches, viewpoints: Float32Array, vote: Float64Array): void {
  const count = Math.floor(viewpoints.length / 3);
  const index = buildPointIndex(viewpoints, count);
  const ids = new Uint32Array(NEAREST_VIEWPOINTS);
  const d2 = new Float64Array(NEAREST_VIEWPOINTS);
  const { centroid, normal } = patches;
  for (let p = 0; p < patches.count; p += 1) {
    const [cx, cy, cz] = [centroid[p * 3]!, centroid[p * 3 + 1]!, centroid[p * 3 + 2]!];
    const found = index.nearest(cx, cy, cz, NEAREST_VIEWPOINTS, Infinity, ids, d2);
    let sum = 0;
    for (let k = 0; k < found; k += 1) {
      const v = ids[k]! * 3;
      const [dx, dy, dz] = [viewpoints[v]! - cx, viewpoints[v + 1]! - cy, viewpoints[v + 2]! - cz];
      const length = Math.hypot(dx, dy, dz);
      if (length > 0) sum += (dx * normal[p * 3]! + dy * normal[p * 3 + 1]! + dz * normal[p * 3 + 2]!) / length;
    }
    vote[p] = found > 0 ? sum / found : 0;
  }
}

/**
 * Each patch's vote without viewpoints: up for a near-horizontal patch when `up` is known, else
 * away from the centroid of the first grouping of patches around it that decides (see {@link orientNormals}).
 */
function awayFromCentroids(patches: Patches, groupSize: number, up: readonly [number, number, number] | null, vote: Float64Array): void {
  const m = patches.count;
  // Level 1 groups: the leaves of the index over the patch centroids; level 2: groups of those.
  const levels: { groupOf: Uint32Array; centre: Float64Array }[] = [];
  let points = Float32Array.from(patches.centroid);
  let weights = Float64Array.from(patches.members);
  let memberGroup = new Uint32Array(m).map((_, i) => i); // patch → current item
  for (let level = 0; level < 2 && points.length / 3 > 1; level += 1) {
    const items = points.length / 3;
    const index = level === 0 ? patches.centroidIndex : buildPointIndex(points, items, groupSize);
    const groups = index.leafCount;
    const itemGroup = new Uint32Array(items);
    const centre = new Float64Array(groups * 3);
    const weight = new Float64Array(groups);
    for (let g = 0; g < groups; g += 1) {
      for (let s = index.leafStart[g]!; s < index.leafStart[g + 1]!; s += 1) {
        const it = index.order[s]!;
        itemGroup[it] = g;
        const w = weights[it]!;
        centre[g * 3] += points[it * 3]! * w;
        centre[g * 3 + 1] += points[it * 3 + 1]! * w;
        centre[g * 3 + 2] += points[it * 3 + 2]! * w;
        weight[g] += w;
      }
    }
    for (let g = 0; g < groups; g += 1) for (let a = 0; a < 3; a += 1) centre[g * 3 + a] /= weight[g]!;
    memberGroup = memberGroup.map((it) => itemGroup[it]!);
    levels.push({ groupOf: memberGroup, centre });
    points = Float32Array.from(centre);
    weights = weight;
  }
  // The whole set.
  const all = new Float64Array(3);
  let total = 0;
  for (let p = 0; p < m; p += 1) {
    const w = patches.members[p]!;
    for (let a = 0; a < 3; a += 1) all[a] += patches.centroid[p * 3 + a]! * w;
    total += w;
  }
  for (let a = 0; a < 3; a += 1) all[a] /= total;

  // Each patch's own vote: a sign and how clearly its level decided it (the cosine of the lean).
  const { centroid, normal } = patches;
  const upLength = up === null ? 0 : Math.hypot(up[0], up[1], up[2]);
  const [ux, uy, uz] = up !== null && upLength > 0 ? [up[0] / upLength, up[1] / upLength, up[2] / upLength] : [0, 0, 0];
  for (let p = 0; p < m; p += 1) {
    const nx = normal[p * 3]!;
    const ny = normal[p * 3 + 1]!;
    const nz = normal[p * 3 + 2]!;
    // A near-horizontal patch faces up (no up known: all zero, never near).
    const upward = nx * ux + ny * uy + nz * uz;
    if (Math.abs(upward) >= HORIZONTAL_COSINE) {
      vote[p] = upward;
      continue;
    }
    let decided = 0;
    for (let level = 0; level <= levels.length && decided === 0; level += 1) {
      const centre = level < levels.length ? levels[level]!.centre : all;
      const g = level < levels.length ? levels[level]!.groupOf[p]! : 0;
      const ox = centroid[p * 3]! - centre[g * 3]!;
      const oy = centroid[p * 3 + 1]! - centre[g * 3 + 1]!;
      const oz = centroid[p * 3 + 2]! - centre[g * 3 + 2]!;
      const along = ox * nx + oy * ny + oz * nz;
      const length = Math.hypot(ox, oy, oz);
      // The lean must also stand out of the patch's own size and noise, or a flat group decides at random.
      const margin = Math.max(ORIENT_COSINE * length, ORIENT_REACH * patches.radius[p]!, ORIENT_NOISE * patches.roughness[p]!);
      if (length > 0 && Math.abs(along) >= margin) decided = along / length;
    }
    if (decided === 0) {
      const ax = Math.abs(nx);
      const ay = Math.abs(ny);
      const az = Math.abs(nz);
      const major = az >= ax && az >= ay ? nz : ay >= ax ? ny : nx;
      decided = major >= 0 ? FALLBACK_WEIGHT : -FALLBACK_WEIGHT;
    }
    vote[p] = decided;
  }
}

/**
 * Pools the patches' votes and flips the normals that lose: within its group of nearby patches,
 * a patch's side is the sum of its own vote and those of the others weighted by how parallel
 * their normals are to its own (signed cosine × |cosine|).
 */
function poolVotes(patches: Patches, vote: Float64Array): void {
  const m = patches.count;
  const { normal } = patches;
  // Neighbours confirm or overrule: within its group of nearby patches, each patch's oriented normal
  // votes for the side of every other normal it is parallel to, weighted by its own clarity and by
  // how parallel the two are. A patch whose normal the noise tilted cannot overturn a whole face.
  const { order, leafStart, leafCount } = patches.centroidIndex;
  const flip = new Uint8Array(m);
  for (let g = 0; g < leafCount; g += 1) {
    for (let a = leafStart[g]!; a < leafStart[g + 1]!; a += 1) {
      const p = order[a]!;
      let total = vote[p]!;
      for (let b = leafStart[g]!; b < leafStart[g + 1]!; b += 1) {
        const q = order[b]!;
        if (q === p) continue;
        const cos = normal[p * 3]! * normal[q * 3]! + normal[p * 3 + 1]! * normal[q * 3 + 1]! + normal[p * 3 + 2]! * normal[q * 3 + 2]!;
        total += vote[q]! * cos * Math.abs(cos);
      }
      if (total < 0) flip[p] = 1;
    }
  }
  for (let p = 0; p < m; p += 1) {
    if (flip[p] === 0) continue;
    for (let a = 0; a < 3; a += 1) normal[p * 3 + a] = -normal[p * 3 + a]!;
  }
}
