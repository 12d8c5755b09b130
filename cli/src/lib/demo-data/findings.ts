/**
 * The findings seeded on the demo models, and how one becomes the finding workflow's input in
 * the coordinates of the model it is on.
 */
import type { AnnotationInput } from '@shared/annotations.js';
import type { AnnotationCategory, AnnotationSeverity, AnnotationStatus, MeasureKind, ModelPoint } from '@shared/types.js';
import type { Vec3 } from '@shared/vec3.js';
import { toYDown } from './frame.js';

/**
 * A demo finding. Points are given y-up in metres, as the structures are built
 * ({@link demoFindingInput} turns them into the model's coordinates).
 */
export interface DemoFinding {
  title: string;
  note: string;
  category: AnnotationCategory;
  severity: AnnotationSeverity;
  status: AnnotationStatus;
  /** One point, or two or more for a measurement; y-up, metres. */
  points: Vec3[];
  measure?: MeasureKind;
  /** A follow-up of this finding of another demo model: its Public ID and finding number. */
  followUpOf?: { publicId: string; seq: number };
}

/**
 * A demo finding as the finding workflow takes it: the points (and the up axis of a height) in
 * the model's own coordinates, which for a model with a splat are the splat file's y-down frame
 * ({@link toYDown}) and for a mesh-only model the GLB's y-up frame. A height measurement gets
 * the structure's up direction in the same frame; other findings get no up axis and no photos.
 * @param model the demo model it is on (a `DemoModel`; only whether it has a splat matters)
 * @param finding the finding
 * @returns the input of the finding workflow (`createAnnotation`)
 */
export function demoFindingInput(model: { files: { splat: boolean } }, finding: DemoFinding): AnnotationInput {
  const frame = (p: Vec3): ModelPoint => {
    const [x, y, z] = model.files.splat ? toYDown(p) : p;
    return { x, y, z };
  };
  return {
    title: finding.title,
    note: finding.note,
    category: finding.category,
    severity: finding.severity,
    status: finding.status,
    points: finding.points.map(frame),
    measure: finding.measure ?? null,
    up: finding.measure === 'height' ? frame([0, 1, 0]) : null,
    photos: [],
  };
}
