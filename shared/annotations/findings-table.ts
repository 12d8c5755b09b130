/**
 * The findings table that the portal report, the CSV and the CLI show: each stored finding read
 * defensively (whatever was stored), the labels of its category, severity and status, and its row
 * with the model's facts, in the table's order.
 */
import { changeRegionText } from '../change-map-document.js';
import { formatIsoDate } from '../format.js';
import type { Annotation, AnnotationCategory, AnnotationSeverity, AnnotationStatus, MeasureKind, Model, ModelPoint } from '../types.js';
import { annotationMeasurement, formatMeasurement, formatPoint } from './measurements.js';
import { CATEGORY_LABELS, MEASURE_LABELS, SEVERITY_LABELS, STATUS_LABELS } from './vocabulary.js';

/** One row of the findings table: what the report, the CSV and the CLI show. */
export interface FindingRow {
  id: string;
  /** 'F-3' (the finding's number in its model); 'F-?' when it has none. */
  number: string;
  /** The finding's number, 3 for 'F-3' (0 when it has none). */
  seq: number;
  modelId: string;
  modelName: string;
  publicId: string;
  captureDate: string | null;
  title: string;
  /** The category's label, or the stored text when it is not a known category. */
  category: string;
  /** 1–5, or null when the stored severity is not one of them. */
  severity: number | null;
  /** The status's label, or the stored text when it is not a known status. */
  status: string;
  /** '12.5 units (3.81 m)', or '' for a point finding. */
  measurement: string;
  /** The first point, '(x, y, z)'. */
  point: string;
  author: string;
  created: string;
  photos: string;
  /** The original finding's id for a follow-up, or ''. */
  followUpOf: string;
  note: string;
  /** The change region it was made from, 'Change region 2 against Tower 2025: max +0.31 m', or ''. */
  changeRegion: string;
}

/** The model facts a findings row shows. */
export interface FindingModelFacts {
  name: string;
  publicId: string;
  captureDate?: string | null;
  unitsPerMetre?: number | null;
}

/**
 * The facts {@link findingRows} shows of each model, by model id: its name, Public ID, capture
 * date as 'YYYY-MM-DD' (`formatIsoDate`; null when it has none) and scale.
 * @param models the models (as the caller may read them)
 * @returns a map from model id to its facts
 */
export function findingModelFacts(
  models: ReadonlyArray<Pick<Model, 'id' | 'name' | 'publicId' | 'metadata'>>,
): Map<string, FindingModelFacts> {
  return new Map(
    models.map((m) => [
      m.id,
      {
        name: m.name,
        publicId: m.publicId,
        captureDate: m.metadata?.captureDate ? formatIsoDate(m.metadata.captureDate) : null,
        unitsPerMetre: m.metadata?.unitsPerMetre ?? null,
      },
    ]),
  );
}

/** A stored value as display text: a string as is, a finite number as digits, anything else ''. */
function storedText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
}

/** True for `{x, y, z}` with three finite numbers. */
function isModelPoint(value: unknown): value is ModelPoint {
  if (typeof value !== 'object' || value === null) return false;
  const { x, y, z } = value as Record<string, unknown>;
  return [x, y, z].every((c) => typeof c === 'number' && Number.isFinite(c));
}

/** The label of a category, or the stored text itself when it is not a known category ('' for no text). */
export function categoryLabel(category: unknown): string {
  const key = storedText(category);
  return Object.hasOwn(CATEGORY_LABELS, key) ? CATEGORY_LABELS[key as AnnotationCategory] : key;
}

/** The label of a status, or the stored text itself when it is not a known status ('' for no text). */
export function statusLabel(status: unknown): string {
  const key = storedText(status);
  return Object.hasOwn(STATUS_LABELS, key) ? STATUS_LABELS[key as AnnotationStatus] : key;
}

/** The label of a severity ('3 · Moderate'), or '' when it is not a whole number from 1 to 5. */
export function severityLabel(severity: unknown): string {
  return typeof severity === 'number' && Object.hasOwn(SEVERITY_LABELS, severity) ? SEVERITY_LABELS[severity as AnnotationSeverity] : '';
}

/**
 * A finding's category, severity and status in one line, as the viewer's lists show them:
 * 'Crack · Severity 3 · Moderate · Open'; an unknown value is shown as stored, a missing one as '—'.
 * @param annotation the finding (read through {@link readableFinding} or as stored)
 */
export function findingFacts(annotation: Pick<Annotation, 'category' | 'severity' | 'status'>): string {
  return `${categoryLabel(annotation.category) || '—'} · Severity ${severityLabel(annotation.severity) || '—'} · ${statusLabel(annotation.status) || '—'}`;
}

/**
 * A stored finding as the readers show it, whatever was stored: the findings table, its CSV, the
 * CLI and the viewer read every finding through this and never fail on one. A backend may hold
 * findings written before its writes were checked (or by a rule that let a field through), and
 * one such finding must not break the report of a whole project.
 *
 * The rule per field: text fields (title, note, author uid) are the stored string, a finite
 * number as digits, else ''; category and status the stored string (an unknown one is kept, to be
 * shown as it is) else ''; severity the stored whole number 1–5, else 0 (unknown); seq the stored
 * positive whole number, else the number at the end of the id, else 0; points only the entries
 * with three finite coordinates (copied, extra keys dropped), and the measure only when it is a
 * known kind, there are two or more points and none was dropped (a measurement over a changed
 * list of points would be wrong); up a well-formed point or null; photos the string entries;
 * created/updated times ISO strings that parse as dates, else null; followUpOf only with both ids
 * as strings; changeRegion only with a string reference id, a whole region number of 1 or more and
 * a finite distance; author email a string or null; project id a string or null.
 * @param stored a finding as read from the catalog (any shape at run time)
 * @returns a finding with every field of the documented type; the input is not changed
 */
export function readableFinding(stored: Annotation): Annotation {
  const raw = stored as unknown as Record<string, unknown>;
  const id = storedText(raw.id);
  const seqOfId = /_(\d+)$/.exec(id);
  const seq = typeof raw.seq === 'number' && Number.isSafeInteger(raw.seq) && raw.seq > 0 ? raw.seq : seqOfId ? Number(seqOfId[1]) : 0;
  const storedPoints: unknown[] = Array.isArray(raw.points) ? raw.points : [];
  const points = storedPoints.filter(isModelPoint).map(({ x, y, z }) => ({ x, y, z }));
  const measureKind =
    typeof raw.measure === 'string' &&
    Object.hasOwn(MEASURE_LABELS, raw.measure) &&
    points.length >= 2 &&
    points.length === storedPoints.length
      ? (raw.measure as MeasureKind)
      : null;
  const time = (value: unknown): string | null => (typeof value === 'string' && Number.isFinite(Date.parse(value)) ? value : null);
  const follow = raw.followUpOf as Record<string, unknown> | null | undefined;
  const region = raw.changeRegion as Record<string, unknown> | null | undefined;
  const severity = raw.severity;
  return {
    id,
    modelId: storedText(raw.modelId),
    projectId: typeof raw.projectId === 'string' ? raw.projectId : null,
    seq,
    kind: points.length >= 2 ? 'polyline' : 'point',
    points,
    measure: measureKind,
    up: isModelPoint(raw.up) ? { x: raw.up.x, y: raw.up.y, z: raw.up.z } : null,
    title: storedText(raw.title),
    note: storedText(raw.note),
    category: (typeof raw.category === 'string' ? raw.category : '') as AnnotationCategory,
    severity: (typeof severity === 'number' && Object.hasOwn(SEVERITY_LABELS, severity) ? severity : 0) as AnnotationSeverity,
    status: (typeof raw.status === 'string' ? raw.status : '') as AnnotationStatus,
    photos: Array.isArray(raw.photos) ? raw.photos.filter((name): name is string => typeof name === 'string') : [],
    author_uid: storedText(raw.author_uid),
    author_email: typeof raw.author_email === 'string' ? raw.author_email : null,
    created_at: time(raw.created_at),
    last_updated: time(raw.last_updated),
    followUpOf:
      typeof follow === 'object' && follow !== null && typeof follow.annotationId === 'string' && typeof follow.modelId === 'string'
        ? { annotationId: follow.annotationId, modelId: follow.modelId }
        : null,
    changeRegion:
      typeof region === 'object' &&
      region !== null &&
      typeof region.referenceModelId === 'string' &&
      Number.isSafeInteger(region.regionId) &&
      (region.regionId as number) >= 1 &&
      Number.isFinite(region.maxDistance)
        ? { referenceModelId: region.referenceModelId, regionId: region.regionId as number, maxDistance: region.maxDistance as number }
        : null,
  };
}

/**
 * Rows of the findings table, ordered by capture date (oldest first), model, then severity
 * (highest first; unknown last) and number. Every finding is read through
 * {@link readableFinding}, so a malformed stored finding gives a row with what it has and never
 * an error. A finding made from a change region names it with its reference model's name (the
 * reference's id when `models` does not have it) and its distance in the finding's model's scale.
 * @param annotations the findings, as stored
 * @param models the facts of each finding's model and of the references of its change regions,
 *   by model id (a missing model shows its id)
 */
export function findingRows(annotations: readonly Annotation[], models: ReadonlyMap<string, FindingModelFacts>): FindingRow[] {
  const rows = annotations.map(readableFinding).map((a): FindingRow => {
    const model = models.get(a.modelId);
    const value = annotationMeasurement(a, model?.unitsPerMetre);
    return {
      id: a.id,
      number: a.seq > 0 ? `F-${a.seq}` : 'F-?',
      seq: a.seq,
      modelId: a.modelId,
      modelName: model?.name ?? a.modelId,
      publicId: model?.publicId ?? '',
      captureDate: model?.captureDate ?? null,
      title: a.title,
      category: categoryLabel(a.category),
      severity: severityLabel(a.severity) === '' ? null : a.severity,
      status: statusLabel(a.status),
      measurement: value ? `${MEASURE_LABELS[value.kind]}: ${formatMeasurement(value)}` : '',
      point: a.points[0] ? formatPoint(a.points[0]) : '',
      author: a.author_email ?? a.author_uid,
      created: a.created_at ?? '',
      photos: a.photos.join(' '),
      followUpOf: a.followUpOf?.annotationId ?? '',
      note: a.note,
      changeRegion: a.changeRegion
        ? changeRegionText(
            a.changeRegion,
            models.get(a.changeRegion.referenceModelId)?.name ?? a.changeRegion.referenceModelId,
            model?.unitsPerMetre,
          )
        : '',
    };
  });
  rows.sort(
    (a, b) =>
      (a.captureDate ?? '').localeCompare(b.captureDate ?? '') ||
      a.modelName.localeCompare(b.modelName) ||
      (b.severity ?? 0) - (a.severity ?? 0) ||
      a.seq - b.seq,
  );
  return rows;
}
