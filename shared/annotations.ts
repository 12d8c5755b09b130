/**
 * Findings (annotations) and measurements of issue 18, as pure rules: the categories, severities
 * and statuses with their labels, the document keys, the form's validation (zod) with its
 * messages, the measurement of a polyline in model units and metres, and the rows of the
 * findings table (portal report, CSV, `catalog annotations export`). The writes themselves are
 * `shared/workflows/annotations.ts`.
 */
import { stringify } from 'csv-stringify/browser/esm/sync';
import { z } from 'zod';
import { formatIsoDate } from './format.js';
import type {
  Annotation,
  AnnotationCategory,
  AnnotationData,
  AnnotationSeverity,
  AnnotationStatus,
  MeasureKind,
  Model,
  ModelPoint,
} from './types.js';
import type { ValidationResult } from './validation/result.js';
import { invalid, valid } from './validation/result.js';

/** The categories, in the order forms and filters list them. */
export const ANNOTATION_CATEGORIES: readonly AnnotationCategory[] = [
  'crack',
  'corrosion',
  'spalling',
  'deformation',
  'vegetation',
  'other',
];

/** Display label of each category. */
export const CATEGORY_LABELS: Readonly<Record<AnnotationCategory, string>> = {
  crack: 'Crack',
  corrosion: 'Corrosion',
  spalling: 'Spalling',
  deformation: 'Deformation',
  vegetation: 'Vegetation',
  other: 'Other',
};

/** The severities, 1 (minor) to 5 (critical). */
export const ANNOTATION_SEVERITIES: readonly AnnotationSeverity[] = [1, 2, 3, 4, 5];

/** Display label of each severity ('3 · Moderate'). */
export const SEVERITY_LABELS: Readonly<Record<AnnotationSeverity, string>> = {
  1: '1 · Minor',
  2: '2 · Low',
  3: '3 · Moderate',
  4: '4 · High',
  5: '5 · Critical',
};

/** The statuses, in workflow order. */
export const ANNOTATION_STATUSES: readonly AnnotationStatus[] = ['open', 'monitoring', 'repaired', 'dismissed'];

/** Display label of each status. */
export const STATUS_LABELS: Readonly<Record<AnnotationStatus, string>> = {
  open: 'Open',
  monitoring: 'Monitoring',
  repaired: 'Repaired',
  dismissed: 'Dismissed',
};

/** Display label of each measurement kind. */
export const MEASURE_LABELS: Readonly<Record<MeasureKind, string>> = {
  distance: 'Distance',
  polyline: 'Polyline length',
  height: 'Height difference',
};

/** Longest title, in characters (after trimming). */
export const ANNOTATION_TITLE_MAX = 120;
/** Longest note, in characters. */
export const ANNOTATION_NOTE_MAX = 4000;
/** Most points of a polyline finding. */
export const ANNOTATION_POINTS_MAX = 500;
/** Most photos a finding lists. */
export const ANNOTATION_PHOTOS_MAX = 20;

/** The messages of the finding form and of the workflows (issue 18), shown as they are. */
export const AnnotationMessages = {
  titleRequired: 'Finding title is required',
  titleTooLong: `Finding title must be at most ${ANNOTATION_TITLE_MAX} characters`,
  noteTooLong: `Note must be at most ${ANNOTATION_NOTE_MAX} characters`,
  categoryInvalid: `Category must be one of: ${ANNOTATION_CATEGORIES.join(', ')}`,
  severityInvalid: 'Severity must be a whole number from 1 to 5',
  statusInvalid: `Status must be one of: ${ANNOTATION_STATUSES.join(', ')}`,
  pointsInvalid: 'A finding needs one point, or two or more for a measurement, with finite coordinates',
  measureInvalid: 'A measurement needs two or more points (a distance exactly two)',
  photosInvalid: `A finding lists at most ${ANNOTATION_PHOTOS_MAX} photos, by camera image name`,
  modelNotFound: 'Model not found',
  annotationNotFound: 'Finding not found',
  unitsPerMetreInvalid: 'Units per metre must be a positive number',
} as const;

/**
 * The key of a finding: `{modelId}_{seq}` (model uuids contain no '_').
 * @param modelId the model's id
 * @param seq the finding's number within the model, 1 or more
 */
export function annotationId(modelId: string, seq: number): string {
  return `${modelId}_${seq}`;
}

/**
 * The key of an alignment: `{referenceModelId}__{modelId}`.
 * @param referenceModelId the model whose frame the alignment maps into
 * @param modelId the model it maps from
 */
export function alignmentId(referenceModelId: string, modelId: string): string {
  return `${referenceModelId}__${modelId}`;
}

// ---------------------------------------------------------------------------------------------
// Form input
// ---------------------------------------------------------------------------------------------

/** What the finding form (or the CLI, or a carry-over) gives. */
export interface AnnotationInput {
  title: string;
  note?: string;
  category: string;
  /** 1–5; a numeric string is accepted (form fields). */
  severity: number | string;
  status?: string;
  /** One point, or two or more for a measurement, in model units. */
  points: ModelPoint[];
  /** For two or more points: what they measure (default 'distance' for two, 'polyline' for more). */
  measure?: MeasureKind | null;
  /** Up axis for 'height' (unit length, model coordinates); default +Y. */
  up?: ModelPoint | null;
  photos?: string[];
}

/** The validated input: every field present and normalised. */
export type AnnotationValues = Pick<
  AnnotationData,
  'title' | 'note' | 'category' | 'severity' | 'status' | 'points' | 'kind' | 'measure' | 'up' | 'photos'
>;

const finite = z.number().refine(Number.isFinite);
const pointSchema = z.object({ x: finite, y: finite, z: finite });

/**
 * Validates a finding's fields (issue 18): title 1–120 characters, note ≤ 4,000, a category of
 * {@link ANNOTATION_CATEGORIES}, a whole severity 1–5, a status of {@link ANNOTATION_STATUSES}
 * (default 'open'), one point or 2–500 points with finite coordinates, a measure that fits the
 * points, at most 20 photo names.
 * @returns the normalised values (trimmed text; `kind` from the number of points; `measure` null
 *   for one point), or the first rule's message ({@link AnnotationMessages})
 */
export function validateAnnotation(input: AnnotationInput): ValidationResult<AnnotationValues> {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  if (title === '') return invalid(AnnotationMessages.titleRequired);
  if (title.length > ANNOTATION_TITLE_MAX) return invalid(AnnotationMessages.titleTooLong);
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  if (note.length > ANNOTATION_NOTE_MAX) return invalid(AnnotationMessages.noteTooLong);
  if (!(ANNOTATION_CATEGORIES as readonly string[]).includes(input.category)) return invalid(AnnotationMessages.categoryInvalid);
  const severity = typeof input.severity === 'string' && input.severity.trim() !== '' ? Number(input.severity) : input.severity;
  if (typeof severity !== 'number' || !Number.isInteger(severity) || severity < 1 || severity > 5) {
    return invalid(AnnotationMessages.severityInvalid);
  }
  const status = input.status ?? 'open';
  if (!(ANNOTATION_STATUSES as readonly string[]).includes(status)) return invalid(AnnotationMessages.statusInvalid);
  const points = z.array(pointSchema).min(1).max(ANNOTATION_POINTS_MAX).safeParse(input.points);
  if (!points.success) return invalid(AnnotationMessages.pointsInvalid);
  const cleanPoints = points.data.map(({ x, y, z: zz }) => ({ x, y, z: zz }));
  let measure: MeasureKind | null = null;
  if (cleanPoints.length >= 2) {
    measure = input.measure ?? (cleanPoints.length === 2 ? 'distance' : 'polyline');
    if (!Object.hasOwn(MEASURE_LABELS, measure) || (measure === 'distance' && cleanPoints.length !== 2)) {
      return invalid(AnnotationMessages.measureInvalid);
    }
  } else if (input.measure) {
    return invalid(AnnotationMessages.measureInvalid);
  }
  let up: ModelPoint | null = null;
  if (measure === 'height') {
    const parsed = pointSchema.safeParse(input.up ?? { x: 0, y: 1, z: 0 });
    const length = parsed.success ? Math.hypot(parsed.data.x, parsed.data.y, parsed.data.z) : 0;
    if (!parsed.success || !(length > 0)) return invalid(AnnotationMessages.measureInvalid);
    up = { x: parsed.data.x / length, y: parsed.data.y / length, z: parsed.data.z / length };
  }
  const photos = z
    .array(z.string().min(1).max(255))
    .max(ANNOTATION_PHOTOS_MAX)
    .safeParse(input.photos ?? []);
  if (!photos.success) return invalid(AnnotationMessages.photosInvalid);
  return valid({
    title,
    note,
    category: input.category as AnnotationCategory,
    severity: severity as AnnotationSeverity,
    status: status as AnnotationStatus,
    points: cleanPoints,
    kind: cleanPoints.length === 1 ? 'point' : 'polyline',
    measure,
    up,
    photos: [...new Set(photos.data)],
  });
}

/**
 * Validates a model scale (issue 18 `metadata.unitsPerMetre`).
 * @param value a positive finite number, a numeric string, or '' / null / undefined for "unknown"
 * @returns the number, or null for unknown; or {@link AnnotationMessages.unitsPerMetreInvalid}
 */
export function validateUnitsPerMetre(value: unknown): ValidationResult<number | null> {
  if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return valid(null);
  const number = typeof value === 'string' ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number <= 0) return invalid(AnnotationMessages.unitsPerMetreInvalid);
  return valid(number);
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

/** Straight-line distance between two points, in their units. */
export function pointDistance(a: ModelPoint, b: ModelPoint): number {
  return Math.hypot(b.x - a.x, b.y - a.y, b.z - a.z);
}

/** Length along every point of a polyline, in model units (0 for fewer than two points). */
export function polylineLength(points: readonly ModelPoint[]): number {
  let total = 0;
  for (let i = 1; i < points.length; i += 1) total += pointDistance(points[i - 1]!, points[i]!);
  return total;
}

/**
 * Height difference from the first to the last point along `up`, in model units (signed: positive
 * when the last point is higher).
 * @param up the up axis, model coordinates (normalised here); default +Y
 */
export function heightDifference(points: readonly ModelPoint[], up: ModelPoint = { x: 0, y: 1, z: 0 }): number {
  if (points.length < 2) return 0;
  const length = Math.hypot(up.x, up.y, up.z) || 1;
  const a = points[0]!;
  const b = points[points.length - 1]!;
  return ((b.x - a.x) * up.x + (b.y - a.y) * up.y + (b.z - a.z) * up.z) / length;
}

/** A measurement's value in model units and, when the model has a scale, in metres. */
export interface MeasurementValue {
  kind: MeasureKind;
  /** In model units. */
  modelUnits: number;
  /** In metres (`modelUnits / unitsPerMetre`), or null when the model has no scale. */
  metres: number | null;
}

/**
 * What points measure.
 * @param kind the measurement
 * @param points two or more points, model units
 * @param unitsPerMetre the model's scale (`metadata.unitsPerMetre`), or null/undefined
 * @param up the up axis for 'height'
 */
export function measure(
  kind: MeasureKind,
  points: readonly ModelPoint[],
  unitsPerMetre?: number | null,
  up?: ModelPoint | null,
): MeasurementValue {
  const modelUnits =
    kind === 'height'
      ? heightDifference(points, up ?? undefined)
      : kind === 'distance'
        ? pointDistance(points[0]!, points[points.length - 1]!)
        : polylineLength(points);
  const metres = unitsPerMetre && unitsPerMetre > 0 ? modelUnits / unitsPerMetre : null;
  return { kind, modelUnits, metres };
}

/**
 * A finding's measurement, or null for a point finding.
 * @param annotation the finding
 * @param unitsPerMetre its model's scale
 */
export function annotationMeasurement(
  annotation: Pick<AnnotationData, 'measure' | 'points' | 'up'>,
  unitsPerMetre?: number | null,
): MeasurementValue | null {
  if (!annotation.measure || annotation.points.length < 2) return null;
  return measure(annotation.measure, annotation.points, unitsPerMetre, annotation.up);
}

/** A number with `digits` significant decimals, no trailing zeros ('1.5', '0.0312'). */
function trimNumber(value: number, digits: number): string {
  const fixed = Math.abs(value) >= 1 ? value.toFixed(digits) : value.toPrecision(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * A measurement as text: '2.431 units' or '2.431 units (0.741 m)'; 'Height difference' keeps its sign.
 * @returns e.g. '12.5 units (3.81 m)'
 */
export function formatMeasurement(value: MeasurementValue): string {
  const units = `${trimNumber(value.modelUnits, 3)} units`;
  return value.metres === null ? units : `${units} (${trimNumber(value.metres, 3)} m)`;
}

/** A point as text in model units, '(1.234, -0.5, 2)'. */
export function formatPoint(point: ModelPoint): string {
  return `(${trimNumber(point.x, 3)}, ${trimNumber(point.y, 3)}, ${trimNumber(point.z, 3)})`;
}

// ---------------------------------------------------------------------------------------------
// The findings table (report, CSV, CLI)
// ---------------------------------------------------------------------------------------------

/** One row of the findings table: what the report, the CSV and the CLI show. */
export interface FindingRow {
  id: string;
  /** 'F-3' (the finding's number in its model). */
  number: string;
  /** The finding's number, 3 for 'F-3'. */
  seq: number;
  modelId: string;
  modelName: string;
  publicId: string;
  captureDate: string | null;
  title: string;
  category: string;
  severity: number;
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

/**
 * Rows of the findings table, ordered by capture date (oldest first), model, then severity
 * (highest first) and number.
 * @param annotations the findings
 * @param models the facts of each finding's model, by model id (a missing model shows its id)
 */
export function findingRows(annotations: readonly Annotation[], models: ReadonlyMap<string, FindingModelFacts>): FindingRow[] {
  const rows = annotations.map((a): FindingRow => {
    const model = models.get(a.modelId);
    const value = annotationMeasurement(a, model?.unitsPerMetre);
    return {
      id: a.id,
      number: `F-${a.seq}`,
      seq: a.seq,
      modelId: a.modelId,
      modelName: model?.name ?? a.modelId,
      publicId: model?.publicId ?? '',
      captureDate: model?.captureDate ?? null,
      title: a.title,
      category: CATEGORY_LABELS[a.category] ?? a.category,
      severity: a.severity,
      status: STATUS_LABELS[a.status] ?? a.status,
      measurement: value ? `${MEASURE_LABELS[value.kind]}: ${formatMeasurement(value)}` : '',
      point: a.points[0] ? formatPoint(a.points[0]) : '',
      author: a.author_email ?? a.author_uid,
      created: a.created_at ?? '',
      photos: a.photos.join(' '),
      followUpOf: a.followUpOf?.annotationId ?? '',
      note: a.note,
    };
  });
  rows.sort(
    (a, b) =>
      (a.captureDate ?? '').localeCompare(b.captureDate ?? '') ||
      a.modelName.localeCompare(b.modelName) ||
      b.severity - a.severity ||
      a.seq - b.seq,
  );
  return rows;
}

/** Columns of the findings CSV, in order, with their headers. */
export const FINDINGS_CSV_COLUMNS: ReadonlyArray<[keyof FindingRow, string]> = [
  ['number', 'Finding'],
  ['modelName', 'Model'],
  ['publicId', 'Public ID'],
  ['captureDate', 'Capture Date'],
  ['title', 'Title'],
  ['category', 'Category'],
  ['severity', 'Severity'],
  ['status', 'Status'],
  ['measurement', 'Measurement'],
  ['point', 'Point'],
  ['author', 'Author'],
  ['created', 'Created'],
  ['photos', 'Photos'],
  ['followUpOf', 'Follow-up Of'],
  ['note', 'Note'],
  ['id', 'ID'],
];

/**
 * The findings table as CSV (RFC 4180 by csv-stringify: CRLF line ends, header row first; a
 * field starting with = + - @ is prefixed with ' so spreadsheets do not run it as a formula).
 * @param rows from {@link findingRows}
 * @returns the CSV text, ending with CRLF
 */
export function findingsCsv(rows: readonly FindingRow[]): string {
  return stringify(
    rows.map((row) => FINDINGS_CSV_COLUMNS.map(([key]) => row[key] ?? '')),
    { header: true, columns: FINDINGS_CSV_COLUMNS.map(([, header]) => header), record_delimiter: 'windows', escape_formulas: true },
  );
}
