/**
 * Cameras of the demo photos: the drone flights around the tower written as camera metadata,
 * and single stills (thumbnails, the bridge photo) that have no metadata entry.
 */
import { lookAtRotation } from '@shared/camera-poses.js';
import type { CameraLike, Mat3 } from '@shared/camera-poses.js';
import type { CameraMetadataEntry } from '@shared/types.js';
import type { Vec3 } from '@shared/vec3.js';
import { toYDown } from './frame.js';

/** Options of {@link makeCameraMetadata}. */
export interface CameraOptions {
  /** Number of cameras (default 20). */
  count?: number;
  /** 'spiral' climbs from `heights[0]` to `heights[1]` over `turns` turns; 'ring' flies at `heights[0]` (default 'spiral'). */
  layout?: 'spiral' | 'ring';
  /** Distance from the tower axis, metres (default 22). */
  radius?: number;
  /** Flight heights, metres above the ground (default [8, 44]). */
  heights?: [number, number];
  /** Turns of the spiral (default 2). */
  turns?: number;
  /** How far below the camera it looks at the tower axis, metres (default 3; negative looks up). */
  lookDown?: number;
  /** Image size in pixels (default 320 × 240). */
  width?: number;
  height?: number;
  /** Vertical field of view, degrees (default 55). */
  fovY?: number;
  /** Whether `img_name` carries the '.png' extension (default true; real 3DGS outputs differ: some write the bare name). */
  extension?: boolean;
  /** Azimuth of the first camera, degrees (default 20). */
  start?: number;
}

/**
 * Camera metadata (the catalog's camera entries: `id`, `img_name`, `width`, `height`, `position`,
 * `rotation`, plus `fx`, `fy`) of a drone flight around the demo tower, in the 3DGS convention
 * of shared/camera-poses.ts and in the splat's y-down frame (`toYDown`, frame.ts): `position`
 * the camera centre, `rotation` camera-to-world with columns right, down, forward; each camera
 * looks at the tower axis a little below itself; `img_name` `frame_00001.png`… (or without
 * extension), `width`/`height` the photo size, `fx`/`fy` in its pixels. Numbers are rounded to
 * 6 decimals, so the JSON stays short.
 * @param options see {@link CameraOptions}
 * @returns the entries, `id` 0…count−1
 */
export function makeCameraMetadata(options: CameraOptions = {}): CameraMetadataEntry[] {
  const count = options.count ?? 20;
  const radius = options.radius ?? 22;
  const [lo, hi] = options.heights ?? [8, 44];
  const turns = options.turns ?? 2;
  const width = options.width ?? 320;
  const height = options.height ?? 240;
  const focal = height / 2 / Math.tan((((options.fovY ?? 55) / 2) * Math.PI) / 180);
  const round = (x: number) => Math.round(x * 1e6) / 1e6 + 0;
  const start = ((options.start ?? 20) * Math.PI) / 180;
  const cameras: CameraMetadataEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const f = count > 1 ? i / (count - 1) : 0;
    const ring = options.layout === 'ring';
    const angle = start + (ring ? (2 * Math.PI * i) / count : 2 * Math.PI * turns * f);
    const y = ring ? lo : lo + (hi - lo) * f;
    const eye: Vec3 = [radius * Math.cos(angle), y, radius * Math.sin(angle)];
    const target: Vec3 = [0, Math.max(2, y - (options.lookDown ?? 3)), 0];
    const rotation = lookAtRotation(toYDown(eye), toYDown(target), [0, -1, 0]);
    const stem = `frame_${String(i + 1).padStart(5, '0')}`;
    cameras.push({
      id: i,
      img_name: options.extension === false ? stem : `${stem}.png`,
      width,
      height,
      position: toYDown(eye).map(round) as Vec3,
      rotation: rotation.map((row) => row.map(round)) as Mat3,
      fy: round(focal),
      fx: round(focal),
    });
  }
  return cameras;
}

/**
 * Camera metadata moved by a rigid motion, as a capture's cameras move with it when the whole
 * capture is turned and shifted: each `position` p becomes M · p and each `rotation` R (camera to
 * world) becomes M's rotation · R; the other fields stay. Numbers are rounded to 6 decimals, as
 * {@link makeCameraMetadata} writes them.
 * @param cameras the entries, in the frame M maps from
 * @param matrix a rigid 4×4 matrix, column-major (three.js order); positions in its units (metres)
 * @returns new entries, in the frame M maps to
 */
export function moveCameraMetadata(cameras: readonly CameraMetadataEntry[], matrix: readonly number[]): CameraMetadataEntry[] {
  const round = (x: number) => Math.round(x * 1e6) / 1e6 + 0;
  const m = matrix;
  // row r, column c of the matrix's rotation
  const turn = (r: number, c: number) => m[c * 4 + r]!;
  return cameras.map((camera) => {
    const p = camera.position;
    const position = [0, 1, 2].map((r) => round(turn(r, 0) * p[0] + turn(r, 1) * p[1] + turn(r, 2) * p[2] + m[12 + r]!)) as Vec3;
    const R = camera.rotation;
    const rotation = [0, 1, 2].map((r) =>
      [0, 1, 2].map((c) => round(turn(r, 0) * R[0][c] + turn(r, 1) * R[1][c] + turn(r, 2) * R[2][c])),
    ) as Mat3;
    return { ...camera, position, rotation };
  });
}

/**
 * A camera for a still photo that has no metadata entry: a pinhole at `eye` looking at `target`,
 * image up along `up`, square pixels.
 * @param eye the camera centre, metres, in the scene's frame
 * @param target the point it looks at (must differ from `eye`)
 * @param up the scene's up direction (e.g. [0, −1, 0] for a y-down splat)
 * @param width image width in pixels
 * @param height image height in pixels
 * @param fovY vertical field of view in degrees
 * @returns a camera as the renderer and shared/camera-poses.ts take it (fx = fy in pixels)
 */
export function stillCamera(eye: Vec3, target: Vec3, up: Vec3, width: number, height: number, fovY: number): CameraLike {
  const focal = height / 2 / Math.tan((fovY * Math.PI) / 360);
  return { position: eye, rotation: lookAtRotation(eye, target, up), width, height, fx: focal, fy: focal };
}
