/**
 * The box the camera frames a model by, from its loaded three.js objects: the splat's centres
 * (their 10th–90th percentiles, padded: see framing.ts) and the GLB's box, in world space.
 */
import { Box3, Vector3, type Object3D } from 'three';
import type { SplatMesh } from '@sparkjsdev/spark';
import { framingBox, padBounds, SPLAT_FRAMING_PADDING, unionBounds, type Bounds } from './framing.js';

/** Splat centres read to frame a model, at most (a strided sample of bigger splats). */
const FRAMING_SAMPLE = 65_536;

/**
 * The framing box of the shown parts, world units.
 * @param splat the splat, when loaded and shown (its centres: a strided sample of at most 65,536)
 * @param mesh the GLB's scene, when loaded and shown
 * @returns the union of the parts' boxes, or null when neither is given (or both are empty)
 */
export function modelFramingBounds(splat: SplatMesh | null, mesh: Object3D | null): Bounds | null {
  const parts: Bounds[] = [];
  if (splat) {
    splat.updateMatrixWorld(true);
    const world = splat.matrixWorld;
    const point = new Vector3();
    const centres: number[] = [];
    // A strided sample of at most FRAMING_SAMPLE centres: percentiles of a million splats need
    // not read (and sort) all of them.
    const source = splat.packedSplats ?? splat.extSplats;
    const total = source?.numSplats ?? 0;
    if (source && total > 0) {
      const stride = Math.max(1, Math.ceil(total / FRAMING_SAMPLE));
      for (let i = 0; i < total; i += stride) {
        point.copy(source.getSplat(i).center).applyMatrix4(world);
        centres.push(point.x, point.y, point.z);
      }
    } else {
      splat.forEachSplat((_index, centre) => {
        point.copy(centre).applyMatrix4(world);
        centres.push(point.x, point.y, point.z);
      });
    }
    const box = framingBox(centres);
    if (box) parts.push(padBounds(box, SPLAT_FRAMING_PADDING));
  }
  if (mesh) {
    mesh.updateMatrixWorld(true);
    const box = new Box3().setFromObject(mesh);
    if (!box.isEmpty()) parts.push({ min: box.min.toArray(), max: box.max.toArray() });
  }
  return unionBounds(parts);
}
