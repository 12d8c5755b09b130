/**
 * Picking a point on the model: a ray from the camera through a canvas position, the
 * nearest hit on the visible parts (Spark's own `SplatMesh.raycast` for a splat, three's mesh
 * raycasting for a GLB, both through one `Raycaster`), and the conversions between the world the
 * engine draws in and MODEL COORDINATES (the file's own frame and units: the frame group's
 * inverse world matrix undoes the viewer's y-down fix / up-axis turn). No renderer here, so it is
 * tested in jsdom with plain three.js meshes.
 */
import { Matrix4, Quaternion, Raycaster, Vector2, Vector3, type Camera, type Object3D } from 'three';
import type { ModelPoint } from '@shared/types.js';

/** A picked point: where on the model, in model coordinates, and on which part. */
export interface PickResult {
  /** Model coordinates: the file's own frame and units (the splat's for splat and hybrid models). */
  point: ModelPoint;
  /** The part the ray hit first. */
  part: 'splat' | 'mesh';
  /**
   * The surface's normal there, model coordinates, unit length, on the side the view looks at
   * (a GLB face's normal; null for a splat, which has no surface). "Photos of this point" uses it
   * to leave out the cameras behind the surface.
   */
  normal?: ModelPoint | null;
}

/** Something a pick ray can hit: a part's 3D object and whether it is shown. */
export interface PickTarget {
  part: 'splat' | 'mesh';
  /** The splat (a SplatMesh, which implements `raycast`) or the GLB's scene (searched recursively). */
  object: Object3D;
  /** Whether the part is shown (a hidden part is never picked). */
  visible: boolean;
}

/** A hit in world space. */
export interface WorldHit {
  part: 'splat' | 'mesh';
  /** World units. */
  point: Vector3;
  /** From the camera, world units. */
  distance: number;
  /** A mesh face's normal in world space, unit length, turned towards the camera; null for a splat. */
  normal: Vector3 | null;
}

/**
 * A canvas position in normalised device coordinates (−1…1, y up), what `Raycaster.setFromCamera` takes.
 * @param x CSS pixels from the canvas's left edge
 * @param y CSS pixels from its top edge
 * @param width the canvas's CSS width (> 0)
 * @param height its CSS height (> 0)
 */
export function canvasToNdc(x: number, y: number, width: number, height: number): Vector2 {
  return new Vector2((x / Math.max(width, 1)) * 2 - 1, -((y / Math.max(height, 1)) * 2 - 1));
}

/**
 * The nearest hit of a ray from the camera through a canvas position on the visible targets.
 * Only meshes of a GLB count (its lines and points do not), and every hit of a splat (Spark reports
 * where the ray meets a splat of opacity ≥ 0.2).
 * @param camera the camera the canvas shows (its matrices up to date)
 * @param x CSS pixels from the canvas's left edge
 * @param y CSS pixels from its top edge
 * @param width the canvas's CSS width
 * @param height its CSS height
 * @param targets the parts to try
 * @returns the nearest hit, or null when the ray misses every visible part
 */
export function nearestHit(
  camera: Camera,
  x: number,
  y: number,
  width: number,
  height: number,
  targets: readonly PickTarget[],
): WorldHit | null {
  const raycaster = new Raycaster();
  raycaster.setFromCamera(canvasToNdc(x, y, width, height), camera);
  let best: WorldHit | null = null;
  for (const target of targets) {
    if (!target.visible) continue;
    target.object.updateMatrixWorld(true);
    const hits = raycaster.intersectObject(target.object, target.part === 'mesh');
    for (const hit of hits) {
      if (target.part === 'mesh' && !(hit.object as { isMesh?: boolean }).isMesh) continue;
      if (!Number.isFinite(hit.distance) || hit.distance < 0) continue;
      if (!best || hit.distance < best.distance) {
        let normal: Vector3 | null = null;
        if (target.part === 'mesh' && hit.face) {
          normal = hit.face.normal.clone().transformDirection(hit.object.matrixWorld);
          if (normal.dot(raycaster.ray.direction) > 0) normal.negate(); // the side the view looks at
        }
        best = { part: target.part, point: hit.point.clone(), distance: hit.distance, normal };
      }
      break; // intersectObject sorts by distance: the first usable hit is this target's nearest
    }
  }
  return best;
}

/**
 * A world point in the model coordinates of a frame group (the group's inverse world matrix).
 * @param world world units
 * @param frame the part's frame group (the splat's or the GLB's), its world matrix up to date
 */
export function worldToModel(world: Vector3, frame: Object3D): ModelPoint {
  frame.updateMatrixWorld(true);
  const local = world.clone().applyMatrix4(new Matrix4().copy(frame.matrixWorld).invert());
  return { x: local.x, y: local.y, z: local.z };
}

/**
 * A world direction in the model coordinates of a frame group (its inverse world turn), unit length.
 * @param direction world space
 * @param frame the part's frame group, its world matrix up to date
 */
export function worldDirectionToModel(direction: Vector3, frame: Object3D): ModelPoint {
  frame.updateMatrixWorld(true);
  const local = direction.clone().transformDirection(new Matrix4().copy(frame.matrixWorld).invert());
  return { x: local.x, y: local.y, z: local.z };
}

/**
 * A model point in world units (the frame group's world matrix).
 * @param point model coordinates
 * @param frame the frame group
 */
export function modelToWorld(point: ModelPoint, frame: Object3D): Vector3 {
  frame.updateMatrixWorld(true);
  return new Vector3(point.x, point.y, point.z).applyMatrix4(frame.matrixWorld);
}

/**
 * The displayed up axis (world +Y) in a frame's model coordinates, unit length (for the
 * 'height' measurement): (0, −1, 0) for a splat shown with the y-down fix.
 * @param frame the model's frame group
 */
export function upInModel(frame: Object3D): ModelPoint {
  frame.updateMatrixWorld(true);
  const rotation = new Quaternion();
  frame.matrixWorld.decompose(new Vector3(), rotation, new Vector3());
  const up = new Vector3(0, 1, 0).applyQuaternion(rotation.invert()).normalize();
  // No −0 in stored or shown values.
  return { x: up.x + 0, y: up.y + 0, z: up.z + 0 };
}

/** Where the camera goes to look at a point (see {@link flyToPlacement}). */
export interface FlyTo {
  position: Vector3;
  quaternion: Quaternion;
  target: Vector3;
}

/**
 * The camera placement of a flight to a point: the orbit target moves onto the point, the camera
 * keeps its viewing direction and comes to `distance` from it (never further than it is now from
 * its target), looking at it with +Y up.
 * @param position the camera's position now (world)
 * @param target its orbit target now (world)
 * @param point the point to look at (world)
 * @param distance the wanted distance from the point, world units (> 0)
 */
export function flyToPlacement(position: Vector3, target: Vector3, point: Vector3, distance: number): FlyTo {
  const back = position.clone().sub(target);
  const now = back.length();
  if (now < 1e-9) back.set(0, 0, 1);
  back.normalize();
  const d = Math.max(Math.min(distance, now > 1e-9 ? now : distance), 1e-6);
  const to = point.clone().addScaledVector(back, d);
  const look = new Matrix4().lookAt(to, point, new Vector3(0, 1, 0));
  return { position: to, quaternion: new Quaternion().setFromRotationMatrix(look), target: point.clone() };
}
