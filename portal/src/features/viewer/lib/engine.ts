/**
 * The 3D engine of one viewport: a three.js scene rendered by a WebGLRenderer on one canvas,
 * Gaussian splats through Spark (`SparkRenderer` + `SplatMesh`) and GLB meshes (loaders.ts), the
 * y-down fix of 3DGS output, and on-demand rendering (frame-loop.ts: frames while something
 * changes, files load or the camera flies; then the loop sleeps). The camera and its moves are
 * the {@link CameraRig}'s; picking, markers and camera poses are tools (tools/) that the engine
 * calls before each frame and hands clicks to. No React here: the viewport component owns one
 * engine per canvas.
 */
import { SparkRenderer, type SplatMesh } from '@sparkjsdev/spark';
import { AmbientLight, Color, DirectionalLight, Group, Scene, WebGLRenderer, type Object3D } from 'three';
import { CameraRig } from './camera-rig.js';
import type { Bounds } from './framing.js';
import { FrameLoop } from './frame-loop.js';
import { countTriangles, disposeObject, GlbReader, hasLod, isSoftwareRenderer, readSplat, SOFTWARE_LOD_SPLATS } from './loaders.js';
import { FramingBoundsCache } from './model-bounds.js';
import { setSplatColours, splatAlphas } from './splat-colours.js';
import type { PickTarget } from './picking.js';
import { CameraPosesTool } from './tools/camera-poses-tool.js';
import { MarkerTool } from './tools/marker-tool.js';
import { PointPicker } from './tools/point-picker.js';
import { listenForClicks, type ToolHost, type ViewerTool } from './tools/tool.js';

export type { PickResult } from './picking.js';
export type { MarkerTone, ViewerMarker } from './markers.js';
export { LOD_ABOVE_GAUSSIANS, SOFTWARE_LOD_SPLATS } from './loaders.js';

/** The longest a replaced splat is kept after its replacement was added, ms (until the new one is drawn). */
const REPLACED_SPLAT_KEPT_MS = 120_000;
/** Background of every viewport (dark neutral, so splats and meshes both read). */
export const VIEWPORT_BACKGROUND = 0x1b1f24;

/**
 * One viewport's scene, renderer, loop, loaded files, camera rig and tools.
 * Call {@link dispose} when the canvas goes away.
 */
export class ViewerEngine implements ToolHost {
  readonly scene = new Scene();
  /** The camera, its controls and its moves (fit, home, keys, flights, linking). */
  readonly rig: CameraRig;
  /**
   * The splat's frame: holds the splat, and turns with the up-axis fix. Overlays drawn in the
   * splat's coordinates (e.g. camera poses of its training photos) go here.
   */
  readonly splatGroup = new Group();
  /** The GLB's frame: holds the GLB scene (turned only for a GLB-only model whose up axis was flipped). */
  readonly meshGroup = new Group();
  /** Picking a point of the model, in model coordinates. */
  readonly picker: PointPicker;
  /** Markers over the model (findings, measurements). */
  readonly markers: MarkerTool;
  /** The camera poses of the photos, as frustums. */
  readonly cameraPoses: CameraPosesTool;
  /** The tool that canvas clicks go to (a press and release of the main button that did not drag); null: none. */
  activeTool: ViewerTool | null = null;
  /** How long building the level-of-detail tree of the last large splat took, ms (null: none built). */
  lodBuildMs: number | null = null;
  /** True when WebGL runs in software (no GPU): level of detail then draws within {@link SOFTWARE_LOD_SPLATS}. */
  readonly software: boolean;
  /** Called after every drawn frame. */
  onFrame: (() => void) | null = null;

  readonly canvas: HTMLCanvasElement;
  private readonly renderer: WebGLRenderer;
  private readonly spark: SparkRenderer;
  private readonly glbReader = new GlbReader();
  private readonly tools: ViewerTool[];
  private splat: SplatMesh | null = null;
  private mesh: Object3D | null = null;
  private readonly loop: FrameLoop;
  private isDisposed = false;
  /** The part whose file frame is the model's coordinate frame (null: the splat when loaded, else the mesh). */
  private framePart: 'splat' | 'mesh' | null = null;
  private readonly stopClicks: () => void;
  /** framingBounds() of the current files, turns and visibility (it reads up to 65,536 splats). */
  private readonly framingCache = new FramingBoundsCache();

  /**
   * @param canvas the canvas to draw on (sized by CSS; {@link resize} follows it). The engine
   * owns its WebGL context: after {@link dispose} the canvas cannot be drawn on again.
   * @throws Error when WebGL is not available
   */
  constructor(canvas: HTMLCanvasElement) {
    this.canvas = canvas;
    // preserveDrawingBuffer: the canvas can be read back after a frame (screenshots, pixel tests).
    this.renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color(VIEWPORT_BACKGROUND);
    this.software = isSoftwareRenderer(this.renderer);
    this.loop = new FrameLoop(
      () => {
        this.rig.step();
        for (const tool of this.tools) tool.beforeFrame?.();
        this.renderer.render(this.scene, this.rig.camera);
      },
      () => this.onFrame?.(),
      () => this.rig.flying,
    );
    this.spark = new SparkRenderer({
      renderer: this.renderer,
      onDirty: () => this.requestRender(),
      ...(this.software ? { lodSplatCount: SOFTWARE_LOD_SPLATS } : {}),
    });
    this.scene.add(this.spark, this.splatGroup, this.meshGroup);
    this.picker = new PointPicker(this);
    this.markers = new MarkerTool(this);
    this.cameraPoses = new CameraPosesTool(this);
    this.tools = [this.picker, this.markers, this.cameraPoses];
    this.scene.add(new AmbientLight(0xffffff, 1.6));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(3, 5, 4);
    this.scene.add(sun);
    this.rig = new CameraRig(canvas, this);
    this.stopClicks = listenForClicks(canvas, (x, y) => this.activeTool?.click?.(x, y));
    this.resize();
  }

  /** True once {@link dispose} ran. */
  get disposed(): boolean {
    return this.isDisposed;
  }

  /** Frames drawn so far (tests wait for one: `data-rendered-frames`). */
  get renderedFrames(): number {
    return this.loop.drawn;
  }

  /** Asks for a frame (asks made before it is drawn share it). */
  requestRender(): void {
    this.loop.request();
  }

  /**
   * Resolves once a frame with the splats loaded so far has been drawn by the GPU (Spark draws
   * new splats only once its worker has sorted them), after about `timeoutMs` (ms), or on dispose.
   * A large capture's full copy waits so for its preview, so as not to hold back the first view.
   */
  async whenSplatsShown(timeoutMs: number): Promise<void> {
    const { spark } = this;
    const sorted = () => !spark.sorting && !spark.sortDirty && spark.display === spark.current && spark.activeSplats > 0;
    await this.loop.whenDrawn(sorted, timeoutMs);
    // Reading a pixel back waits until the GPU has drawn that frame (seconds in software WebGL,
    // where nothing else holds the page back until then); then it goes on screen.
    const gl = this.renderer.getContext();
    if (!this.isDisposed) gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
  }

  /** Follows the canvas's CSS size (call when it changes). */
  resize(): void {
    const width = Math.max(1, this.canvas.clientWidth);
    const height = Math.max(1, this.canvas.clientHeight);
    this.renderer.setSize(width, height, false);
    this.rig.setAspect(width / height);
    this.requestRender();
  }

  /**
   * Loads a Gaussian splat from its bytes (see {@link readSplat}: the formats, and the
   * level-of-detail tree of a large capture, built before it is shown). A splat loaded before
   * (e.g. the preview of a large capture) is replaced: the new one is added, the old one removed
   * and freed once the new one is drawn (Spark draws what it last sorted until then), so no frame
   * is drawn without a splat. The camera does not move; the framing box is recomputed for the new
   * splat when next asked for, but nothing refits the view.
   * @param bytes the file's content
   * @param fileName the file's name, whose extension tells Spark the format (e.g. `model.ply`)
   * @returns the number of Gaussians in the file (0 when the engine was disposed meanwhile)
   * @throws Error when Spark cannot read the bytes (a splat shown before stays)
   */
  async loadSplat(bytes: Uint8Array, fileName: string): Promise<number> {
    const { splat, count, lodBuildMs } = await readSplat(bytes, fileName, () => this.isDisposed);
    if (lodBuildMs !== null) this.lodBuildMs = lodBuildMs;
    if (this.isDisposed) {
      splat.dispose();
      return 0;
    }
    const previous = this.splat;
    this.splat = splat;
    this.splatGroup.add(splat);
    if (previous) {
      this.splatGroup.remove(previous);
      // Spark keeps drawing what it last sorted until the new splat is sorted: free the old one only then
      void this.whenSplatsShown(REPLACED_SPLAT_KEPT_MS).then(() => previous.dispose());
    }
    this.requestRender();
    return count;
  }

  /** True when the splat shown is drawn through its level-of-detail tree (see {@link LOD_ABOVE_GAUSSIANS}). */
  get lodActive(): boolean {
    return hasLod(this.splat);
  }

  /**
   * Each Gaussian's own opacity (0–255, file order) of the splat shown now; null before one is loaded.
   * (A large capture's preview is another splat than its full copy: compare the count with what
   * the caller colours.)
   */
  splatAlphas(): Uint8Array | null {
    return this.splat ? splatAlphas(this.splat) : null;
  }

  /**
   * Shows the splat in the given colours (4 bytes a Gaussian, file order, e.g. the 'Changes'
   * mode's), or in its own colours again for null (splat-colours.ts).
   * @returns false when there is no splat, when it is drawn through its level-of-detail tree, or
   *   when `rgba` does not hold one colour per Gaussian
   */
  setSplatColours(rgba: Uint8Array | null): boolean {
    if (!this.splat) return rgba === null;
    const done = setSplatColours(this.splat, rgba);
    this.requestRender();
    return done;
  }

  /**
   * Loads a GLB (binary glTF; Draco- and meshopt-compressed ones included).
   * @param bytes the file's content
   * @returns the number of triangles (indexed or not, over every mesh of the scene; 0 when the engine was disposed meanwhile)
   * @throws Error when the bytes are not a readable GLB
   */
  async loadGlb(bytes: Uint8Array): Promise<number> {
    const scene = await this.glbReader.read(bytes);
    if (this.isDisposed) {
      disposeObject(scene);
      return 0;
    }
    this.mesh = scene;
    this.meshGroup.add(scene);
    this.requestRender();
    return countTriangles(scene);
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
    group.quaternion.set(flipped ? 1 : 0, 0, 0, flipped ? 0 : 1); // (1, 0, 0, 0): 180° about x; (0, 0, 0, 1): none
    group.updateMatrixWorld(true);
    this.requestRender();
  }

  /**
   * The box to frame, in world space, of the visible parts (model-bounds.ts); null before anything
   * is loaded. Cached until a file, a turn or a visibility changes (fit, compare framing and every
   * camera flight ask for it).
   */
  framingBounds(): Bounds | null {
    return this.framingCache.get(this.splatGroup, this.splat, this.meshGroup, this.mesh);
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
  modelFrame(): Group {
    const part = this.framePart ?? (this.splat ? 'splat' : 'mesh');
    return part === 'splat' ? this.splatGroup : this.meshGroup;
  }

  /** The loaded parts a pick ray may hit, with whether each is shown. */
  pickTargets(): PickTarget[] {
    return [
      ...(this.splat ? [{ part: 'splat' as const, object: this.splat, visible: this.splatGroup.visible }] : []),
      ...(this.mesh ? [{ part: 'mesh' as const, object: this.mesh, visible: this.meshGroup.visible }] : []),
    ];
  }

  /** Stops the loop and frees the GPU resources: geometries, materials, textures, Spark, the renderer and its context. */
  dispose(): void {
    if (this.isDisposed) return;
    this.isDisposed = true;
    this.loop.dispose();
    this.stopClicks();
    this.rig.dispose();
    this.activeTool = null;
    for (const tool of this.tools) tool.dispose();
    this.splat?.dispose();
    disposeObject(this.meshGroup);
    this.glbReader.dispose();
    this.spark.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
