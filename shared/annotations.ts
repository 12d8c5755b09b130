/**
 * Findings (annotations) and measurements, as pure rules, under one import: this file only
 * re-exports the modules of `shared/annotations/`, one a job:
 * - `vocabulary.ts`: the categories, severities and statuses with their labels, the field limits,
 *   the messages of the form and the workflows, and the document keys;
 * - `validation.ts`: the form's validation (zod) and the rules every stored finding holds;
 * - `measurements.ts`: the measurement of a polyline in model units and metres, and its text;
 * - `findings-table.ts`: a stored finding as the readers show it, and the rows of the findings
 *   table (portal report, CLI);
 * - `findings-csv.ts`: that table as CSV (`catalog findings export`, the report's download).
 * The writes themselves are `shared/workflows/annotations.ts`.
 */
export {
  ANNOTATION_CATEGORIES,
  ANNOTATION_NOTE_MAX,
  ANNOTATION_PHOTOS_MAX,
  ANNOTATION_POINTS_MAX,
  ANNOTATION_SEVERITIES,
  ANNOTATION_STATUSES,
  ANNOTATION_TITLE_MAX,
  AnnotationMessages,
  CATEGORY_LABELS,
  MEASURE_LABELS,
  SEVERITY_LABELS,
  STATUS_LABELS,
  alignmentId,
  annotationId,
} from './annotations/vocabulary.js';
export type { AnnotationInput, AnnotationValues } from './annotations/validation.js';
export { annotationFieldSchemas, annotationShapeProblem, validateAnnotation, validateUnitsPerMetre } from './annotations/validation.js';
export type { MeasurementValue } from './annotations/measurements.js';
export {
  annotationMeasurement,
  formatMeasurement,
  formatPoint,
  heightDifference,
  measure,
  pointDistance,
  polylineLength,
} from './annotations/measurements.js';
export type { FindingModelFacts, FindingRow } from './annotations/findings-table.js';
export {
  categoryLabel,
  findingFacts,
  findingModelFacts,
  findingRows,
  readableFinding,
  severityLabel,
  statusLabel,
} from './annotations/findings-table.js';
export { FINDINGS_CSV_COLUMNS, findingsCsv } from './annotations/findings-csv.js';
