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
 * `useChangesTool` holds the state and hands the page its viewport tool (the engine, for colours
 * and flights); `ChangesToggle` is the header's button; `ChangesPanel` draws the panel, over the
 * single view's stage or in compare mode's side column. The panel's root tells what was last
 * painted: `data-applied-threshold` and `data-changed-gaussians` (Gaussians in colour, not grey).
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { comparedFileOf } from '@shared/change-map-compared-file.js';
import { changeRegionText, threeFigures } from '@shared/change-map-document.js';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';
import type { ChangeMapJob } from '@shared/ports/index.js';
import type { ChangeRegionData, Model } from '@shared/types.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import { useCaptureChangeMap, useChangeMapJob, useChangeValues, type CaptureChangeMap } from '../api/change-maps.js';
import { ChangeRegistration } from './change-registration.js';
import { changeColours, changeScaleMax, formatChangeDistance, regionCentreInCapture } from '../lib/change-colours.js';
import type { ViewerEngine } from '../lib/engine.js';
import type { ViewportTool } from '../lib/viewport-tools.js';
import { ChangeHistogram } from './change-histogram.js';
import { ChangeMapProgress, ChangeMapProgressPanel } from './change-map-progress.js';
import type { FindingDraft } from './finding-form.js';
import './changes-panel.css';

/** How the capture's colouring stands. */
export type ColouringState = 'loading' | 'shown' | 'large' | 'mesh' | 'unavailable' | 'error';

/** What {@link useChangesTool} gives the page. */
export interface ChangesToolState {
  /** True when the capture has a change map against the reference (the toggle is shown then). */
  available: boolean;
  open: boolean;
  toggle: () => void;
  /** The toggle's title: what the mode colours the capture against. */
  toggleTitle: string;
  /** What the tool wants from the viewport: the engine (no picks, no markers). */
  viewport: ViewportTool;
  /** Tells the tool the viewport's model is shown (colours can be set from then on). */
  onReady: () => void;
  /** The props of {@link ChangesPanel}, or null while off. */
  panel: ChangesPanelProps | null;
}

const NO_MARKERS: never[] = [];
/** Above this many Gaussians the viewer draws a capture through its level-of-detail tree (lib/loaders.ts LOD_ABOVE_GAUSSIANS), which Spark does not recolour. */
const LOD_ABOVE_GAUSSIANS = LARGE_CAPTURE_GAUSSIANS;
const ignore = (): void => undefined;

/** What a region's side means to a reader. */
const SIDE_LABELS: Record<ChangeRegionData['side'], string> = { capture: 'Added or moved', reference: 'Removed' };

/**
 * The new finding a change region suggests: at the region's centroid carried into the capture's
 * frame, naming the region (its reference, number and largest distance, stored with the finding),
 * titled 'Change region 2: added or moved', category 'other' (the inspector says what it is).
 * @param region the change region (reference frame)
 * @param changeMap the capture's change map with its reference's name
 * @param unitsPerMetre the capture's scale, or null: model units
 * @returns the draft for the findings form
 */
export function changeRegionDraft(region: ChangeRegionData, changeMap: CaptureChangeMap, unitsPerMetre: number | null): FindingDraft {
  const link = { referenceModelId: changeMap.map.referenceModelId, regionId: region.id, maxDistance: region.maxDistance };
  return {
    points: [regionCentreInCapture(region, changeMap.map.registration.matrix)],
    measure: null,
    changeRegion: { region: link, text: changeRegionText(link, changeMap.referenceName, unitsPerMetre) },
    prefill: { title: `Change region ${region.id}: ${SIDE_LABELS[region.side].toLowerCase()}`, category: 'other' },
  };
}

/** What {@link useChangesTool} takes besides the model. */
export interface ChangesToolOptions {
  /**
   * Opens the findings form with a change region's draft; absent when the account may not add
   * findings (no 'Create finding' buttons then).
   */
  onCreateFinding?: (draft: FindingDraft) => void;
  /**
   * Compare mode: the reference model shown with the capture (null while it loads or when it was
   * not found). The mode then uses the capture's map against that model only, so that the colours
   * always tell the change against the model on screen. Absent (the single view): the map against
   * the project's reference.
   */
  reference?: Model | null;
}

/** The toggle's title in the single view, and in compare mode (the map of the pair shown). */
const TOGGLE_TITLES = {
  project: "Colour the capture by its change against the project's reference model",
  compared: 'Colour the capture by its change against the reference model it is compared with',
} as const;

/**
 * The 'Changes' mode's state, for the single view and for the capture of compare mode.
 * @param model the shown model (the compared capture) once found
 * @param options.onCreateFinding opens the findings form with a change region's draft
 * @param options.reference compare mode's reference model (see {@link ChangesToolOptions})
 */
export function useChangesTool(model: Model | null, { onCreateFinding, reference }: ChangesToolOptions = {}): ChangesToolState {
  // Compare mode reads the map of the pair shown (null: the reference is not known yet, nothing).
  const against = reference === undefined ? undefined : (reference?.id ?? null);
  // the server's job for the map: the toggle is there while it is queued, computing or failed (to
  // say why); in compare mode only a job against the reference shown (a queued job names none yet)
  const capturesJob = useChangeMapJob(model);
  const job = against === undefined || (capturesJob !== null && capturesJob.referenceModelId === against) ? capturesJob : null;
  const found = useCaptureChangeMap(model, job, against);
  const changeMap: CaptureChangeMap | null = found.status === 'success' ? found.data : null;
  const map = changeMap?.map ?? null;
  const jobShown = job !== null && (job.state === 'queued' || job.state === 'computing' || job.state === 'failed');
  const [open, setOpen] = useState(false);
  const [engine, setEngine] = useState<ViewerEngine | null>(null);
  const [ready, setReady] = useState(false);
  const [threshold, setThreshold] = useState<number | null>(null);
  const large = map !== null && map.pointCount > LOD_ABOVE_GAUSSIANS;
  // a mesh-only model's map holds a value per point sampled on its GLB: nothing to paint them on yet
  const mesh = model !== null && comparedFileOf(model)?.kind === 'mesh';
  const uncoloured = large || mesh;
  const values = useChangeValues(open && map && !uncoloured ? map.valuesPath : null);
  const scaleMax = map ? changeScaleMax(map) : 1;
  const thresholdNow = threshold ?? map?.levelOfDetection ?? 0;
  const [coloured, setColoured] = useState<boolean | null>(null);
  const [applied, setApplied] = useState<AppliedColours | null>(null);

  // The capture's own opacities, read once the mode is first turned on (per engine and splat load).
  const [wanted, setWanted] = useState(false);
  if (open && !uncoloured && !wanted) setWanted(true);
  const alphas = useMemo(() => (wanted && engine && ready ? engine.splatAlphas() : null), [wanted, engine, ready]);

  useEffect(() => {
    if (!open || !engine || !alphas || values.status !== 'success') return;
    const { distances } = values.data;
    const done = distances.length === alphas.length && engine.setSplatColours(changeColours(distances, alphas, thresholdNow, scaleMax));
    setColoured(done);
    setApplied(done ? { threshold: thresholdNow, ...countChanged(distances, thresholdNow) } : null);
  }, [open, engine, alphas, values, thresholdNow, scaleMax]);

  // Off (or the tool going away): the capture's own colours.
  useEffect(() => {
    if (!open || !engine) return;
    return () => {
      engine.setSplatColours(null);
      setColoured(null);
      setApplied(null);
    };
  }, [open, engine]);

  const flyTo = useCallback(
    (region: ChangeRegionData) => {
      if (!engine || !map) return;
      engine.rig.flyToPoint(regionCentreInCapture(region, map.registration.matrix), !prefersReducedMotion());
    },
    [engine, map],
  );

  const unitsPerMetre = model?.metadata?.unitsPerMetre ?? null;
  const createFinding = useCallback(
    (region: ChangeRegionData) => {
      if (changeMap && onCreateFinding) onCreateFinding(changeRegionDraft(region, changeMap, unitsPerMetre));
    },
    [changeMap, onCreateFinding, unitsPerMetre],
  );

  const viewport = useMemo<ViewportTool>(() => ({ pickMode: false, onPick: ignore, markers: NO_MARKERS, onEngine: setEngine }), []);
  const onReady = useCallback(() => setReady(true), []);

  const colouring: ColouringState = mesh
    ? 'mesh'
    : large
      ? 'large'
      : values.status === 'error'
        ? 'error'
        : coloured === true
          ? 'shown'
          : coloured === false
            ? 'unavailable'
            : 'loading';

  return {
    available: map !== null || jobShown,
    open: open && (map !== null || jobShown),
    toggle: () => setOpen(!open),
    toggleTitle: TOGGLE_TITLES[against === undefined ? 'project' : 'compared'],
    viewport,
    onReady,
    panel:
      open && ((changeMap && map) || jobShown)
        ? {
            changeMap,
            job,
            unitsPerMetre,
            threshold: thresholdNow,
            scaleMax,
            onThreshold: setThreshold,
            colouring,
            valuesError: values.status === 'error' ? values.error.message : null,
            onFlyTo: engine ? flyTo : undefined,
            onCreateFinding: onCreateFinding ? createFinding : undefined,
            applied,
          }
        : null,
  };
}

/** The header's 'Changes' toggle of a view (pressed while the mode is on). */
export function ChangesToggle({ tool }: { tool: Pick<ChangesToolState, 'open' | 'toggle' | 'toggleTitle'> }) {
  return (
    <button type="button" aria-pressed={tool.open} onClick={tool.toggle} title={tool.toggleTitle}>
      Changes
    </button>
  );
}

/** What the capture was last painted with: the threshold and how many Gaussians came out in colour. */
export interface AppliedColours {
  /** Model units. */
  threshold: number;
  /** Gaussians with |distance| at or above the threshold (in colour; the rest grey or unmeasured). */
  changed: number;
  /** Gaussians with a distance (the rest are unmeasured). */
  measured: number;
}

/** How many distances there are (not NaN, unmeasured) and how many of them are at or above the threshold in size. */
function countChanged(distances: Float32Array, threshold: number): { changed: number; measured: number } {
  let changed = 0;
  let measured = 0;
  for (const distance of distances) {
    if (Number.isNaN(distance)) continue;
    measured += 1;
    if (Math.abs(distance) >= threshold) changed += 1;
  }
  return { changed, measured };
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
