/**
 * Camera metadata: parsing and
 * checking the uploaded JSON text. Each camera needs id (number), img_name (string), position
 * (3 numbers), rotation (3x3 numbers), width and height (numbers); extra keys (fx, fy…) are kept.
 */
import { z } from 'zod';
import { ValidationMessages, cameraFormatError } from './messages.js';
import type { CameraMetadataEntry } from './types.js';

const num = z.number(); // zod 4: finite numbers only
const vec3 = z.tuple([num, num, num]);

/** One camera of the JSON array, extra keys allowed. */
export const cameraEntrySchema = z.looseObject({
  id: num,
  img_name: z.string(),
  position: vec3,
  rotation: z.tuple([vec3, vec3, vec3]),
  width: num,
  height: num,
});

/** The checked fields, in report order. */
export const CAMERA_FIELDS = ['id', 'img_name', 'position', 'rotation', 'width', 'height'] as const;
export type CameraField = (typeof CAMERA_FIELDS)[number];

/**
 * What is wrong with a field that is present but malformed. The 'Camera N:'
 * prefix and the 'JSON format error: ' wrapper are fixed wording; these details are ours.
 */
export const CAMERA_FIELD_PROBLEMS: Readonly<Record<CameraField, string>> = {
  id: 'id must be a number',
  img_name: 'img_name must be a string',
  position: 'position must be an array of 3 numbers',
  rotation: 'rotation must be a 3x3 array of numbers',
  width: 'width must be a number',
  height: 'height must be a number',
};

/** A missing field's problem: '{field} is required'. */
export const cameraFieldMissing = (field: CameraField): string => `${field} is required`;
/** A camera that is not a JSON object. */
export const CAMERA_NOT_OBJECT = 'must be an object';
/** One problem of camera N (1-based): 'Camera N: {problem}'. */
export const cameraProblem = (n: number, problem: string): string => `Camera ${n}: ${problem}`;

/** Result of {@link parseCameraMetadata}: the cameras (as `value` and `cameras`), or the one message. */
export type CameraMetadataResult =
  { ok: true; value: CameraMetadataEntry[]; cameras: CameraMetadataEntry[] } | { ok: false; message: string };

/**
 * The problems of one camera, each without the 'Camera N:' prefix, in {@link CAMERA_FIELDS} order.
 */
export function cameraProblems(camera: unknown): string[] {
  if (typeof camera !== 'object' || camera === null || Array.isArray(camera)) return [CAMERA_NOT_OBJECT];
  const parsed = cameraEntrySchema.safeParse(camera);
  if (parsed.success) return [];
  const bad = new Set(parsed.error.issues.map((issue) => issue.path[0]));
  const record = camera as Record<string, unknown>;
  return CAMERA_FIELDS.filter((field) => bad.has(field)).map((field) =>
    record[field] === undefined ? cameraFieldMissing(field) : CAMERA_FIELD_PROBLEMS[field],
  );
}

/**
 * Parses and checks camera-metadata JSON text:
 * - not JSON → 'Invalid JSON file' (a leading byte-order mark is ignored);
 * - not an array → 'Metadata must be in array format';
 * - empty array → 'At least one camera data is required';
 * - any camera with problems → 'JSON format error: Camera 1: id must be a number; Camera 3:
 *   position must be an array of 3 numbers' — every problem of every camera, each prefixed
 *   'Camera N:' (N 1-based), joined with '; '.
 * The 10MB limit the UI states is not enforced.
 * @returns `{ok: true, value, cameras}` (the same array twice) or `{ok: false, message}`
 */
export function parseCameraMetadata(text: string): CameraMetadataResult {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return { ok: false, message: ValidationMessages.cameraInvalidJson };
  }
  if (!Array.isArray(data)) return { ok: false, message: ValidationMessages.cameraNotArray };
  if (data.length === 0) return { ok: false, message: ValidationMessages.cameraEmpty };
  const problems: string[] = [];
  data.forEach((camera, index) => {
    for (const problem of cameraProblems(camera)) problems.push(cameraProblem(index + 1, problem));
  });
  if (problems.length > 0) return { ok: false, message: cameraFormatError(problems.join('; ')) };
  const cameras = data as CameraMetadataEntry[];
  return { ok: true, value: cameras, cameras };
}
