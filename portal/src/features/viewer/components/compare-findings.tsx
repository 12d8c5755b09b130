/**
 * Findings across captures in compare mode: a 'Findings' panel that
 * lists the reference model's findings and the compared model's own. When the pair is aligned
 * (an `alignments/{referenceModelId}__{modelId}` document: 'Same frame', the identity, or a
 * 3-point similarity), each reference finding is also drawn in the other model's viewport where
 * the alignment puts it (tone 'carried') and has 'Carry over', which creates a follow-up finding on
 * the model linked to the original (`followUpOf`); a follow-up shows 'Follow-up of F-n', one click
 * from the original. Without an alignment the panel says 'These captures are not aligned' and an
 * admin may declare 'Same frame' or 'Align with 3 points': pick 3 points in the model's viewport
 * and the same 3, in the same order, in the reference's (the viewports' pick mode: a click, or P
 * at the view's centre), see the RMS error, and save. Admins remove an alignment. Users see the
 * findings and carry them over (a finding create) but never align (the documented rule).
 */
import { useMemo, useState, type ReactNode } from 'react';
import { solveAlignment, type AlignmentPair } from '@shared/alignment.js';
import { findingFacts, formatPoint } from '@shared/annotations.js';
import type { Alignment, Annotation, Model, ModelPoint } from '@shared/types.js';
import { mapAnnotationAcross } from '@shared/workflows/alignments.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { useAction } from '../../../hooks/use-action.js';
import { useSession } from '../../../lib/session.js';
import { useAlignment, useAlignmentWrites, type AlignmentWrites } from '../api/alignments.js';
import { accountFindingRights, useModelAnnotations } from '../api/annotations.js';
import { findingMarkers } from './findings-side.js';
import type { PickResult, ViewerMarker } from '../lib/engine.js';
import './compare-findings.css';

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
  /** The 'Findings' panel, or null until both models are known and a session is signed in. */
  panel: ReactNode;
}

type Side = 'model' | 'reference';

/** No markers (the panel is closed): one array, so the viewport does not redraw for nothing. */
const NO_MARKERS: ViewerMarker[] = [];

/** 'F-3' of a finding id `{modelId}_{seq}`. */
function numberOfId(annotationId: string): string {
  const seq = annotationId.slice(annotationId.lastIndexOf('_') + 1);
  return `F-${seq}`;
}

/** An RMS error in reference units (and metres when the reference has a scale). */
function formatRms(rms: number, unitsPerMetre: number | null | undefined): string {
  const units = `${rms.toPrecision(3)} reference units`;
  return unitsPerMetre && unitsPerMetre > 0 ? `${units} (${(rms / unitsPerMetre).toPrecision(3)} m)` : units;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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
  const [selected, setSelected] = useState<{ side: Side; id: string } | null>(null);
  const [flights, setFlights] = useState<Record<Side, { point: ModelPoint; key: number } | null>>({ model: null, reference: null });
  const [aligning, setAligning] = useState<{ model: ModelPoint[]; reference: ModelPoint[] } | null>(null);

  const aligned = alignment.status === 'success' ? alignment.data : null;
  const own = useMemo(() => (modelFindings.status === 'success' ? modelFindings.data : []), [modelFindings]);
  const theirs = useMemo(() => (referenceFindings.status === 'success' ? referenceFindings.data : []), [referenceFindings]);

  // Reference findings where the alignment puts them in the model, unless already carried over.
  const carried = useMemo(() => {
    if (!aligned || !model) return [];
    const followed = new Set(own.map((a) => a.followUpOf?.annotationId).filter((id): id is string => typeof id === 'string'));
    return theirs.filter((a) => !followed.has(a.id)).map((a) => ({ annotation: a, points: mapAnnotationAcross(aligned, a).points }));
  }, [aligned, model, own, theirs]);

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

  const fly = (side: Side, point: ModelPoint | undefined) => {
    if (!point) return;
    setFlights((current) => ({ ...current, [side]: { point, key: (current[side]?.key ?? 0) + 1 } }));
  };
  const select = (side: Side, annotation: Annotation) => {
    setSelected({ side, id: annotation.id });
    fly(side, annotation.points[0]);
  };

  const pickFor = (side: Side) => (pick: PickResult) =>
    setAligning((current) => (current && current[side].length < 3 ? { ...current, [side]: [...current[side], pick.point] } : current));

  const inspection = (side: Side): CompareViewportInspection => ({
    markers: !open ? NO_MARKERS : side === 'model' ? modelMarkers : referenceMarkers,
    pickMode: open && aligning !== null && aligning[side].length < 3,
    onPick: pickFor(side),
    flyTo: flights[side],
  });

  const panel =
    open && signedIn && model && reference ? (
      <ComparePanel
        model={model}
        reference={reference}
        own={own}
        theirs={theirs}
        loading={modelFindings.status === 'loading' || referenceFindings.status === 'loading'}
        readError={
          modelFindings.status === 'error'
            ? messageOf(modelFindings.error)
            : referenceFindings.status === 'error'
              ? messageOf(referenceFindings.error)
              : alignment.status === 'error'
                ? messageOf(alignment.error)
                : null
        }
        alignment={alignment.status === 'loading' ? undefined : aligned}
        admin={rights.align}
        canCreate={rights.create}
        user={signedIn.user}
        selected={selected}
        onSelect={select}
        aligning={aligning}
        onAligning={(next) => {
          if (next && !aligning) onAlignStart?.();
          setAligning(next);
        }}
      />
    ) : null;

  return { model: inspection('model'), reference: inspection('reference'), panel };
}

interface ComparePanelProps {
  model: Model;
  reference: Model;
  own: Annotation[];
  theirs: Annotation[];
  loading: boolean;
  readError: string | null;
  /** undefined while it loads; null when the pair is not aligned. */
  alignment: Alignment | null | undefined;
  admin: boolean;
  canCreate: boolean;
  user: NonNullable<ReturnType<typeof useSession>['data']>['user'];
  selected: { side: Side; id: string } | null;
  onSelect: (side: Side, annotation: Annotation) => void;
  aligning: { model: ModelPoint[]; reference: ModelPoint[] } | null;
  onAligning: (next: { model: ModelPoint[]; reference: ModelPoint[] } | null) => void;
}

function ComparePanel(props: ComparePanelProps) {
  const { model, reference, own, theirs, alignment, admin, canCreate, user, selected, onSelect, aligning, onAligning } = props;
  const writes = useAlignmentWrites(reference.id, model.id, user);
  const act = useAction(async (what: () => Promise<string>) => what(), {
    success: (text) => text,
    failure: (error) => messageOf(error),
  });
  const busy = act.busy;
  const run = async (what: () => Promise<string>) => {
    if (busy) return;
    await act.run(what);
  };
  const followUpOf = (original: Annotation) => own.find((a) => a.followUpOf?.annotationId === original.id) ?? null;
  const byId = (id: string): { side: Side; annotation: Annotation } | null => {
    const inReference = theirs.find((a) => a.id === id);
    if (inReference) return { side: 'reference', annotation: inReference };
    const inModel = own.find((a) => a.id === id);
    return inModel ? { side: 'model', annotation: inModel } : null;
  };

  const followUpLink = (annotation: Annotation) => {
    const link = annotation.followUpOf;
    if (!link) return null;
    const target = byId(link.annotationId);
    const name = link.modelId === reference.id ? reference.name : link.modelId === model.id ? model.name : 'another capture';
    const text = `Follow-up of ${numberOfId(link.annotationId)}`;
    return target ? (
      <button
        type="button"
        className="compare-follow-up"
        aria-label={`${text} on ${name}: select the original`}
        onClick={() => onSelect(target.side, target.annotation)}
      >
        {text}
      </button>
    ) : (
      <span className="compare-follow-up-text">
        {text} ({name})
      </span>
    );
  };

  const item = (side: Side, annotation: Annotation, extra: ReactNode) => {
    const isSelected = selected?.side === side && selected.id === annotation.id;
    return (
      <li
        key={annotation.id}
        className={`compare-finding${isSelected ? ' compare-finding-selected' : ''}`}
        data-testid={side === 'reference' ? 'compare-reference-finding' : 'compare-model-finding'}
        data-finding-id={annotation.id}
      >
        <button
          type="button"
          className="compare-finding-main"
          aria-pressed={isSelected}
          onClick={() => onSelect(side, annotation)}
          title="Fly the view to this finding"
        >
          <span className="compare-finding-head">
            <span className="mono">F-{annotation.seq}</span> {annotation.title}
          </span>
          <span className="compare-finding-facts">{findingFacts(annotation)}</span>
        </button>
        {extra ? <div className="compare-finding-actions">{extra}</div> : null}
      </li>
    );
  };

  return (
    <section className="compare-findings" aria-labelledby="compare-findings-title" data-testid="compare-findings">
      <h2 id="compare-findings-title" className="compare-findings-title">
        Findings
      </h2>
      <div role="alert" className="compare-findings-alerts">
        {props.readError ? <p className="compare-findings-error">The findings could not be read: {props.readError}</p> : null}
      </div>
      <LiveBanner banner={act.message} />

      <AlignmentState
        alignment={alignment}
        admin={admin}
        busy={busy}
        reference={reference}
        writes={writes}
        aligning={aligning}
        onAligning={onAligning}
        run={run}
      />

      <h3 className="compare-findings-subtitle">Reference: {reference.name}</h3>
      {props.loading ? <p className="compare-findings-muted">Loading findings…</p> : null}
      {!props.loading && theirs.length === 0 ? <p className="compare-findings-muted">No findings on the reference model.</p> : null}
      <ol className="compare-findings-list" aria-label={`Findings of the reference model ${reference.name}`}>
        {theirs.map((annotation) => {
          const followUp = followUpOf(annotation);
          const extra = (
            <>
              {followUpLink(annotation)}
              {alignment && followUp ? (
                <span className="compare-carried" data-testid="carried-over">
                  Carried over{' '}
                  <button
                    type="button"
                    className="compare-follow-up"
                    aria-label={`Carried over as F-${followUp.seq} on ${model.name}: select it`}
                    onClick={() => onSelect('model', followUp)}
                  >
                    as F-{followUp.seq}
                  </button>
                </span>
              ) : null}
              {alignment && !followUp && canCreate ? (
                <button
                  type="button"
                  aria-label={`Carry over finding F-${annotation.seq} to ${model.name}`}
                  aria-disabled={busy || undefined}
                  onClick={() =>
                    run(async () => {
                      const created = await writes.carryOver(annotation, model.id, alignment);
                      return `Finding F-${annotation.seq} carried over to ${model.name} as F-${created.seq}.`;
                    })
                  }
                >
                  Carry over
                </button>
              ) : null}
            </>
          );
          return item('reference', annotation, extra);
        })}
      </ol>

      <h3 className="compare-findings-subtitle">This model: {model.name}</h3>
      {!props.loading && own.length === 0 ? <p className="compare-findings-muted">No findings on this model.</p> : null}
      <ol className="compare-findings-list" aria-label={`Findings of ${model.name}`}>
        {own.map((annotation) => item('model', annotation, followUpLink(annotation)))}
      </ol>
    </section>
  );
}

/** The alignment of the pair: its state, and for admins the buttons to align, save or remove. */
function AlignmentState({
  alignment,
  admin,
  busy,
  reference,
  writes,
  aligning,
  onAligning,
  run,
}: {
  alignment: Alignment | null | undefined;
  admin: boolean;
  busy: boolean;
  reference: Model;
  writes: AlignmentWrites;
  aligning: { model: ModelPoint[]; reference: ModelPoint[] } | null;
  onAligning: (next: { model: ModelPoint[]; reference: ModelPoint[] } | null) => void;
  run: (what: () => Promise<string>) => Promise<void>;
}) {
  const unitsPerMetre = reference.metadata?.unitsPerMetre ?? null;
  // The solve of the picked pairs, once both sides have 3 points.
  const solved = useMemo(() => {
    if (!aligning || aligning.model.length < 3 || aligning.reference.length < 3) return null;
    const pairs: AlignmentPair[] = aligning.model.map((point, i) => ({ model: point, reference: aligning.reference[i]! }));
    try {
      return { pairs, result: solveAlignment(pairs), error: null };
    } catch (error) {
      return { pairs, result: null, error: messageOf(error) };
    }
  }, [aligning]);

  if (alignment === undefined) return <p className="compare-findings-muted">Checking whether the captures are aligned…</p>;

  if (aligning) {
    const undo = (side: Side) => onAligning({ ...aligning, [side]: aligning[side].slice(0, -1) });
    return (
      <div className="compare-align" data-testid="compare-align">
        <h3 className="compare-findings-subtitle">Align with 3 points</h3>
        <p className="compare-findings-muted">
          Click 3 points on the model (left), then the same 3 points in the same order on the reference model (right). P picks the point at
          the centre of a view.
        </p>
        {(['model', 'reference'] as const).map((side) => (
          <div key={side} className="compare-align-side">
            <p className="compare-align-count" data-testid={`align-count-${side}`}>
              {side === 'model' ? 'Model' : 'Reference model'}: {aligning[side].length} of 3 points
            </p>
            <ol className="compare-align-points">
              {aligning[side].map((point, i) => (
                <li key={i} className="mono">
                  {formatPoint(point)}
                </li>
              ))}
            </ol>
            {aligning[side].length > 0 ? (
              <button type="button" onClick={() => undo(side)}>
                {side === 'model' ? 'Undo last model point' : 'Undo last reference point'}
              </button>
            ) : null}
          </div>
        ))}
        <div role="status" className="compare-align-result" data-testid="align-result">
          {solved?.result ? `RMS error: ${formatRms(solved.result.rmsError, unitsPerMetre)}` : null}
        </div>
        <div role="alert" className="compare-findings-alerts">
          {solved?.error ? <p className="compare-findings-error">{solved.error}</p> : null}
        </div>
        <div className="compare-align-actions">
          <button
            type="button"
            aria-disabled={!solved?.result || busy || undefined}
            onClick={() => {
              if (!solved?.result || busy) return;
              const pairs = solved.pairs;
              void run(async () => {
                const saved = await writes.saveThreePoint(pairs);
                onAligning(null);
                return `Alignment saved (RMS error ${formatRms(saved.rmsError, unitsPerMetre)}).`;
              });
            }}
          >
            Save alignment
          </button>
          <button type="button" onClick={() => onAligning(null)}>
            Cancel
          </button>
        </div>
      </div>
    );
  }

  if (alignment === null) {
    return (
      <div className="compare-align" data-testid="compare-unaligned">
        <p className="compare-unaligned">These captures are not aligned.</p>
        <p className="compare-findings-muted">
          {admin
            ? 'Declare them in one frame, or align them with 3 points picked on both, to show the reference findings on this model.'
            : 'An admin can align them to show the reference findings on this model.'}
        </p>
        {admin ? (
          <div className="compare-align-actions">
            <button
              type="button"
              aria-disabled={busy || undefined}
              title="Both captures share one coordinate frame"
              onClick={() => void run(async () => (await writes.saveSameFrame(), 'Both captures are declared in one frame.'))}
            >
              Same frame
            </button>
            <button type="button" onClick={() => onAligning({ model: [], reference: [] })}>
              Align with 3 points
            </button>
          </div>
        ) : null}
      </div>
    );
  }

  return (
    <div className="compare-align" data-testid="compare-aligned">
      <p className="compare-aligned-text">
        {alignment.method === 'same-frame'
          ? 'Aligned: both captures are in one frame.'
          : `Aligned with 3 points (RMS error ${formatRms(alignment.rmsError, unitsPerMetre)}).`}{' '}
        Reference findings not yet carried over are shown on this model in green.
      </p>
      {admin ? (
        <div className="compare-align-actions">
          <button
            type="button"
            aria-disabled={busy || undefined}
            onClick={() =>
              void run(async () => {
                await writes.remove();
                return 'Alignment removed.';
              })
            }
          >
            Remove alignment
          </button>
        </div>
      ) : null}
    </div>
  );
}
