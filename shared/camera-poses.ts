/**
 * Camera poses of a model's camera metadata (its camera entries; the viewer links 3D to the
 * original photos): pure math on plain number arrays, no three.js.
 *
 * ## The convention of the entries (3DGS `cameras.json`)
 *
 * The 3DGS training code (graphdeco-inria/gaussian-splatting, `utils/camera_utils.py`,
 * `camera_to_JSON`) writes each camera as
 * ```
 * Rt = [[R_w2c, t], [0, 1]]   # world → camera, COLMAP (Rt[:3,:3] = camera.R.T, Rt[:3,3] = camera.T)
 * C2W = inv(Rt)               # (named W2C in that code)
 * position = C2W[:3, 3]       # the camera centre in world coordinates (= -R_w2c^T t)
 * rotation = C2W[:3, :3]      # = R_w2c^T, the camera-to-world rotation
 * fx, fy = fov2focal(FovX, width), fov2focal(FovY, height)   # pixels of the width×height image
 * ```
 * where `camera.R` is COLMAP's `qvec2rotmat(qvec)` transposed (scene/dataset_readers.py), so
 * `rotation` is the camera-to-world rotation, stored row-major as an array of three rows. Its
 * **columns** are the camera's axes in world coordinates, OpenCV/COLMAP style: column 0 = image
 * right (+x), column 1 = image down (+y), column 2 = viewing direction (+z, forward). A world
 * point `p` is at camera coordinates `c = rotation^T · (p − position)`; it is in front of the
 * camera when `c.z > 0` and lands on pixel `u = fx · c.x / c.z + width / 2`,
 * `v = fy · c.y / c.z + height / 2` (pixel (0, 0) is the top-left corner of the image; 3DGS
 * assumes the principal point at the image centre). `width`/`height` are the source image size
 * (samples/SOURCES.md), and `fx`/`fy` are in pixels of that size.
 *
 * The world is the splat's own coordinate system (3DGS writes `cameras.json` and
 * `point_cloud.ply` together), which is y-down for real captures (COLMAP): over 90 % of the real
 * sample's 304 cameras have their image-down axis within 26° of world +y.
 *
 * ## In a three.js scene
 *
 * - {@link cameraPose} gives `position` and a `quaternion` `[x, y, z, w]` (three.js order) of the
 *   camera in the OpenGL/three.js camera convention (looking down its local −z, local +y up):
 *   `R_gl = rotation · diag(1, −1, −1)`, in the **same world coordinates as the entry** (the
 *   splat file's). `object.position.fromArray(pose.position); object.quaternion.fromArray(pose.quaternion)`.
 * - The built-in viewer turns the splat 180° about x (`splatGroup.quaternion.set(1, 0, 0, 0)`)
 *   because 3DGS output is y-down. Camera markers and frustums built from these functions belong
 *   in the same group (they then turn with the splat); a scene-level object such as the viewer's
 *   `PerspectiveCamera` ("look through this photo's camera") needs the turned pose:
 *   `rotatePose(cameraPose(entry), Y_DOWN_TO_Y_UP)`, with `fov` = {@link cameraIntrinsics}'s
 *   `fovYDegrees` and `aspect` = `width / height` ({@link cameraView} gives all four).
 * - A point picked in the scene goes back to the entries' frame by the inverse turn (180° about x
 *   is its own inverse) before {@link camerasSeeing} / {@link projectPoint}; the photo of a camera
 *   is {@link matchCameraImage}`(entry.img_name, model.files.images)`.
 *
 * Units: positions and depths in the splat's world units (metres for the demo data), focal
 * lengths and pixels in image pixels, angles in radians unless the name says degrees.
 */
import { AppError, ErrorCode } from './errors.js';
import { fileNameOf } from './paths.js';
import type { CameraMetadataEntry } from './types.js';
import { add, cross, dot, length as norm, scale, sub, type Vec3 } from './vec3.js';

/** A 3-vector `[x, y, z]` (`shared/vec3.ts`). */
export type { Vec3 };
/** A unit quaternion `[x, y, z, w]` (three.js `Quaternion.fromArray` order). */
export type Quat = [number, number, number, number];
/** A 3×3 matrix, row-major: an array of three rows (as a camera entry's `rotation`). */
export type Mat3 = [Vec3, Vec3, Vec3];

/**
 * What the functions here read of a camera: its entry's fields plus the optional 3DGS focal lengths.
 * A {@link CameraMetadataEntry} fits; `fx`/`fy` that are not positive finite numbers count as absent.
 */
export type CameraLike = Pick<CameraMetadataEntry, 'position' | 'rotation' | 'width' | 'height'> & { fx?: unknown; fy?: unknown };

/** A camera's placement in the OpenGL/three.js convention: it looks down its local −z, local +y is up. */
export interface CameraPose {
  /** The camera centre, in world coordinates. */
  position: Vec3;
  /** The camera-to-world rotation as a unit quaternion `[x, y, z, w]`. */
  quaternion: Quat;
}

/** The 180° turn about x, `[1, 0, 0, 0]`, that the viewer applies to y-down 3DGS splats (and their cameras): (x, y, z) → (x, −y, −z). */
export const Y_DOWN_TO_Y_UP: Quat = [1, 0, 0, 0];

/** Vertical field of view used when an entry has neither `fx` nor `fy`: 60°, in radians. */
export const DEFAULT_FOV_Y = Math.PI / 3;

/** Tolerance on `rotation^T · rotation = I` (largest element error) beyond which a rotation is refused. */
export const ROTATION_TOLERANCE = 1e-2;

const invalid = (message: string, context: Record<string, unknown> = {}): AppError =>
  new AppError(ErrorCode.InvalidArgument, message, { context });

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const column = (m: Mat3, j: number): Vec3 => [m[0][j], m[1][j], m[2][j]];

function checkedPosition(entry: Pick<CameraLike, 'position'>): Vec3 {
  const p = entry.position;
  if (!Array.isArray(p) || p.length !== 3 || !p.every(isFiniteNumber))
    throw invalid('camera position must be 3 finite numbers', { position: p });
  return [p[0], p[1], p[2]];
}

/**
 * The camera's axes in world coordinates: the columns of `rotation` (module doc), made exactly
 * orthonormal (Gram–Schmidt; real files carry rounding).
 * @param entry a camera (`rotation`: 3×3, row-major, camera-to-world)
 * @returns `{right, down, forward}`: unit world vectors of image +x, image +y (down) and the
 *   viewing direction (OpenCV camera x, y, z)
 * @throws AppError `invalid-argument` when `rotation` is not 3×3 finite numbers, or not a proper
 *   rotation within {@link ROTATION_TOLERANCE} (a scale, a shear or a reflection; a world-to-camera
 *   rotation written by mistake is a rotation too and cannot be told apart)
 */
export function cameraAxes(entry: Pick<CameraLike, 'rotation'>): { right: Vec3; down: Vec3; forward: Vec3 } {
  const m = entry.rotation;
  if (!Array.isArray(m) || m.length !== 3 || !m.every((row) => Array.isArray(row) && row.length === 3 && row.every(isFiniteNumber))) {
    throw invalid('camera rotation must be a 3x3 array of finite numbers', { rotation: m });
  }
  const cols = [column(m, 0), column(m, 1), column(m, 2)];
  let worst = 0;
  for (let i = 0; i < 3; i += 1)
    for (let j = 0; j < 3; j += 1) worst = Math.max(worst, Math.abs(dot(cols[i]!, cols[j]!) - (i === j ? 1 : 0)));
  const det = dot(cols[0]!, cross(cols[1]!, cols[2]!));
  if (worst > ROTATION_TOLERANCE || det < 0) {
    throw invalid(`camera rotation is not a rotation matrix (orthonormality error ${worst.toFixed(4)}, determinant ${det.toFixed(4)})`, {
      rotation: m,
    });
  }
  const forward = scale(cols[2]!, 1 / norm(cols[2]!));
  const rightRaw = sub(cols[0]!, scale(forward, dot(cols[0]!, forward)));
  const right = scale(rightRaw, 1 / norm(rightRaw));
  const down = cross(forward, right); // z × x = y
  return { right, down, forward };
}

/**
 * The unit quaternion `[x, y, z, w]` of a proper rotation matrix (row-major rows).
 * @param m a rotation matrix (orthonormal, determinant +1; not checked)
 */
export function quaternionFromMatrix(m: Mat3): Quat {
  const [[m00, m01, m02], [m10, m11, m12], [m20, m21, m22]] = m;
  const trace = m00 + m11 + m22;
  let q: Quat;
  if (trace > 0) {
    const s = 0.5 / Math.sqrt(trace + 1);
    q = [(m21 - m12) * s, (m02 - m20) * s, (m10 - m01) * s, 0.25 / s];
  } else if (m00 > m11 && m00 > m22) {
    const s = 2 * Math.sqrt(1 + m00 - m11 - m22);
    q = [0.25 * s, (m01 + m10) / s, (m02 + m20) / s, (m21 - m12) / s];
  } else if (m11 > m22) {
    const s = 2 * Math.sqrt(1 + m11 - m00 - m22);
    q = [(m01 + m10) / s, 0.25 * s, (m12 + m21) / s, (m02 - m20) / s];
  } else {
    const s = 2 * Math.sqrt(1 + m22 - m00 - m11);
    q = [(m02 + m20) / s, (m12 + m21) / s, 0.25 * s, (m10 - m01) / s];
  }
  const n = Math.hypot(...q);
  // one sign for equal rotations (w ≥ 0), so the output is deterministic
  const sign = q[3] < 0 ? -1 / n : 1 / n;
  return [q[0] * sign, q[1] * sign, q[2] * sign, q[3] * sign];
}

/**
 * The rotation matrix (row-major rows) of a quaternion `[x, y, z, w]` (normalised first).
 * @throws AppError `invalid-argument` for a zero or non-finite quaternion
 */
export function matrixFromQuaternion(q: Quat): Mat3 {
  const n = Math.hypot(...q);
  if (!(n > 0) || !Number.isFinite(n)) throw invalid('quaternion must be finite and non-zero', { quaternion: q });
  const [x, y, z, w] = [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
  return [
    [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
    [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
    [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
  ];
}

/**
 * The pose of a camera for a three.js scene (module doc): the camera centre and the rotation
 * `R_gl = rotation · diag(1, −1, −1)` as a quaternion, so the object looks down its local −z with
 * local +y towards the image top, in the entry's world coordinates (the splat file's; see
 * {@link rotatePose} for a splat turned by {@link Y_DOWN_TO_Y_UP}).
 * @param entry a camera (`position` [x, y, z] world units, `rotation` 3×3 camera-to-world, row-major)
 * @returns `{position: [x, y, z], quaternion: [x, y, z, w]}` (w ≥ 0)
 * @throws AppError `invalid-argument` for a malformed position or rotation ({@link cameraAxes})
 */
export function cameraPose(entry: Pick<CameraLike, 'position' | 'rotation'>): CameraPose {
  const position = checkedPosition(entry);
  const { right, down, forward } = cameraAxes(entry);
  // columns of R_gl: x = right, y = −down (image up), z = −forward (backwards)
  const m: Mat3 = [
    [right[0], -down[0], -forward[0]],
    [right[1], -down[1], -forward[1]],
    [right[2], -down[2], -forward[2]],
  ];
  return { position, quaternion: quaternionFromMatrix(m) };
}

/**
 * Rotates a point about the world origin by a quaternion.
 * @param q `[x, y, z, w]` (normalised first)
 * @param p `[x, y, z]`
 * @returns the rotated point
 */
export function rotatePoint(q: Quat, p: Vec3): Vec3 {
  const m = matrixFromQuaternion(q);
  return [dot(m[0], p), dot(m[1], p), dot(m[2], p)];
}

const multiplyQuat = (a: Quat, b: Quat): Quat => [
  a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
  a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
  a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
  a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];

/**
 * A pose as seen from a parent frame that is turned by `q` about the origin: what a pose given in
 * a group's local coordinates is in the scene when the group has quaternion `q` (and no
 * translation or scale). `rotatePose(cameraPose(e), Y_DOWN_TO_Y_UP)` is the scene pose of camera
 * `e` when the splat group is turned 180° about x: position (x, −y, −z), quaternion q ⊗ pose.
 * @param pose a pose ({@link cameraPose})
 * @param q the frame's rotation `[x, y, z, w]`
 * @returns the pose in the parent frame (quaternion normalised, w ≥ 0)
 */
export function rotatePose(pose: CameraPose, q: Quat): CameraPose {
  const product = multiplyQuat(q, pose.quaternion);
  const n = Math.hypot(...product) * (product[3] < 0 ? -1 : 1);
  return { position: rotatePoint(q, pose.position), quaternion: [product[0] / n, product[1] / n, product[2] / n, product[3] / n] };
}

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
 * A camera's view pyramid for drawing: apex and image corners at `depth`, plus a small triangle
 * above the top edge marking the image top (as three.js' CameraHelper draws it).
 */
export interface CameraFrustum {
  /** The camera centre (world). */
  apex: Vec3;
  /** Image corners at `depth` (world): top-left, top-right, bottom-right, bottom-left of the photo. */
  corners: [Vec3, Vec3, Vec3, Vec3];
  /** The "up" triangle (world): base on the top edge from 30 % to 70 % of the width, tip above its middle by 20 % of the height. */
  up: [Vec3, Vec3, Vec3];
  /** The depth used, world units. */
  depth: number;
}

/**
 * The frustum of a camera at `depth` world units along its viewing direction, in the entry's
 * world coordinates (draw it in the splat's group, module doc). Field of view from fx/fy, else
 * 60° vertical ({@link cameraIntrinsics}).
 * @param entry a camera (its fields plus optional fx/fy)
 * @param depth distance of the image rectangle from the apex, world units, > 0
 *   (e.g. {@link suggestedFrustumDepth})
 * @throws AppError `invalid-argument` for a malformed entry or a depth that is not positive
 */
export function cameraFrustum(entry: CameraLike, depth: number): CameraFrustum {
  if (!isFiniteNumber(depth) || depth <= 0) throw invalid('frustum depth must be a positive number', { depth });
  const { width: w, height: h } = cameraIntrinsics(entry);
  const at = (x: number, y: number): Vec3 => unprojectPixel(entry, [x, y], depth);
  return {
    apex: checkedPosition(entry),
    corners: [at(0, 0), at(w, 0), at(w, h), at(0, h)],
    up: [at(0.3 * w, 0), at(0.7 * w, 0), at(0.5 * w, -0.2 * h)],
    depth,
  };
}

/**
 * Line-segment endpoints of one or more frustums, flat: `[x0, y0, z0, x1, y1, z1, …]`, two points a
 * segment, 11 segments (66 numbers) a frustum: apex → each corner (4), the image rectangle (4),
 * the up triangle (3). Ready for `new Float32BufferAttribute(segments, 3)` under a three.js
 * `LineSegments`.
 * @param frustums one {@link CameraFrustum} or several
 */
export function lineSegments(frustums: CameraFrustum | readonly CameraFrustum[]): number[] {
  const list = Array.isArray(frustums) ? (frustums as readonly CameraFrustum[]) : [frustums as CameraFrustum];
  const out: number[] = [];
  const seg = (a: Vec3, b: Vec3) => out.push(a[0], a[1], a[2], b[0], b[1], b[2]);
  for (const f of list) {
    const [tl, tr, br, bl] = f.corners;
    for (const c of f.corners) seg(f.apex, c);
    seg(tl, tr);
    seg(tr, br);
    seg(br, bl);
    seg(bl, tl);
    seg(f.up[0], f.up[1]);
    seg(f.up[1], f.up[2]);
    seg(f.up[2], f.up[0]);
  }
  return out;
}

const median = (values: number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * A frustum depth that suits a set of cameras: `scale` × the median distance from each camera
 * to its nearest neighbour (coincident cameras ignored), so neighbouring frustums touch at most;
 * but at least `minFraction` × the diagonal of the cameras' bounding box, so the frames of a video
 * (cameras centimetres apart along a path of metres) stay big enough to see and click; capped at
 * `maxFraction` × the median distance of the cameras from their centroid, so a sparse ring's
 * frustums stay well short of the structure they surround.
 * @param entries cameras (`position` in world units)
 * @param options.scale fraction of the typical neighbour distance (default 0.5)
 * @param options.minFraction floor as a fraction of the bounding-box diagonal (default 0.02)
 * @param options.maxFraction cap as a fraction of the typical distance to the centroid (default 0.25)
 * @param options.fallback depth when it cannot be measured (fewer than 2 distinct positions; default 1)
 * @returns a depth in world units, > 0
 * @throws AppError `invalid-argument` for a malformed position
 */
export function suggestedFrustumDepth(
  entries: readonly Pick<CameraLike, 'position'>[],
  options: { scale?: number; minFraction?: number; maxFraction?: number; fallback?: number } = {},
): number {
  const { scale: k = 0.5, minFraction = 0.02, maxFraction = 0.25, fallback = 1 } = options;
  const points = entries.map((e) => checkedPosition(e));
  const nearest: number[] = [];
  points.forEach((p, i) => {
    let best = Infinity;
    points.forEach((q, j) => {
      if (i === j) return;
      const d = norm(sub(p, q));
      if (d > 1e-12 && d < best) best = d;
    });
    if (Number.isFinite(best)) nearest.push(best);
  });
  if (nearest.length === 0) return fallback;
  const lo = [0, 1, 2].map((i) => Math.min(...points.map((p) => p[i]!))) as Vec3;
  const hi = [0, 1, 2].map((i) => Math.max(...points.map((p) => p[i]!))) as Vec3;
  let depth = Math.max(k * median(nearest), minFraction * norm(sub(hi, lo)));
  const centroid = scale(points.reduce(add, [0, 0, 0] as Vec3), 1 / points.length);
  const spread = median(points.map((p) => norm(sub(p, centroid))));
  if (spread > 0) depth = Math.min(depth, maxFraction * spread);
  return depth > 0 && Number.isFinite(depth) ? depth : fallback;
}

/**
 * The point nearest to all viewing axes (least squares): where a set of cameras looks. For a
 * ring or orbit of cameras this is the centre of the structure they photograph.
 * @param entries cameras (position, rotation)
 * @returns `[x, y, z]` world, or null when the axes are (nearly) parallel or there are none
 * @throws AppError `invalid-argument` for a malformed position or rotation
 */
export function camerasFocus(entries: readonly Pick<CameraLike, 'position' | 'rotation'>[]): Vec3 | null {
  const a = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const b = [0, 0, 0];
  for (const e of entries) {
    const f = cameraAxes(e).forward;
    const p = checkedPosition(e);
    for (let i = 0; i < 3; i += 1) {
      for (let j = 0; j < 3; j += 1) {
        const m = (i === j ? 1 : 0) - f[i]! * f[j]!;
        a[i]![j]! += m;
        b[i]! += m * p[j]!;
      }
    }
  }
  const det3 = (m: number[][]) =>
    m[0]![0]! * (m[1]![1]! * m[2]![2]! - m[1]![2]! * m[2]![1]!) -
    m[0]![1]! * (m[1]![0]! * m[2]![2]! - m[1]![2]! * m[2]![0]!) +
    m[0]![2]! * (m[1]![0]! * m[2]![1]! - m[1]![1]! * m[2]![0]!);
  const d = det3(a);
  const trace = a[0]![0]! + a[1]![1]! + a[2]![2]!;
  if (entries.length === 0 || !(Math.abs(d) > 1e-9 * Math.max(trace, 1) ** 3)) return null;
  return [0, 1, 2].map((k) => det3(a.map((row, i) => row.map((v, j) => (j === k ? b[i]! : v)))) / d) as Vec3;
}

/**
 * A camera rotation (`rotation`, 3DGS convention: camera-to-world, columns right, down,
 * forward) for a camera at `eye` looking at `target`, with `worldUp` appearing up in the image.
 * For the y-down world of 3DGS output pass `worldUp = [0, -1, 0]`; for a y-up world `[0, 1, 0]`.
 * @param eye camera centre, world units
 * @param target the point to look at, world units
 * @param worldUp the world direction that should point to the image top (default `[0, -1, 0]`)
 * @returns the 3×3 rotation, row-major
 * @throws AppError `invalid-argument` when eye = target or the view is parallel to `worldUp`
 */
export function lookAtRotation(eye: Vec3, target: Vec3, worldUp: Vec3 = [0, -1, 0]): Mat3 {
  const f = sub(target, eye);
  const fl = norm(f);
  if (!(fl > 0)) throw invalid('a camera cannot look at its own position', { eye, target });
  const forward = scale(f, 1 / fl);
  const r = cross(forward, worldUp);
  const rl = norm(r);
  if (!(rl > 1e-9)) throw invalid('the viewing direction is parallel to the up direction', { eye, target, worldUp });
  const right = scale(r, 1 / rl);
  const down = cross(forward, right);
  return [
    [right[0], down[0], forward[0]],
    [right[1], down[1], forward[1]],
    [right[2], down[2], forward[2]],
  ];
}

/** Extension of a file name: a final '.' and 1–5 letters or digits (null when there is none). */
const extensionOf = (name: string): string | null => /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1] ?? null;
const stemOf = (name: string): string => {
  const ext = extensionOf(name);
  return ext === null || ext.length + 1 >= name.length ? name : name.slice(0, -(ext.length + 1));
};

/**
 * The photo of a camera among a model's stored image paths (`models/{uuid}/images/…`).
 * `img_name` carries an extension in some 3DGS outputs and not in others (samples/SOURCES.md),
 * and may carry a folder (`images/frame_1.jpg`, only its last segment counts). A path matches,
 * best first:
 * 1. its file name equals `img_name`;
 * 2. same name and an extension equal but for case (`frame_1.jpg` ↔ `frame_1.JPG`);
 * 3. its name without extension equals `img_name` (`frame_1` ↔ `frame_1.png`);
 * 4. both names without extension are equal (`frame_1.jpg` ↔ `frame_1.png`, a converted photo).
 * Stems compare case-sensitively (COLMAP names do); ties go to the earlier path.
 * @param imgName the camera's `img_name`
 * @param imagePaths storage paths or file names (e.g. a model's `files.images`)
 * @returns the matching element of `imagePaths`, or null
 */
export function matchCameraImage(imgName: string, imagePaths: readonly string[]): string | null {
  const name = imgName.trim().split(/[/\\]/).pop() ?? '';
  if (name === '') return null;
  const ext = extensionOf(name);
  const stem = stemOf(name);
  let best: { rank: number; path: string } | null = null;
  for (const path of imagePaths) {
    const file = fileNameOf(path);
    const fileExt = extensionOf(file);
    const fileStem = stemOf(file);
    let rank = 0;
    if (file === name) rank = 4;
    else if (fileStem === stem && ext !== null && fileExt !== null && fileExt.toLowerCase() === ext.toLowerCase()) rank = 3;
    else if (fileExt !== null && fileStem === name) rank = 2;
    else if (ext !== null && fileExt !== null && fileStem === stem) rank = 1;
    if (rank === 4) return path;
    if (rank > 0 && (best === null || rank > best.rank)) best = { rank, path };
  }
  return best?.path ?? null;
}

/** How {@link matchCameraImages} found a camera's photo. */
export type CameraImageMatch = 'name' | 'index';

/**
 * Each camera with its photo, in entry order: by {@link matchCameraImage} on `img_name`; and when
 * no camera's name matches any photo at all, by the camera's index, as the 3DGS render script
 * names the ground-truth photos it writes (`render.py`: `{idx:05d}.png`, idx the position of the
 * camera in the unshuffled training list, which is also its `id` in `cameras.json` when training
 * ran without an eval split). A folder of such render outputs (e.g. `train/ours_7000/gt/*.png`)
 * thus still links each camera to its photo; a photo whose name is not all digits never matches
 * by index, and a name match anywhere turns the index rule off for the whole set.
 * @param entries cameras (`id`, `img_name`)
 * @param imagePaths a model's image storage paths
 * @returns `[{entry, imagePath, matchedBy}]`; `imagePath` and `matchedBy` null when no photo matches
 */
export function matchCameraImages<T extends Pick<CameraMetadataEntry, 'img_name'> & { id?: unknown }>(
  entries: readonly T[],
  imagePaths: readonly string[],
): { entry: T; imagePath: string | null; matchedBy: CameraImageMatch | null }[] {
  const byName = entries.map((entry) => (typeof entry.img_name === 'string' ? matchCameraImage(entry.img_name, imagePaths) : null));
  if (byName.some((path) => path !== null)) {
    return entries.map((entry, i) => ({ entry, imagePath: byName[i]!, matchedBy: byName[i] === null ? null : ('name' as const) }));
  }
  const byIndex = new Map<number, string>();
  for (const path of imagePaths) {
    const stem = stemOf(fileNameOf(path));
    if (/^\d{1,9}$/.test(stem) && extensionOf(fileNameOf(path)) !== null && !byIndex.has(Number(stem))) byIndex.set(Number(stem), path);
  }
  return entries.map((entry) => {
    const path = typeof entry.id === 'number' && Number.isInteger(entry.id) ? (byIndex.get(entry.id) ?? null) : null;
    return { entry, imagePath: path, matchedBy: path === null ? null : ('index' as const) };
  });
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
