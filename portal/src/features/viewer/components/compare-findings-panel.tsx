/**
 * The 'Findings' panel of compare mode: the reference model's findings and the compared
 * model's own. When the pair is aligned (an `alignments/{referenceModelId}__{modelId}` document:
 * 'Same frame', the identity, a 3-point similarity, or the change map's registration accepted in
 * the 'Changes' panel), each reference finding has 'Carry over', which creates a follow-up
 * finding on the model linked to the original (`followUpOf`), or says where it was carried; a
 * follow-up shows 'Follow-up of F-n', one click from the original. The alignment's state and
 * its admin actions are `AlignmentState`'s. Users see the findings and carry them over (a finding
 * create) but never align (the documented rule). Another tool may ask for a new finding on the
 * model (a change region's 'Create finding' in the 'Changes' panel): the findings form opens at
 * the top of the panel, named for the model, prefilled, the focus in its title; saved, the finding is selected (the view
 * flies to it) and the focus goes back where it was before the form opened.
 * `useCompareFindings` holds the state and hands over these props.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { findingFacts } from '@shared/annotations.js';
import type { Alignment, Annotation, Model, ModelPoint } from '@shared/types.js';
import { LiveBanner, type BannerMessage } from '../../../components/ui/banner.js';
import { useAction } from '../../../hooks/use-action.js';
import type { useSession } from '../../../lib/session.js';
import { useAlignmentWrites } from '../api/alignments.js';
import type { FindingWrites } from '../api/annotations.js';
import type { FindingFormRequest } from '../hooks/use-compare-findings.js';
import { numberOfId, type AlignmentPicks, type CompareSide } from '../lib/compare-pair.js';
import { AlignmentState } from './compare-alignment.js';
import { FindingForm } from './finding-form.js';
import './compare-findings.css';
import { errorMessage } from '@shared/errors.js';

/** What {@link CompareFindingsPanel} draws (handed over by `useCompareFindings`). */
export interface CompareFindingsPanelProps {
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
  selected: { side: CompareSide; id: string } | null;
  onSelect: (side: CompareSide, annotation: Annotation) => void;
  aligning: AlignmentPicks | null;
  onAligning: (next: AlignmentPicks | null) => void;
  /** The model's finding writes (a new finding from another tool). */
  writes?: FindingWrites;
  /** A request from another panel to open the form for a new finding on the model (a new `key` opens it again). */
  formRequest?: FindingFormRequest | null;
  /** Image names of the model's cameras that see a point, best first (empty without camera metadata). */
  photosAt?: (point: ModelPoint) => string[];
  /** The form closed: with the finding it created, or null (cancelled). */
  onFormClosed?: (created: Annotation | null) => void;
}

export function CompareFindingsPanel(props: CompareFindingsPanelProps) {
  const { model, reference, own, theirs, alignment, admin, canCreate, user, selected, onSelect, aligning, onAligning } = props;
  const { formRequest = null, photosAt, onFormClosed, writes: findingWrites } = props;
  const writes = useAlignmentWrites(reference.id, model.id, user);
  // A request opens the form once per key (set while rendering: no frame without the form).
  const [form, setForm] = useState<FindingFormRequest | null>(null);
  const [requestSeen, setRequestSeen] = useState<number | null>(null);
  if (formRequest && formRequest.key !== requestSeen) {
    setRequestSeen(formRequest.key);
    if (canCreate && findingWrites) setForm(formRequest);
  }
  const [added, setAdded] = useState<BannerMessage | null>(null);
  // When the form closes, the focus goes back where it was before it opened (the region's 'Create finding'), if it was lost with the form.
  const opener = useRef<HTMLElement | null>(null);
  if (form) opener.current = form.opener;
  useEffect(() => {
    if (form !== null) return;
    const back = opener.current;
    opener.current = null;
    if (back?.isConnected && (document.activeElement === null || document.activeElement === document.body)) back.focus();
  }, [form]);
  const act = useAction(async (what: () => Promise<string>) => what(), {
    success: (text) => text,
    failure: (error) => errorMessage(error),
  });
  const busy = act.busy;
  const run = async (what: () => Promise<string>) => {
    if (busy) return;
    setAdded(null);
    await act.run(what);
  };
  const closeForm = (created: Annotation | null) => {
    setForm(null);
    onFormClosed?.(created);
  };
  const followUpOf = (original: Annotation) => own.find((a) => a.followUpOf?.annotationId === original.id) ?? null;
  const byId = (id: string): { side: CompareSide; annotation: Annotation } | null => {
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

  const item = (side: CompareSide, annotation: Annotation, extra: ReactNode) => {
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
      <LiveBanner banner={added ?? act.message} />
      {/* A new finding asked for by another panel: first, where it is seen at once (the lists below load meanwhile). */}
      {form && findingWrites ? (
        <FindingForm
          key={form.key}
          annotation={null}
          geometry={form.draft}
          focusOnOpen
          newHeading={`New finding on ${model.name}`}
          photoOptions={form.draft.points[0] && photosAt ? photosAt(form.draft.points[0]) : []}
          unitsPerMetre={model.metadata?.unitsPerMetre ?? null}
          onCancel={() => closeForm(null)}
          onSubmit={async (input) => {
            const region = form.draft.changeRegion?.region ?? null;
            const created = await findingWrites.create(input, { changeRegion: region });
            act.reset();
            setAdded({ kind: 'success', text: `Finding F-${created.seq} added.` });
            closeForm(created);
          }}
        />
      ) : null}

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
