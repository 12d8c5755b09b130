/**
 * Framing a Gaussian splat: its bounding box is dominated by floaters (a real 3DGS training
 * output spans kilometres for a building a few metres across), so the viewer frames the 10th–90th
 * percentile of the splat centres on each axis instead.
 */

/** An axis-aligned box in world units: [x, y, z] corners. */
export interface Bounds {
  min: [number, number, number];
  max: [number, number, number];
}

/** The value at fraction `q` (0–1) of a sorted array (nearest rank). */
function quantile(sorted: Float64Array, q: number): number {
  const index = Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))));
  return sorted[index]!;
}

/**
 * The box spanning the `low`–`high` quantiles of points on each axis.
 * @param centres flat [x0, y0, z0, x1, y1, z1, …] (world units)
 * @param low lower quantile (default 0.1)
 * @param high upper quantile (default 0.9)
 * @returns the box, or null when there are no points (or a coordinate is not finite)
 */
export function framingBox(centres: readonly number[] | Float32Array, low = 0.1, high = 0.9): Bounds | null {
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
    min.push(a);
    max.push(b);
  }
  return { min: min as Bounds['min'], max: max as Bounds['max'] };
}
