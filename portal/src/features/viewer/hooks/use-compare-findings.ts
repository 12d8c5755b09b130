/**
 * The state of the findings across a compared pair of captures: what is read while the
 * 'Findings' panel is open (both models' findings and the pair's alignment), the selected finding
 * and the flights to it, the points picked for a 3-point alignment, and what each viewport gets
 * from them (markers: the model's own findings, the reference findings the alignment carries onto
 * it in tone 'carried', the picked points; pick mode while picking; a flight), and a new finding on
 * the compared model that another tool asks for (`createFinding`: a change region's, from the
 * 'Changes' panel), which opens the panel with the findings form, prefilled, its point marked.
 * `CompareFindingsPanel` draws the panel from the props this hook hands over.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import type { Annotation, Model, ModelPoint } from '@shared/types.js';
import { useSession } from '../../../lib/session.js';
import { useAlignment } from '../api/alignments.js';
import { accountFindingRights, useFindingWrites, useModelAnnotations } from '../api/annotations.js';
import { hasCameraMetadata, useViewerCameras } from '../api/camera-poses.js';
import type { CompareFindingsPanelProps } from '../components/compare-findings-panel.js';
import type { FindingDraft } from '../components/finding-form.js';
import { findingMarkers } from '../components/findings-side.js';
import { viewsOfPoint } from '../components/photos-at-panel.js';
import { useBackend } from '../../../lib/backend-context.js';
import { carriedFindings, type AlignmentPicks, type CompareSide } from '../lib/compare-pair.js';
import type { PickResult, ViewerMarker } from '../lib/engine.js';
import { errorMessage } from '@shared/errors.js';

/** What one compare viewport gets from the findings (ModelViewport's findings props). */
export interface CompareViewportInspection {
  markers: ViewerMarker[];
  pickMode: boolean;
  onPick: (pick: PickResult) => void;
  flyTo: { point: ModelPoint; key: number } | null;
}

/** The findings of a compared pair: the props of each viewport and the panel. */
export interface CompareInspection {
  model: CompareViewportInspection;
  reference: CompareViewportInspection;
  /** The props of the 'Findings' panel, or null until both models are known and a session is signed in (and while it is closed). */
  panel: CompareFindingsPanelProps | null;
  /**
   * Opens the panel (through `onOpen`) with the form for a new finding on the compared model from
   * `draft` (a change region's); undefined when the account may not add findings or the models
   * are not known yet.
   */
  createFinding: ((draft: FindingDraft) => void) | undefined;
}

/** A tool's request for the findings form: the draft, a new key per request, and where the focus was (it goes back there when the form closes). */
export interface FindingFormRequest {
  draft: FindingDraft;
  key: number;
  opener: HTMLElement | null;
}

/** No markers (the panel is closed): one array, so the viewport does not redraw for nothing. */
const NO_MARKERS: ViewerMarker[] = [];

/**
 * The findings of a compared pair of captures.
 * @param options.open whether the panel is open (closed: nothing is read, drawn or picked)
 * @param options.model the compared model (null while it loads or when it was not found)
 * @param options.reference the reference model (null likewise)
 * @param options.onAlignStart called when the 3-point alignment starts (the page shows the models side by side for picking)
 * @param options.onOpen called when a tool asks for the findings form (`createFinding`): the page opens the panel
 */
export function useCompareFindings({
  open,
  model,
  reference,
  onAlignStart,
  onOpen,
}: {
  open: boolean;
  model: Model | null;
  reference: Model | null;
  onAlignStart?: () => void;
  onOpen?: () => void;
}): CompareInspection {
  const session = useSession();
  const { files } = useBackend();
  const signedIn = session.status === 'success' && session.data !== null ? session.data : null;
  const rights = accountFindingRights(signedIn?.user ?? null, signedIn?.role ?? null);
  // Read only while the panel is open (as the single view's findings).
  const modelFindings = useModelAnnotations(open && model ? model.id : null);
  const referenceFindings = useModelAnnotations(open && reference ? reference.id : null);
  const alignment = useAlignment(open && reference ? reference.id : null, open && model ? model.id : null);
  const [selected, setSelected] = useState<{ side: CompareSide; id: string } | null>(null);
  const [flights, setFlights] = useState<Record<CompareSide, { point: ModelPoint; key: number } | null>>({ model: null, reference: null });
  const [aligning, setAligning] = useState<AlignmentPicks | null>(null);
  const [request, setRequest] = useState<FindingFormRequest | null>(null);
  const writes = useFindingWrites(model?.id ?? '', signedIn?.user ?? { uid: '', email: null });
  // The photos that see a new finding's point (its form's checkboxes), read only while a form is asked for.
  const cameras = useViewerCameras(files, model, open && request !== null && model !== null && hasCameraMetadata(model));
  const cameraList = cameras.status === 'success' ? cameras.data : null;
  const photosAt = useCallback(
    (point: ModelPoint) => (cameraList ? viewsOfPoint(cameraList, point).map((view) => view.camera.img_name) : []),
    [cameraList],
  );

  const aligned = alignment.status === 'success' ? alignment.data : null;
  const own = useMemo(() => (modelFindings.status === 'success' ? modelFindings.data : []), [modelFindings]);
  const theirs = useMemo(() => (referenceFindings.status === 'success' ? referenceFindings.data : []), [referenceFindings]);

  // Reference findings where the alignment puts them in the model, unless already carried over.
  const carried = useMemo(() => (model ? carriedFindings(aligned, own, theirs) : []), [aligned, model, own, theirs]);

  const modelMarkers = useMemo<ViewerMarker[]>(() => {
    // (the point of a new finding asked for, marked as the single view marks it)
    const markers = findingMarkers(own, selected?.side === 'model' ? selected.id : null, request?.draft.points[0] ?? null);
    for (const { annotation, points } of carried) {
      markers.push({ id: `carried:${annotation.id}`, points, label: `Reference F-${annotation.seq} ${annotation.title}`, tone: 'carried' });
    }
    aligning?.model.forEach((point, i) =>
      markers.push({ id: `align-model-${i + 1}`, points: [point], label: String(i + 1), tone: 'measure' }),
    );
    return markers;
  }, [own, carried, selected, aligning, request]);

  const referenceMarkers = useMemo<ViewerMarker[]>(() => {
    const markers = findingMarkers(theirs, selected?.side === 'reference' ? selected.id : null, null);
    aligning?.reference.forEach((point, i) =>
      markers.push({ id: `align-reference-${i + 1}`, points: [point], label: String(i + 1), tone: 'measure' }),
    );
    return markers;
  }, [theirs, selected, aligning]);

  const fly = (side: CompareSide, point: ModelPoint | undefined) => {
    if (!point) return;
    setFlights((current) => ({ ...current, [side]: { point, key: (current[side]?.key ?? 0) + 1 } }));
  };
  const select = (side: CompareSide, annotation: Annotation) => {
    setSelected({ side, id: annotation.id });
    fly(side, annotation.points[0]);
  };

  // Every request a new key, so that the panel opens the form again for the next one.
  const requests = useRef(0);
  const createFinding = useCallback(
    (draft: FindingDraft) => {
      requests.current += 1;
      const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setRequest({ draft, key: requests.current, opener });
      setSelected(null);
      onOpen?.();
    },
    [onOpen],
  );

  const pickFor = (side: CompareSide) => (pick: PickResult) =>
    setAligning((current) => (current && current[side].length < 3 ? { ...current, [side]: [...current[side], pick.point] } : current));

  const inspection = (side: CompareSide): CompareViewportInspection => ({
    markers: !open ? NO_MARKERS : side === 'model' ? modelMarkers : referenceMarkers,
    pickMode: open && aligning !== null && aligning[side].length < 3,
    onPick: pickFor(side),
    flyTo: flights[side],
  });

  const panel: CompareFindingsPanelProps | null =
    open && signedIn && model && reference
      ? {
          model,
          reference,
          own,
          theirs,
          loading: modelFindings.status === 'loading' || referenceFindings.status === 'loading',
          readError:
            modelFindings.status === 'error'
              ? errorMessage(modelFindings.error)
              : referenceFindings.status === 'error'
                ? errorMessage(referenceFindings.error)
                : alignment.status === 'error'
                  ? errorMessage(alignment.error)
                  : null,
          alignment: alignment.status === 'loading' ? undefined : aligned,
          admin: rights.align,
          canCreate: rights.create,
          user: signedIn.user,
          selected,
          onSelect: select,
          aligning,
          onAligning: (next) => {
            if (next && !aligning) onAlignStart?.();
            setAligning(next);
          },
          writes,
          formRequest: request,
          photosAt,
          onFormClosed: (created) => {
            setRequest(null);
            if (created) select('model', created);
          },
        }
      : null;

  return {
    model: inspection('model'),
    reference: inspection('reference'),
    panel,
    createFinding: signedIn && rights.create && model && reference ? createFinding : undefined,
  };
}
