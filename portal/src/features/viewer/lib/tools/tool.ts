/**
 * What a viewer tool is and what it may use of the engine. A tool draws or answers something over
 * the model (picking a point, markers, the camera poses of the photos); the engine creates its
 * tools, calls {@link ViewerTool.beforeFrame} before every frame, hands canvas clicks to the one
 * active tool ({@link ViewerTool.click}) and disposes them with itself.
 */
import type { Group, Scene } from 'three';
import type { CameraRig } from '../camera-rig.js';
import type { Bounds } from '../framing.js';
import type { PickTarget } from '../picking.js';

/** One tool of a viewport's engine. */
export interface ViewerTool {
  /** Runs before every frame is drawn (e.g. keeps screen-sized markers their size). */
  beforeFrame?(): void;
  /**
   * A click on the canvas (a press and release of the main button that did not drag) while this
   * is the engine's active tool.
   * @param x CSS pixels from the canvas's left edge
   * @param y CSS pixels from its top edge
   */
  click?(x: number, y: number): void;
  /** Frees what the tool added to the scene; called once, by the engine's dispose. */
  dispose(): void;
}

/** The engine as its tools see it. */
export interface ToolHost {
  readonly scene: Scene;
  readonly canvas: HTMLCanvasElement;
  readonly rig: CameraRig;
  /** The splat's frame: turns with the up-axis fix. */
  readonly splatGroup: Group;
  /** The GLB's frame. */
  readonly meshGroup: Group;
  /** True once the engine is disposed: a tool then does nothing. */
  readonly disposed: boolean;
  /** Asks for a frame. */
  requestRender(): void;
  /** The group whose inverse world matrix turns world points into model coordinates. */
  modelFrame(): Group;
  /** The box to frame the model by, world units (null before anything is loaded). */
  framingBounds(): Bounds | null;
  /** The loaded parts a pick ray may hit, with whether each is shown. */
  pickTargets(): PickTarget[];
}

/** A pointer that moved less than this between press and release clicked, CSS pixels. */
const CLICK_SLOP = 5;

/**
 * Listens for clicks on a canvas: a press and release of the main button (primary pointer) that
 * moved less than 5 CSS pixels, so that a drag (an orbit) is never a click.
 * @param canvas the canvas
 * @param onClick called with the click's position from the canvas's top-left corner, CSS pixels
 * @returns a function that stops listening
 */
export function listenForClicks(canvas: HTMLCanvasElement, onClick: (x: number, y: number) => void): () => void {
  let press: { x: number; y: number; id: number } | null = null;
  const down = (event: PointerEvent): void => {
    press = event.button === 0 && event.isPrimary ? { x: event.clientX, y: event.clientY, id: event.pointerId } : null;
  };
  const up = (event: PointerEvent): void => {
    const pressed = press;
    press = null;
    if (!pressed || pressed.id !== event.pointerId || Math.hypot(event.clientX - pressed.x, event.clientY - pressed.y) > CLICK_SLOP) return;
    const rect = canvas.getBoundingClientRect();
    onClick(event.clientX - rect.left, event.clientY - rect.top);
  };
  canvas.addEventListener('pointerdown', down);
  canvas.addEventListener('pointerup', up);
  return () => {
    canvas.removeEventListener('pointerdown', down);
    canvas.removeEventListener('pointerup', up);
  };
}
