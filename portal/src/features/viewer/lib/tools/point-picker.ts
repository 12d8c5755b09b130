/**
 * The picking tool: the point of the model under a canvas position (Spark's splat raycasting,
 * three's raycaster on the GLB's meshes), in model coordinates, reported to the viewport through
 * {@link PointPicker.onPicked}. As the active tool it picks on every click; P (the viewport's key)
 * and the measure tool's button pick at the centre of the view.
 */
import type { ModelPoint } from '@shared/types.js';
import { nearestHit, upInModel, worldDirectionToModel, worldToModel, type PickResult } from '../picking.js';
import type { ToolHost, ViewerTool } from './tool.js';

/** Picks points of the model of one engine. */
export class PointPicker implements ViewerTool {
  /**
   * Called by {@link pickAndReport} and {@link pickCentre} with what they picked (null: the ray
   * missed the model); the viewport shows it and hands it on.
   */
  onPicked: ((pick: PickResult | null) => void) | null = null;

  /** @param host the engine */
  constructor(private readonly host: ToolHost) {}

  /**
   * The point of the model under a canvas position: the nearest hit of the visible parts, in
   * model coordinates (the model frame's turn undone). Camera frustums and markers are never hit.
   * @param x CSS pixels from the canvas's left edge
   * @param y CSS pixels from its top edge
   * @returns the point and the part it is on, or null when the ray misses the model
   */
  pick(x: number, y: number): PickResult | null {
    const { host } = this;
    if (host.disposed) return null;
    const camera = host.rig.camera;
    camera.updateMatrixWorld();
    const hit = nearestHit(camera, x, y, host.canvas.clientWidth, host.canvas.clientHeight, host.pickTargets());
    if (!hit) return null;
    const frame = host.modelFrame();
    return { point: worldToModel(hit.point, frame), part: hit.part, normal: hit.normal ? worldDirectionToModel(hit.normal, frame) : null };
  }

  /**
   * {@link pick}, then tells {@link onPicked}.
   * @returns the pick, or null for a miss
   */
  pickAndReport(x: number, y: number): PickResult | null {
    const pick = this.pick(x, y);
    if (!this.host.disposed) this.onPicked?.(pick);
    return pick;
  }

  /** Picks the point at the centre of the view (the keyboard's pick: P, or a button) and tells {@link onPicked}. */
  pickCentre(): PickResult | null {
    return this.pickAndReport(this.host.canvas.clientWidth / 2, this.host.canvas.clientHeight / 2);
  }

  /** A click picks the point under it (see {@link pickAndReport}). */
  click(x: number, y: number): void {
    this.pickAndReport(x, y);
  }

  /** The displayed up axis (world +Y) in model coordinates, unit length: what 'Height difference' measures along. */
  modelUp(): ModelPoint {
    return upInModel(this.host.modelFrame());
  }

  /** Forgets the listener (the tool adds nothing to the scene). */
  dispose(): void {
    this.onPicked = null;
  }
}
