/**
 * The box the camera frames a model by, from its loaded three.js objects: the splat's centres
 * (their 10th–90th percentiles, padded: see framing.ts) and the GLB's box, in world space.
 */
import { Box3, Vector3, type Group, type Object3D } from 'three';
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

/**
 * {@link modelFramingBounds} of a viewport's shown parts, computed again only when a part is
 * loaded or replaced, turned, shown or hidden (fit, compare framing and every camera flight ask).
 */
export class FramingBoundsCache {
  private key = '';
  private bounds: Bounds | null = null;

  /**
   * @param splatGroup the splat's frame (its turn and visibility count)
   * @param splat the loaded splat, if any
   * @param meshGroup the GLB's frame
   * @param mesh the loaded GLB scene, if any
   * @returns the framing box in world units, null when nothing is shown
   */
  get(splatGroup: Group, splat: SplatMesh | null, meshGroup: Group, mesh: Object3D | null): Bounds | null {
    const key = [
      splat?.uuid,
      mesh?.uuid,
      splatGroup.visible,
      meshGroup.visible,
      ...splatGroup.quaternion.toArray(),
      ...meshGroup.quaternion.toArray(),
    ].join('|');
    if (key !== this.key) {
      this.bounds = modelFramingBounds(splatGroup.visible ? splat : null, meshGroup.visible ? mesh : null);
      this.key = key;
    }
    return this.bounds;
  }
}
