/**
 * The 'Changes' mode of the viewer, one implementation for the single view and for the compared
 * capture of compare mode: a capture coloured by its change map against the project's reference
 * model (in compare mode: against the reference model shown with it, so that a map against
 * another model is never taken for the change between the two on screen). While on, every
 * Gaussian is coloured by its signed distance to the reference surface (lib/change-colours.ts:
 * blue negative, grey within ± the threshold, red positive, full colour at the scale's end), read
 * from the map's values file; off, the capture's own colours come back. The panel has the legend
 * (as text too: metres with the model's scale, else model units), the histogram of the distances
 * (change-histogram.tsx), the threshold slider (from the level of detection), the change regions
 * with a button each that flies the camera to it (in compare mode the reference follows while the
 * cameras are linked) and, for an account that may add findings, one that opens the findings form
 * for a new finding at the region's centre (in the capture's frame), prefilled and naming the
 * region; and a note when the map is out of date. Captures drawn through a level-of-detail tree (more than
 * LOD_ABOVE_GAUSSIANS) are not coloured yet, nor are mesh-only models (their values are per point
 * sampled on the GLB, not per vertex): the panel says so and the histogram and regions still work.
 *
 * `useChangesTool` (hooks/use-changes-tool.ts) holds the state and hands the page its viewport
 * tool and this panel's props; `ChangesToggle` is the header's button; `ChangesPanel` draws the panel, over the
 * single view's stage or in compare mode's side column. The panel's root tells what was last
 * painted: `data-applied-threshold` and `data-changed-gaussians` (Gaussians in colour, not grey).
 */
import { useId } from 'react';
import { threeFigures } from '@shared/change-map-document.js';
import type { ChangeMapJob } from '@shared/ports/index.js';
import type { ChangeRegionData } from '@shared/types.js';
import type { CaptureChangeMap } from '../api/change-maps.js';
import { ChangeRegistration } from './change-registration.js';
import { formatChangeDistance } from '../lib/change-colours.js';
import { ChangeHistogram } from './change-histogram.js';
import { ChangeMapProgress, ChangeMapProgressPanel } from './change-map-progress.js';
import {
  LOD_ABOVE_GAUSSIANS,
  SIDE_LABELS,
  type AppliedColours,
  type ChangesToolState,
  type ColouringState,
} from '../hooks/use-changes-tool.js';
import './changes-panel.css';

/** The header's 'Changes' toggle of a view (pressed while the mode is on). */
export function ChangesToggle({ tool }: { tool: Pick<ChangesToolState, 'open' | 'toggle' | 'toggleTitle'> }) {
  return (
    <button type="button" aria-pressed={tool.open} onClick={tool.toggle} title={tool.toggleTitle}>
      Changes
    </button>
  );
}

export interface ChangesPanelProps {
  /** Null while the server computes the first one (`job`). */
  changeMap: CaptureChangeMap | null;
  /** The server's job for the map, shown at the top (null: none). */
  job?: ChangeMapJob | null;
  /** The capture's scale (`metadata.unitsPerMetre`), or null: model units. */
  unitsPerMetre: number | null;
  /** |d| below it is shown grey, model units. */
  threshold: number;
  /** Where the colour scale ends, model units (also the slider's end). */
  scaleMax: number;
  onThreshold: (value: number) => void;
  colouring: ColouringState;
  /** Why the values file could not be read. */
  valuesError: string | null;
  /** Flies the camera to a region (absent before the 3D view exists). */
  onFlyTo?: (region: ChangeRegionData) => void;
  /** Opens the findings form for a new finding from a region (absent when the account may not add findings). */
  onCreateFinding?: (region: ChangeRegionData) => void;
  /** What the capture was last painted with (null while it is not coloured). */
  applied?: AppliedColours | null;
  /**
   * Where the panel sits: 'overlay' (the default) over the single view's stage, as the measure
   * panel; 'side' in compare mode's side column beside the stage, as the compare findings.
   */
  layout?: ChangesPanelLayout;
}

/** Where the changes panel sits: over the stage, or in a column beside it. */
export type ChangesPanelLayout = 'overlay' | 'side';

/** The panel root's classes for its layout. */
const LAYOUT_CLASSES: Record<ChangesPanelLayout, string> = {
  overlay: 'changes-panel viewer-tool-panel',
  side: 'changes-panel viewer-side-panel',
};

/** The changes panel; while the server computes the capture's first map, only its progress. */
export function ChangesPanel(props: ChangesPanelProps) {
  const { changeMap } = props;
  const className = LAYOUT_CLASSES[props.layout ?? 'overlay'];
  return changeMap === null ? (
    <ChangeMapProgressPanel job={props.job ?? null} className={className} />
  ) : (
    <MapPanel {...props} changeMap={changeMap} className={className} />
  );
}

/** The changes panel of a map: legend, histogram, threshold, colouring state, out-of-date note and the change regions. */
function MapPanel({
  changeMap,
  job = null,
  unitsPerMetre,
  threshold,
  scaleMax,
  onThreshold,
  colouring,
  valuesError,
  onFlyTo,
  onCreateFinding,
  applied = null,
  className,
}: ChangesPanelProps & { changeMap: CaptureChangeMap; className: string }) {
  const titleId = useId();
  const sliderId = useId();
  const { map, outOfDate } = changeMap;
  const d = (value: number, signed = false) => formatChangeDistance(value, unitsPerMetre, signed);
  const step = scaleMax / 200;
  const status =
    colouring === 'large'
      ? `Colouring is not available for large captures yet (more than ${LOD_ABOVE_GAUSSIANS.toLocaleString('en-US')} Gaussians): the regions below still work.`
      : colouring === 'mesh'
        ? 'The mesh is not coloured by change yet (its change map was measured at points sampled on the GLB): the regions below still work.'
        : colouring === 'error'
          ? `The change values could not be loaded: ${valuesError ?? 'unknown error'}.`
          : colouring === 'unavailable'
            ? 'The capture shown does not match the change values (another file, or its preview): not coloured.'
            : colouring === 'shown'
              ? 'The capture is coloured by change.'
              : 'Loading the change values…';
  return (
    <section
      className={className}
      aria-labelledby={titleId}
      data-testid="changes-panel"
      data-colouring={colouring}
      data-applied-threshold={applied ? String(applied.threshold) : undefined}
      data-changed-gaussians={applied ? String(applied.changed) : undefined}
    >
      <h2 id={titleId} className="changes-title">
        Changes
      </h2>
      {job ? <ChangeMapProgress job={job} /> : null}
      <p className="changes-status" role="status" data-testid="changes-status">
        {status}
      </p>
      {outOfDate ? (
        <p className="changes-out-of-date" data-testid="changes-out-of-date">
          Out of date: {outOfDate}. Compute the change map again to bring it up to date.
        </p>
      ) : null}
      <ChangeRegistration changeMap={changeMap} unitsPerMetre={unitsPerMetre} />
      <div className="changes-legend" data-testid="changes-legend">
        <div className="changes-scale" aria-hidden="true" />
        <p className="changes-legend-ends" aria-hidden="true">
          <span>{d(-scaleMax)}</span>
          <span>0</span>
          <span>{d(scaleMax, true)}</span>
        </p>
        <p className="changes-legend-text">
          Blue: inside the reference surface (down to {d(-scaleMax)} and beyond); grey: within ±{d(threshold)} (unchanged); red: outside it
          (up to {d(scaleMax, true)} and beyond). Dark grey: not measured.
          {unitsPerMetre ? '' : ' This model has no scale: distances are in model units.'}
        </p>
      </div>
      <ChangeHistogram
        histogram={map.histogram}
        threshold={threshold}
        scaleMax={scaleMax}
        unitsPerMetre={unitsPerMetre}
        counted={
          applied && applied.threshold === threshold ? { within: applied.measured - applied.changed, beyond: applied.changed } : null
        }
      />
      <label className="changes-threshold-label" htmlFor={sliderId}>
        Threshold: {d(threshold)} (level of detection {d(map.levelOfDetection)})
      </label>
      <input
        id={sliderId}
        className="changes-threshold"
        type="range"
        min={0}
        max={scaleMax}
        step={step}
        value={Math.min(threshold, scaleMax)}
        aria-valuetext={d(threshold)}
        onChange={(event) => onThreshold(Number(event.target.value))}
      />
      <h3 className="changes-subtitle">Change regions</h3>
      {map.regions.length === 0 ? (
        <p className="changes-none">No change regions.</p>
      ) : (
        <ul className="changes-regions" aria-label="Change regions">
          {map.regions.map((region) => (
            <li key={region.id} data-testid="change-region">
              <span className="changes-region-text">
                {region.id}. {SIDE_LABELS[region.side]}: {region.count.toLocaleString('en-US')} Gaussians, mean{' '}
                {d(region.meanDistance, true)}, max {d(region.maxDistance, true)}, centre (
                {region.centroid.map((v) => threeFigures(v)).join(', ')}) in the reference frame
              </span>
              {onFlyTo || onCreateFinding ? (
                <span className="changes-region-actions">
                  {onFlyTo ? (
                    <button type="button" onClick={() => onFlyTo(region)}>
                      Fly to region {region.id}
                    </button>
                  ) : null}
                  {onCreateFinding ? (
                    <button
                      type="button"
                      aria-label={`Create finding from change region ${region.id}`}
                      onClick={() => onCreateFinding(region)}
                    >
                      Create finding
                    </button>
                  ) : null}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
