/**
 * The vocabulary of findings (annotations): the categories, severities, statuses and measurement
 * kinds with their display labels, the limits of a finding's fields, the messages the form and
 * the workflows show, and the document keys of findings and alignments.
 */
import type { AnnotationCategory, AnnotationSeverity, AnnotationStatus, MeasureKind } from '../types.js';

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
  changeRegionInvalid:
    "A finding's change region is {referenceModelId, regionId, maxDistance}: another model's id, a whole region number of 1 or more and a finite distance in model units",
  changeRegionPoint: "A finding made from a change region is one point, the region's centre",
  /** Also for a change map the writer may not read (its reference hidden): the answer does not tell which. */
  changeRegionNotFound: 'The change region of a finding must be of a change map of its model that you can open',
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
