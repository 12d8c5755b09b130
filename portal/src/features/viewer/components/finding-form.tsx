/**
 * The form of a finding: title, note, category, severity (1–5), status and the photos it
 * was seen on (checkboxes of the cameras that see its point), for a new finding at the picked
 * point (or a saved measurement, or a change region: prefilled, the region named) or to edit
 * one. Validation is the shared `validateAnnotation`;
 * its message (AnnotationMessages) is shown in the form's live region and tied to the field it is
 * about (aria-invalid, aria-describedby), which takes the focus.
 */
import { useEffect, useState, type FormEvent } from 'react';
import {
  ANNOTATION_CATEGORIES,
  ANNOTATION_SEVERITIES,
  ANNOTATION_STATUSES,
  AnnotationMessages,
  CATEGORY_LABELS,
  MEASURE_LABELS,
  SEVERITY_LABELS,
  STATUS_LABELS,
  formatMeasurement,
  formatPoint,
  measure as measureOf,
  validateAnnotation,
  type AnnotationInput,
} from '@shared/annotations.js';
import { changeRegionText } from '@shared/change-map-document.js';
import type { Annotation, AnnotationCategory, FindingChangeRegion, MeasureKind, ModelPoint } from '@shared/types.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { Field, useFieldErrors } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import '../findings.css';

/** The fields of the form that a validation message can be about. */
export type FindingField = 'title' | 'note' | 'category' | 'severity' | 'status' | 'photos';

/**
 * The field a message of `validateAnnotation` is about (null: the points, not a form field).
 * @param message an {@link AnnotationMessages} text
 */
export function findingFieldOf(message: string): FindingField | null {
  switch (message) {
    case AnnotationMessages.titleRequired:
    case AnnotationMessages.titleTooLong:
    case AnnotationMessages.titleInvalid:
      return 'title';
    case AnnotationMessages.noteTooLong:
    case AnnotationMessages.noteInvalid:
      return 'note';
    case AnnotationMessages.categoryInvalid:
      return 'category';
    case AnnotationMessages.severityInvalid:
      return 'severity';
    case AnnotationMessages.statusInvalid:
      return 'status';
    case AnnotationMessages.photosInvalid:
      return 'photos';
    default:
      return null;
  }
}

/** Where a new finding sits: one point, or the points of a measurement. */
export interface FindingGeometry {
  points: ModelPoint[];
  measure: MeasureKind | null;
  up?: ModelPoint | null;
}

/** A new finding as a tool hands it to the form: where it sits, and what it starts with. */
export interface FindingDraft extends FindingGeometry {
  /** Made from a change region: the region as the finding stores it, and its words ('Change region 2 against …'). */
  changeRegion?: { region: FindingChangeRegion; text: string } | null;
  /** The form's first values. */
  prefill?: { title: string; category: AnnotationCategory } | null;
}

export interface FindingFormProps {
  /** The finding to edit, or null for a new one. */
  annotation: Annotation | null;
  /** A new finding's point(s), origin and first values (ignored when editing: the finding keeps its own). */
  geometry: FindingDraft;
  /** Moves the focus to the title when the form opens (opened from another panel). */
  focusOnOpen?: boolean;
  /** The heading of a new finding's form (default 'New finding'; compare mode names the model it goes on). */
  newHeading?: string;
  /** Image names of the cameras that see the point, best first (the photos panel's result). */
  photoOptions: readonly string[];
  /** The model's scale, for the measurement line. */
  unitsPerMetre: number | null;
  /** Writes the finding (the shared workflow); a rejection is shown in the form. */
  onSubmit: (input: AnnotationInput) => Promise<unknown>;
  onCancel: () => void;
}

/** The new-or-edit form of a finding. */
export function FindingForm({
  annotation,
  geometry,
  focusOnOpen = false,
  newHeading = 'New finding',
  photoOptions,
  unitsPerMetre,
  onSubmit,
  onCancel,
}: FindingFormProps) {
  const editing = annotation !== null;
  const points = annotation?.points ?? geometry.points;
  const measureKind = annotation ? annotation.measure : geometry.measure;
  const up = annotation ? (annotation.up ?? null) : (geometry.up ?? null);
  const [values, setValues] = useState(() => ({
    title: annotation?.title ?? geometry.prefill?.title ?? '',
    note: annotation?.note ?? '',
    category: annotation?.category ?? geometry.prefill?.category ?? 'crack',
    severity: String(annotation?.severity ?? 3),
    status: annotation?.status ?? 'open',
    photos: annotation?.photos ?? ([] as string[]),
  }));
  const errors = useFieldErrors<FindingField>();
  const save = useAction(onSubmit);
  const headingId = `${errors.messageId}-title`;
  // The cameras that see the point, and any photo the finding already lists.
  const photoChoices = [...new Set([...photoOptions, ...values.photos])];
  const measurement = measureKind && points.length >= 2 ? measureOf(measureKind, points, unitsPerMetre, up) : null;
  // The change region it comes from, in words (a finding being edited: without its reference's name).
  const changeRegion = annotation
    ? annotation.changeRegion
      ? changeRegionText(annotation.changeRegion, null, unitsPerMetre)
      : null
    : (geometry.changeRegion?.text ?? null);

  // Opened from another panel: the focus goes to the title, where typing starts.
  const { formRef } = errors;
  useEffect(() => {
    if (focusOnOpen) formRef.current?.querySelector<HTMLInputElement>('input[type="text"]')?.focus();
  }, [focusOnOpen, formRef]);

  function change<K extends keyof typeof values>(key: K, value: (typeof values)[K]) {
    setValues((current) => ({ ...current, [key]: value }));
  }

  function togglePhoto(name: string, on: boolean) {
    change('photos', on ? [...values.photos, name] : values.photos.filter((p) => p !== name));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (save.busy) return;
    const input: AnnotationInput = {
      title: values.title,
      note: values.note,
      category: values.category,
      severity: values.severity,
      status: values.status,
      points,
      measure: measureKind,
      up,
      photos: values.photos,
    };
    const result = validateAnnotation(input);
    const field = result.ok ? null : findingFieldOf(result.message);
    errors.mark(field === null ? [] : [field]);
    if (!result.ok) save.fail(result.message);
    else void save.run(input);
  }

  return (
    <form ref={errors.formRef} className="finding-form" onSubmit={submit} noValidate aria-labelledby={headingId} data-testid="finding-form">
      <h3 id={headingId} className="findings-subtitle">
        {editing ? `Edit finding F-${annotation.seq}` : newHeading}
      </h3>
      <p className="finding-where">
        {measurement ? (
          <>
            {MEASURE_LABELS[measurement.kind]}: <span className="mono">{formatMeasurement(measurement)}</span>
          </>
        ) : (
          <>
            Point <span className="mono">{points[0] ? formatPoint(points[0]) : '—'}</span> (model units)
          </>
        )}
      </p>
      {changeRegion ? (
        <p className="finding-where" data-testid="finding-change-region">
          {changeRegion}
        </p>
      ) : null}
      <LiveBanner id={errors.messageId} banner={save.message} />
      <Field label="Title">
        <input
          type="text"
          value={values.title}
          maxLength={200}
          onChange={(e) => change('title', e.target.value)}
          {...errors.props('title')}
        />
      </Field>
      <Field label="Note">
        <textarea rows={3} value={values.note} onChange={(e) => change('note', e.target.value)} {...errors.props('note')} />
      </Field>
      <div className="finding-form-row">
        <Field label="Category">
          <select
            value={values.category}
            onChange={(e) => change('category', e.target.value as typeof values.category)}
            {...errors.props('category')}
          >
            {ANNOTATION_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Severity">
          <select value={values.severity} onChange={(e) => change('severity', e.target.value)} {...errors.props('severity')}>
            {ANNOTATION_SEVERITIES.map((s) => (
              <option key={s} value={String(s)}>
                {SEVERITY_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Status">
          <select
            value={values.status}
            onChange={(e) => change('status', e.target.value as typeof values.status)}
            {...errors.props('status')}
          >
            {ANNOTATION_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <fieldset className="finding-photos">
        <legend>Photos</legend>
        {photoChoices.length === 0 ? (
          <p className="findings-muted">No photo of the model sees this point.</p>
        ) : (
          photoChoices.map((name) => (
            <label key={name} className="checkbox">
              <input
                type="checkbox"
                checked={values.photos.includes(name)}
                onChange={(e) => togglePhoto(name, e.target.checked)}
                {...errors.props('photos')}
              />
              <span className="mono">{name}</span>
            </label>
          ))
        )}
      </fieldset>
      <div className="finding-form-actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        {/* aria-disabled, not disabled, while saving: a disabled button would drop the focus */}
        <button type="submit" className="finding-save" aria-disabled={save.busy || undefined}>
          {save.busy ? 'Saving...' : 'Save'}
        </button>
      </div>
    </form>
  );
}
