/**
 * Reading a model's files into three.js objects for the engine: Gaussian splats through Spark's
 * `SplatMesh` (with its level-of-detail tree for a large capture), GLB meshes through three's
 * `GLTFLoader` with the Draco and meshopt decoders that ship with the build (never fetched from a
 * CDN); and freeing them again.
 */
import { SplatMesh } from '@sparkjsdev/spark';
import { LoadingManager, type Material, type Mesh, type Object3D, type Texture, type WebGLRenderer } from 'three';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { DRACOLoader } from 'three/examples/jsm/loaders/DRACOLoader.js';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
// The glTF-only Draco decoder, emitted by Vite as assets of this chunk (`?url`): served by the
// portal itself in dev and in the build, so a Draco GLB never reaches for a CDN.
import dracoWasmWrapperUrl from 'three/examples/jsm/libs/draco/gltf/draco_wasm_wrapper.js?url';
import dracoDecoderWasmUrl from 'three/examples/jsm/libs/draco/gltf/draco_decoder.wasm?url';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';

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
 * blocked one): every Gaussian drawn costs CPU time there, so the budget is a twenty-fifth of
 * Spark's desktop default (2.5 M), as Spark itself lowers it for weaker platforms. Measured on a
 * 420,000-Gaussian capture in SwiftShader, loading it, framing, an orbit and a pick cost 205 CPU
 * seconds at 250,000 and 134 at 100,000; the tree still picks the Gaussians that cover the most
 * pixels, so the view stays whole, only coarser. With a GPU, Spark's own platform budgets apply.
 */
export const SOFTWARE_LOD_SPLATS = 100_000;

/** A splat read from its bytes. */
export interface ReadSplat {
  splat: SplatMesh;
  /** The number of Gaussians in the file. */
  count: number;
  /** How long building its level-of-detail tree took, ms (null: none built). */
  lodBuildMs: number | null;
}

/**
 * Reads a Gaussian splat from its bytes (PLY of 3DGS training output with any SH degree,
 * `.splat`, `.spz`, `.ksplat`, `.sog`). A splat of more than {@link LOD_ABOVE_GAUSSIANS}
 * Gaussians gets its level-of-detail tree (the Gaussians themselves are kept: the count, framing
 * and picking read them), unless `cancelled()` says by then that nobody wants it.
 * @param bytes the file's content
 * @param fileName the file's name, whose extension tells Spark the format (e.g. `model.ply`)
 * @param cancelled true when the engine went away meanwhile
 * @returns the splat (not yet in a scene), its count and the tree's build time
 * @throws Error when Spark cannot read the bytes (the half-read splat is disposed)
 */
export async function readSplat(bytes: Uint8Array, fileName: string, cancelled: () => boolean): Promise<ReadSplat> {
  const splat = new SplatMesh({ fileBytes: bytes, fileName });
  let count = 0;
  let lodBuildMs: number | null = null;
  try {
    await splat.initialized;
    count = splat.packedSplats?.numSplats ?? splat.extSplats?.numSplats ?? 0;
    if (count === 0) splat.forEachSplat(() => (count += 1));
    if (count > LOD_ABOVE_GAUSSIANS && !cancelled()) {
      const started = performance.now();
      await splat.createLodSplats();
      lodBuildMs = performance.now() - started;
    }
  } catch (error) {
    splat.dispose();
    throw error;
  }
  return { splat, count, lodBuildMs };
}

/** True when a splat is drawn through its level-of-detail tree (see {@link LOD_ABOVE_GAUSSIANS}). */
export function hasLod(splat: SplatMesh | null): boolean {
  const source = splat?.packedSplats ?? splat?.extSplats;
  return Boolean(source?.lodSplats);
}

/** Reads GLBs (binary glTF; Draco- and meshopt-compressed ones included). Call {@link dispose} at the end. */
export class GlbReader {
  private readonly draco: DRACOLoader;
  private readonly gltf: GLTFLoader;

  constructor() {
    const manager = new LoadingManager();
    this.draco = new DRACOLoader(manager).setDecoderPath({ js: dracoWasmWrapperUrl, wasm: dracoDecoderWasmUrl });
    this.gltf = new GLTFLoader(manager).setDRACOLoader(this.draco).setMeshoptDecoder(MeshoptDecoder);
  }

  /**
   * Reads a GLB's scene.
   * @param bytes the file's content
   * @returns the scene (not yet in the engine's)
   * @throws Error when the bytes are not a readable GLB
   */
  async read(bytes: Uint8Array): Promise<Object3D> {
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return (await this.gltf.parseAsync(buffer, '')).scene;
  }

  /** Releases the Draco decoder's worker. */
  dispose(): void {
    this.draco.dispose();
  }
}

/**
 * The triangles of every mesh under `root`, indexed or not.
 * @returns the count, rounded to a whole number
 */
export function countTriangles(root: Object3D): number {
  let triangles = 0;
  root.traverse((object) => {
    const geometry = (object as Mesh).isMesh ? (object as Mesh).geometry : null;
    if (!geometry) return;
    triangles += geometry.index ? geometry.index.count / 3 : (geometry.getAttribute('position')?.count ?? 0) / 3;
  });
  return Math.round(triangles);
}

/** Frees the geometries, materials and textures of every mesh under `root`. */
export function disposeObject(root: Object3D): void {
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
export function isSoftwareRenderer(renderer: WebGLRenderer): boolean {
  const gl = renderer.getContext();
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  return /swiftshader|llvmpipe|softpipe|software/i.test(name);
}
