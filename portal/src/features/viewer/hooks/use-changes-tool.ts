/**
 * The 'Changes' mode's state, one implementation for the single view and for the compared capture
 * of compare mode: which change map the capture has (in compare mode: against the reference model
 * shown with it, so that a map against another model is never taken for the change between the two
 * on screen), the server's job for it, the threshold, and the capture's colours while on — every
 * Gaussian by its signed distance to the reference surface (lib/change-colours.ts), read from the
 * map's values file; off, the capture's own colours come back. Captures drawn through a
 * level-of-detail tree (more than LOD_ABOVE_GAUSSIANS) are not coloured yet, nor are mesh-only
 * models (their values are per point sampled on the GLB, not per vertex). It hands the page its
 * viewport tool (the engine, for colours and flights) and the props of `ChangesPanel`
 * (components/changes-panel.tsx), and turns a change region into a findings-form draft.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { comparedFileOf } from '@shared/change-map-compared-file.js';
import { changeRegionText } from '@shared/change-map-document.js';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';
import type { ChangeRegionData, Model } from '@shared/types.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import { useCaptureChangeMap, useChangeMapJob, useChangeValues, type CaptureChangeMap } from '../api/change-maps.js';
import type { ChangesPanelProps } from '../components/changes-panel.js';
import type { FindingDraft } from '../components/finding-form.js';
import { changeColours, changeScaleMax, regionCentreInCapture } from '../lib/change-colours.js';
import type { ViewerEngine } from '../lib/engine.js';
import type { ViewportTool } from '../lib/viewport-tools.js';

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
export const LOD_ABOVE_GAUSSIANS = LARGE_CAPTURE_GAUSSIANS;
const ignore = (): void => undefined;

/** What a region's side means to a reader. */
export const SIDE_LABELS: Record<ChangeRegionData['side'], string> = { capture: 'Added or moved', reference: 'Removed' };

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
