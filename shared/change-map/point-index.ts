/**
 * The spatial index of a point set for the change map: a bounding-volume hierarchy over the points
 * (three-mesh-bvh's `PointsBVH`, built on typed arrays), with k-nearest and radius queries that
 * write into caller-owned typed arrays, and the hierarchy's leaves exposed as small groups of
 * neighbouring points. The leaves are what the local surface is fitted to, so most of the change
 * map needs no per-point search at all. Works in Node and in the browser; the only module of the
 * change map that touches three.js.
 */
import { BufferAttribute, BufferGeometry, type Box3 } from 'three';
import { BVH, CENTER, INTERSECTED, NOT_INTERSECTED, PointsBVH } from 'three-mesh-bvh';

/** A static index over `count` points. Not re-entrant: one query at a time. */
export interface PointIndex {
  readonly count: number;
  /** Point ids in leaf order: leaf l holds `order[leafStart[l] .. leafStart[l + 1])`. */
  readonly order: Uint32Array;
  /** Leaf offsets into `order`, `leafCount + 1` entries. */
  readonly leafStart: Uint32Array;
  readonly leafCount: number;
  /**
   * The k nearest points to (x, y, z) within `maxDistance`, nearest first.
   * @param outIds receives the point ids (at least k long)
   * @param outD2 receives their squared distances (at least k long)
   * @returns how many were found (≤ k; fewer when the set is smaller or the rest are farther than `maxDistance`)
   */
  nearest(x: number, y: number, z: number, k: number, maxDistance: number, outIds: Uint32Array, outD2: Float64Array): number;
  /**
   * Calls `visit(id, squaredDistance)` for every point within `radius` of (x, y, z), in no order.
   */
  within(x: number, y: number, z: number, radius: number, visit: (id: number, d2: number) => void): void;
}

/** The default number of points a leaf of the hierarchy aims at. */
export const DEFAULT_LEAF_SIZE = 16;

/**
 * Builds the index of the first `count` points of `positions`.
 * @param positions flat xyz (at least 3 × count numbers); read, never changed, and kept by the index
 * @param count the points to index (0 gives an empty index)
 * @param leafSize the number of points a leaf aims at (splits stop at or below it), ≥ 1
 * @returns the index
 */
export function buildPointIndex(positions: Float32Array, count: number, leafSize = DEFAULT_LEAF_SIZE): PointIndex {
  if (count === 0) return emptyIndex();
  const xyz = positions.subarray(0, count * 3);
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(xyz, 3));
  // Not indirect: the hierarchy sorts an index buffer of the points, which is then the leaf order.
  const bvh = new PointsBVH(geometry, { targetLeafSize: Math.max(1, Math.floor(leafSize)), strategy: CENTER, indirect: false });
  // Queries use the base class's traversal over leaf ranges: the points are read straight from the
  // typed array, without the per-point wrapper (and its per-call set-up) that PointsBVH adds.
  const shapecast = BVH.prototype.shapecast.bind(bvh);
  const index = geometry.index!.array;
  const order = index instanceof Uint32Array ? index : Uint32Array.from(index);

  const starts: number[] = [];
  bvh.traverse((_depth, isLeaf, _bounds, offset) => {
    if (isLeaf) starts.push(offset);
  });
  starts.sort((a, b) => a - b);
  const leafStart = new Uint32Array(starts.length + 1);
  leafStart.set(starts);
  leafStart[starts.length] = count;

  // Query state shared by the callbacks below, which are made once (no allocation per query).
  let qx = 0;
  let qy = 0;
  let qz = 0;
  let k = 0;
  let found = 0;
  let limit2 = Infinity;
  let heapD = new Float64Array(16);
  let heapI = new Uint32Array(16);
  let visitor: (id: number, d2: number) => void = () => undefined;

  const worst = (): number => (found < k ? limit2 : heapD[0]!);
  /** Squared distance from the query point to a box. */
  const boxDistance2 = (box: Box3): number => {
    const dx = Math.max(box.min.x - qx, 0, qx - box.max.x);
    const dy = Math.max(box.min.y - qy, 0, qy - box.max.y);
    const dz = Math.max(box.min.z - qz, 0, qz - box.max.z);
    return dx * dx + dy * dy + dz * dz;
  };
  /** Offers a candidate to the bounded max-heap of the k nearest so far. */
  const offer = (d2: number, id: number): void => {
    if (found < k) {
      let j = found++;
      while (j > 0) {
        const parent = (j - 1) >> 1;
        if (heapD[parent]! >= d2) break;
        heapD[j] = heapD[parent]!;
        heapI[j] = heapI[parent]!;
        j = parent;
      }
      heapD[j] = d2;
      heapI[j] = id;
      return;
    }
    if (d2 >= heapD[0]!) return;
    let j = 0;
    for (;;) {
      let child = 2 * j + 1;
      if (child >= k) break;
      if (child + 1 < k && heapD[child + 1]! > heapD[child]!) child += 1;
      if (heapD[child]! <= d2) break;
      heapD[j] = heapD[child]!;
      heapI[j] = heapI[child]!;
      j = child;
    }
    heapD[j] = d2;
    heapI[j] = id;
  };

  const nearestCallbacks = {
    boundsTraverseOrder: boxDistance2,
    intersectsBounds: (_box: Box3, _isLeaf: boolean, score: number | undefined) =>
      (score ?? 0) <= worst() ? INTERSECTED : NOT_INTERSECTED,
    intersectsRange: (offset: number, n: number) => {
      for (let s = offset, end = offset + n; s < end; s += 1) {
        const id = order[s]!;
        const dx = xyz[id * 3]! - qx;
        const dy = xyz[id * 3 + 1]! - qy;
        const dz = xyz[id * 3 + 2]! - qz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 <= worst()) offer(d2, id);
      }
      return false;
    },
  };
  const withinCallbacks = {
    intersectsBounds: (box: Box3) => (boxDistance2(box) <= limit2 ? INTERSECTED : NOT_INTERSECTED),
    intersectsRange: (offset: number, n: number) => {
      for (let s = offset, end = offset + n; s < end; s += 1) {
        const id = order[s]!;
        const dx = xyz[id * 3]! - qx;
        const dy = xyz[id * 3 + 1]! - qy;
        const dz = xyz[id * 3 + 2]! - qz;
        const d2 = dx * dx + dy * dy + dz * dz;
        if (d2 <= limit2) visitor(id, d2);
      }
      return false;
    },
  };

  return {
    count,
    order,
    leafStart,
    leafCount: starts.length,
    nearest(x, y, z, kWanted, maxDistance, outIds, outD2) {
      if (kWanted <= 0) return 0;
      if (heapD.length < kWanted) {
        heapD = new Float64Array(kWanted);
        heapI = new Uint32Array(kWanted);
      }
      qx = x;
      qy = y;
      qz = z;
      k = kWanted;
      found = 0;
      limit2 = maxDistance === Infinity ? Infinity : maxDistance * maxDistance;
      shapecast(nearestCallbacks);
      // Heap → ascending order (k is small: insertion sort).
      const n = found;
      for (let i = 0; i < n; i += 1) {
        const d = heapD[i]!;
        const id = heapI[i]!;
        let j = i;
        while (j > 0 && outD2[j - 1]! > d) {
          outD2[j] = outD2[j - 1]!;
          outIds[j] = outIds[j - 1]!;
          j -= 1;
        }
        outD2[j] = d;
        outIds[j] = id;
      }
      return n;
    },
    within(x, y, z, radius, visit) {
      qx = x;
      qy = y;
      qz = z;
      limit2 = radius * radius;
      visitor = visit;
      shapecast(withinCallbacks);
    },
  };
}

/** The index of no points. */
function emptyIndex(): PointIndex {
  return {
    count: 0,
    order: new Uint32Array(0),
    leafStart: new Uint32Array(1),
    leafCount: 0,
    nearest: () => 0,
    within: () => undefined,
  };
}
