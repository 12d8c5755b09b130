/**
 * The 3D engine of one viewport: a three.js scene rendered by a WebGLRenderer on one canvas,
 * Gaussian splats through Spark (`SparkRenderer` + `SplatMesh`), GLB meshes through three's
 * `GLTFLoader` (with the Draco and meshopt decoders that ship with the build), OrbitControls,
 * framing on the model, the y-down fix of 3DGS output, and on-demand rendering (frames are drawn
 * while something changes, then the loop sleeps). No React here: the viewport component owns one
 * engine per canvas.
 */
import { SparkRenderer, SplatMesh } from '@sparkjsdev/spark';
import type {
  Mesh} from 'three';
import {
  AmbientLight,
  Box3,
  Color,
  DirectionalLight,
  Group,
  PerspectiveCamera,
  Scene,
  Vector3,
  WebGLRenderer,
  type Object3D,
} from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { DRACOLoader, DRACO_GLTF_CONFIG } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { framingBox, type Bounds } from './framing.js';

/** Background of every viewport (dark neutral, so splats and meshes both read). */
export const VIEWPORT_BACKGROUND = 0x1b1f24;

/** What a loaded model contributes to the info panel. */
export interface LoadedStats {
  splats: number | null;
  triangles: number | null;
}

/**
 * How long frames keep being drawn after a change, in ms. Spark sorts splats in a worker and
 * draws the sorted result on a later frame, so the loop must outlive the change itself; in software
 * WebGL one frame of a large splat takes seconds, hence the longer window after a load.
 */
const SETTLE_MS = 2500;
const SETTLE_AFTER_LOAD_MS = 12_000;

/**
 * One viewport's scene, camera, controls and renderer.
 * Call {@link dispose} when the canvas goes away.
 */
export class ViewerEngine {
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 1, 0.01, 10_000);
  readonly controls: OrbitControls;
  private readonly renderer: WebGLRenderer;
  private readonly spark: SparkRenderer;
  /** Holds the splat (so the up-axis flip turns it, and anything drawn in its coordinates). */
  readonly splatGroup = new Group();
  /** Holds the GLB scene. */
  readonly meshGroup = new Group();
  private splat: SplatMesh | null = null;
  private mesh: Object3D | null = null;
  private framedBounds: Bounds | null = null;
  private home: { position: Vector3; target: Vector3 } | null = null;
  private settleUntil = performance.now() + SETTLE_MS;
  private frame = 0;
  private disposed = false;
  /** Frames drawn so far (tests wait for one). */
  renderedFrames = 0;
  /** Called after every drawn frame. */
  onFrame: (() => void) | null = null;
  /** Called when the user moves this camera (for linked compare viewports). */
  onCameraChange: (() => void) | null = null;
  private syncing = false;

  /**
   * @param canvas the canvas to draw on (sized by CSS; {@link resize} follows it)
   */
  constructor(private readonly canvas: HTMLCanvasElement) {
    this.renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene.background = new Color(VIEWPORT_BACKGROUND);
    this.spark = new SparkRenderer({ renderer: this.renderer });
    this.scene.add(this.spark);
    this.scene.add(this.splatGroup, this.meshGroup);
    this.scene.add(new AmbientLight(0xffffff, 1.6));
    const sun = new DirectionalLight(0xffffff, 2.2);
    sun.position.set(3, 5, 4);
    this.scene.add(sun);
    this.camera.position.set(4, 3, 6);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.enableDamping = false;
    this.controls.addEventListener('change', () => {
      this.invalidate();
      if (!this.syncing) this.onCameraChange?.();
    });
    this.resize();
    this.loop();
  }

  /**
   * Keeps frames coming for a while (after any change of the scene or camera).
   * @param ms how long, in milliseconds
   */
  invalidate(ms = SETTLE_MS): void {
    this.settleUntil = Math.max(this.settleUntil, performance.now() + ms);
  }

  private loop = (): void => {
    if (this.disposed) return;
    this.frame = requestAnimationFrame(this.loop);
    if (performance.now() > this.settleUntil) return;
    this.renderer.render(this.scene, this.camera);
    this.renderedFrames += 1;
    this.onFrame?.();
  };

  /** Follows the canvas's CSS size (call on resize). */
  resize(): void {
    const width = Math.max(1, this.canvas.clientWidth);
    const height = Math.max(1, this.canvas.clientHeight);
    this.renderer.setSize(width, height, false);
    this.camera.aspect = width / height;
    this.camera.updateProjectionMatrix();
    this.invalidate();
  }

  /**
   * Loads a Gaussian splat from its bytes (PLY of 3DGS training output with any SH degree,
   * `.splat`, `.spz`, `.ksplat`, `.sog`).
   * @param fileName the file's name, for its format (e.g. `model.ply`)
   * @returns the number of splats
   * @throws Error when Spark cannot read the bytes
   */
  async loadSplat(bytes: Uint8Array, fileName: string): Promise<number> {
    const splat = new SplatMesh({ fileBytes: bytes, fileName });
    await splat.initialized;
    if (this.disposed) {
      splat.dispose();
      return 0;
    }
    this.splat = splat;
    this.splatGroup.add(splat);
    this.invalidate(SETTLE_AFTER_LOAD_MS);
    return splat.packedSplats?.numSplats ?? 0;
  }

  /**
   * Loads a GLB (binary glTF; Draco- and meshopt-compressed ones included).
   * @returns the number of triangles
   * @throws Error when the bytes are not a readable GLB
   */
  async loadGlb(bytes: Uint8Array): Promise<number> {
    // three's DRACOLoader resolves its decoder next to itself (`new URL(…, import.meta.url)`), so
    // the build ships it as assets: never fetched from a CDN. The glTF-only decoder is the small one.
    const draco = new DRACOLoader();
    draco.setDecoderPath(DRACO_GLTF_CONFIG);
    const loader = new GLTFLoader();
    loader.setDRACOLoader(draco);
    loader.setMeshoptDecoder(MeshoptDecoder);
    try {
      const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const gltf = await loader.parseAsync(buffer, '');
      if (this.disposed) return 0;
      this.mesh = gltf.scene;
      this.meshGroup.add(gltf.scene);
      this.invalidate();
      let triangles = 0;
      gltf.scene.traverse((object) => {
        const geometry = (object as Mesh).isMesh ? (object as Mesh).geometry : null;
        if (!geometry) return;
        triangles += geometry.index ? geometry.index.count / 3 : (geometry.getAttribute('position')?.count ?? 0) / 3;
      });
      return Math.round(triangles);
    } finally {
      draco.dispose();
    }
  }

  /** Shows or hides the splat and the mesh (hybrid models). */
  setVisible(part: 'splat' | 'mesh', visible: boolean): void {
    (part === 'splat' ? this.splatGroup : this.meshGroup).visible = visible;
    this.invalidate();
  }

  /**
   * The y-down fix of 3DGS output: turns the splat 180° about x (true) or leaves it as stored.
   * Anything added to {@link splatGroup} turns with it.
   */
  setSplatYDown(yDown: boolean): void {
    this.splatGroup.quaternion.set(yDown ? 1 : 0, 0, 0, yDown ? 0 : 1);
    this.splatGroup.updateMatrixWorld(true);
    this.invalidate();
  }

  /** The bounds to frame: the 10th–90th percentile of splat centres and the GLB's box, in world space. */
  private bounds(): Bounds | null {
    const parts: Bounds[] = [];
    if (this.splat && this.splatGroup.visible) {
      const centres: number[] = [];
      this.splat.updateMatrixWorld(true);
      const world = this.splat.matrixWorld;
      const point = new Vector3();
      this.splat.forEachSplat((_i, center) => {
        point.copy(center).applyMatrix4(world);
        centres.push(point.x, point.y, point.z);
      });
      const box = framingBox(centres);
      if (box) parts.push(box);
    }
    if (this.mesh && this.meshGroup.visible) {
      const box = new Box3().setFromObject(this.mesh);
      if (!box.isEmpty()) parts.push({ min: box.min.toArray(), max: box.max.toArray() });
    }
    if (parts.length === 0) return null;
    return {
      min: [0, 1, 2].map((i) => Math.min(...parts.map((p) => p.min[i]!))) as Bounds['min'],
      max: [0, 1, 2].map((i) => Math.max(...parts.map((p) => p.max[i]!))) as Bounds['max'],
    };
  }

  /** Points the camera at the model from a three-quarter view, far enough to see all of it. */
  fit(): void {
    const bounds = this.bounds() ?? this.framedBounds;
    if (!bounds) return;
    this.framedBounds = bounds;
    const centre = new Vector3(...bounds.min).add(new Vector3(...bounds.max)).multiplyScalar(0.5);
    const size = new Vector3(...bounds.max).sub(new Vector3(...bounds.min));
    const radius = Math.max(size.length() / 2, 1e-3);
    const fov = (this.camera.fov * Math.PI) / 180;
    const distance = (radius / Math.sin(fov / 2)) * 1.05;
    const direction = new Vector3(1, 0.6, 1.4).normalize();
    this.camera.position.copy(centre).addScaledVector(direction, distance);
    this.camera.near = Math.max(distance / 1000, 1e-4);
    this.camera.far = distance * 100;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(centre);
    this.controls.update();
    this.home ??= { position: this.camera.position.clone(), target: centre.clone() };
    this.invalidate();
  }

  /** Back to the view of the first {@link fit}. */
  reset(): void {
    if (!this.home) return this.fit();
    this.camera.position.copy(this.home.position);
    this.controls.target.copy(this.home.target);
    this.controls.update();
    this.invalidate();
  }

  /**
   * Keyboard navigation: arrows orbit, shift+arrows pan, +/− zoom.
   * @param key the KeyboardEvent key
   * @returns true when the key was used
   */
  nudge(key: string, shift: boolean): boolean {
    const target = this.controls.target;
    const offset = this.camera.position.clone().sub(target);
    const step = Math.PI / 24;
    if (key === '+' || key === '=' || key === '-' || key === '_') {
      offset.multiplyScalar(key === '+' || key === '=' ? 0.85 : 1 / 0.85);
      this.camera.position.copy(target).add(offset);
    } else if (shift && key.startsWith('Arrow')) {
      const distance = offset.length() * 0.05;
      const right = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0).multiplyScalar(distance);
      const up = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 1).multiplyScalar(distance);
      const move = key === 'ArrowLeft' ? right.negate() : key === 'ArrowRight' ? right : key === 'ArrowUp' ? up : up.negate();
      this.camera.position.add(move);
      target.add(move);
    } else if (key === 'ArrowLeft' || key === 'ArrowRight') {
      offset.applyAxisAngle(new Vector3(0, 1, 0), key === 'ArrowLeft' ? -step : step);
      this.camera.position.copy(target).add(offset);
    } else if (key === 'ArrowUp' || key === 'ArrowDown') {
      const right = new Vector3().setFromMatrixColumn(this.camera.matrixWorld, 0);
      const turned = offset.clone().applyAxisAngle(right, key === 'ArrowUp' ? -step : step);
      if (Math.abs(turned.clone().normalize().y) < 0.995) offset.copy(turned);
      this.camera.position.copy(target).add(offset);
    } else {
      return false;
    }
    this.controls.update();
    return true;
  }

  /** Copies another engine's camera (linked compare viewports), without echoing back. */
  followCamera(other: ViewerEngine): void {
    this.syncing = true;
    this.camera.position.copy(other.camera.position);
    this.camera.quaternion.copy(other.camera.quaternion);
    this.camera.near = other.camera.near;
    this.camera.far = other.camera.far;
    this.camera.updateProjectionMatrix();
    this.controls.target.copy(other.controls.target);
    this.controls.update();
    this.syncing = false;
    this.invalidate();
  }

  /** Stops the loop and frees the GPU resources of the scene, Spark and the renderer. */
  dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frame);
    this.controls.dispose();
    this.splat?.dispose();
    this.scene.traverse((object) => {
      const mesh = object as Mesh;
      if (!mesh.isMesh) return;
      mesh.geometry?.dispose();
      for (const material of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) {
        for (const value of Object.values(material ?? {})) if (value && typeof value === 'object' && 'isTexture' in value) (value as { dispose(): void }).dispose();
        material?.dispose();
      }
    });
    this.spark.dispose();
    this.renderer.dispose();
    this.renderer.forceContextLoss();
  }
}
