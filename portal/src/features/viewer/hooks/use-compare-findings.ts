/**
 * The state of the findings across a compared pair of captures: what is read while the
 * 'Findings' panel is open (both models' findings and the pair's alignment), the selected finding
 * and the flights to it, the points picked for a 3-point alignment, and what each viewport gets
 * from them (markers: the model's own findings, the reference findings the alignment carries onto
 * it in tone 'carried', the picked points; pick mode while picking; a flight). `CompareFindingsPanel`
 * draws the panel from the props this hook hands over.
 */
import { useMemo, useState } from 'react';
import type { Annotation, Model, ModelPoint } from '@shared/types.js';
import { useSession } from '../../../lib/session.js';
import { useAlignment } from '../api/alignments.js';
import { accountFindingRights, useModelAnnotations } from '../api/annotations.js';
import type { CompareFindingsPanelProps } from '../components/compare-findings-panel.js';
import { findingMarkers } from '../components/findings-side.js';
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
}

/** No markers (the panel is closed): one array, so the viewport does not redraw for nothing. */
const NO_MARKERS: ViewerMarker[] = [];

/**
 * The findings of a compared pair of captures.
 * @param options.open whether the panel is open (closed: nothing is read, drawn or picked)
 * @param options.model the compared model (null while it loads or when it was not found)
 * @param options.reference the reference model (null likewise)
 * @param options.onAlignStart called when the 3-point alignment starts (the page shows the models side by side for picking)
 */
export function useCompareFindings({
  open,
  model,
  reference,
  onAlignStart,
}: {
  open: boolean;
  model: Model | null;
  reference: Model | null;
  onAlignStart?: () => void;
}): CompareInspection {
  const session = useSession();
  const signedIn = session.status === 'success' && session.data !== null ? session.data : null;
  const rights = accountFindingRights(signedIn?.user ?? null, signedIn?.role ?? null);
  // Read only while the panel is open (as the single view's findings).
  const modelFindings = useModelAnnotations(open && model ? model.id : null);
  const referenceFindings = useModelAnnotations(open && reference ? reference.id : null);
  const alignment = useAlignment(open && reference ? reference.id : null, open && model ? model.id : null);
  const [selected, setSelected] = useState<{ side: CompareSide; id: string } | null>(null);
  const [flights, setFlights] = useState<Record<CompareSide, { point: ModelPoint; key: number } | null>>({ model: null, reference: null });
  const [aligning, setAligning] = useState<AlignmentPicks | null>(null);

  const aligned = alignment.status === 'success' ? alignment.data : null;
  const own = useMemo(() => (modelFindings.status === 'success' ? modelFindings.data : []), [modelFindings]);
  const theirs = useMemo(() => (referenceFindings.status === 'success' ? referenceFindings.data : []), [referenceFindings]);

  // Reference findings where the alignment puts them in the model, unless already carried over.
  const carried = useMemo(() => (model ? carriedFindings(aligned, own, theirs) : []), [aligned, model, own, theirs]);

  const modelMarkers = useMemo<ViewerMarker[]>(() => {
    const markers = findingMarkers(own, selected?.side === 'model' ? selected.id : null, null);
    for (const { annotation, points } of carried) {
      markers.push({ id: `carried:${annotation.id}`, points, label: `Reference F-${annotation.seq} ${annotation.title}`, tone: 'carried' });
    }
    aligning?.model.forEach((point, i) =>
      markers.push({ id: `align-model-${i + 1}`, points: [point], label: String(i + 1), tone: 'measure' }),
    );
    return markers;
  }, [own, carried, selected, aligning]);

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
        }
      : null;

  return { model: inspection('model'), reference: inspection('reference'), panel };
}
