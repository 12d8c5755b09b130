/**
 * Findings (annotations) and measurements, as pure rules: the categories, severities
 * and statuses with their labels, the document keys, the form's validation (zod) with its
 * messages, the measurement of a polyline in model units and metres, and the rows of the
 * findings table (portal report, CSV, `catalog annotations export`). The writes themselves are
 * `shared/workflows/annotations.ts`.
 */
import { stringify } from 'csv-stringify/browser/esm/sync';
import { z } from 'zod';
import { formatIsoDate } from './format.js';
import { dot, length, sub, vec3Of } from './vec3.js';
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

/** The messages of the finding form and of the workflows, shown as they are. */
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
  /** A title with a line break, a control character (terminal escapes) or spaces around it, as only a raw write can send. */
  titleInvalid: 'Finding title must be one line of text without control characters or surrounding spaces',
  /** A note with control characters other than line breaks and tabs. */
  noteInvalid: 'Note must be text without control characters (line breaks and tabs are allowed)',
  kindInvalid: "A finding's kind is 'point' for one point and 'polyline' for two or more",
  upInvalid: 'The up axis of a finding is null, or a non-zero point with finite x, y and z for a height difference',
  keyInvalid: "A finding is stored at {modelId}_{seq}, with its model's id and a whole seq of 1 or more",
  authorInvalid: "A finding's author is a uid (1 to 128 characters) and an email address or null",
  followUpInvalid: 'A follow-up names its original finding as {annotationId: "{modelId}_{seq}", modelId} of another model',
  /** Also for an original the writer may not read (a hidden model's finding): the answer does not tell which. */
  followUpNotFound: 'The original finding of a follow-up must be a finding you can open, of another model of the same project',
  /** A non-admin's write of a finding with its own times (only admins and imports keep given times). */
  serverTimeRequired: "A finding's created_at and last_updated are set by the server: send the server-time sentinel",
  createdAtChanged: "A finding's created_at never changes",
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

/** Control characters (C0, DEL and C1: line breaks, terminal escapes): never in a title or a photo name. */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** Control characters other than tab, line feed and carriage return: never in a note. */
const NOTE_CONTROL_CHARACTER = /(?![\t\n\r])\p{Cc}/u;

/**
 * A point in model units as stored: exactly the keys x, y and z, each a finite number (zod's
 * numbers refuse NaN and ±Infinity), any problem reported as `message`.
 */
function pointSchema(message: string) {
  const coordinate = z.number({ error: message });
  return z.strictObject({ x: coordinate, y: coordinate, z: coordinate }, { error: message });
}

/**
 * The rule of each content field of a stored finding, each problem reported with the form's
 * message ({@link AnnotationMessages}). One definition for two uses: {@link validateAnnotation}
 * checks a form's input with them after normalising it, and the stored-document schema of
 * `shared/validation/documents.ts` holds every stored finding to them (whoever writes).
 * - title: 1–120 characters (UTF-16 units, as inputs and Firestore rules count), not blank, one
 *   line without control characters or surrounding spaces;
 * - note: at most 4,000 characters (UTF-16 units), no control characters but line breaks and tabs;
 * - category, status: one of {@link ANNOTATION_CATEGORIES}, {@link ANNOTATION_STATUSES};
 * - severity: a whole number 1–5 (a number, never a numeric string);
 * - points: 1–500 points of exactly x, y, z finite numbers;
 * - kind: 'point' or 'polyline'; measure: null or one of {@link MEASURE_LABELS}'s kinds;
 * - up: null or a non-zero point;
 * - photos: at most 20 distinct camera image names of 1–255 characters (code points, as zod and
 *   the rules' pattern count) without control characters.
 * How the fields fit together (kind and measure against the points) is {@link annotationShapeProblem}.
 */
export const annotationFieldSchemas = {
  title: z
    .string({ error: AnnotationMessages.titleRequired })
    .refine((title) => title.trim() !== '', AnnotationMessages.titleRequired)
    .refine((title) => title.length <= ANNOTATION_TITLE_MAX, AnnotationMessages.titleTooLong)
    .refine((title) => !CONTROL_CHARACTER.test(title) && title === title.trim(), AnnotationMessages.titleInvalid),
  note: z
    .string({ error: AnnotationMessages.noteInvalid })
    .refine((note) => note.length <= ANNOTATION_NOTE_MAX, AnnotationMessages.noteTooLong)
    .refine((note) => !NOTE_CONTROL_CHARACTER.test(note), AnnotationMessages.noteInvalid),
  category: z.enum(ANNOTATION_CATEGORIES as [AnnotationCategory, ...AnnotationCategory[]], { error: AnnotationMessages.categoryInvalid }),
  severity: z
    .number({ error: AnnotationMessages.severityInvalid })
    .int(AnnotationMessages.severityInvalid)
    .min(1, AnnotationMessages.severityInvalid)
    .max(5, AnnotationMessages.severityInvalid),
  status: z.enum(ANNOTATION_STATUSES as [AnnotationStatus, ...AnnotationStatus[]], { error: AnnotationMessages.statusInvalid }),
  points: z
    .array(pointSchema(AnnotationMessages.pointsInvalid), { error: AnnotationMessages.pointsInvalid })
    .min(1, AnnotationMessages.pointsInvalid)
    .max(ANNOTATION_POINTS_MAX, AnnotationMessages.pointsInvalid),
  kind: z.enum(['point', 'polyline'], { error: AnnotationMessages.kindInvalid }),
  measure: z.enum(['distance', 'polyline', 'height'], { error: AnnotationMessages.measureInvalid }).nullable(),
  up: pointSchema(AnnotationMessages.upInvalid)
    .refine((up) => up.x !== 0 || up.y !== 0 || up.z !== 0, AnnotationMessages.upInvalid)
    .nullable(),
  photos: z
    .array(
      z
        .string({ error: AnnotationMessages.photosInvalid })
        .min(1, AnnotationMessages.photosInvalid)
        .max(255, AnnotationMessages.photosInvalid)
        .refine((name) => !CONTROL_CHARACTER.test(name), AnnotationMessages.photosInvalid),
      { error: AnnotationMessages.photosInvalid },
    )
    .max(ANNOTATION_PHOTOS_MAX, AnnotationMessages.photosInvalid)
    .refine((names) => new Set(names).size === names.length, AnnotationMessages.photosInvalid),
} as const;

/**
 * How a finding's geometry fields fit together (the rule every stored finding holds): `kind` is
 * 'point' for one point and 'polyline' for more; a point has no `measure`, a polyline has one,
 * and 'distance' has exactly two points; `up` is null unless the measure is 'height'. Fields that
 * are not yet of their own type are left to their field rule ({@link annotationFieldSchemas}).
 * @param values the stored (or normalised) points, kind, measure and up
 * @returns null when they fit, else the problem: `field` (where it is reported), `fields` (every
 *   field it depends on) and the form's message
 */
export function annotationShapeProblem(values: {
  points?: unknown;
  kind?: unknown;
  measure?: unknown;
  up?: unknown;
}): { field: 'kind' | 'measure' | 'up'; fields: string[]; message: string } | null {
  const { points, kind, measure, up } = values;
  if (!Array.isArray(points)) return null;
  const n = points.length;
  if ((kind === 'point' && n !== 1) || (kind === 'polyline' && n < 2)) {
    return { field: 'kind', fields: ['kind', 'points'], message: AnnotationMessages.kindInvalid };
  }
  if ((n === 1 && measure !== null) || (n >= 2 && measure === null) || (measure === 'distance' && n !== 2)) {
    return { field: 'measure', fields: ['measure', 'points'], message: AnnotationMessages.measureInvalid };
  }
  if (up !== null && up !== undefined && measure !== 'height') {
    return { field: 'up', fields: ['up', 'measure'], message: AnnotationMessages.upInvalid };
  }
  return null;
}

/** The message of the first problem `schema` finds in `value`, or null when it has none. */
function problemOf(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid value');
}

/**
 * Validates a finding's fields as a form, the CLI or a carry-over gives them, and
 * normalises them to what is stored: text trimmed, a numeric severity string made a number, status
 * 'open' by default, each point reduced to x, y, z, the measure defaulted ('distance' for two
 * points, 'polyline' for more), `up` made unit length for 'height' (default +Y) and null
 * otherwise, photo names without repeats. The normalised values must then hold the stored rules
 * ({@link annotationFieldSchemas}, {@link annotationShapeProblem}), checked in the form's order:
 * title, note, category, severity, status, points, measure, photos.
 * @returns the normalised values, or the first rule's message ({@link AnnotationMessages}); a
 *   zero or non-finite `up` for 'height' is {@link AnnotationMessages.measureInvalid}
 */
export function validateAnnotation(input: AnnotationInput): ValidationResult<AnnotationValues> {
  const title = typeof input.title === 'string' ? input.title.trim() : '';
  const note = typeof input.note === 'string' ? input.note.trim() : '';
  const severity = typeof input.severity === 'string' && input.severity.trim() !== '' ? Number(input.severity) : input.severity;
  const status = input.status ?? 'open';
  const points = Array.isArray(input.points)
    ? input.points.map((p: unknown) =>
        typeof p === 'object' && p !== null ? { x: (p as ModelPoint).x, y: (p as ModelPoint).y, z: (p as ModelPoint).z } : p,
      )
    : input.points;
  const fieldProblem =
    problemOf(annotationFieldSchemas.title, title) ??
    problemOf(annotationFieldSchemas.note, note) ??
    problemOf(annotationFieldSchemas.category, input.category) ??
    problemOf(annotationFieldSchemas.severity, severity) ??
    problemOf(annotationFieldSchemas.status, status) ??
    problemOf(annotationFieldSchemas.points, points);
  if (fieldProblem !== null) return invalid(fieldProblem);
  const cleanPoints = points as ModelPoint[];
  const measure =
    cleanPoints.length >= 2 ? (input.measure ?? (cleanPoints.length === 2 ? 'distance' : 'polyline')) : (input.measure ?? null);
  if (problemOf(annotationFieldSchemas.measure, measure) !== null) return invalid(AnnotationMessages.measureInvalid);
  let up: ModelPoint | null = null;
  if (measure === 'height') {
    const given = input.up ?? { x: 0, y: 1, z: 0 };
    const parsed = annotationFieldSchemas.up.safeParse(
      typeof given === 'object' && given !== null ? { x: given.x, y: given.y, z: given.z } : given,
    );
    const length = parsed.success && parsed.data ? Math.hypot(parsed.data.x, parsed.data.y, parsed.data.z) : 0;
    if (!parsed.success || !parsed.data || !(length > 0) || !Number.isFinite(length)) return invalid(AnnotationMessages.measureInvalid);
    up = { x: parsed.data.x / length, y: parsed.data.y / length, z: parsed.data.z / length };
  }
  const kind = cleanPoints.length === 1 ? 'point' : 'polyline';
  const shape = annotationShapeProblem({ points: cleanPoints, kind, measure, up });
  if (shape !== null) return invalid(shape.message);
  const photos = Array.isArray(input.photos) ? [...new Set(input.photos)] : (input.photos ?? []);
  const photosProblem = problemOf(annotationFieldSchemas.photos, photos);
  if (photosProblem !== null) return invalid(photosProblem);
  return valid({
    title,
    note,
    category: input.category as AnnotationCategory,
    severity: severity as AnnotationSeverity,
    status: status as AnnotationStatus,
    points: cleanPoints,
    kind,
    measure: measure as MeasureKind | null,
    up,
    photos: photos as string[],
  });
}

/**
 * Validates a model scale (`metadata.unitsPerMetre`).
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
  return length(sub(vec3Of(b), vec3Of(a)));
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
  const rise = sub(vec3Of(points[points.length - 1]!), vec3Of(points[0]!));
  return dot(rise, vec3Of(up)) / (length(vec3Of(up)) || 1);
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
 * as strings; author email a string or null; project id a string or null.
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
  };
}

/**
 * Rows of the findings table, ordered by capture date (oldest first), model, then severity
 * (highest first; unknown last) and number. Every finding is read through
 * {@link readableFinding}, so a malformed stored finding gives a row with what it has and never
 * an error.
 * @param annotations the findings, as stored
 * @param models the facts of each finding's model, by model id (a missing model shows its id)
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
 * A line break followed by a character that makes a spreadsheet read the rest as a formula (or
 * that it skips before one): = + - @, tab, and their full-width forms. Carriage return counts as a
 * line break itself.
 */
const FORMULA_AFTER_LINE_BREAK = /(\r\n|\r|\n)(?=[=+\-@\t\uFF1D\uFF0B\uFF0D\uFF20])/g;

/**
 * The findings table as CSV (RFC 4180 by csv-stringify: CRLF line ends, header row first). Every
 * field holding a line break (CR, LF or both), the delimiter or a quote is quoted, so no text of a
 * finding can start a new row. A text field that starts with = + - @, a tab or a carriage return,
 * or has such a character at the start of any line inside it, gets an apostrophe there, so a
 * spreadsheet shows the text instead of running it as a formula (numbers are written as they are).
 * @param rows from {@link findingRows}
 * @returns the CSV text, ending with CRLF
 */
export function findingsCsv(rows: readonly FindingRow[]): string {
  return stringify(
    rows.map((row) => FINDINGS_CSV_COLUMNS.map(([key]) => row[key] ?? '')),
    {
      header: true,
      columns: FINDINGS_CSV_COLUMNS.map(([, header]) => header),
      record_delimiter: 'windows',
      // With a record delimiter set, csv-stringify quotes only fields holding that delimiter
      // (CRLF); a lone CR or LF would otherwise end the row in a spreadsheet.
      quote_record_delimiter: true,
      // escape_formulas covers a field's start; the cast covers the start of each later line.
      escape_formulas: true,
      cast: { string: (value) => value.replace(FORMULA_AFTER_LINE_BREAK, "$1'") },
    },
  );
}
