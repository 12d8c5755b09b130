/**
 * The colours and words of the viewer's 'Changes' mode, without three.js or React: the diverging
 * scale a capture's splats are coloured with by signed distance to the reference (blue negative,
 * grey within ± the threshold, red positive, full colour at the scale's end), the scale's end a
 * change map suggests, distances in metres or model units (`formatChangeDistance`, shared), and a
 * change region's centre carried back from the reference frame into the capture's.
 */
import { applyAlignment, invertAlignment } from '@shared/alignment.js';
import type { ChangeMapData, ChangeRegionData, ModelPoint } from '@shared/types.js';

/** The grey of an unchanged splat (|d| below the threshold), RGB 0–255. */
export const UNCHANGED_GREY: readonly [number, number, number] = [150, 150, 150];
/** The grey of a splat the change map did not measure (NaN): darker, so it reads as 'no value'. */
export const UNMEASURED_GREY: readonly [number, number, number] = [80, 80, 80];
/** Full colour of the largest positive distances (outside the reference surface). */
export const POSITIVE_RED: readonly [number, number, number] = [230, 30, 30];
/** Full colour of the largest negative distances (inside the reference surface). */
export const NEGATIVE_BLUE: readonly [number, number, number] = [30, 90, 235];
/** How much colour a distance just over the threshold already has (0–1), so a small change still stands out from grey. */
const FIRST_STEP = 0.45;

/**
 * The colour of one signed distance.
 * @param distance model units; NaN: not measured
 * @param threshold model units, 0 or more: |distance| below it is unchanged (grey)
 * @param max model units: |distance| at or above it gets full colour (clamped)
 * @returns RGB, 0–255 each
 */
export function changeColour(distance: number, threshold: number, max: number): [number, number, number] {
  if (Number.isNaN(distance)) return [...UNMEASURED_GREY];
  const size = Math.abs(distance);
  if (size < threshold) return [...UNCHANGED_GREY];
  const span = max - threshold;
  const t = span > 0 ? Math.min(1, (size - threshold) / span) : 1;
  const weight = FIRST_STEP + (1 - FIRST_STEP) * t;
  const end = distance >= 0 ? POSITIVE_RED : NEGATIVE_BLUE;
  return [0, 1, 2].map((i) => Math.round(UNCHANGED_GREY[i]! + (end[i]! - UNCHANGED_GREY[i]!) * weight)) as [number, number, number];
}

/**
 * The RGBA of every splat coloured by its distance, keeping each splat's own opacity.
 * @param distances per splat, model units (NaN: not measured)
 * @param alphas per splat, the splat's own opacity 0–255 (as many as distances)
 * @param threshold model units (see {@link changeColour})
 * @param max model units (see {@link changeColour})
 * @param out where to write (4 bytes a splat, at least); a new array when absent
 * @returns `out`, 4 bytes a splat
 */
export function changeColours(
  distances: Float32Array,
  alphas: Uint8Array,
  threshold: number,
  max: number,
  out: Uint8Array = new Uint8Array(distances.length * 4),
): Uint8Array {
  for (let i = 0; i < distances.length; i += 1) {
    const [r, g, b] = changeColour(distances[i]!, threshold, max);
    out[i * 4] = r;
    out[i * 4 + 1] = g;
    out[i * 4 + 2] = b;
    out[i * 4 + 3] = alphas[i] ?? 255;
  }
  return out;
}

/**
 * Where the colour scale ends (full colour): the largest |maxDistance| of the map's change
 * regions; without regions, the largest |edge| of its histogram; never less than twice the level
 * of detection (so the scale has room above the threshold), and 1 model unit when all are 0.
 * @param map the change map's summary
 * @returns model units, above 0
 */
export function changeScaleMax(map: Pick<ChangeMapData, 'regions' | 'histogram' | 'levelOfDetection'>): number {
  const fromRegions = Math.max(0, ...map.regions.map((r) => Math.abs(r.maxDistance)));
  const fromHistogram = Math.max(Math.abs(map.histogram.min), Math.abs(map.histogram.max));
  const max = Math.max(fromRegions > 0 ? fromRegions : fromHistogram, map.levelOfDetection * 2);
  return max > 0 && Number.isFinite(max) ? max : 1;
}

/** How a change map's measured Gaussians fall about a threshold, by its histogram. */
export interface HistogramSplit {
  /** Measured Gaussians with |distance| below the threshold (shown grey), rounded. */
  within: number;
  /** The other measured Gaussians (shown in colour). */
  beyond: number;
  /** Every Gaussian the histogram counts (the measured ones). */
  total: number;
  /** True when the threshold cuts a bin, so the split is estimated (spread evenly across that bin). */
  estimated: boolean;
}

/**
 * How many of a change map's measured Gaussians lie within ± a threshold and how many beyond,
 * from its histogram (equal bins from `min` to `max`): the bins inside count whole, a bin the
 * threshold cuts counts by the share of its width inside (its Gaussians taken as spread evenly).
 * @param histogram the map's histogram (model units)
 * @param threshold model units, 0 or more
 * @returns the split (within + beyond = total)
 */
export function histogramSplit(histogram: ChangeMapData['histogram'], threshold: number): HistogramSplit {
  const { min, max, counts } = histogram;
  const total = counts.reduce((sum, count) => sum + count, 0);
  const width = counts.length > 0 ? (max - min) / counts.length : 0;
  let within = 0;
  let estimated = false;
  counts.forEach((count, i) => {
    if (count === 0) return;
    if (!(width > 0)) {
      // Every measured value is `min`.
      if (Math.abs(min) < threshold) within += count;
      return;
    }
    const lo = min + i * width;
    const share = Math.max(0, Math.min(lo + width, threshold) - Math.max(lo, -threshold)) / width;
    // (a threshold on a bin's edge counts the bin whole, whatever the rounding of the edges)
    const inside = share < 1e-9 ? 0 : share > 1 - 1e-9 ? 1 : share;
    if (inside > 0 && inside < 1) estimated = true;
    within += count * inside;
  });
  const rounded = Math.min(total, Math.round(within));
  return { within: rounded, beyond: total - rounded, total, estimated };
}

/** Distances in words: shared with the findings made from a change region and their report. */
export { formatChangeDistance } from '@shared/change-map-document.js';

/**
 * A change region's centroid in the capture's own coordinates (what the viewer's camera flies
 * to): the region is stored in the reference frame, and the registration maps capture →
 * reference, so its inverse maps the centroid back.
 * @param region the region (centroid in the reference frame)
 * @param registration the change map's registration matrix (capture → reference, column-major)
 * @returns model coordinates of the capture
 * @throws AppError `invalid-argument` when the matrix is not invertible (a stored map's never is)
 */
export function regionCentreInCapture(region: Pick<ChangeRegionData, 'centroid'>, registration: readonly number[]): ModelPoint {
  const [x, y, z] = region.centroid;
  return applyAlignment(invertAlignment(registration), { x, y, z });
}
