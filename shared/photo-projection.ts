/**
 * "Photos that see this point": which cameras of a model's camera metadata (its
 * camera entries, as in the 3DGS `cameras.json`) have a picked model point inside their photo,
 * where in the photo it lands, and which of them show it best.
 *
 * ## The camera model
 *
 * Pinhole without distortion, the 3DGS `cameras.json` convention (documented in full in
 * `shared/camera-poses.ts`, whose functions this module uses): `rotation` is the camera-to-world
 * rotation (row-major; its columns are the camera's x, y, z axes in world coordinates),
 * `position` the camera centre, OpenCV camera axes (x image right, y image down, z forward).
 * A point `p` is at camera coordinates `c = rotationᵀ · (p − position)` and lands on
 * ```
 * u = fx · c.x / c.z + width / 2        v = fy · c.y / c.z + height / 2
 * ```
 * with `fx`/`fy` from the entry (one stands for both when the other is missing; neither → a 60°
 * vertical field of view, as `cameraIntrinsics` of `shared/camera-poses.ts` does everywhere else).
 *
 * ## Pixel coordinates
 *
 * `u`, `v` are continuous image coordinates in pixels of the `width`×`height` image of the entry:
 * `(0, 0)` is the top-left CORNER of the image, `u` grows to the right, `v` downwards; pixel
 * `(i, j)` (column i, row j) covers `[i, i+1) × [j, j+1)`, so its centre is at `(i + 0.5, j + 0.5)`
 * and the principal point `(width/2, height/2)` is the exact centre of the image. A point is in
 * the photo when `0 ≤ u < width` and `0 ≤ v < height`. `width`/`height` are the source image size
 * (samples/SOURCES.md); a stored photo of another size (the sample's photos are half size) is
 * marked at `u · naturalWidth / width`, `v · naturalHeight / height`.
 *
 * ## Coordinates of the point
 *
 * Model coordinates (`ModelPoint`): the splat file's own frame, which is the frame of
 * `cameras.json`. A point picked in the viewer's scene must have the display turns undone first.
 *
 * ## Not known: occlusion
 *
 * Nothing here knows the model's surface: a camera on the far side of a wall, whose view of the
 * point is blocked, still counts when the point projects inside its image and in front of it.
 * When the caller knows the surface normal at the point (three's raycaster gives the face
 * normal of a mesh hit), `options.normal` drops the cameras that look at the back of the
 * surface (a cheap back-face test: it removes the cameras behind a box's face, not those behind
 * another object).
 */
import { AppError, ErrorCode } from './errors.js';
import { cameraIntrinsics, projectPoint } from './camera-poses.js';
import type { CameraMetadataEntry, ModelPoint } from './types.js';
import { dot, length, sub, vec3Of, type Vec3 } from './vec3.js';

/** The angle (degrees) at which a camera's score doubles: {@link pointViewScore}. */
export const SCORE_ANGLE_DEGREES = 30;

/** One camera that sees a point ({@link camerasSeeingPoint}). */
export interface PointView {
  /** Position of the camera in the array given to {@link camerasSeeingPoint} (0-based). */
  index: number;
  /** The camera entry itself. */
  camera: CameraMetadataEntry;
  /** Pixel column, from the left edge of the width×height image (module doc: pixel centres at +0.5). */
  u: number;
  /** Pixel row, from the top edge of the image. */
  v: number;
  /** Straight-line distance from the camera centre to the point, model units. */
  distance: number;
  /** Distance along the camera's viewing direction (the camera-frame z), model units, > 0. */
  depth: number;
  /** Angle between the camera's optical axis and the ray from the camera to the point, degrees, in [0, 90). */
  angle: number;
  /** {@link pointViewScore}: lower is better. */
  score: number;
}

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function toVec3(point: ModelPoint, name = 'point'): Vec3 {
  if (point === null || typeof point !== 'object' || ![point.x, point.y, point.z].every(isFiniteNumber)) {
    throw new AppError(ErrorCode.InvalidArgument, `${name} must have finite x, y and z`, { context: { [name]: point } });
  }
  return vec3Of(point);
}

/**
 * The ranking score of a camera for a point: `distance × (1 + angle / 30°)`, lower is better.
 * A camera looking straight at the point (angle 0) scores its distance; a point 30° off the
 * optical axis counts as twice as far; so a near camera wins unless the point sits at the edge
 * of its photo (where lenses distort most and the view is oblique) and a camera not much farther
 * has it near the centre.
 * @param distance camera centre to point, model units (≥ 0)
 * @param angle optical axis to ray, degrees (≥ 0)
 * @returns the score, model units
 */
export function pointViewScore(distance: number, angle: number): number {
  return distance * (1 + angle / SCORE_ANGLE_DEGREES);
}

/** Where a model point lands inside a camera's photo ({@link pixelInPhoto}). */
export interface PhotoPixel {
  /** Pixel column from the left edge of the width×height image, in [0, width) (pixel centres at +0.5). */
  u: number;
  /** Pixel row from the top edge of the image, in [0, height). */
  v: number;
  /** Distance along the camera's viewing direction, model units (> 0). */
  depth: number;
}

/**
 * Where a model point lands in a camera's photo, only when it lands inside it (module doc:
 * pinhole, 3DGS convention, OpenCV axes, principal point at the image centre, fx/fy as
 * `cameraIntrinsics` reads them). Unlike `projectPoint` of `shared/camera-poses.ts` (any pixel of
 * a point in front, with an `inside` flag that counts the far edges as inside), this takes a
 * `ModelPoint` object, checks its coordinates, and answers null for a point off the photo.
 * @param camera a camera metadata entry: position, rotation (camera-to-world), width and height
 *   in pixels; optional fx, fy in pixels
 * @param point the point `{x, y, z}`, model coordinates (the frame of `cameras.json`)
 * @returns `{u, v, depth}` ({@link PhotoPixel}); null when the point is not in front of the camera
 *   (depth ≤ 0) or lands outside `[0, width) × [0, height)`
 * @throws AppError `invalid-argument` for a malformed entry (position, rotation that is not a
 *   rotation, width/height not positive) or a point without finite x, y, z
 */
export function pixelInPhoto(camera: CameraMetadataEntry, point: ModelPoint): PhotoPixel | null {
  const pixel = projectPoint(camera, toVec3(point));
  if (pixel === null) return null;
  const { x: u, y: v, depth } = pixel;
  if (!(u >= 0 && u < camera.width && v >= 0 && v < camera.height)) return null;
  return { u, v, depth };
}

/**
 * The cameras whose photo shows a model point, best first: every camera for which
 * {@link pixelInPhoto} is not null, with the pixel, the distance, the viewing angle and the
 * {@link pointViewScore} (ties keep the input order). No occlusion test (module doc; see
 * `options.normal` for a back-face test). Entries
 * that are malformed (a rotation that is not one, a missing size) are skipped, as the viewer
 * skips them.
 * @param cameras the model's camera metadata (entries plus optional fx/fy)
 * @param point the point, model coordinates
 * @param options.limit at most this many views (the best ones); default all
 * @param options.normal the outward surface normal at the point, model coordinates, any length:
 *   when given, a camera is kept only if it is on the normal's side of the surface
 *   (`normal · (camera centre − point) > 0`); default: no such test (module doc, occlusion)
 * @returns the views, best (lowest score) first
 * @throws AppError `invalid-argument` for a point or normal without finite x, y, z (or a zero
 *   normal), or a limit that is not a non-negative integer
 */
export function camerasSeeingPoint(
  cameras: readonly CameraMetadataEntry[],
  point: ModelPoint,
  options: { limit?: number; normal?: ModelPoint | null } = {},
): PointView[] {
  const p = toVec3(point);
  const { limit } = options;
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 0)) {
    throw new AppError(ErrorCode.InvalidArgument, 'limit must be a non-negative integer', { context: { limit } });
  }
  const normal = options.normal ? toVec3(options.normal, 'normal') : null;
  if (normal !== null && !(length(normal) > 0)) {
    throw new AppError(ErrorCode.InvalidArgument, 'normal must not be zero', { context: { normal: options.normal } });
  }
  const views: PointView[] = [];
  cameras.forEach((camera, index) => {
    let projected: PhotoPixel | null;
    let fx: number;
    let fy: number;
    try {
      projected = pixelInPhoto(camera, point);
      ({ fx, fy } = cameraIntrinsics(camera));
    } catch {
      return;
    }
    if (projected === null) return;
    if (normal !== null && !(dot(normal, sub(camera.position, p)) > 0)) return;
    const { u, v, depth } = projected;
    // the ray's direction in the camera frame is ((u − cx)/fx, (v − cy)/fy, 1)
    const off = Math.hypot((u - camera.width / 2) / fx, (v - camera.height / 2) / fy);
    const angle = (Math.atan(off) * 180) / Math.PI;
    const distance = length(sub(p, camera.position));
    views.push({ index, camera, u, v, distance, depth, angle, score: pointViewScore(distance, angle) });
  });
  views.sort((a, b) => a.score - b.score || a.index - b.index);
  return limit === undefined ? views : views.slice(0, limit);
}
