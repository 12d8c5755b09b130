/**
 * The histogram of a change map's distances: equal-width bins between the smallest and the largest
 * measured distance, for the legend of the viewer's colour scale and the command's summary.
 */

/** A histogram: `counts[b]` values fall in [min + b·w, min + (b+1)·w), the last bin closed, w = (max − min) / bins. */
export interface Histogram {
  min: number;
  max: number;
  counts: number[];
}

/**
 * Counts the finite values into `bins` equal bins from their minimum to their maximum (NaN and
 * infinities are skipped). When every value is the same they all fall in the first bin; with no
 * finite value, min and max are 0 and every count is 0.
 * @param values the distances
 * @param bins number of bins, ≥ 1 (rounded down)
 * @returns min, max and the counts
 */
export function computeHistogram(values: ArrayLike<number>, bins: number): Histogram {
  const n = Math.max(1, Math.floor(bins));
  const counts = new Array<number>(n).fill(0);
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  if (min > max) return { min: 0, max: 0, counts };
  const width = (max - min) / n;
  for (let i = 0; i < values.length; i += 1) {
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    const b = width > 0 ? Math.min(n - 1, Math.floor((v - min) / width)) : 0;
    counts[b] += 1;
  }
  return { min, max, counts };
}
