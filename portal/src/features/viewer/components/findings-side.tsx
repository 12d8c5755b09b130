/**
 * The inspection side of the single-model viewer: what the 'Findings' toggle opens —
 * the findings panel and "Photos of this point" — and what it hands the viewport: pick mode while
 * open (a click picks a point of the model), the markers (the findings, the selected one, the
 * picked point), a flight to a selected finding, and the engine (to fly to a photo's camera).
 * Another tool may hand it a new finding to open the form with (`createFinding`: a change region).
 * `useFindingsInspection` holds the state; `FindingsSide` draws the panels.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { MeasureKind, Model, ModelPoint } from '@shared/types.js';
import type { Annotation } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSession } from '../../../lib/session.js';
import { prefersReducedMotion } from '../../../hooks/use-reduced-motion.js';
import type { Resource } from '../../../lib/resource.js';
import { accountFindingRights, useFindingWrites, useModelAnnotations } from '../api/annotations.js';
import { hasCameraMetadata, useViewerCameras, type ViewerCamera } from '../api/camera-poses.js';
import type { PickResult, ViewerEngine, ViewerMarker } from '../lib/engine.js';
import type { FindingDraft } from './finding-form.js';
import { FindingsPanel, type FindingsPanelProps } from './findings-panel.js';
import { PhotosAtPanel, viewsOfPoint } from './photos-at-panel.js';

/** A measurement the measure tool saves as a finding's geometry. */
export interface SavedMeasurement {
  points: ModelPoint[];
  measure: MeasureKind;
  up?: ModelPoint | null;
}

/** The last pick: its point, and the surface normal when the engine knows it (a mesh hit). */
interface Picked {
  point: ModelPoint;
  normal: ModelPoint | null;
}

/** What {@link useFindingsInspection} gives the page. */
export interface FindingsInspection {
  open: boolean;
  toggle: () => void;
  /** Hands a measurement from the measure tool to 'Add finding' (and opens the panel). */
  saveMeasurement: (measurement: SavedMeasurement) => void;
  /**
   * Opens the panel with the form for a new finding from `draft` (a change region's), or
   * undefined when the signed-in account may not add findings.
   */
  createFinding: ((draft: FindingDraft) => void) | undefined;
  /** The props of the model's viewport. */
  viewport: {
    pickMode: boolean;
    onPick: (pick: PickResult) => void;
    markers: ViewerMarker[];
    flyTo: { point: ModelPoint; key: number } | null;
    onEngine: (engine: ViewerEngine | null) => void;
  };
  /** The props of {@link FindingsSide}, or null while closed (or before the model is known). */
  side: FindingsSideProps | null;
}

/** Whether two points are the same (as stored: the same numbers). */
function samePoint(a: ModelPoint, b: ModelPoint): boolean {
  return a.x === b.x && a.y === b.y && a.z === b.z;
}

/** The markers of the findings (the selected one as 'selected') and of the picked point. */
export function findingMarkers(annotations: readonly Annotation[], selectedId: string | null, picked: ModelPoint | null): ViewerMarker[] {
  const markers: ViewerMarker[] = annotations.map((a) => ({
    id: a.id,
    points: a.points,
    label: `F-${a.seq} ${a.title}`,
    tone: a.id === selectedId ? 'selected' : 'finding',
  }));
  if (picked) markers.push({ id: 'picked-point', points: [picked], label: 'Picked point', tone: 'measure' });
  return markers;
}

/**
 * The inspection state of the single view.
 * @param model the model once found (null before)
 * @param openFinding the number of a finding to open at once (the URL's `finding=`): the panel
 *   starts open and selects that finding (the view flies to it) once the list has loaded
 */
export function useFindingsInspection(model: Model | null, openFinding: number | null = null): FindingsInspection {
  const session = useSession();
  const { files } = useBackend();
  const user = session.status === 'success' ? (session.data?.user ?? null) : null;
  const role = session.status === 'success' ? (session.data?.role ?? null) : null;
  const [open, setOpen] = useState(openFinding !== null);
  const openedFinding = useRef(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  const [measurement, setMeasurement] = useState<SavedMeasurement | null>(null);
  const [requested, setRequested] = useState<{ draft: FindingDraft; key: number } | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [flyTo, setFlyTo] = useState<{ point: ModelPoint; key: number } | null>(null);
  const [engine, setEngine] = useState<ViewerEngine | null>(null);
  const annotations = useModelAnnotations(open && model ? model.id : null);
  const writes = useFindingWrites(model?.id ?? '', user ?? { uid: '', email: null });
  const withCameras = model !== null && hasCameraMetadata(model);
  const cameras = useViewerCameras(files, model, open && withCameras);
  const list = annotations.status === 'success' ? annotations.data : null;

  const markers = useMemo(
    () =>
      open
        ? findingMarkers(
            list ?? [],
            selectedId,
            requested ? (requested.draft.points[0] ?? null) : measurement ? null : (picked?.point ?? null),
          )
        : [],
    [open, list, selectedId, picked, measurement, requested],
  );
  const onPick = useCallback((pick: PickResult) => {
    const normal = pick.normal ?? null;
    setPicked({ point: pick.point, normal });
    setMeasurement(null);
    setRequested(null);
    setSelectedId(null);
  }, []);
  const select = useCallback((annotation: Annotation) => {
    setSelectedId(annotation.id);
    const point = annotation.points[0];
    if (point) setFlyTo((current) => ({ point, key: (current?.key ?? 0) + 1 }));
  }, []);
  // The URL's finding, once: selected (and flown to) when the list first has it.
  useEffect(() => {
    if (openedFinding.current || openFinding === null || !list) return;
    const wanted = list.find((a) => a.seq === openFinding);
    if (!wanted) return;
    openedFinding.current = true;
    select(wanted);
  }, [list, openFinding, select]);
  const cameraList = cameras.status === 'success' ? cameras.data : null;
  const photosAt = useCallback(
    (point: ModelPoint) =>
      cameraList ? viewsOfPoint(cameraList, point, picked?.point === point ? picked.normal : null).map((v) => v.camera.img_name) : [],
    [cameraList, picked],
  );
  // The photos panel shows the selected finding's point, else the last pick.
  const selected = list?.find((a) => a.id === selectedId) ?? null;
  // (A finding keeps no normal: the pick's is used when the finding sits at the picked point.)
  const first = selected?.points[0] ?? null;
  const photoPoint: Picked | null = first
    ? { point: first, normal: picked && samePoint(picked.point, first) ? picked.normal : null }
    : picked;

  const draft: FindingDraft | null = requested
    ? requested.draft
    : measurement
      ? { points: measurement.points, measure: measurement.measure, up: measurement.up ?? null }
      : picked
        ? { points: [picked.point], measure: null }
        : null;
  const rights = accountFindingRights(user, role);
  // Every request a new key, so that the panel opens the form again for the next one.
  const requests = useRef(0);
  const createFinding = useCallback((next: FindingDraft) => {
    requests.current += 1;
    setRequested({ draft: next, key: requests.current });
    setMeasurement(null);
    setSelectedId(null);
    setOpen(true);
  }, []);

  return {
    open,
    toggle: () => setOpen((o) => !o),
    saveMeasurement: (m) => {
      setMeasurement(m);
      setRequested(null);
      setOpen(true);
    },
    createFinding: user && rights.create ? createFinding : undefined,
    viewport: { pickMode: open, onPick, markers, flyTo, onEngine: setEngine },
    side:
      open && model && user
        ? {
            model,
            annotations,
            rights,
            writes,
            draft,
            formRequest: requested,
            photosAt,
            selectedId,
            onSelect: select,
            onCreated: (created) => {
              setSelectedId(created.id);
              setMeasurement(null);
              setRequested(null);
            },
            picked: photoPoint,
            cameras: withCameras ? cameras : null,
            onViewFrom: (index) => engine?.cameraPoses.viewFrom(index, !prefersReducedMotion()),
          }
        : null,
  };
}

/** The findings panel's props (its `onCreated` required here), and the photos panel's inputs. */
export interface FindingsSideProps extends Omit<FindingsPanelProps, 'onCreated'> {
  onCreated: (annotation: Annotation) => void;
  picked: Picked | null;
  cameras: Resource<ViewerCamera[]> | null;
  onViewFrom: (index: number) => void;
}

/** The side column: the findings panel, then the photos of the picked point. */
export function FindingsSide({ picked, cameras, onViewFrom, ...panel }: FindingsSideProps) {
  const { files } = useBackend();
  return (
    <aside className="viewer-side" aria-label={`Inspection of ${panel.model.name}`} data-testid="viewer-side">
      <FindingsPanel {...panel} />
      <PhotosAtPanel
        point={picked?.point ?? null}
        normal={picked?.normal ?? null}
        cameras={cameras}
        files={files}
        onViewFrom={onViewFrom}
      />
    </aside>
  );
}
