/**
 * The local surface of a point set, as small planar patches: each leaf of the point index (about
 * 10 to 16 neighbouring points) gets a plane fitted by principal components — the centroid, the
 * normal as the direction of least spread, the roughness as the spread of the points along that
 * normal — and the patch's size. The normals are then oriented consistently: away from the centroid
 * of a larger neighbourhood, walking up coarser groupings of the patches until one side is clear.
 * Fitting to the index's leaves rather than to a k-nearest search around every point gives the
 * same local plane for a fraction of the cost.
 */
import { buildPointIndex, type PointIndex } from './point-index.js';

/** The planar patches of one point set. Patch p holds the points `index.order[index.leafStart[p] .. index.leafStart[p + 1])`. */
export interface Patches {
  count: number;
  /** The index of the points the patches were cut from. */
  index: PointIndex;
  /** An index over the patch centroids (ids are patch numbers). */
  centroidIndex: PointIndex;
  /** Per point, the patch it belongs to. */
  patchOf: Uint32Array;
  /** Mean of the patch's own points, xyz per patch. */
  centroid: Float64Array;
  /** Unit normal of the fitted plane, xyz per patch. */
  normal: Float64Array;
  /** Standard deviation of the fitted points about the plane, along the normal (model units). */
  roughness: Float64Array;
  /** Points the plane was fitted to. */
  fitted: Uint32Array;
  /** Points of the patch itself. */
  members: Uint32Array;
  /** Largest distance of a fitted point from the centroid: the patch's footprint (model units). */
  radius: Float64Array;
  /**
   * How far from its centre the patch's plane stands for the surface: 1.5 × its radius, so that
   * neighbouring discs overlap over the gaps between their points, but never more than 1.5 × the
   * set's median radius — a leaf cut across an edge is large and its plane leans, and must not
   * speak for the faces beside it (model units).
   */
  reach: Float64Array;
  /** The plane passes through this point (the centroid of the fitted points), xyz per patch. */
  origin: Float64Array;
}

/** A patch's disc reaches this many times as far as its farthest fitted point (see {@link Patches.reach}). */
const DISC_REACH = 1.5;
/** A leaf with fewer points than this borrows its nearest neighbours to fit its plane. */
const MIN_FIT_POINTS = 6;
/** The neighbours borrowed by a small leaf. */
const BORROWED_NEIGHBOURS = 10;
/** A normal is oriented by a level of grouping only when the offset from that level's centroid leans this much (cosine) along it. */
const ORIENT_COSINE = 0.25;
/** …and by at least this fraction of the patch's radius… */
const ORIENT_REACH = 0.5;
/** …and by at least this many times its roughness. */
const ORIENT_NOISE = 3;
/** The weight of a patch's vote when no level decided it (its normal's largest component made positive). */
const FALLBACK_WEIGHT = 0.05;

/**
 * The smallest eigenvalue and its unit eigenvector of a symmetric 3×3 matrix, in closed form (the
 * trigonometric solution of the characteristic cubic, then the eigenvector as the largest cross
 * product of two rows of A − λI). When the two smallest eigenvalues coincide (points on a line)
 * any direction perpendicular to the largest one is returned.
 * @param a00..a22 the upper triangle of the matrix
 * @param out receives [λ, vx, vy, vz]
 */
export function smallestEigen(a00: number, a01: number, a02: number, a11: number, a12: number, a22: number, out: Float64Array): void {
  const p1 = a01 * a01 + a02 * a02 + a12 * a12;
  const q = (a00 + a11 + a22) / 3;
  const b00 = a00 - q;
  const b11 = a11 - q;
  const b22 = a22 - q;
  const p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  let smallest: number;
  let largest: number;
  if (p === 0) {
    smallest = q;
    largest = q;
  } else {
    const det = (b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02)) / (p * p * p);
    const r = Math.min(1, Math.max(-1, det / 2));
    const phi = Math.acos(r) / 3;
    largest = q + 2 * p * Math.cos(phi);
    smallest = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  }
  out[0] = smallest;
  if (!largestCrossOfRows(a00 - smallest, a01, a02, a11 - smallest, a12, a22 - smallest, out, p)) {
    // A double smallest eigenvalue: any direction perpendicular to the largest one's eigenvector.
    if (largestCrossOfRows(a00 - largest, a01, a02, a11 - largest, a12, a22 - largest, out, p)) {
      const [x, y, z] = [out[1]!, out[2]!, out[3]!];
      // A vector perpendicular to (x, y, z): cross with the axis it is least aligned with.
      const ax = Math.abs(x) <= Math.abs(y) && Math.abs(x) <= Math.abs(z);
      const ay = !ax && Math.abs(y) <= Math.abs(z);
      const [ux, uy, uz] = ax ? [1, 0, 0] : ay ? [0, 1, 0] : [0, 0, 1];
      const cx = y * uz - z * uy;
      const cy = z * ux - x * uz;
      const cz = x * uy - y * ux;
      const n = Math.hypot(cx, cy, cz);
      out[1] = cx / n;
      out[2] = cy / n;
      out[3] = cz / n;
    } else {
      out[1] = 0;
      out[2] = 0;
      out[3] = 1;
    }
  }
}

/** Writes into out[1..3] the normalised largest cross product of two rows of a symmetric matrix; false when all are negligible. */
function largestCrossOfRows(
  m00: number,
  m01: number,
  m02: number,
  m11: number,
  m12: number,
  m22: number,
  out: Float64Array,
  scale: number,
): boolean {
  // Rows r0 = (m00, m01, m02), r1 = (m01, m11, m12), r2 = (m02, m12, m22).
  const c0x = m01 * m12 - m02 * m11;
  const c0y = m02 * m01 - m00 * m12;
  const c0z = m00 * m11 - m01 * m01;
  const c1x = m01 * m22 - m02 * m12;
  const c1y = m02 * m02 - m00 * m22;
  const c1z = m00 * m12 - m01 * m02;
  const c2x = m11 * m22 - m12 * m12;
  const c2y = m12 * m02 - m01 * m22;
  const c2z = m01 * m12 - m11 * m02;
  const n0 = c0x * c0x + c0y * c0y + c0z * c0z;
  const n1 = c1x * c1x + c1y * c1y + c1z * c1z;
  const n2 = c2x * c2x + c2y * c2y + c2z * c2z;
  const best = Math.max(n0, n1, n2);
  if (!(best > 1e-24 * scale * scale * scale * scale) || !Number.isFinite(best)) return false;
  const inv = 1 / Math.sqrt(best);
  if (best === n0) [out[1], out[2], out[3]] = [c0x * inv, c0y * inv, c0z * inv];
  else if (best === n1) [out[1], out[2], out[3]] = [c1x * inv, c1y * inv, c1z * inv];
  else [out[1], out[2], out[3]] = [c2x * inv, c2y * inv, c2z * inv];
  return true;
}

/** Scratch of the plane fit: one per build, never shared between calls. */
interface FitScratch {
  eigen: Float64Array;
  ids: Uint32Array;
  d2: Float64Array;
}

/**
 * Fits the plane of `n` points given by id and writes the patch's origin, normal, roughness and radius.
 * The roughness is the residuals' standard deviation with the plane's three fitted parameters taken off.
 */
function fitPlane(xyz: Float32Array, ids: Uint32Array, from: number, n: number, patches: Patches, p: number, scratch: FitScratch): void {
  let sx = 0;
  let sy = 0;
  let sz = 0;
  for (let s = from; s < from + n; s += 1) {
    const id = ids[s]! * 3;
    sx += xyz[id]!;
    sy += xyz[id + 1]!;
    sz += xyz[id + 2]!;
  }
  const cx = sx / n;
  const cy = sy / n;
  const cz = sz / n;
  let xx = 0;
  let xy = 0;
  let xz = 0;
  let yy = 0;
  let yz = 0;
  let zz = 0;
  let r2 = 0;
  for (let s = from; s < from + n; s += 1) {
    const id = ids[s]! * 3;
    const dx = xyz[id]! - cx;
    const dy = xyz[id + 1]! - cy;
    const dz = xyz[id + 2]! - cz;
    xx += dx * dx;
    xy += dx * dy;
    xz += dx * dz;
    yy += dy * dy;
    yz += dy * dz;
    zz += dz * dz;
    r2 = Math.max(r2, dx * dx + dy * dy + dz * dz);
  }
  const e = scratch.eigen;
  smallestEigen(xx / n, xy / n, xz / n, yy / n, yz / n, zz / n, e);
  patches.origin[p * 3] = cx;
  patches.origin[p * 3 + 1] = cy;
  patches.origin[p * 3 + 2] = cz;
  patches.normal[p * 3] = e[1]!;
  patches.normal[p * 3 + 1] = e[2]!;
  patches.normal[p * 3 + 2] = e[3]!;
  patches.roughness[p] = n > 3 ? Math.sqrt((Math.max(0, e[0]!) * n) / (n - 3)) : 0;
  patches.radius[p] = Math.sqrt(r2);
  patches.fitted[p] = n;
}

/**
 * Cuts a point set into planar patches (the leaves of its index) and fits each one's plane. A leaf
 * with fewer than 6 points fits its plane to its 10 nearest points instead. Normals are not yet
 * oriented (see {@link orientNormals}).
 * @param positions flat xyz, model units
 * @param count points
 * @param patchSize points a patch aims at (the index's leaf size)
 * @returns the patches, with the index built over the points
 */
export function buildPatches(positions: Float32Array, count: number, patchSize: number): Patches {
  const index = buildPointIndex(positions, count, patchSize);
  const m = index.leafCount;
  const patches: Patches = {
    count: m,
    index,
    centroidIndex: index,
    patchOf: new Uint32Array(count),
    centroid: new Float64Array(m * 3),
    normal: new Float64Array(m * 3),
    roughness: new Float64Array(m),
    fitted: new Uint32Array(m),
    members: new Uint32Array(m),
    radius: new Float64Array(m),
    reach: new Float64Array(m),
    origin: new Float64Array(m * 3),
  };
  const scratch: FitScratch = {
    eigen: new Float64Array(4),
    ids: new Uint32Array(BORROWED_NEIGHBOURS),
    d2: new Float64Array(BORROWED_NEIGHBOURS),
  };
  const { order, leafStart } = index;
  for (let p = 0; p < m; p += 1) {
    const from = leafStart[p]!;
    const n = leafStart[p + 1]! - from;
    let sx = 0;
    let sy = 0;
    let sz = 0;
    for (let s = from; s < from + n; s += 1) {
      const id = order[s]!;
      patches.patchOf[id] = p;
      sx += positions[id * 3]!;
      sy += positions[id * 3 + 1]!;
      sz += positions[id * 3 + 2]!;
    }
    patches.centroid[p * 3] = sx / n;
    patches.centroid[p * 3 + 1] = sy / n;
    patches.centroid[p * 3 + 2] = sz / n;
    patches.members[p] = n;
    if (n >= MIN_FIT_POINTS || count < MIN_FIT_POINTS) {
      fitPlane(positions, order, from, n, patches, p, scratch);
    } else {
      const found = index.nearest(sx / n, sy / n, sz / n, BORROWED_NEIGHBOURS, Infinity, scratch.ids, scratch.d2);
      fitPlane(positions, scratch.ids, 0, found, patches, p, scratch);
    }
  }
  const typical = m > 0 ? Float64Array.from(patches.radius).sort()[m >> 1]! : 0;
  for (let p = 0; p < m; p += 1) patches.reach[p] = DISC_REACH * Math.min(patches.radius[p]!, typical);
  patches.centroidIndex = buildPointIndex(Float32Array.from(patches.centroid), m, patchSize);
  return patches;
}

/**
 * Orients every patch normal consistently, so that "outside" means the same on both point sets:
 * a normal points away from the centroid of a larger group of patches around it — first the
 * groups of about 16 patches that an index over the patch centroids makes, then groups of those
 * groups, then the whole set — taking the first level at which the patch's offset from that
 * centroid leans clearly along the normal (cosine ≥ 0.25, and by more than half the patch's radius
 * and three times its roughness). On a thin member this is its own axis;
 * on a wall, the structure's middle. Where no level decides (a single flat plane), the normal's
 * largest component is made positive, with a weak vote. The votes are then pooled among
 * neighbouring patches (the groups of about 16), each weighted by how clearly it was decided and
 * by how parallel the two normals are, so that a patch whose normal noise tilted follows its face.
 * @param patches the patches to orient, changed in place
 * @param groupSize patches per group at each level
 */
export function orientNormals(patches: Patches, groupSize: number): void {
  const m = patches.count;
  if (m === 0) return;
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
  const vote = new Float64Array(m);
  for (let p = 0; p < m; p += 1) {
    const nx = normal[p * 3]!;
    const ny = normal[p * 3 + 1]!;
    const nz = normal[p * 3 + 2]!;
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
