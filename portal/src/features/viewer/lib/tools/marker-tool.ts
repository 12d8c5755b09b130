/**
 * The markers tool: findings, measurements and carried-over findings drawn over the model
 * (markers.ts draws them), kept turned like the model's frame and sized for the camera before
 * every frame.
 */
import { MarkerLayer, type ViewerMarker } from '../markers.js';
import type { ToolHost, ViewerTool } from './tool.js';

/** The markers of one engine. */
export class MarkerTool implements ViewerTool {
  private readonly layer = new MarkerLayer();

  /** @param host the engine; the markers' group is added to its scene here */
  constructor(private readonly host: ToolHost) {
    host.scene.add(this.layer.group);
  }

  /**
   * Draws markers over the model (points as spheres that keep their size on screen, polylines as
   * lines), replacing those drawn before; an empty list removes them.
   * @param markers points in model coordinates
   */
  set(markers: readonly ViewerMarker[]): void {
    if (this.host.disposed) return;
    this.layer.set(markers);
    this.host.requestRender();
  }

  /** The markers drawn now (as last given to {@link set}). */
  get list(): readonly ViewerMarker[] {
    return this.layer.markers;
  }

  /** Keeps the markers turned like the model's frame and sized for the camera. */
  beforeFrame(): void {
    const group = this.layer.group;
    const frame = this.host.modelFrame();
    if (!group.quaternion.equals(frame.quaternion) || !group.position.equals(frame.position)) {
      group.quaternion.copy(frame.quaternion);
      group.position.copy(frame.position);
      group.updateMatrixWorld(true);
    }
    this.layer.update(this.host.rig.camera, this.host.canvas.clientHeight);
  }

  /** Frees the markers' geometries and materials. */
  dispose(): void {
    this.layer.dispose();
  }
}
