/**
 * What the camera-pose modules read of a camera entry: the vector, quaternion and matrix types,
 * the fields of a camera they use, and the checks of an entry's position shared by the pose math,
 * the projection and the frustums. The convention of the entries is in `shared/camera-poses.ts`.
 */
import { AppError, ErrorCode } from '../errors.js';
import type { CameraMetadataEntry } from '../types.js';
import type { Vec3 } from '../vec3.js';

/** A 3-vector `[x, y, z]` (`shared/vec3.ts`). */
export type { Vec3 };
/** A unit quaternion `[x, y, z, w]` (three.js `Quaternion.fromArray` order). */
export type Quat = [number, number, number, number];
/** A 3×3 matrix, row-major: an array of three rows (as a camera entry's `rotation`). */
export type Mat3 = [Vec3, Vec3, Vec3];

/**
 * What the camera-pose functions read of a camera: its entry's fields plus the optional 3DGS focal lengths.
 * A {@link CameraMetadataEntry} fits; `fx`/`fy` that are not positive finite numbers count as absent.
 */
export type CameraLike = Pick<CameraMetadataEntry, 'position' | 'rotation' | 'width' | 'height'> & { fx?: unknown; fy?: unknown };

/** An `invalid-argument` error about a malformed camera entry, with the offending values as context. */
export const invalid = (message: string, context: Record<string, unknown> = {}): AppError =>
  new AppError(ErrorCode.InvalidArgument, message, { context });

/** True for a finite number. */
export const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * A camera's centre, checked.
 * @param entry a camera (`position`: 3 finite numbers, world units)
 * @returns a copy of `position` as `[x, y, z]`
 * @throws AppError `invalid-argument` when `position` is not 3 finite numbers
 */
export function checkedPosition(entry: Pick<CameraLike, 'position'>): Vec3 {
  const p = entry.position;
  if (!Array.isArray(p) || p.length !== 3 || !p.every(isFiniteNumber))
    throw invalid('camera position must be 3 finite numbers', { position: p });
  return [p[0], p[1], p[2]];
}
