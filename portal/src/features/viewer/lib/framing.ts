/**
 * Framing a model: which box the camera looks at and how far away it stands. A Gaussian splat's
 * bounding box is dominated by floaters (a real 3DGS training output spans kilometres for a
 * building a few metres across), so the viewer starts from the 10th–90th percentile of the splat
 * centres on each axis, then grows it through contiguous splats (a mast or an antenna holds few
 * splats but no gap; floaters lie beyond an empty gap), at most by half its size a side, and pads
 * it a little. Pure maths on plain arrays (no three.js), so it is unit-tested in isolation.
 */

import { cross, dot, length, normalize, sub, type Vec3 } from '@shared/vec3.js';

/** A point or direction in world units: [x, y, z] (the shared 3-vector). */
export type { Vec3 };

/** An axis-aligned box in world units: [x, y, z] corners. */
export interface Bounds {
  min: Vec3;
  max: Vec3;
}

/** Lower and upper percentile of splat centres the viewer frames (fractions, 0–1). */
export const SPLAT_FRAMING_QUANTILES = [0.1, 0.9] as const;

/** How far the framing box is padded on each side, as a fraction of its size per axis (splats have extent beyond their centres). */
export const SPLAT_FRAMING_PADDING = 0.05;

/**
 * Growing the percentile box: the largest gap between neighbouring centres (sorted on one axis)
 * it grows across, as a fraction of the percentile box's size on that axis; and how far it may
 * grow on each side, as a fraction of that size.
 */
export const SPLAT_FRAMING_GROWTH = { maxGap: 1 / 16, maxGrowth: 0.5 } as const;

/** The value at fraction `q` (0–1) of a sorted array (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[index]!;
}

/**
 * The box spanning the `low`–`high` quantiles of points on each axis, grown on each side through
 * points that follow each other without a gap wider than {@link SPLAT_FRAMING_GROWTH}`.maxGap` ×
 * the quantile range, by at most `maxGrowth` × that range.
 * @param centres flat [x0, y0, z0, x1, y1, z1, …] (world units); a trailing partial point is ignored
 * @param low lower quantile, 0–1 (default 0.1)
 * @param high upper quantile, 0–1 (default 0.9)
 * @returns the box, or null when there are no points (or a quantile is not finite)
 */
export function framingBox(
  centres: ArrayLike<number>,
  low: number = SPLAT_FRAMING_QUANTILES[0],
  high: number = SPLAT_FRAMING_QUANTILES[1],
): Bounds | null {
  const count = Math.floor(centres.length / 3);
  if (count === 0) return null;
  const min: number[] = [];
  const max: number[] = [];
  for (let axis = 0; axis < 3; axis += 1) {
    const values = new Float64Array(count);
    for (let i = 0; i < count; i += 1) values[i] = centres[i * 3 + axis]!;
    values.sort();
    const a = quantile(values, low);
    const b = quantile(values, high);
    if (!Number.isFinite(a) || !Number.isFinite(b)) return null;
    const gap = (b - a) * SPLAT_FRAMING_GROWTH.maxGap;
    const reach = (b - a) * SPLAT_FRAMING_GROWTH.maxGrowth;
    let hi = Math.min(count - 1, Math.max(0, Math.round(high * (count - 1))));
    while (hi + 1 < count && values[hi + 1]! - values[hi]! <= gap && values[hi + 1]! - b <= reach) hi += 1;
    let lo = Math.min(count - 1, Math.max(0, Math.round(low * (count - 1))));
    while (lo > 0 && values[lo]! - values[lo - 1]! <= gap && a - values[lo - 1]! <= reach) lo -= 1;
    min.push(values[lo]!);
    max.push(values[hi]!);
  }
  return { min: min as Vec3, max: max as Vec3 };
}

/**
 * The box grown on each side by `fraction` of its size on that axis (a flat axis stays flat).
 * @param fraction e.g. {@link SPLAT_FRAMING_PADDING}
 */
export function padBounds(bounds: Bounds, fraction: number): Bounds {
  const min = bounds.min.map((v, i) => v - (bounds.max[i]! - v) * fraction) as Vec3;
  const max = bounds.max.map((v, i) => v + (v - bounds.min[i]!) * fraction) as Vec3;
  return { min, max };
}

/**
 * The smallest box holding every given box (a hybrid model frames its splat and its GLB).
 * @returns null when `parts` is empty
 */
export function unionBounds(parts: readonly Bounds[]): Bounds | null {
  if (parts.length === 0) return null;
  const min = [0, 1, 2].map((i) => Math.min(...parts.map((p) => p.min[i]!))) as Vec3;
  const max = [0, 1, 2].map((i) => Math.max(...parts.map((p) => p.max[i]!))) as Vec3;
  return { min, max };
}

/** The centre of a box. */
export function boundsCentre(bounds: Bounds): Vec3 {
  return [0, 1, 2].map((i) => (bounds.min[i]! + bounds.max[i]!) / 2) as Vec3;
}

/** The unit vector along `v`, or +z for the zero vector (a degenerate `up` still gives a camera). */
function unitOrZ(v: Vec3): Vec3 {
  return length(v) > 0 ? normalize(v) : [0, 0, 1];
}

/** Where a camera looking at a box stands. */
export interface CameraFit {
  /** Camera position (world units). */
  position: Vec3;
  /** The point it looks at: the box's centre (the orbit target). */
  target: Vec3;
  /** Distance from target to position (world units, > 0). */
  distance: number;
  /** Radius of the box's bounding sphere (world units, ≥ a tiny minimum), for near/far planes. */
  radius: number;
}

/**
 * Places a perspective camera on the line from the box's centre along `direction` so that all
 * eight corners of the box fall inside the view (both the vertical and the horizontal field of
 * view), with `margin` to spare.
 * @param bounds the box to frame (world units)
 * @param direction from the target towards the camera (any length, not zero)
 * @param up the world's up direction (for the camera's roll; not parallel to `direction`)
 * @param fovDeg vertical field of view in degrees (three's `PerspectiveCamera.fov`)
 * @param aspect viewport width / height (> 0)
 * @param margin factor on the distance (default 1.1: 10% to spare)
 */
export function fitCamera(bounds: Bounds, direction: Vec3, up: Vec3, fovDeg: number, aspect: number, margin = 1.1): CameraFit {
  const target = boundsCentre(bounds);
  const back = unitOrZ(direction);
  const right = unitOrZ(cross(up, back));
  const camUp = cross(back, right);
  const tanV = Math.tan((fovDeg * Math.PI) / 360);
  const tanH = tanV * Math.max(aspect, 1e-6);
  let distance = 0;
  for (let corner = 0; corner < 8; corner += 1) {
    const point: Vec3 = [
      corner & 1 ? bounds.max[0] : bounds.min[0],
      corner & 2 ? bounds.max[1] : bounds.min[1],
      corner & 4 ? bounds.max[2] : bounds.min[2],
    ];
    const offset = sub(point, target);
    // The corner is `toward` closer to the camera than the target; it must sit inside the frustum.
    const toward = dot(offset, back);
    distance = Math.max(distance, toward + Math.abs(dot(offset, right)) / tanH, toward + Math.abs(dot(offset, camUp)) / tanV);
  }
  const radius = Math.max(length(sub(bounds.max, bounds.min)) / 2, 1e-3);
  distance = Math.max(distance * margin, radius * 0.5, 1e-3);
  return {
    position: [target[0] + back[0] * distance, target[1] + back[1] * distance, target[2] + back[2] * distance],
    target,
    distance,
    radius,
  };
}
