/**
 * The histogram of a change map in the 'Changes' panel: a bar per bin of the measured signed
 * distances (equal bins from the histogram's min to its max), each bar in the change scale's
 * colour at the bin's centre (the colours the capture is painted with), dashed marks at ± the
 * current threshold, the axis ends in metres (model units without a scale) and, as text for every
 * reader, how many Gaussians lie within ± the threshold and how many beyond: counted from the
 * per-Gaussian values once the capture is painted with them, else estimated from the bins. Bar
 * heights are on a logarithmic scale: the unchanged bins hold nearly every Gaussian and would
 * flatten the rest.
 */
import { formatNumber } from '@shared/format.js';
import type { ChangeMapData } from '@shared/types.js';
import { changeColour, formatChangeDistance, histogramSplit, type HistogramSplit } from '../lib/change-colours.js';

export interface ChangeHistogramProps {
  histogram: ChangeMapData['histogram'];
  /** |d| below it is unchanged (grey), model units. */
  threshold: number;
  /** Where the colour scale ends, model units. */
  scaleMax: number;
  /** The capture's scale, or null: model units. */
  unitsPerMetre: number | null;
  /** The split counted from the per-Gaussian values at this threshold, or null: estimated from the bins. */
  counted?: { within: number; beyond: number } | null;
}

/** The drawing's height in its own units (the width is one unit a bin). */
const HEIGHT = 40;

/**
 * How the measured Gaussians fall about the threshold, in words: '1,240 Gaussians within ±0.2 m,
 * 60 beyond'; an estimated split (the threshold cuts a bin) says 'about', and 'almost none' for an
 * estimate that rounds to 0.
 */
function splitText(split: HistogramSplit, threshold: string): string {
  const { within, beyond, estimated } = split;
  const about = estimated ? 'about ' : '';
  const inside =
    estimated && within === 0
      ? 'Almost no Gaussians'
      : `${estimated ? 'About ' : ''}${formatNumber(within)} ${within === 1 ? 'Gaussian' : 'Gaussians'}`;
  const outside = estimated && beyond === 0 ? 'almost none' : `${about}${formatNumber(beyond)}`;
  return `${inside} within ±${threshold}, ${outside} beyond`;
}

/** The histogram (see the module comment). */
export function ChangeHistogram({ histogram, threshold, scaleMax, unitsPerMetre, counted = null }: ChangeHistogramProps) {
  const { min, max, counts } = histogram;
  const bins = counts.length;
  const span = max - min;
  const top = Math.log1p(Math.max(0, ...counts));
  const width = span > 0 ? span / bins : 0;
  const d = (value: number, signed = false) => formatChangeDistance(value, unitsPerMetre, signed);
  // x of a distance on the drawing (null outside the histogram's range).
  const at = (value: number): number | null => (span > 0 && value >= min && value <= max ? ((value - min) / span) * bins : null);
  const marks = [-threshold, threshold].map(at).filter((x): x is number => x !== null);
  const split: HistogramSplit = counted
    ? { ...counted, total: counted.within + counted.beyond, estimated: false }
    : histogramSplit(histogram, threshold);
  return (
    <figure className="changes-histogram" data-testid="changes-histogram">
      <svg
        className="changes-histogram-bars"
        viewBox={`0 0 ${Math.max(1, bins)} ${HEIGHT}`}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        {counts.map((count, i) => {
          if (count <= 0 || top <= 0) return null;
          const height = Math.max(1, (Math.log1p(count) / top) * HEIGHT);
          const [r, g, b] = changeColour(min + (i + 0.5) * width, threshold, scaleMax);
          return <rect key={i} x={i + 0.06} width={0.88} y={HEIGHT - height} height={height} fill={`rgb(${r}, ${g}, ${b})`} />;
        })}
        {marks.map((x, i) => (
          <line key={i} className="changes-histogram-mark" x1={x} x2={x} y1={0} y2={HEIGHT} vectorEffect="non-scaling-stroke" />
        ))}
      </svg>
      <p className="changes-histogram-ends" aria-hidden="true">
        <span>{d(min, true)}</span>
        <span>{d(max, true)}</span>
      </p>
      <figcaption className="changes-histogram-text" data-testid="changes-histogram-text">
        {splitText(split, d(threshold))}
        <span className="visually-hidden">
          {' '}
          ({formatNumber(split.total)} measured, from {d(min, true)} to {d(max, true)})
        </span>
        . Dashed lines: ± the threshold; bar heights on a log scale.
      </figcaption>
    </figure>
  );
}
