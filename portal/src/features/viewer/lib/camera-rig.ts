/**
 * The camera of one viewport and every way it moves: OrbitControls for the pointer, the fit on
 * the model and the home view it returns to, keyboard and toolbar steps (view-keys.ts), flights
 * to a point or to a photo's camera (a jump instead under reduced motion), and following another
 * viewport's camera (linked compare viewports). No renderer here: the engine draws with
 * {@link CameraRig.camera} and calls {@link CameraRig.step} before each frame.
 */
import { PerspectiveCamera, Vector3, type Object3D, type Quaternion } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import type { ModelPoint } from '@shared/types.js';
import { fitCamera, type Bounds, type Vec3 } from './framing.js';
import { flyToPlacement, modelToWorld } from './picking.js';
import { viewActionForKey, type ViewAction } from './view-keys.js';

/** Vertical field of view of the viewer's camera, degrees (a photo's own while looking through it). */
export const DEFAULT_FOV = 50;

/** The direction the camera looks from, towards the model's centre: a three-quarter view from above. */
const VIEW_DIRECTION: Vec3 = [1, 0.6, 1.4];

/** How long a flight to a photo's camera or a point takes, ms (none when the user prefers reduced motion). */
const FLIGHT_MS = 700;

/**
 * A flight to a picked point ends this far from it: a fraction of the framed model's radius
 * (never further than the camera already was).
 */
const FLY_TO_POINT_FRACTION = 0.35;

/** A camera placement: position, orientation, vertical field of view (degrees) and orbit target, world units. */
export interface Placement {
  position: Vector3;
  quaternion: Quaternion;
  fov: number;
  target: Vector3;
}

/** What the rig asks of the engine it belongs to. */
export interface RigHost {
  /** Asks for a frame. */
  requestRender(): void;
  /** The box to frame the model by, world units (null before anything is loaded). */
  framingBounds(): Bounds | null;
  /** The group whose frame is the model's coordinate frame (points given in model coordinates are in it). */
  modelFrame(): Object3D;
}

/**
 * One viewport's camera, orbit controls, home view and flights.
 * Call {@link dispose} when the engine goes.
 */
export class CameraRig {
  readonly camera = new PerspectiveCamera(DEFAULT_FOV, 1, 0.01, 10_000);
  readonly controls: OrbitControls;
  /** Called when the user (or the keyboard, or a flight) moves this camera, for linked compare viewports; not for {@link follow}. */
  onChange: (() => void) | null = null;
  private home: { position: Vector3; target: Vector3 } | null = null;
  private flight: { from: Placement; to: Placement; start: number; duration: number } | null = null;
  private syncing = false;
  private disposed = false;

  /**
   * @param canvas the canvas the pointer drives the orbit on
   * @param host the engine: frames, the framing box, the model's frame
   */
  constructor(
    canvas: HTMLCanvasElement,
    private readonly host: RigHost,
  ) {
    this.camera.position.set(4, 3, 6);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => {
      host.requestRender();
      if (!this.syncing) this.onChange?.();
    });
    // The user takes over: a flight in progress stops where it is.
    this.controls.addEventListener('start', () => (this.flight = null));
  }

  /** Whether a camera flight is under way (tests read it as `data-flight`); the engine keeps drawing meanwhile. */
  get flying(): boolean {
    return this.flight !== null;
  }

  /**
   * The camera's position and orbit target, rounded to 1e-4 world units, as
   * `"x,y,z|tx,ty,tz"`: equal strings mean the same view (tests read it as `data-camera`).
   */
  state(): string {
    const round = (v: Vector3) => v.toArray().map((n) => (Math.round(n * 1e4) / 1e4).toString());
    return `${round(this.camera.position).join(',')}|${round(this.controls.target).join(',')}`;
  }

  /** Follows the canvas's shape: `aspect` is its width over its height. */
  setAspect(aspect: number): void {
    this.camera.aspect = aspect;
    this.camera.updateProjectionMatrix();
  }

  /** The camera's placement now (copies). */
  placement(): Placement {
    return {
      position: this.camera.position.clone(),
      quaternion: this.camera.quaternion.clone(),
      fov: this.camera.fov,
      target: this.controls.target.clone(),
    };
  }

  private place(p: Placement): void {
    this.camera.position.copy(p.position);
    this.camera.quaternion.copy(p.quaternion);
    if (this.camera.fov !== p.fov) {
      this.camera.fov = p.fov;
      this.camera.updateProjectionMatrix();
    }
    this.controls.target.copy(p.target);
  }

  /** Moves a flight on to where it is now (eased in and out); the engine calls it before each frame. */
  step(): void {
    const flight = this.flight;
    if (!flight) return;
    const t = Math.min(1, (performance.now() - flight.start) / flight.duration);
    const k = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2; // ease in and out
    this.place({
      position: flight.from.position.clone().lerp(flight.to.position, k),
      quaternion: flight.from.quaternion.clone().slerp(flight.to.quaternion, k),
      fov: flight.from.fov + (flight.to.fov - flight.from.fov) * k,
      target: flight.from.target.clone().lerp(flight.to.target, k),
    });
    if (t >= 1) this.flight = null;
    this.onChange?.();
  }

  /**
   * Takes the camera to a placement: a short flight, or a jump when `animate` is false.
   * @param to where to, world units
   * @param animate fly or jump
   * @param orbit after a jump, let the orbit controls settle on the new target (they level the
   *   horizon: false keeps a photo's roll until the next orbit)
   */
  moveTo(to: Placement, animate: boolean, orbit = false): void {
    if (animate) {
      this.flight = { from: this.placement(), to, start: performance.now(), duration: FLIGHT_MS };
    } else {
      this.flight = null;
      this.place(to);
      if (orbit) this.controls.update();
      this.onChange?.();
    }
    this.host.requestRender();
  }

  /**
   * Points the camera at the model (the engine's framing box) from a three-quarter view, close
   * enough to fill the view and far enough to see all of it. Does nothing before a model is loaded.
   * @param asHome make this view the home view of {@link reset} (the first fit always does)
   */
  fit(asHome = false): void {
    this.fitTo(this.host.framingBounds(), asHome);
  }

  /**
   * Points the camera at a box, world units (e.g. the union of two models' framing boxes in
   * compare mode), as {@link fit} does; nothing for null.
   * @param asHome make this view the home view of {@link reset}
   */
  fitTo(bounds: Bounds | null, asHome = false): void {
    if (!bounds) return;
    this.flight = null;
    this.camera.fov = DEFAULT_FOV;
    const fit = fitCamera(bounds, VIEW_DIRECTION, [0, 1, 0], this.camera.fov, this.camera.aspect);
    this.camera.position.set(...fit.position);
    this.camera.near = Math.max(fit.distance / 1000, 1e-4);
    this.camera.far = fit.distance + fit.radius * 50;
    this.camera.updateProjectionMatrix();
    this.controls.target.set(...fit.target);
    this.controls.maxDistance = fit.distance * 20;
    this.controls.update();
    if (asHome || !this.home) this.home = { position: this.camera.position.clone(), target: this.controls.target.clone() };
    this.host.requestRender();
  }

  /** Back to the view of the first {@link fit} (fits when there is none yet). */
  reset(): void {
    if (!this.home) return this.fit();
    this.flight = null;
    if (this.camera.fov !== DEFAULT_FOV) {
      this.camera.fov = DEFAULT_FOV;
      this.camera.updateProjectionMatrix();
    }
    this.camera.position.copy(this.home.position);
    this.controls.target.copy(this.home.target);
    this.controls.update();
    this.host.requestRender();
  }

  /**
   * A key pressed on the focused canvas: the navigation step it stands for (view-keys.ts), done.
   * @param event the key event (its key and modifiers)
   * @returns true when the key moved the view (the caller then keeps the browser from using it),
   *   false for a key the view does not use (Tab, Ctrl/Cmd/Alt shortcuts…)
   */
  handleKey(event: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'ctrlKey' | 'metaKey' | 'altKey'>): boolean {
    const action = viewActionForKey(event);
    if (!action) return false;
    this.perform(action);
    return true;
  }

  /**
   * One step of keyboard or button navigation (see view-keys.ts): orbit 15° about the target,
   * pan 5% of the distance, zoom ×0.85 / ÷0.85 of the distance, fit, or reset. Linked compare
   * viewports follow (OrbitControls' 'change').
   * @param action what to do
   */
  perform(action: ViewAction): void {
    if (action.kind === 'fit') return this.fit();
    if (action.kind === 'reset') return this.reset();
    this.flight = null;
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    const step = Math.PI / 12;
    const { direction } = action;
    if (action.kind === 'zoom') {
      offset.multiplyScalar(direction === 'in' ? 0.85 : 1 / 0.85);
      this.camera.position.copy(target).add(offset);
    } else if (action.kind === 'pan') {
      this.camera.updateMatrixWorld();
      const distance = offset.length() * 0.05;
      const right = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0).multiplyScalar(distance);
      const up = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 1).multiplyScalar(distance);
      const move = direction === 'left' ? right.negate() : direction === 'right' ? right : direction === 'up' ? up : up.negate();
      this.camera.position.add(move);
      target.add(move);
    } else if (direction === 'left' || direction === 'right') {
      offset.applyAxisAngle(new Vector3(0, 1, 0), direction === 'left' ? -step : step);
      this.camera.position.copy(target).add(offset);
    } else {
      this.camera.updateMatrixWorld();
      const right = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
      const turned = offset.clone().applyAxisAngle(right, direction === 'up' ? -step : step);
      // Stop short of the poles (OrbitControls would flip over them).
      if (Math.abs(turned.clone().normalize().y) < 0.995) offset.copy(turned);
      this.camera.position.copy(target).add(offset);
    }
    // OrbitControls.update() dispatches 'change': a frame, and the linked viewport follows.
    this.controls.update();
  }

  /**
   * Moves the orbit target onto a point and the camera closer to it (to about a third of the
   * model's radius, never further than it is), keeping the direction it looks from: a short
   * flight, or a jump when `animate` is false (the viewport passes false under
   * `prefers-reduced-motion: reduce`). Nothing for a point with a non-finite coordinate.
   * @param point model coordinates
   * @param animate fly (default) or jump
   */
  flyToPoint(point: ModelPoint, animate = true): void {
    if (this.disposed || ![point.x, point.y, point.z].every(Number.isFinite)) return;
    const world = modelToWorld(point, this.host.modelFrame());
    const bounds = this.host.framingBounds();
    const now = this.camera.position.distanceTo(this.controls.target);
    const radius = bounds ? new Vector3().fromArray(bounds.max).distanceTo(new Vector3().fromArray(bounds.min)) / 2 : now;
    const distance = Math.max(radius * FLY_TO_POINT_FRACTION, 1e-4);
    const fly = flyToPlacement(this.camera.position, this.controls.target, world, distance);
    const to: Placement = { ...fly, fov: this.camera.fov };
    const reach = to.position.distanceTo(to.target);
    if (this.camera.near > reach / 20) {
      this.camera.near = Math.max(reach / 1000, 1e-5);
      this.camera.updateProjectionMatrix();
    }
    this.moveTo(to, animate, true);
  }

  /** Copies another rig's camera and orbit target (linked compare viewports), without echoing back through {@link onChange}. */
  follow(other: CameraRig): void {
    if (this.disposed) return;
    this.syncing = true;
    try {
      this.camera.position.copy(other.camera.position);
      this.camera.quaternion.copy(other.camera.quaternion);
      this.camera.near = other.camera.near;
      this.camera.far = other.camera.far;
      this.camera.fov = other.camera.fov;
      this.camera.updateProjectionMatrix();
      this.controls.target.copy(other.controls.target);
      this.controls.maxDistance = other.controls.maxDistance;
      this.controls.update();
    } finally {
      this.syncing = false;
    }
    this.host.requestRender();
  }

  /** Stops any flight and releases the pointer listeners of the orbit controls. */
  dispose(): void {
    this.disposed = true;
    this.flight = null;
    this.controls.dispose();
  }
}
