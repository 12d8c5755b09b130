/**
 * What a new model is made of, from the add-model form: the upload plan (each file's storage
 * path under `models/{uuid}/`, its progress key and content type) and the model record that lists
 * those files with their sizes.
 */
import { AppError, ErrorCode } from '../errors.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { assetPath, cameraMetadataPath, glbPath, imagePath, splatPath, thumbnailPath } from '../paths.js';
import type { ModelData } from '../types.js';
import type { AddModelFile, AddModelInput } from './add-model.js';
import type { FileUpload } from './util.js';

/**
 * The upload plan of a new model: the splat at `models/{uuid}/model.ply` or `model.splat` (as
 * its file name ends), the GLB, the camera metadata (its text as a JSON file), then the photos,
 * thumbnails and assets in their folders under their own names, in input order.
 * @param uuid the new model's uuid
 * @param input the add-model form (only its files are read)
 * @returns one entry per file: its progress key ('splat', 'glb', 'cameraMetadata',
 *   `{folder}/{name}`), storage path, source and content type (undefined when the extension is
 *   not one of the model's kinds: the file store decides)
 * @throws AppError `invalid-argument` ('Duplicate file name in images: a.jpg') when two files of
 *   one folder have the same name
 */
export function planUploads(uuid: string, input: AddModelInput): FileUpload[] {
  const plan: FileUpload[] = [];
  const { splat, glb, cameraMetadata, images = [], thumbnails = [], assets = [] } = input.files;
  if (splat) {
    const ext = splat.name.toLowerCase().endsWith('.splat') ? 'splat' : 'ply';
    plan.push({ key: 'splat', path: splatPath(uuid, ext), source: splat.source, contentType: 'application/octet-stream' });
  }
  if (glb) plan.push({ key: 'glb', path: glbPath(uuid), source: glb.source, contentType: 'model/gltf-binary' });
  if (cameraMetadata) {
    plan.push({
      key: 'cameraMetadata',
      path: cameraMetadataPath(uuid),
      source: new Blob([cameraMetadata.text], { type: 'application/json' }),
      contentType: 'application/json',
    });
  }
  const folders: Array<[string, AddModelFile[], (uuid: string, name: string) => string]> = [
    ['images', images, imagePath],
    ['images_thumbnails', thumbnails, thumbnailPath],
    ['assets', assets, assetPath],
  ];
  for (const [folder, list, pathOf] of folders) {
    const seen = new Set<string>();
    for (const file of list) {
      const path = pathOf(uuid, file.name);
      if (seen.has(path)) throw new AppError(ErrorCode.InvalidArgument, `Duplicate file name in ${folder}: ${file.name}`);
      seen.add(path);
      plan.push({ key: `${folder}/${file.name}`, path, source: file.source, contentType: guessContentType(file.name) });
    }
  }
  return plan;
}

/**
 * The record of a new model: Public ID and name trimmed, not the reference (the caller sets
 * that), visible, owned by `ownerUid`, the planned files' paths with the stored sizes (null when
 * not uploaded), capture date, display order 0, no findings, and server times for
 * `created_at`, `last_updated` and `uploaded_at` (and `files.cameraMetadataUploadedAt` when its
 * camera metadata is uploaded with it).
 * @param uuid the model's uuid (also its id)
 * @param input the add-model form
 * @param plan the upload plan ({@link planUploads}); `sizes` the stored bytes by plan key
 * @param ownerUid uid written as `owner_uid`, or null
 * @returns the record's data, to be written as is (with `validation` added by the caller)
 */
export function buildModelRecord(
  uuid: string,
  input: AddModelInput,
  plan: FileUpload[],
  sizes: Map<string, number>,
  ownerUid: string | null,
): Record<string, unknown> {
  const pathOf = (key: string) => plan.find((p) => p.key === key)?.path ?? null;
  const under = (prefix: string) => plan.filter((p) => p.key.startsWith(`${prefix}/`)).map((p) => p.path);
  const data: Omit<ModelData, 'created_at' | 'last_updated' | 'uploaded_at'> = {
    uuid,
    publicId: input.publicId.trim(),
    name: input.name.trim(),
    projectId: input.projectId,
    isReference: false,
    modelType: input.modelType,
    owner_uid: ownerUid,
    visible: true,
    files: {
      splatPath: pathOf('splat'),
      splatSize: sizes.get('splat') ?? null,
      glbPath: pathOf('glb'),
      glbSize: sizes.get('glb') ?? null,
      cameraMetadata: pathOf('cameraMetadata'),
      images: under('images'),
      thumbnails: under('images_thumbnails'),
      assets: under('assets'),
    },
    metadata: { captureDate: input.captureDate ?? null, displayOrder: 0, annotationsCount: 0 },
  };
  // the camera metadata's own upload time: a later replacement changes it (a change map's stamp reads it)
  const files = data.files.cameraMetadata ? { ...data.files, cameraMetadataUploadedAt: SERVER_TIMESTAMP } : data.files;
  return { ...data, files, created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP, uploaded_at: SERVER_TIMESTAMP };
}

/** The content type an upload names for a file of the model's kinds (by extension); undefined otherwise. */
function guessContentType(name: string): string | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    webp: 'image/webp',
    json: 'application/json',
    glb: 'model/gltf-binary',
    ply: 'application/octet-stream',
    splat: 'application/octet-stream',
  };
  return types[ext];
}
