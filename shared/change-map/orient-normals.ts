/**
 * The side of every patch normal (local-surface.ts fits them without one): towards the outside,
 * the side a viewer stands on, so that a positive distance means material added or moved outward
 * on both point sets. Towards the cameras that took the capture where their positions are known
 * (sensor orientation, as CloudCompare and M3C2 practice do it); without them, a near-horizontal
 * patch faces up when the scene's up direction is known (a ground plane has no inside to point
 * away from), and every other patch points away from the centroid of a larger neighbourhood,
 * walking up coarser groupings of the patches until one side is clear; the patches' votes are then
 * pooled among neighbours.
 */
import type { Patches } from './local-surface.js';
import { buildPointIndex } from './point-index.js';

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
