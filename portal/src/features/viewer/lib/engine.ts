/**
 * The 3D engine of one viewport: a three.js scene rendered by a WebGLRenderer on one canvas,
 * Gaussian splats through Spark (`SparkRenderer` + `SplatMesh`), GLB meshes through three's
 * `GLTFLoader` (with the Draco and meshopt decoders that ship with the build, never fetched from
 * a CDN), OrbitControls, framing on the model, the y-down fix of 3DGS output, and on-demand
 * rendering: a frame is drawn when the camera, the scene or the size changes, when Spark says a
 * new splat order is ready (`onDirty`), continuously while files load and for about a second
 * after; then the loop sleeps. Inspection (issue 18): picking a point ({@link ViewerEngine.pickPoint},
 * in model coordinates), markers ({@link ViewerEngine.setMarkers}), a flight to a point and the
 * displayed up axis in model coordinates. No React here: the viewport component owns one engine per canvas.
 */
import { SparkRenderer, SplatMesh } from '@sparkjsdev/spark';
import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  Group,
  LoadingManager,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
  type Material,
  type Mesh,
  type Object3D,
  type Texture,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
// The glTF-only Draco decoder, emitted by Vite as assets of this chunk (`?url`): served by the
// portal itself in dev and in the build, so a Draco GLB never reaches for a CDN.
import dracoWasmWrapperUrl from 'three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js?url';
import dracoDecoderWasmUrl from 'three/examples/jsm/libs/draco/gltf/draco_decoder.wasm?url';
import { cameraView, type Quat } from '@shared/camera-poses.js';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';
import { CameraOverlay, type OverlayCamera } from './camera-overlay.js';
import { MarkerLayer, type ViewerMarker } from './markers.js';
import { worldDirectionToModel, flyToPlacement, modelToWorld, nearestHit, upInModel, worldToModel, type PickResult } from './picking.js';
import type { ViewAction } from './view-keys.js';
import { fitCamera, framingBox, padBounds, SPLAT_FRAMING_PADDING, unionBounds, type Bounds, type Vec3 } from './framing.js';
import type { ModelPoint } from '@shared/types.js';

export type { PickResult } from './picking.js';
export type { MarkerTone, ViewerMarker } from './markers.js';

/** Background of every viewport (dark neutral, so splats and meshes both read). */
export const VIEWPORT_BACKGROUND = 0x1b1f24;

/** The direction the camera looks from, towards the model's centre: a three-quarter view from above. */
const VIEW_DIRECTION: Vec3 = [1, 0.6, 1.4];

/** How long frames keep coming after a load, in ms (Spark sorts the new splats on later frames). */
const FRAMES_AFTER_LOAD_MS = 1000;
/** Frames drawn after a load at least, however slow each frame is (software WebGL: seconds each). */
const MIN_FRAMES_AFTER_LOAD = 3;

/**
 * A splat of more Gaussians than this is drawn through a level-of-detail tree (Spark's own,
 * built in its worker after the file is read): each frame draws the Gaussians that cover at least
 * a pixel, within Spark's splat budget for the platform, so orbiting a capture of millions stays
 * interactive. Smaller splats are drawn whole (building the tree would cost more than it saves).
 * The same threshold as a capture's preview: a capture big enough to need a preview needs LoD.
 */
export const LOD_ABOVE_GAUSSIANS = LARGE_CAPTURE_GAUSSIANS;

/**
 * Level-of-detail splat budget when WebGL runs in software (SwiftShader, llvmpipe: no GPU, or a
 * blocked one): every Gaussian drawn costs CPU time there, so the budget is a tenth of Spark's
 * desktop default (2.5 M), as Spark itself lowers it for weaker platforms. With a GPU, Spark's own
 * platform budgets apply.
 */
export const SOFTWARE_LOD_SPLATS = 250_000;

/** Splat centres read to frame a model, at most (a strided sample of bigger splats). */
const FRAMING_SAMPLE = 65_536;

/** Vertical field of view of the viewer's camera, degrees (a photo's own while looking through it). */
const DEFAULT_FOV = 50;

/** How long a flight to a photo's camera takes, ms (none when the user prefers reduced motion). */
const FLIGHT_MS = 700;

/**
 * A flight to a picked point ends this far from it: a fraction of the framed model's radius
 * (never further than the camera already was).
 */
const FLY_TO_POINT_FRACTION = 0.35;

/** A pointer that moved less than this between press and release clicked, CSS pixels. */
const CLICK_SLOP = 5;

/** A camera placement: position, orientation, vertical field of view (degrees) and orbit target. */
interface Placement {
  position: Vector3;
  quaternion: Quaternion;
  fov: number;
  target: Vector3;
}

/**
 * One viewport's scene, camera, controls and renderer.
 * Call {@link dispose} when the canvas goes away.
 */
export class ViewerEngine {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(DEFAULT_FOV, 1, 0.01, 10_000);
  readonly controls: OrbitControls;
  /**
   * The splat's frame: holds the splat, and turns with the up-axis fix. Overlays drawn in the
   * splat's coordinates (e.g. camera poses of its training photos) go here.
   */
  readonly splatGroup = new Group();
  /** The GLB's frame: holds the GLB scene (turned only for a GLB-only model whose up axis was flipped). */
  readonly meshGroup = new Group();
  /** World-space overlays (not turned, not framed). */
  readonly overlayGroup = new Group();
  /** Frames drawn so far (tests wait for one: `data-rendered-frames`). */
  renderedFrames = 0;
  /** How long building the level-of-detail tree of the last large splat took, ms (null: none built). */
  lodBuildMs: number | null = null;
  /** True when WebGL runs in software (no GPU): level of detail then draws within {@link SOFTWARE_LOD_SPLATS}. */
  readonly software: boolean;
  /** Called after every drawn frame. */
  onFrame: (() => void) | null = null;
  /** Called when the user (or the keyboard) moves this camera, for linked compare viewports; not for {@link followCamera}. */
  onCameraChange: (() => void) | null = null;
  /**
   * Called for a click on the canvas (a press and release of the main button that did not drag),
   * with its position from the canvas's top-left corner in CSS pixels.
   */
  onClick: ((x: number, y: number) => void) | null = null;
  /**
   * Called by {@link pickAndReport} and {@link pickCentre} with what they picked (null: the ray
   * missed the model); the viewport shows it and hands it on.
   */
  onPointPicked: ((pick: PickResult | null) => void) | null = null;

  private readonly renderer: WebGLRenderer;
  private readonly spark: SparkRenderer;
  private readonly gltfLoader: GLTFLoader;
  private readonly dracoLoader: DRACOLoader;
  private splat: SplatMesh | null = null;
  private mesh: Object3D | null = null;
  private home: { position: Vector3; target: Vector3 } | null = null;
  private frameRequest = 0;
  private renderUntil = 0;
  private framesOwed = 0;
  private frameWaiters: { frame: number; resolve: () => void }[] = [];
  private loads = 0;
  private syncing = false;
  private disposed = false;
  private cameras: CameraOverlay | null = null;
  private readonly markerLayer = new MarkerLayer();
  /** The part whose file frame is the model's coordinate frame (null: the splat when loaded, else the mesh). */
  private framePart: 'splat' | 'mesh' | null = null;
  private flight: { from: Placement; to: Placement; start: number; duration: number } | null = null;
  private press: { x: number; y: number; id: number } | null = null;
  /** framingBounds() of the current files, turns and visibility (it reads up to 65,536 splats). */
  private framingCache: { key: string; bounds: Bounds | null } | null = null;

  /**
   * @param canvas the canvas to draw on (sized by CSS; {@link resize} follows it). The engine
   * owns its WebGL context: after {@link dispose} the canvas cannot be drawn on again.
   */
  constructor(private readonly canvas: HTMLCanvasElement) {
    // preserveDrawingBuffer: the canvas can be read back after a frame (screenshots, pixel tests).
    this.renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color(VIEWPORT_BACKGROUND);
    this.software = isSoftwareRenderer(this.renderer);
    this.spark = new SparkRenderer({
      renderer: this.renderer,
      onDirty: () => this.requestRender(),
      ...(this.software ? { lodSplatCount: SOFTWARE_LOD_SPLATS } : {}),
    });
    this.scene.add(this.spark, this.splatGroup, this.meshGroup, this.overlayGroup, this.markerLayer.group);
    this.scene.add(new AmbientLight(0xffffff, 1.6));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(3, 5, 4);
    this.scene.add(sun);
    this.camera.position.set(4, 3, 6);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => {
      this.requestRender();
      if (!this.syncing) this.onCameraChange?.();
    });
    // The user takes over: a flight in progress stops where it is.
    this.controls.addEventListener('start', () => (this.flight = null));
    canvas.addEventListener('pointerdown', this.onPointerDown);
    canvas.addEventListener('pointerup', this.onPointerUp);
    const manager = new LoadingManager();
    this.dracoLoader = new DRACOLoader(manager).setDecoderPath({ js: dracoWasmWrapperUrl, wasm: dracoDecoderWasmUrl });
    this.gltfLoader = new GLTFLoader(manager).setDRACOLoader(this.dracoLoader).setMeshoptDecoder(MeshoptDecoder);
    this.resize();
  }

  /**
   * Asks for a frame, and keeps frames coming for `ms` more milliseconds.
   * @param ms how long to keep drawing after this call (0: one frame)
   */
  requestRender(ms = 0): void {
    if (this.disposed) return;
    this.renderUntil = Math.max(this.renderUntil, performance.now() + ms);
    this.framesOwed = Math.max(this.framesOwed, 1);
    this.schedule();
  }

  private schedule(): void {
    if (this.frameRequest === 0 && !this.disposed) this.frameRequest = requestAnimationFrame(this.drawFrame);
  }

  private readonly onPointerDown = (event: PointerEvent): void => {
    this.press = event.button === 0 && event.isPrimary ? { x: event.clientX, y: event.clientY, id: event.pointerId } : null;
  };

  private readonly onPointerUp = (event: PointerEvent): void => {
    const press = this.press;
    this.press = null;
    if (!press || press.id !== event.pointerId || Math.hypot(event.clientX - press.x, event.clientY - press.y) > CLICK_SLOP) return;
    const rect = this.canvas.getBoundingClientRect();
    this.onClick?.(event.clientX - rect.left, event.clientY - rect.top);
  };

  /**
   * Resolves once `frames` more frames have been drawn (asking for them), or when the engine is
   * disposed. A large capture's full copy waits for its preview's first frames: on a slow device
   * the download, decoding and level-of-detail build would otherwise hold back the first view.
   * @param frames how many frames to wait for, 1 or more
   */
  afterFrames(frames: number): Promise<void> {
    if (this.disposed) return Promise.resolve();
    return new Promise((resolve) => {
      this.frameWaiters.push({ frame: this.renderedFrames + frames, resolve });
      this.framesOwed = Math.max(this.framesOwed, frames);
      this.schedule();
    });
  }

  private readonly drawFrame = (): void => {
    this.frameRequest = 0;
    if (this.disposed) return;
    this.framesOwed = Math.max(0, this.framesOwed - 1);
    if (this.flight) this.stepFlight();
    this.updateMarkers();
    this.renderer.render(this.scene, this.camera);
    this.renderedFrames += 1;
    this.onFrame?.();
    if (this.frameWaiters.length > 0) {
      const due = this.frameWaiters.filter((w) => w.frame <= this.renderedFrames);
      this.frameWaiters = this.frameWaiters.filter((w) => w.frame > this.renderedFrames);
      for (const waiter of due) waiter.resolve();
    }
    if (this.loads > 0 || this.framesOwed > 0 || this.flight !== null || performance.now() < this.renderUntil) this.schedule();
  };

  private placement(): Placement {
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

  private stepFlight(): void {
    const flight = this.flight!;
    const t = Math.min(1, (performance.now() - flight.start) / flight.duration);
    const k = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2; // ease in and out
    this.place({
      position: flight.from.position.clone().lerp(flight.to.position, k),
      quaternion: flight.from.quaternion.clone().slerp(flight.to.quaternion, k),
      fov: flight.from.fov + (flight.to.fov - flight.from.fov) * k,
      target: flight.from.target.clone().lerp(flight.to.target, k),
    });
    if (t >= 1) this.flight = null;
    this.onCameraChange?.();
  }

  /** Follows the canvas's CSS size (call when it changes). */
  resize(): void {
    const width = Math.max(1, this.canvas.clientWidth);
    const height = Math.max(1, this.canvas.clientHeight);
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /**
   * Marks a file download as started: frames keep coming until {@link endLoading} (Spark and the
   * progress of a load both want a live canvas).
   */
  beginLoading(): void {
    this.loads += 1;
    this.requestRender();
  }

  /** Marks a download (and its parse) as finished, successfully or not; frames continue about a second. */
  endLoading(): void {
    this.loads = Math.max(0, this.loads - 1);
    this.framesOwed = Math.max(this.framesOwed, MIN_FRAMES_AFTER_LOAD);
    this.requestRender(FRAMES_AFTER_LOAD_MS);
  }

  /**
   * Loads a Gaussian splat from its bytes (PLY of 3DGS training output with any SH degree,
   * `.splat`, `.spz`, `.ksplat`, `.sog`). A splat of more than {@link LOD_ABOVE_GAUSSIANS}
   * Gaussians gets its level-of-detail tree before it is shown (the Gaussians themselves are
   * kept: the count, framing and picking read them). A splat loaded before (e.g. the preview of a
   * large capture) is replaced: the new one is added first, then the old one removed and
   * disposed, so no frame is drawn without a splat. The camera does not move; the framing box is
   * recomputed for the new splat when next asked for (it is cached per splat), but nothing refits
   * the view.
   * @param bytes the file's content
   * @param fileName the file's name, whose extension tells Spark the format (e.g. `model.ply`)
   * @returns the number of Gaussians in the file
   * @throws Error when Spark cannot read the bytes (a splat shown before stays)
   */
  async loadSplat(bytes: Uint8Array, fileName: string): Promise<number> {
    const splat = new SplatMesh({ fileBytes: bytes, fileName });
    let count = 0;
    try {
      await splat.initialized;
      count = splat.packedSplats?.numSplats ?? splat.extSplats?.numSplats ?? 0;
      if (count === 0) splat.forEachSplat(() => (count += 1));
      if (count > LOD_ABOVE_GAUSSIANS && !this.disposed) {
        const started = performance.now();
        await splat.createLodSplats();
        this.lodBuildMs = performance.now() - started;
      }
    } catch (error) {
      splat.dispose();
      throw error;
    }
    if (this.disposed) {
      splat.dispose();
      return 0;
    }
    const previous = this.splat;
    this.splat = splat;
    this.splatGroup.add(splat);
    if (previous) {
      this.splatGroup.remove(previous);
      previous.dispose();
    }
    this.requestRender();
    return count;
  }

  /** True when the splat shown is drawn through its level-of-detail tree (see {@link LOD_ABOVE_GAUSSIANS}). */
  get lodActive(): boolean {
    const source = this.splat?.packedSplats ?? this.splat?.extSplats;
    return Boolean(source?.lodSplats);
  }

  /**
   * Loads a GLB (binary glTF; Draco- and meshopt-compressed ones included).
   * @param bytes the file's content
   * @returns the number of triangles (indexed or not, over every mesh of the scene)
   * @throws Error when the bytes are not a readable GLB
   */
  async loadGlb(bytes: Uint8Array): Promise<number> {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const gltf = await this.gltfLoader.parseAsync(buffer, '');
    if (this.disposed) {
      disposeObject(gltf.scene);
      return 0;
    }
    this.mesh = gltf.scene;
    this.meshGroup.add(gltf.scene);
    this.requestRender();
    let triangles = 0;
    gltf.scene.traverse((object) => {
      const geometry = (object as Mesh).isMesh ? (object as Mesh).geometry : null;
      if (!geometry) return;
      triangles += geometry.index ? geometry.index.count / 3 : (geometry.getAttribute('position')?.count ?? 0) / 3;
    });
    return Math.round(triangles);
  }

  /** Shows or hides the splat or the mesh (hybrid models' toggles). */
  setVisible(part: 'splat' | 'mesh', visible: boolean): void {
    (part === 'splat' ? this.splatGroup : this.meshGroup).visible = visible;
    this.requestRender();
  }

  /**
   * Turns the splat's or the mesh's frame 180° about x (`flipped`: the y-down fix,
   * quaternion (1, 0, 0, 0)) or back to as stored. Anything added to that group turns with it.
   */
  setFlipped(part: 'splat' | 'mesh', flipped: boolean): void {
    const group = part === 'splat' ? this.splatGroup : this.meshGroup;
    // (x, y, z, w) = (1, 0, 0, 0) is a 180° turn about x; (0, 0, 0, 1) none.
    if (flipped) group.quaternion.set(1, 0, 0, 0);
    else group.quaternion.set(0, 0, 0, 1);
    group.updateMatrixWorld(true);
    this.requestRender();
  }

  /**
   * The box to frame, in world space: the 10th–90th percentile of the splat centres (of a strided
   * sample of at most 65,536 of them; padded, see framing.ts) and the GLB's box; only the visible
   * parts. null before anything is loaded. Cached until a file, a turn or a visibility changes
   * (fit, compare framing and every camera flight ask for it).
   */
  framingBounds(): Bounds | null {
    const key = [
      this.splat?.uuid,
      this.mesh?.uuid,
      this.splatGroup.visible,
      this.meshGroup.visible,
      ...this.splatGroup.quaternion.toArray(),
      ...this.meshGroup.quaternion.toArray(),
    ].join('|');
    if (this.framingCache?.key !== key) this.framingCache = { key, bounds: this.computeFramingBounds() };
    return this.framingCache.bounds;
  }

  private computeFramingBounds(): Bounds | null {
    const parts: Bounds[] = [];
    if (this.splat && this.splatGroup.visible) {
      this.splat.updateMatrixWorld(true);
      const world = this.splat.matrixWorld;
      const point = new Vector3();
      const centres: number[] = [];
      // A strided sample of at most FRAMING_SAMPLE centres: percentiles of a million splats need
      // not read (and sort) all of them.
      const source = this.splat.packedSplats ?? this.splat.extSplats;
      const total = source?.numSplats ?? 0;
      if (source && total > 0) {
        const stride = Math.max(1, Math.ceil(total / FRAMING_SAMPLE));
        for (let i = 0; i < total; i += stride) {
          point.copy(source.getSplat(i).center).applyMatrix4(world);
          centres.push(point.x, point.y, point.z);
        }
      } else {
        this.splat.forEachSplat((_index, centre) => {
          point.copy(centre).applyMatrix4(world);
          centres.push(point.x, point.y, point.z);
        });
      }
      const box = framingBox(centres);
      if (box) parts.push(padBounds(box, SPLAT_FRAMING_PADDING));
    }
    if (this.mesh && this.meshGroup.visible) {
      this.mesh.updateMatrixWorld(true);
      const box = new Box3().setFromObject(this.mesh);
      if (!box.isEmpty()) parts.push({ min: box.min.toArray(), max: box.max.toArray() });
    }
    return unionBounds(parts);
  }

  /**
   * Points the camera at the model ({@link framingBounds}) from a three-quarter view, close enough
   * to fill the view and far enough to see all of it. Does nothing before a model is loaded.
   * @param asHome make this view the home view of {@link reset} (the first fit always does)
   */
  fit(asHome = false): void {
    this.fitTo(this.framingBounds(), asHome);
  }

  /**
   * Frames the drawn camera poses (their centres, padded by the frustum depth), so that every
   * camera can be seen and clicked, whatever the size of the model around or beside them.
   */
  fitToCameras(): void {
    const cameras = this.cameras?.worldBounds() ?? null;
    if (!cameras || !this.cameras) return;
    const d = this.cameras.depth;
    this.fitTo({ min: cameras.min.map((v) => v - d) as Vec3, max: cameras.max.map((v) => v + d) as Vec3 }, false);
  }

  /**
   * Points the camera at a box, world units (e.g. the union of two models' {@link framingBounds}
   * in compare mode), as {@link fit} does; nothing for null.
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
    this.requestRender();
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
    this.requestRender();
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

  /** Whether a camera flight is under way (tests read it as `data-flight`). */
  get flying(): boolean {
    return this.flight !== null;
  }

  /**
   * The camera's position and orbit target, rounded to 1e-4 world units, as
   * `"x,y,z|tx,ty,tz"`: equal strings mean the same view (tests read it as `data-camera`).
   */
  cameraState(): string {
    const round = (v: Vector3) => v.toArray().map((n) => (Math.round(n * 1e4) / 1e4).toString());
    return `${round(this.camera.position).join(',')}|${round(this.controls.target).join(',')}`;
  }

  /**
   * Draws the camera poses of the model's camera metadata as frustums in the frame of the file
   * they belong to (a splat's cameras turn with the up-axis fix), replacing any drawn before; null
   * removes them.
   * @param cameras the cameras, in the order the UI lists them (indexes below refer to it)
   * @param part the file the camera metadata was computed with: the splat, or the mesh of a GLB-only model
   * @returns for each camera, whether it could be drawn (a malformed rotation cannot)
   */
  setCameras(cameras: readonly OverlayCamera[] | null, part: 'splat' | 'mesh' = 'splat'): boolean[] {
    this.cameras?.dispose();
    this.cameras = null;
    if (cameras) {
      this.cameras = new CameraOverlay(cameras);
      (part === 'splat' ? this.splatGroup : this.meshGroup).add(this.cameras.group);
    }
    this.requestRender();
    return this.cameras?.drawn ?? [];
  }

  /** Shows or hides the camera frustums (picking ignores hidden ones). */
  setCamerasVisible(visible: boolean): void {
    if (this.cameras) this.cameras.group.visible = visible;
    this.requestRender();
  }

  /**
   * The camera whose frustum is under a canvas point (see {@link CameraOverlay.pick}).
   * @param x CSS pixels from the canvas's left edge
   * @param y CSS pixels from its top edge
   * @returns the camera's index in {@link setCameras}' list, or null
   */
  pickCamera(x: number, y: number): number | null {
    this.camera.updateMatrixWorld();
    return this.cameras?.pick(this.camera, x, y, this.canvas.clientWidth, this.canvas.clientHeight) ?? null;
  }

  /** Highlights one camera's frustum, or none (null). */
  selectCamera(index: number | null): void {
    this.cameras?.select(index);
    this.requestRender();
  }

  /**
   * Moves the view to a camera's pose and lens, looking through it as its photo was taken (the
   * orbit target ahead of it, at the model's depth): a short flight, or a jump when `animate` is
   * false (the viewport passes false under `prefers-reduced-motion: reduce`, issue 19). The next
   * orbit keeps the position and target and levels the horizon.
   * @param index the camera's index in {@link setCameras}' list
   * @param animate fly (default) or jump
   * @returns false when there is no such drawn camera
   */
  viewFromCamera(index: number, animate = true): boolean {
    const overlay = this.cameras;
    const entry = overlay?.entryAt(index);
    if (!overlay || !entry) return false;
    const group = overlay.group.parent ?? this.splatGroup;
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
    const bounds = this.framingBounds();
    let distance = overlay.depth * 4;
    if (bounds) {
      const centre = new Vector3().fromArray(bounds.min).add(new Vector3().fromArray(bounds.max)).multiplyScalar(0.5);
      const ahead = centre.sub(position).dot(forward);
      if (ahead > overlay.depth) distance = ahead;
    }
    const to: Placement = { position, quaternion, fov: view.fovYDegrees, target: position.clone().addScaledVector(forward, distance) };
    this.camera.near = Math.min(this.camera.near, overlay.depth / 10);
    this.camera.updateProjectionMatrix();
    if (animate) {
      this.flight = { from: this.placement(), to, start: performance.now(), duration: FLIGHT_MS };
    } else {
      this.flight = null;
      this.place(to);
      this.onCameraChange?.();
    }
    this.requestRender();
    return true;
  }

  /**
   * Says which file's frame is the model's coordinate frame (ARCHITECTURE "Findings"): the
   * splat's for splat and hybrid models, the GLB's for a mesh-only model. Picks are returned in
   * it and markers drawn in it. Until set: the splat's when one is loaded, else the GLB's.
   */
  setModelFrame(part: 'splat' | 'mesh'): void {
    this.framePart = part;
    this.requestRender();
  }

  /** The group whose inverse world matrix turns world points into model coordinates. */
  private modelFrame(): Group {
    const part = this.framePart ?? (this.splat ? 'splat' : 'mesh');
    return part === 'splat' ? this.splatGroup : this.meshGroup;
  }

  /** Keeps the markers turned like the model's frame and sized for the camera (before each frame). */
  private updateMarkers(): void {
    const group = this.markerLayer.group;
    const frame = this.modelFrame();
    if (!group.quaternion.equals(frame.quaternion) || !group.position.equals(frame.position)) {
      group.quaternion.copy(frame.quaternion);
      group.position.copy(frame.position);
      group.updateMatrixWorld(true);
    }
    this.markerLayer.update(this.camera, this.canvas.clientHeight);
  }

  /**
   * The point of the model under a canvas position: the nearest hit of the visible parts (Spark's
   * splat raycasting, three's raycaster on the GLB's meshes), in model coordinates (the model
   * frame's turn undone). Camera frustums and markers are never hit.
   * @param x CSS pixels from the canvas's left edge
   * @param y CSS pixels from its top edge
   * @returns the point and the part it is on, or null when the ray misses the model
   */
  pickPoint(x: number, y: number): PickResult | null {
    if (this.disposed) return null;
    this.camera.updateMatrixWorld();
    const targets = [
      ...(this.splat ? [{ part: 'splat' as const, object: this.splat, visible: this.splatGroup.visible }] : []),
      ...(this.mesh ? [{ part: 'mesh' as const, object: this.mesh, visible: this.meshGroup.visible }] : []),
    ];
    const hit = nearestHit(this.camera, x, y, this.canvas.clientWidth, this.canvas.clientHeight, targets);
    if (!hit) return null;
    const frame = this.modelFrame();
    return { point: worldToModel(hit.point, frame), part: hit.part, normal: hit.normal ? worldDirectionToModel(hit.normal, frame) : null };
  }

  /**
   * {@link pickPoint}, then tells {@link onPointPicked}.
   * @returns the pick, or null for a miss
   */
  pickAndReport(x: number, y: number): PickResult | null {
    const pick = this.pickPoint(x, y);
    if (!this.disposed) this.onPointPicked?.(pick);
    return pick;
  }

  /** Picks the point at the centre of the view (the keyboard's pick: P, or a button) and tells {@link onPointPicked}. */
  pickCentre(): PickResult | null {
    return this.pickAndReport(this.canvas.clientWidth / 2, this.canvas.clientHeight / 2);
  }

  /**
   * Draws markers over the model (points as spheres that keep their size on screen, polylines as
   * lines), replacing those drawn before; an empty list removes them.
   * @param markers points in model coordinates
   */
  setMarkers(markers: readonly ViewerMarker[]): void {
    if (this.disposed) return;
    this.markerLayer.set(markers);
    this.requestRender();
  }

  /** The markers drawn now (as last given to {@link setMarkers}). */
  get markers(): readonly ViewerMarker[] {
    return this.markerLayer.markers;
  }

  /**
   * Moves the orbit target onto a point and the camera closer to it (to about a third of the
   * model's radius, never further than it is), keeping the direction it looks from: a short
   * flight, or a jump when `animate` is false (the viewport passes false under
   * `prefers-reduced-motion: reduce`).
   * @param point model coordinates
   * @param animate fly (default) or jump
   */
  flyToPoint(point: ModelPoint, animate = true): void {
    if (this.disposed || ![point.x, point.y, point.z].every(Number.isFinite)) return;
    const world = modelToWorld(point, this.modelFrame());
    const bounds = this.framingBounds();
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
    if (animate) {
      this.flight = { from: this.placement(), to, start: performance.now(), duration: FLIGHT_MS };
    } else {
      this.flight = null;
      this.place(to);
      this.controls.update();
      this.onCameraChange?.();
    }
    this.requestRender();
  }

  /** The displayed up axis (world +Y) in model coordinates, unit length: what 'Height difference' measures along. */
  modelUp(): ModelPoint {
    return upInModel(this.modelFrame());
  }

  /** Copies another engine's camera and orbit target (linked compare viewports), without echoing back. */
  followCamera(other: ViewerEngine): void {
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
    this.requestRender();
  }

  /** Stops the loop and frees the GPU resources: geometries, materials, textures, Spark, the renderer and its context. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const waiter of this.frameWaiters.splice(0)) waiter.resolve();
    if (this.frameRequest !== 0) cancelAnimationFrame(this.frameRequest);
    this.canvas.removeEventListener('pointerdown', this.onPointerDown);
    this.canvas.removeEventListener('pointerup', this.onPointerUp);
    this.controls.dispose();
    this.cameras?.dispose();
    this.markerLayer.dispose();
    this.splat?.dispose();
    disposeObject(this.meshGroup);
    disposeObject(this.overlayGroup);
    this.dracoLoader.dispose();
    this.spark.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}

/** Frees the geometries, materials and textures of every mesh under `root`. */
function disposeObject(root: Object3D): void {
  root.traverse((object) => {
    const mesh = object as Mesh;
    if (!mesh.isMesh) return;
    mesh.geometry?.dispose();
    for (const material of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) {
      if (!material) continue;
      for (const value of Object.values(material as Material & Record<string, unknown>)) {
        if (value && typeof value === 'object' && (value as Texture).isTexture) (value as Texture).dispose();
      }
      material.dispose();
    }
  });
}

/** True when `renderer`'s WebGL runs in software (SwiftShader, llvmpipe and the like), as far as the browser tells. */
function isSoftwareRenderer(renderer: WebGLRenderer): boolean {
  const gl = renderer.getContext();
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}
