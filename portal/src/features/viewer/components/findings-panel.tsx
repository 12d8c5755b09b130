/**
 * The findings side panel of the single-model viewer: the model's findings, live (F-n,
 * title, category, severity, status, measurement in model units and metres when the model has a
 * scale, the change region it was made from); a click (or Enter) on one flies the view to it and
 * selects it; 'Add finding' opens the form at the last picked point (or a measurement saved from
 * the measure tool); another panel may open the form itself (a change region's 'Create finding':
 * `formRequest`, prefilled, the focus in its title); Edit for the
 * author or an admin, Delete (with a confirmation) for admins only — the documented rule
 * (docs/ARCHITECTURE.md "Findings"), which both backends enforce; the panel only hides what they
 * would refuse.
 */
import { useEffect, useRef, useState } from 'react';
import { MEASURE_LABELS, annotationMeasurement, findingFacts, formatMeasurement, formatPoint } from '@shared/annotations.js';
import { changeRegionText } from '@shared/change-map-document.js';
import type { Annotation, Model, ModelPoint } from '@shared/types.js';
import { LiveBanner, type BannerMessage } from '../../../components/ui/banner.js';
import { ModalDialog } from '../../../components/ui/modal-dialog.js';
import { useAction } from '../../../hooks/use-action.js';
import type { Resource } from '../../../lib/resource.js';
import type { FindingRights } from '@shared/roles.js';
import type { FindingWrites } from '../api/annotations.js';
import { FindingForm, type FindingDraft } from './finding-form.js';
import '../findings.css';
import { formatNumber } from '@shared/format.js';
import { errorMessage } from '@shared/errors.js';

export interface FindingsPanelProps {
  model: Model;
  /** The model's findings, live ({@link useModelAnnotations}). */
  annotations: Resource<Annotation[]>;
  /** What the signed-in account may do. */
  rights: FindingRights;
  writes: FindingWrites;
  /** Where a new finding would go: the last picked point or a saved measurement; null before any pick. */
  draft: FindingDraft | null;
  /** A request from another panel to open the form for a new finding with this draft (a new `key` opens it again). */
  formRequest?: { draft: FindingDraft; key: number } | null;
  /** Image names of the cameras that see a point, best first (empty without camera metadata). */
  photosAt: (point: ModelPoint) => string[];
  /** The selected finding's id, or null. */
  selectedId: string | null;
  /** Selects a finding (the view flies to it). */
  onSelect: (annotation: Annotation) => void;
  /** A finding was created from the draft (the draft is used up). */
  onCreated?: (annotation: Annotation) => void;
}

type FormState = { kind: 'new'; geometry: FindingDraft; key: number; requested: boolean } | { kind: 'edit'; annotation: Annotation } | null;

/** The panel. */
export function FindingsPanel({
  model,
  annotations,
  rights,
  writes,
  draft,
  formRequest = null,
  photosAt,
  selectedId,
  onSelect,
  onCreated,
}: FindingsPanelProps) {
  const [form, setForm] = useState<FormState>(null);
  // A request opens the form once per key (set while rendering: no frame without the form).
  const [requestSeen, setRequestSeen] = useState<number | null>(null);
  if (formRequest && formRequest.key !== requestSeen) {
    setRequestSeen(formRequest.key);
    if (rights.create) setForm({ kind: 'new', geometry: formRequest.draft, key: formRequest.key, requested: true });
  }
  const [confirming, setConfirming] = useState<Annotation | null>(null);
  const [banner, setBanner] = useState<BannerMessage | null>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const unitsPerMetre = model.metadata?.unitsPerMetre ?? null;
  const list = annotations.status === 'success' ? annotations.data : [];
  const remove = useAction((annotation: Annotation) => writes.remove(annotation.id), {
    failure: (error) => `The finding could not be deleted: ${errorMessage(error)}`,
  });

  // When the form closes, the focus goes back to 'Add finding' (the form's controls are gone).
  const formOpen = form !== null;
  const wasOpen = useRef(formOpen);
  useEffect(() => {
    if (wasOpen.current && !formOpen && (document.activeElement === null || document.activeElement === document.body)) {
      addRef.current?.focus();
    }
    wasOpen.current = formOpen;
  }, [formOpen]);

  // A finding selected elsewhere (its marker) scrolls into sight in the list.
  useEffect(() => {
    if (selectedId === null) return;
    listRef.current?.querySelector(`[data-finding-id="${CSS.escape(selectedId)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [selectedId]);

  const formPoint = form?.kind === 'edit' ? form.annotation.points[0] : form?.kind === 'new' ? form.geometry.points[0] : undefined;
  const photoOptions = formPoint ? photosAt(formPoint) : [];

  return (
    <section className="findings-panel" aria-labelledby="findings-title" data-testid="findings-panel">
      <h2 id="findings-title" className="findings-title">
        Findings
      </h2>
      <p className="findings-summary" data-testid="findings-summary">
        {annotations.status === 'loading'
          ? 'Loading findings…'
          : annotations.status === 'error'
            ? null
            : list.length === 0
              ? 'No findings on this model yet.'
              : `${formatNumber(list.length)} ${list.length === 1 ? 'finding' : 'findings'}.`}
        {unitsPerMetre ? ` Scale: ${unitsPerMetre} units per metre.` : ' No scale: measurements in model units only.'}
      </p>
      <div role="alert" className="findings-alerts">
        {annotations.status === 'error' ? (
          <p className="findings-error">The findings could not be read: {annotations.error.message}</p>
        ) : null}
      </div>
      <LiveBanner banner={banner} />

      {rights.create && form === null ? (
        <div className="findings-add">
          <button
            ref={addRef}
            type="button"
            disabled={draft === null}
            onClick={() => draft && setForm({ kind: 'new', geometry: draft, key: -1, requested: false })}
          >
            Add finding
          </button>
          <p className="findings-muted">
            {draft === null
              ? 'Click the model to pick a point, then add a finding there.'
              : draft.changeRegion
                ? `From ${draft.changeRegion.text.replace(/^Change/, 'change')}.`
                : draft.points.length === 1
                  ? `At the picked point ${formatPoint(draft.points[0]!)}.`
                  : `For the saved measurement (${draft.points.length} points).`}
          </p>
        </div>
      ) : null}

      {form ? (
        <FindingForm
          key={form.kind === 'edit' ? form.annotation.id : `new ${form.key}`}
          annotation={form.kind === 'edit' ? form.annotation : null}
          geometry={form.kind === 'new' ? form.geometry : { points: [], measure: null }}
          focusOnOpen={form.kind === 'new' && form.requested}
          photoOptions={photoOptions}
          unitsPerMetre={unitsPerMetre}
          onCancel={() => setForm(null)}
          onSubmit={async (input) => {
            if (form.kind === 'edit') {
              await writes.update(form.annotation.id, input);
              setBanner({ kind: 'success', text: `Finding F-${form.annotation.seq} saved.` });
            } else {
              const region = form.geometry.changeRegion?.region ?? null;
              const created = await (region ? writes.create(input, { changeRegion: region }) : writes.create(input));
              setBanner({ kind: 'success', text: `Finding F-${created.seq} added.` });
              onCreated?.(created);
            }
            setForm(null);
          }}
        />
      ) : null}

      <ol ref={listRef} className="findings-list" aria-label={`Findings of ${model.name}`}>
        {list.map((annotation) => {
          const value = annotationMeasurement(annotation, unitsPerMetre);
          const selected = annotation.id === selectedId;
          return (
            <li key={annotation.id} className={`finding-item${selected ? ' finding-selected' : ''}`} data-testid="finding-item">
              <button
                type="button"
                className="finding-main"
                data-finding-id={annotation.id}
                aria-pressed={selected}
                onClick={() => onSelect(annotation)}
                title="Fly the view to this finding"
              >
                <span className="finding-head">
                  <span className="finding-number mono">F-{annotation.seq}</span>{' '}
                  <span className={`finding-severity severity-${annotation.severity}`} aria-hidden="true">
                    {annotation.severity || '—'}
                  </span>{' '}
                  <span className="finding-title">{annotation.title}</span>
                </span>
                <span className="finding-facts">{findingFacts(annotation)}</span>
                {value ? (
                  <span className="finding-measure">
                    {MEASURE_LABELS[value.kind]}: <span className="mono">{formatMeasurement(value)}</span>
                  </span>
                ) : null}
                {annotation.changeRegion ? (
                  <span className="finding-measure" data-testid="finding-change-region">
                    {changeRegionText(annotation.changeRegion, null, unitsPerMetre)}
                  </span>
                ) : null}
              </button>
              {rights.edit(annotation) || rights.remove ? (
                <span className="finding-actions">
                  {rights.edit(annotation) ? (
                    <button
                      type="button"
                      aria-label={`Edit finding F-${annotation.seq}`}
                      onClick={() => setForm({ kind: 'edit', annotation })}
                    >
                      Edit
                    </button>
                  ) : null}
                  {rights.remove ? (
                    <button
                      type="button"
                      aria-label={`Delete finding F-${annotation.seq}`}
                      onClick={() => {
                        remove.reset();
                        setConfirming(annotation);
                      }}
                    >
                      Delete
                    </button>
                  ) : null}
                </span>
              ) : null}
            </li>
          );
        })}
      </ol>

      {confirming ? (
        <ModalDialog
          title={`Delete finding F-${confirming.seq}?`}
          showTitle
          role="alertdialog"
          describedBy="finding-delete-warning"
          onCancel={() => setConfirming(null)}
          returnFocus={() => addRef.current ?? listRef.current?.querySelector<HTMLElement>('button') ?? null}
          className="panel finding-delete"
        >
          <p id="finding-delete-warning" className="alert alert-warning">
            Finding F-{confirming.seq} “{confirming.title}” will be deleted. This cannot be undone.
          </p>
          <LiveBanner banner={remove.message} />
          <div className="actions">
            <button type="button" className="button button-secondary" onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="button button-danger"
              aria-disabled={remove.busy || undefined}
              onClick={async () => {
                if (remove.busy) return;
                const target = confirming;
                if (await remove.run(target)) {
                  setConfirming(null);
                  setBanner({ kind: 'success', text: `Finding F-${target.seq} deleted.` });
                }
              }}
            >
              Delete
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </section>
  );
}
