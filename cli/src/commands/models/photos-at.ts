/**
 * `catalog models photos-at <model> --point X,Y,Z`: the cameras of a model's camera metadata whose
 * photo shows a point of the model (for scripts): each
 * with its `img_name`, where the point lands in the photo (pixels), its distance and viewing
 * angle, and the model's stored photo of that camera (or null). The math is
 * `shared/photo-projection.ts` (the portal's panel uses the same); the photo match is
 * `matchCameraImages` of `shared/camera-poses.ts`.
 */
import { z } from 'zod';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { matchCameraImages } from '@shared/camera-poses.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { formatCount } from '@shared/format.js';
import { camerasSeeingPoint } from '@shared/photo-projection.js';
import type { Backend } from '@shared/ports/index.js';
import type { CameraMetadataEntry, Model, ModelPoint } from '@shared/types.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { modelRefCommand, findModelRef, modelRefShape } from '../../lib/lookup.js';
import { formatTable, usageError } from '../../lib/output.js';

/** The message of a `--point` that is not three numbers. */
export const POINT_USAGE_MESSAGE = '--point must be three numbers X,Y,Z';

/**
 * The `--point` value as a model point.
 * @param text 'X,Y,Z': three finite decimal numbers separated by commas (spaces around them allowed)
 * @returns `{x, y, z}`
 * @throws AppError `invalid-argument` {@link POINT_USAGE_MESSAGE} for anything else
 */
export function parsePointOption(text: string): ModelPoint {
  const parts = text.split(',').map((part) => part.trim());
  const numbers = parts.map((part) => (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(part) ? Number(part) : Number.NaN));
  if (numbers.length !== 3 || !numbers.every(Number.isFinite)) throw usageError(POINT_USAGE_MESSAGE, { point: text });
  return { x: numbers[0]!, y: numbers[1]!, z: numbers[2]! };
}

/** One camera of the output (`--json` result `cameras[]`). */
export interface PhotoAtPoint {
  /** The camera's `id` in the camera metadata. */
  id: number;
  img_name: string;
  /** Pixel column and row of the point in the camera's width×height image (from the top-left corner; pixel centres at +0.5). */
  u: number;
  v: number;
  /** Camera centre to point, model units. */
  distance: number;
  /** Optical axis to the ray to the point, degrees. */
  angle: number;
  /** Ranking score (lower is better): distance × (1 + angle / 30°). */
  score: number;
  /** Storage path of the model's photo of this camera, or null when none matches. */
  photo: string | null;
}

/**
 * The model's camera metadata, read from the file store.
 * @throws AppError `failed-precondition` when the model has no camera metadata or the stored file
 *   is not valid camera metadata; `unavailable` when the download fails
 */
async function readCameras(files: Backend['files'], model: Model): Promise<CameraMetadataEntry[]> {
  const path = model.files?.cameraMetadata;
  if (!path) {
    throw new AppError(ErrorCode.FailedPrecondition, `Model ${model.publicId} has no camera metadata`, { context: { model: model.id } });
  }
  const response = await fetch(await files.getDownloadUrl(path));
  if (!response.ok) {
    throw new AppError(ErrorCode.Unavailable, `Could not download ${path} (HTTP ${response.status})`, { context: { path } });
  }
  const parsed = parseCameraMetadata(await response.text());
  if (!parsed.ok) {
    throw new AppError(ErrorCode.FailedPrecondition, `The camera metadata of model ${model.publicId} cannot be read: ${parsed.message}`, {
      context: { path },
    });
  }
  return parsed.cameras;
}

const schema = z.object({ ...modelRefShape, point: z.string() });

/** `catalog models photos-at <model> --point X,Y,Z [--project <id>]` */
export const photosAtCommand = leafCommand({
  command: modelRefCommand('photos-at', 'list the cameras whose photo shows a point of the model, best first').requiredOption(
    '--point <x,y,z>',
    'the point in model coordinates (the frame of the camera metadata), e.g. 0.5,-1.2,3',
  ),
  backend: true,
  schema,
  help: examplesHelp(
    ['catalog models photos-at TWR-001-2025-06 --point 0.5,-1.2,3', 'catalog models photos-at TWR-001-2025-06 --point=-0.5,0.2,0.3 --json'],
    '\nA camera sees the point when it is in front of it and projects inside its image (pinhole model, the 3DGS\n' +
      'cameras.json convention); walls in between are not known. Cameras are ranked by distance × (1 + angle/30°).\n' +
      'U and V are pixels of the width×height the camera metadata gives (a smaller stored photo scales them).',
  ),
  run: async (input, _ctx, open) => {
    const point = parsePointOption(input.point);
    const { backend } = await open();
    const model = await findModelRef(backend, input.model, input.project);
    const cameras = await readCameras(backend.files, model);
    const photos = matchCameraImages(cameras, model.files?.images ?? []);
    const found: PhotoAtPoint[] = camerasSeeingPoint(cameras, point).map((view) => ({
      id: view.camera.id,
      img_name: view.camera.img_name,
      u: view.u,
      v: view.v,
      distance: view.distance,
      angle: view.angle,
      score: view.score,
      photo: photos[view.index]?.imagePath ?? null,
    }));
    const rows = found.map((c) => [
      String(c.id),
      c.img_name,
      c.u.toFixed(1),
      c.v.toFixed(1),
      c.distance.toFixed(3),
      `${c.angle.toFixed(1)}°`,
      c.photo ?? '-',
    ]);
    return {
      result: { model: { id: model.id, publicId: model.publicId }, point, cameraCount: cameras.length, cameras: found },
      text:
        found.length === 0
          ? `No camera sees this point (${formatCount(cameras.length, 'camera')} checked)`
          : formatTable(['ID', 'IMG_NAME', 'U', 'V', 'DISTANCE', 'ANGLE', 'PHOTO'], rows),
      summary: `${formatCount(found.length, 'camera')} of ${cameras.length} see (${point.x}, ${point.y}, ${point.z}) in ${model.publicId}`,
    };
  },
});
