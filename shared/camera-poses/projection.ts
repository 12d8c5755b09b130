/**
 * The pinhole camera of an entry: its intrinsics (focal lengths, field of view), its view for a
 * three.js camera, the change between world and camera coordinates, the projection of world
 * points to pixels and back, and the cameras whose photo shows a point. The convention is in
 * `shared/camera-poses.ts`.
 */
import { add, dot, length as norm, scale, sub, type Vec3 } from '../vec3.js';
import { checkedPosition, invalid, isFiniteNumber, type CameraLike, type Quat } from './entry.js';
import { cameraAxes, cameraPose, rotatePose, type CameraPose } from './rotation.js';

/** Vertical field of view used when an entry has neither `fx` nor `fy`: 60°, in radians. */
export const DEFAULT_FOV_Y = Math.PI / 3;

/** A camera's pinhole intrinsics, from its entry (width/height plus the 3DGS fx/fy). */
export interface CameraIntrinsics {
  /** Image size in pixels (the source image size, samples/SOURCES.md). */
  width: number;
  height: number;
  /** Focal lengths in pixels of the width×height image. */
  fx: number;
  fy: number;
  /** Principal point in pixels (the image centre, as 3DGS assumes). */
  cx: number;
  cy: number;
  /** Full horizontal and vertical fields of view, in radians. */
  fovX: number;
  fovY: number;
  /** `fovY` in degrees (three.js `PerspectiveCamera.fov`). */
  fovYDegrees: number;
  /** width / height (three.js `PerspectiveCamera.aspect` for a view matching the photo). */
  aspect: number;
  /** True when fx or fy came from the entry; false when {@link DEFAULT_FOV_Y} was assumed. */
  fromEntry: boolean;
}

/**
 * The pinhole intrinsics of a camera: `fx`/`fy` from the entry when present (one of them stands
 * for both when the other is missing), else a {@link DEFAULT_FOV_Y} (60°) vertical field of view
 * with square pixels. Principal point at the image centre.
 * @param entry a camera (`width`, `height` in pixels; optional `fx`, `fy` in pixels)
 * @throws AppError `invalid-argument` when width or height is not a positive finite number
 */
export function cameraIntrinsics(entry: Pick<CameraLike, 'width' | 'height' | 'fx' | 'fy'>): CameraIntrinsics {
  const { width, height } = entry;
  if (!isFiniteNumber(width) || !isFiniteNumber(height) || width <= 0 || height <= 0) {
    throw invalid('camera width and height must be positive numbers', { width, height });
  }
  const given = (v: unknown): number | null => (isFiniteNumber(v) && v > 0 ? v : null);
  const gx = given(entry.fx);
  const gy = given(entry.fy);
  const fallback = height / 2 / Math.tan(DEFAULT_FOV_Y / 2);
  const fx = gx ?? gy ?? fallback;
  const fy = gy ?? gx ?? fallback;
  const fovX = 2 * Math.atan(width / 2 / fx);
  const fovY = 2 * Math.atan(height / 2 / fy);
  return {
    width,
    height,
    fx,
    fy,
    cx: width / 2,
    cy: height / 2,
    fovX,
    fovY,
    fovYDegrees: (fovY * 180) / Math.PI,
    aspect: width / height,
    fromEntry: gx !== null || gy !== null,
  };
}

/** What a three.js `PerspectiveCamera` needs to look through a photo's camera ({@link cameraView}). */
export interface CameraView extends CameraPose {
  /** Vertical field of view in degrees (`PerspectiveCamera.fov`). */
  fovYDegrees: number;
  /** width / height (`PerspectiveCamera.aspect`; the viewport shows the photo's framing when it has this aspect). */
  aspect: number;
}

/**
 * The scene pose and lens of a camera, for "look through this photo" on the viewer's own camera:
 * {@link cameraPose} turned by the frame the camera metadata lives in (the splat group's rotation,
 * {@link Y_DOWN_TO_Y_UP} by default in the viewer) and {@link cameraIntrinsics}' field of view.
 * `camera.position.fromArray(v.position); camera.quaternion.fromArray(v.quaternion);
 * camera.fov = v.fovYDegrees; camera.updateProjectionMatrix()`.
 * @param entry a camera (its fields plus optional fx/fy)
 * @param frame the rotation `[x, y, z, w]` of the group holding the splat (default identity: none)
 * @throws AppError `invalid-argument` for a malformed entry
 */
export function cameraView(entry: CameraLike, frame: Quat = [0, 0, 0, 1]): CameraView {
  const pose = rotatePose(cameraPose(entry), frame);
  const { fovYDegrees, aspect } = cameraIntrinsics(entry);
  return { ...pose, fovYDegrees, aspect };
}

/**
 * A world point in the camera's OpenCV frame: `rotation^T · (point − position)`.
 * @param entry a camera (position, rotation)
 * @param point `[x, y, z]` in world coordinates
 * @returns `[x, y, z]`: x right, y down, z the depth along the viewing direction (world units)
 * @throws AppError `invalid-argument` for a malformed position or rotation
 */
export function worldToCamera(entry: Pick<CameraLike, 'position' | 'rotation'>, point: Vec3): Vec3 {
  const { right, down, forward } = cameraAxes(entry);
  const d = sub(point, checkedPosition(entry));
  return [dot(right, d), dot(down, d), dot(forward, d)];
}

/**
 * A point of the camera's OpenCV frame in world coordinates: `rotation · c + position`.
 * @param entry a camera (position, rotation)
 * @param c `[x, y, z]`: x right, y down, z forward (world units)
 * @throws AppError `invalid-argument` for a malformed position or rotation
 */
export function cameraToWorld(entry: Pick<CameraLike, 'position' | 'rotation'>, c: Vec3): Vec3 {
  const { right, down, forward } = cameraAxes(entry);
  return add(checkedPosition(entry), add(add(scale(right, c[0]), scale(down, c[1])), scale(forward, c[2])));
}

/** Where a world point lands in a camera's image ({@link projectPoint}). */
export interface ImagePoint {
  /** Pixel column and row: (0, 0) is the top-left corner of the image, x right, y down. */
  x: number;
  y: number;
  /** Distance along the viewing direction, world units (> 0). */
  depth: number;
  /** True when the pixel is inside the width×height image. */
  inside: boolean;
}

/**
 * Projects a world point into a camera's image plane (pinhole, no distortion): `x = fx·c.x/c.z + cx`,
 * `y = fy·c.y/c.z + cy` with `c` = {@link worldToCamera}. A point in front of the camera always
 * gets a pixel, also off the image (then `inside` is false); `pixelInPhoto` of
 * `shared/photo-projection.ts` is the variant that answers only for points inside the photo.
 * @param entry a camera: position, rotation, width and height in pixels, optional fx/fy in pixels ({@link cameraIntrinsics})
 * @param point `[x, y, z]` world coordinates (world units)
 * @returns `{x, y, depth, inside}` ({@link ImagePoint}: pixels from the top-left corner, depth in
 *   world units, `inside` for `0 ≤ x ≤ width` and `0 ≤ y ≤ height`), or null when the point is not
 *   in front of the camera (depth ≤ 0)
 * @throws AppError `invalid-argument` for a malformed entry
 */
export function projectPoint(entry: CameraLike, point: Vec3): ImagePoint | null {
  return makeProjector(entry)(point);
}

/**
 * A fast projector for many points with one camera (checks and intrinsics done once): the same
 * result as {@link projectPoint}.
 * @param entry a camera
 * @returns `(point) => ImagePoint | null`
 * @throws AppError `invalid-argument` for a malformed entry (at creation)
 */
export function makeProjector(entry: CameraLike): (point: Vec3) => ImagePoint | null {
  const { right, down, forward } = cameraAxes(entry);
  const [px, py, pz] = checkedPosition(entry);
  const { fx, fy, cx, cy, width, height } = cameraIntrinsics(entry);
  return (point) => {
    const dx = point[0] - px;
    const dy = point[1] - py;
    const dz = point[2] - pz;
    const z = forward[0] * dx + forward[1] * dy + forward[2] * dz;
    if (!(z > 0)) return null;
    const x = (fx * (right[0] * dx + right[1] * dy + right[2] * dz)) / z + cx;
    const y = (fy * (down[0] * dx + down[1] * dy + down[2] * dz)) / z + cy;
    return { x, y, depth: z, inside: x >= 0 && x <= width && y >= 0 && y <= height };
  };
}

/**
 * The world point on the ray through a pixel at a given depth (the inverse of {@link projectPoint}).
 * @param entry a camera
 * @param pixel `[x, y]` pixels, (0, 0) the top-left image corner
 * @param depth distance along the viewing direction, world units
 * @throws AppError `invalid-argument` for a malformed entry
 */
export function unprojectPixel(entry: CameraLike, pixel: [number, number], depth: number): Vec3 {
  const { fx, fy, cx, cy } = cameraIntrinsics(entry);
  return cameraToWorld(entry, [((pixel[0] - cx) / fx) * depth, ((pixel[1] - cy) / fy) * depth, depth]);
}

/**
 * The cameras whose photo shows a world point (it projects inside the image, in front of the
 * camera), nearest first: from a point picked on the model to the photos of it. Occlusion is not
 * known (a camera behind a wall still counts).
 * @param entries cameras (its fields plus optional fx/fy)
 * @param point `[x, y, z]` in the cameras' world coordinates (the splat file's: turn a scene
 *   point back with the inverse of the splat group's rotation; {@link Y_DOWN_TO_Y_UP} is its own inverse)
 * @returns `[{entry, pixel, distance}]`, `pixel` from {@link projectPoint}, `distance` from the
 *   camera centre in world units; entries that are malformed are skipped
 */
export function camerasSeeing<T extends CameraLike>(
  entries: readonly T[],
  point: Vec3,
): { entry: T; pixel: ImagePoint; distance: number }[] {
  const out: { entry: T; pixel: ImagePoint; distance: number }[] = [];
  for (const entry of entries) {
    let pixel: ImagePoint | null;
    try {
      pixel = projectPoint(entry, point);
    } catch {
      continue;
    }
    if (pixel?.inside) out.push({ entry, pixel, distance: norm(sub(point, entry.position as Vec3)) });
  }
  return out.sort((a, b) => a.distance - b.distance);
}
