/**
 * The camera-poses tool: the cameras the photos were taken from, drawn as frustums in the frame
 * of the file their metadata belongs to (camera-overlay.ts draws them), one of them highlighted,
 * a flight to look through one as its photo was taken, and a view that frames them all. As the
 * active tool a click selects the frustum under it ({@link CameraPosesTool.onPicked}).
 */
import { Quaternion, Vector3 } from 'three';
import { cameraView, type Quat } from '@shared/camera-poses.js';
import type { Placement } from '../camera-rig.js';
import { CameraOverlay, type OverlayCamera } from '../camera-overlay.js';
import type { Vec3 } from '../framing.js';
import type { ToolHost, ViewerTool } from './tool.js';

/** The camera frustums of one engine. */
export class CameraPosesTool implements ViewerTool {
  /** Called with the index of the camera whose frustum was clicked (nothing for a click that hits none). */
  onPicked: ((index: number) => void) | null = null;
  private overlay: CameraOverlay | null = null;

  /** @param host the engine */
  constructor(private readonly host: ToolHost) {}

  /**
   * Draws the camera poses of the model's camera metadata as frustums in the frame of the file
   * they belong to (a splat's cameras turn with the up-axis fix), replacing any drawn before; null
   * removes them.
   * @param cameras the cameras, in the order the UI lists them (indexes below refer to it)
   * @param part the file the camera metadata was computed with: the splat, or the mesh of a GLB-only model
   * @returns for each camera, whether it could be drawn (a malformed rotation cannot)
   */
  set(cameras: readonly OverlayCamera[] | null, part: 'splat' | 'mesh' = 'splat'): boolean[] {
    this.overlay?.dispose();
    this.overlay = null;
    if (cameras) {
      this.overlay = new CameraOverlay(cameras);
      (part === 'splat' ? this.host.splatGroup : this.host.meshGroup).add(this.overlay.group);
    }
    this.host.requestRender();
    return this.overlay?.drawn ?? [];
  }

  /** Shows or hides the camera frustums (picking ignores hidden ones). */
  setVisible(visible: boolean): void {
    if (this.overlay) this.overlay.group.visible = visible;
    this.host.requestRender();
  }

  /**
   * The camera whose frustum is under a canvas point (see {@link CameraOverlay.pick}).
   * @param x CSS pixels from the canvas's left edge
   * @param y CSS pixels from its top edge
   * @returns the camera's index in {@link set}'s list, or null
   */
  pick(x: number, y: number): number | null {
    const { canvas, rig } = this.host;
    rig.camera.updateMatrixWorld();
    return this.overlay?.pick(rig.camera, x, y, canvas.clientWidth, canvas.clientHeight) ?? null;
  }

  /** A click selects the camera whose frustum is under it, through {@link onPicked}. */
  click(x: number, y: number): void {
    const index = this.pick(x, y);
    if (index !== null) this.onPicked?.(index);
  }

  /** Highlights one camera's frustum, or none (null). */
  select(index: number | null): void {
    this.overlay?.select(index);
    this.host.requestRender();
  }

  /**
   * Moves the view to a camera's pose and lens, looking through it as its photo was taken (the
   * orbit target ahead of it, at the model's depth): a short flight, or a jump when `animate` is
   * false (the viewport passes false under `prefers-reduced-motion: reduce`). The next orbit keeps
   * the position and target and levels the horizon.
   * @param index the camera's index in {@link set}'s list
   * @param animate fly (default) or jump
   * @returns false when there is no such drawn camera
   */
  viewFrom(index: number, animate = true): boolean {
    const overlay = this.overlay;
    const entry = overlay?.entryAt(index);
    if (!overlay || !entry) return false;
    const group = overlay.group.parent ?? this.host.splatGroup;
    group.updateMatrixWorld(true);
    let view;
    try {
      view = cameraView(entry, group.quaternion.toArray() as Quat);
    } catch {
      return false;
    }
    // The frame groups sit at the scene's origin and only turn: the turned pose is the world pose.
    const position = new Vector3().fromArray(view.position);
    const quaternion = new Quaternion().fromArray(view.quaternion);
    const forward = new Vector3(0, 0, -1).applyQuaternion(quaternion);
    // Orbit about the point of the model straight ahead: the framing box's centre, projected onto the view axis.
    const bounds = this.host.framingBounds();
    let distance = overlay.depth * 4;
    if (bounds) {
      const centre = new Vector3().fromArray(bounds.min).add(new Vector3().fromArray(bounds.max)).multiplyScalar(0.5);
      const ahead = centre.sub(position).dot(forward);
      if (ahead > overlay.depth) distance = ahead;
    }
    const to: Placement = { position, quaternion, fov: view.fovYDegrees, target: position.clone().addScaledVector(forward, distance) };
    const camera = this.host.rig.camera;
    camera.near = Math.min(camera.near, overlay.depth / 10);
    camera.updateProjectionMatrix();
    this.host.rig.moveTo(to, animate);
    return true;
  }

  /**
   * Frames the drawn camera poses (their centres, padded by the frustum depth), so that every
   * camera can be seen and clicked, whatever the size of the model around or beside them.
   */
  fitAll(): void {
    const cameras = this.overlay?.worldBounds() ?? null;
    if (!cameras || !this.overlay) return;
    const d = this.overlay.depth;
    this.host.rig.fitTo({ min: cameras.min.map((v) => v - d) as Vec3, max: cameras.max.map((v) => v + d) as Vec3 }, false);
  }

  /** Frees the frustums. */
  dispose(): void {
    this.overlay?.dispose();
    this.overlay = null;
  }
}
