/**
 * The pose math of a camera entry: its axes in world coordinates, conversions between rotation
 * matrices and quaternions, its pose for a three.js scene (also in a turned parent frame), and the
 * rotation of a camera looking at a point. The convention is in `shared/camera-poses.ts`.
 */
import { cross, dot, length as norm, scale, sub, type Vec3 } from '../vec3.js';
import { checkedPosition, invalid, isFiniteNumber, type CameraLike, type Mat3, type Quat } from './entry.js';

/** A camera's placement in the OpenGL/three.js convention: it looks down its local −z, local +y is up. */
export interface CameraPose {
  /** The camera centre, in world coordinates. */
  position: Vec3;
  /** The camera-to-world rotation as a unit quaternion `[x, y, z, w]`. */
  quaternion: Quat;
}

/** The 180° turn about x, `[1, 0, 0, 0]`, that the viewer applies to y-down 3DGS splats (and their cameras): (x, y, z) → (x, −y, −z). */
export const Y_DOWN_TO_Y_UP: Quat = [1, 0, 0, 0];

/** Tolerance on `rotation^T · rotation = I` (largest element error) beyond which a rotation is refused. */
export const ROTATION_TOLERANCE = 1e-2;

const column = (m: Mat3, j: number): Vec3 => [m[0][j], m[1][j], m[2][j]];

/**
 * The camera's axes in world coordinates: the columns of `rotation` (the convention in
 * `shared/camera-poses.ts`), made exactly orthonormal (Gram–Schmidt; real files carry rounding).
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
 * The pose of a camera for a three.js scene (the convention in `shared/camera-poses.ts`): the
 * camera centre and the rotation `R_gl = rotation · diag(1, −1, −1)` as a quaternion, so the
 * object looks down its local −z with local +y towards the image top, in the entry's world
 * coordinates (the splat file's; see {@link rotatePose} for a splat turned by {@link Y_DOWN_TO_Y_UP}).
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
