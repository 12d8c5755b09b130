/**
 * Checking a finding before it is stored: the rule of each stored field (zod), how the geometry
 * fields fit together, the normalising validation of what a form, the CLI or a carry-over gives,
 * and the check of a model's scale.
 */
import { z } from 'zod';
import type { AnnotationCategory, AnnotationData, AnnotationSeverity, AnnotationStatus, MeasureKind, ModelPoint } from '../types.js';
import type { ValidationResult } from '../validation/result.js';
import { invalid, valid } from '../validation/result.js';
import {
  ANNOTATION_CATEGORIES,
  ANNOTATION_NOTE_MAX,
  ANNOTATION_PHOTOS_MAX,
  ANNOTATION_POINTS_MAX,
  ANNOTATION_STATUSES,
  ANNOTATION_TITLE_MAX,
  AnnotationMessages,
} from './vocabulary.js';

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
 * `shared/validation/document-schemas.ts` holds every stored finding to them (whoever writes).
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
