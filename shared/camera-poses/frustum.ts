/**
 * Drawing a set of cameras: each camera's view pyramid (frustum) and its line segments, a frustum
 * depth that suits the set, and the point the cameras look at together. The convention is in
 * `shared/camera-poses.ts`.
 */
import { add, length as norm, scale, sub, type Vec3 } from '../vec3.js';
import { checkedPosition, invalid, isFiniteNumber, type CameraLike } from './entry.js';
import { unprojectPixel, cameraIntrinsics } from './projection.js';
import { cameraAxes } from './rotation.js';

/**
 * A camera's view pyramid for drawing: apex and image corners at `depth`, plus a small triangle
 * above the top edge marking the image top (as three.js' CameraHelper draws it).
 */
export interface CameraFrustum {
  /** The camera centre (world). */
  apex: Vec3;
  /** Image corners at `depth` (world): top-left, top-right, bottom-right, bottom-left of the photo. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** The "up" triangle (world): base on the top edge from 30 % to 70 % of the width, tip above its middle by 20 % of the height. */
  up: [Vec3, Vec3, Vec3];
  /** The depth used, world units. */
  depth: number;
}

/**
 * The frustum of a camera at `depth` world units along its viewing direction, in the entry's
 * world coordinates (draw it in the splat's group, `shared/camera-poses.ts`). Field of view from
 * fx/fy, else 60° vertical ({@link cameraIntrinsics}).
 * @param entry a camera (its fields plus optional fx/fy)
 * @param depth distance of the image rectangle from the apex, world units, > 0
 *   (e.g. {@link suggestedFrustumDepth})
 * @throws AppError `invalid-argument` for a malformed entry or a depth that is not positive
 */
export function cameraFrustum(entry: CameraLike, depth: number): CameraFrustum {
  if (!isFiniteNumber(depth) || depth <= 0) throw invalid('frustum depth must be a positive number', { depth });
  const { width: w, height: h } = cameraIntrinsics(entry);
  const at = (x: number, y: number): Vec3 => unprojectPixel(entry, [x, y], depth);
  return {
    apex: checkedPosition(entry),
    corners: [at(0, 0), at(w, 0), at(w, h), at(0, h)],
    up: [at(0.3 * w, 0), at(0.7 * w, 0), at(0.5 * w, -0.2 * h)],
    depth,
  };
}

/**
 * Line-segment endpoints of one or more frustums, flat: `[x0, y0, z0, x1, y1, z1, …]`, two points a
 * segment, 11 segments (66 numbers) a frustum: apex → each corner (4), the image rectangle (4),
 * the up triangle (3). Ready for `new Float32BufferAttribute(segments, 3)` under a three.js
 * `LineSegments`.
 * @param frustums one {@link CameraFrustum} or several
 */
export function lineSegments(frustums: CameraFrustum | readonly CameraFrustum[]): number[] {
  const list = Array.isArray(frustums) ? (frustums as readonly CameraFrustum[]) : [frustums as CameraFrustum];
  const out: number[] = [];
  const seg = (a: Vec3, b: Vec3) => out.push(a[0], a[1], a[2], b[0], b[1], b[2]);
  for (const f of list) {
    const [tl, tr, br, bl] = f.corners;
    for (const c of f.corners) seg(f.apex, c);
    seg(tl, tr);
    seg(tr, br);
    seg(br, bl);
    seg(bl, tl);
    seg(f.up[0], f.up[1]);
    seg(f.up[1], f.up[2]);
    seg(f.up[2], f.up[0]);
  }
  return out;
}

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * A frustum depth that suits a set of cameras: `scale` × the median distance from each camera
 * to its nearest neighbour (coincident cameras ignored), so neighbouring frustums touch at most;
 * but at least `minFraction` × the diagonal of the cameras' bounding box, so the frames of a video
 * (cameras centimetres apart along a path of metres) stay big enough to see and click; capped at
 * `maxFraction` × the median distance of the cameras from their centroid, so a sparse ring's
 * frustums stay well short of the structure they surround.
 * @param entries cameras (`position` in world units)
 * @param options.scale fraction of the typical neighbour distance (default 0.5)
 * @param options.minFraction floor as a fraction of the bounding-box diagonal (default 0.02)
 * @param options.maxFraction cap as a fraction of the typical distance to the centroid (default 0.25)
 * @param options.fallback depth when it cannot be measured (fewer than 2 distinct positions; default 1)
 * @returns a depth in world units, > 0
 * @throws AppError `invalid-argument` for a malformed position
 */
export function suggestedFrustumDepth(
  entries: readonly Pick<CameraLike, 'position'>[],
  options: { scale?: number; minFraction?: number; maxFraction?: number; fallback?: number } = {},
): number {
  const { scale: k = 0.5, minFraction = 0.02, maxFraction = 0.25, fallback = 1 } = options;
  const points = entries.map((e) => checkedPosition(e));
  const nearest: number[] = [];
  points.forEach((p, i) => {
    let best = Infinity;
    points.forEach((q, j) => {
      if (i === j) return;
      const d = norm(sub(p, q));
      if (d > 1e-12 && d < best) best = d;
    });
    if (Number.isFinite(best)) nearest.push(best);
  });
  if (nearest.length === 0) return fallback;
  const lo = [0, 1, 2].map((i) => Math.min(...points.map((p) => p[i]!))) as Vec3;
  const hi = [0, 1, 2].map((i) => Math.max(...points.map((p) => p[i]!))) as Vec3;
  let depth = Math.max(k * median(nearest), minFraction * norm(sub(hi, lo)));
  const centroid = scale(points.reduce(add, [0, 0, 0] as Vec3), 1 / points.length);
  const spread = median(points.map((p) => norm(sub(p, centroid))));
  if (spread > 0) depth = Math.min(depth, maxFraction * spread);
  return depth > 0 && Number.isFinite(depth) ? depth : fallback;
}

/**
 * The point nearest to all viewing axes (least squares): where a set of cameras looks. For a
 * ring or orbit of cameras this is the centre of the structure they photograph.
 * @param entries cameras (position, rotation)
 * @returns `[x, y, z]` world, or null when the axes are (nearly) parallel or there are none
 * @throws AppError `invalid-argument` for a malformed position or rotation
 */
export function camerasFocus(entries: readonly Pick<CameraLike, 'position' | 'rotation'>[]): Vec3 | null {
  const a = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const b = [0, 0, 0];
  for (const e of entries) {
    const f = cameraAxes(e).forward;
    const p = checkedPosition(e);
    for (let i = 0; i < 3; i += 1) {
      for (let j = 0; j < 3; j += 1) {
        const m = (i === j ? 1 : 0) - f[i]! * f[j]!;
        a[i]![j]! += m;
        b[i]! += m * p[j]!;
      }
    }
  }
  const det3 = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det3(a);
  const trace = a[0]![0]! + a[1]![1]! + a[2]![2]!;
  if (entries.length === 0 || !(Math.abs(d) > 1e-9 * Math.max(trace, 1) ** 3)) return null;
  return [0, 1, 2].map((k) => det3(a.map((row, i) => row.map((v, j) => (j === k ? b[i]! : v)))) / d) as Vec3;
}
