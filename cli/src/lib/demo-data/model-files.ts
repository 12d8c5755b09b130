/**
 * The files of one demo model, generated in code (the project ships no sample files), as the
 * add-model workflow takes them.
 */
import { makeCameraMetadata } from './cameras.js';
import { makeChangedPair } from './changed-capture.js';
import type { DemoModel } from './catalog.js';
import { makeBridgeGlb, makeTowerGlb } from './glb-writer.js';
import { bridgePhotos, towerPhotos, type DemoPhoto } from './photos.js';
import { encodeSplatPly, makeTowerSplat } from './splat-writer.js';

/** Generated files of one demo model, as the `addModel` workflow takes them. */
export interface DemoModelFiles {
  splat?: { name: string; bytes: Uint8Array<ArrayBuffer> };
  glb?: { name: string; bytes: Uint8Array<ArrayBuffer> };
  cameraMetadata?: { name: string; text: string };
  images: DemoPhoto[];
  thumbnails: DemoPhoto[];
}

/**
 * Generates the files of a demo model: the tower splat PLY (3DGS layout, y-down,
 * 'point_cloud.ply'; for a model with `changedPair`, the changed second capture of that pair), the
 * tower or bridge GLB (y-up, 'model.glb'), the camera JSON of its drone
 * flight ('cameras.json': the catalog's camera entries, 3DGS convention, in the splat's frame; for
 * the changed capture, its flight moved with it by the pair's misregistration)
 * with one photo a camera rendered from exactly that pose (named after its `img_name`, '.png'
 * added when it has no extension), the bridge's stills, and a 320×240 'thumbnail.png'. The same
 * model gives the same splat, GLB and camera bytes and the same photo pixels on every run.
 * @param model the demo model
 * @returns its files; a photo is PNG, a camera file pretty-printed JSON ending in a newline
 */
export async function makeDemoModelFiles(model: DemoModel): Promise<DemoModelFiles> {
  const files: DemoModelFiles = { images: [], thumbnails: [] };
  if (model.structure === 'tower') {
    const { flight } = model.files;
    const pair = model.changedPair ? makeChangedPair({ ...model.changedPair, ...(flight ? { captureFlight: flight } : {}) }) : null;
    const splat = pair
      ? pair.capture
      : makeTowerSplat({ ...model.survey, count: model.splatCount ?? 3600, seed: model.seed, tint: model.tint });
    if (model.files.splat) files.splat = { name: 'point_cloud.ply', bytes: encodeSplatPly(splat) };
    if (model.files.glb) files.glb = { name: 'model.glb', bytes: await makeTowerGlb({ ...model.survey, tint: model.tint }) };
    // the changed capture's cameras are in its own (misregistered) frame, as its splat is
    const cameras = flight ? (pair ? pair.cameras.capture : makeCameraMetadata(flight)) : [];
    if (model.files.flight) files.cameraMetadata = { name: 'cameras.json', text: `${JSON.stringify(cameras, null, 2)}\n` };
    const photos = await towerPhotos(splat, cameras);
    files.images.push(...photos.images);
    files.thumbnails.push(photos.thumbnail);
  } else {
    if (model.files.glb) files.glb = { name: 'model.glb', bytes: await makeBridgeGlb({ tint: model.tint }) };
    const photos = await bridgePhotos(model.tint, model.files.photos ?? 0);
    files.images.push(...photos.images);
    files.thumbnails.push(photos.thumbnail);
  }
  return files;
}
