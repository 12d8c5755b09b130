/**
 * Camera poses of a model's camera metadata (its camera entries; the viewer links 3D to the
 * original photos): pure math on plain number arrays, no three.js, under one import. This file
 * documents the convention and only re-exports the modules of `shared/camera-poses/`, one a job:
 * - `entry.ts`: the vector, quaternion and matrix types and what is read of a camera entry;
 * - `rotation.ts`: the pose math (camera axes, quaternions, the three.js pose, look-at rotations);
 * - `projection.ts`: the intrinsics, world ↔ camera ↔ pixel, and the cameras that see a point;
 * - `frustum.ts`: the frustums drawn for a set of cameras, their depth and the cameras' focus;
 * - `photo-match.ts`: the stored photo of each camera.
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
export type { CameraLike, Mat3, Quat, Vec3 } from './camera-poses/entry.js';
export type { CameraPose } from './camera-poses/rotation.js';
export {
  ROTATION_TOLERANCE,
  Y_DOWN_TO_Y_UP,
  cameraAxes,
  cameraPose,
  lookAtRotation,
  matrixFromQuaternion,
  quaternionFromMatrix,
  rotatePoint,
  rotatePose,
} from './camera-poses/rotation.js';
export type { CameraIntrinsics, CameraView, ImagePoint } from './camera-poses/projection.js';
export {
  DEFAULT_FOV_Y,
  cameraIntrinsics,
  cameraToWorld,
  cameraView,
  camerasSeeing,
  makeProjector,
  projectPoint,
  unprojectPixel,
  worldToCamera,
} from './camera-poses/projection.js';
export type { CameraFrustum } from './camera-poses/frustum.js';
export { cameraFrustum, camerasFocus, lineSegments, suggestedFrustumDepth } from './camera-poses/frustum.js';
export type { CameraImageMatch } from './camera-poses/photo-match.js';
export { matchCameraImage, matchCameraImages } from './camera-poses/photo-match.js';
