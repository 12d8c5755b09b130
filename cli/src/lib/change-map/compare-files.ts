/**
 * The change map of two capture files on disk: read both (a block of rows at a time), keep their
 * confident splats, refine the alignment that maps the capture into the reference's frame by ICP,
 * measure every confident splat of the capture against the reference's local surface, and spread
 * the result back over all of the capture's splats (the ones left out read as not measured), so
 * the values file lines up with the capture's own splat order, the order the viewer draws.
 *
 * The sign of a distance is the side of the surface it lies on, positive outside, where the
 * viewer is. Each capture's camera metadata, when it has one, says where that is: every local
 * surface faces the cameras nearest it. A capture without camera metadata turns its
 * near-horizontal surfaces to face up, −y ({@link SPLAT_UP}: splats are y-down, as 3DGS/COLMAP
 * writes them and the viewer shows them by default), and the rest away from the structure's
 * middle. So a cabinet set on the ground reads positive, a removed panel negative.
 *
 * Either file may be a GLB mesh instead (a mesh-only model): points are sampled on its triangles
 * in its scene's frame, spread by area from a fixed seed, each with its triangle's outward normal,
 * which orients its surfaces (no camera metadata is needed); as many as the other side's confident
 * splats (within {@link MESH_SAMPLES_MIN} to {@link MESH_SAMPLES_MAX}), or {@link MESH_SAMPLES_BOTH}
 * when both are meshes. A GLB capture's values file then holds one value per sampled point, in
 * sampling order. A mesh has no noise: the level of detection is never below half its samples'
 * spacing ({@link MESH_LEVEL_SPACINGS}). The samples go through the same local-surface measurement as splats, so
 * registration, the level of detection, change regions and removals work the same on every pair.
 */
import {
  computeChangeMap,
  encodeChangeValues,
  refineRegistration,
  sampleMeshSurface,
  type ChangeMap,
  type PointSet,
  type Registration,
} from '@shared/change-map/index.js';
import { confident, readCameraCentres, readCapture } from './read-capture.js';
import { isGlbFile, readMeshTriangles } from './read-mesh.js';

/** Up in a splat file's frame: −y, as 3DGS/COLMAP output is y-down (the viewer turns splats 180° about x unless told otherwise). */
export const SPLAT_UP: [number, number, number] = [0, -1, 0];

/** Up in a GLB's frame: +y, as glTF wants. */
export const GLB_UP: [number, number, number] = [0, 1, 0];

/** A mesh is sampled with at least this many points against a splat (a small splat still gets a surface dense enough to fit patches on). */
export const MESH_SAMPLES_MIN = 20_000;
/** A mesh is sampled with at most this many points against a splat (memory and time stay those of a mid-sized capture). */
export const MESH_SAMPLES_MAX = 200_000;
/** Points sampled on each mesh when both files are meshes: the demo reference's Gaussian count. */
export const MESH_SAMPLES_BOTH = 50_000;

/**
 * With a GLB on either side, the level of detection is never below this many times the mesh
 * samples' typical spacing (the larger side's): a mesh has no noise to set it, and a surface known
 * only at points that far apart cannot tell a change smaller than that from where its patches
 * straddle an edge.
 */
export const MESH_LEVEL_SPACINGS = 0.5;

/** What a compared file is: a Gaussian splat, or a GLB mesh whose surface is sampled. */
export type ComparedKind = 'splat' | 'mesh';

/** The camera metadata files of both captures on disk (absent or null: that capture has none). */
export interface CameraFiles {
  capture?: string | null;
  reference?: string | null;
}

/** What {@link compareCaptureFiles} measured. */
export interface CaptureComparison {
  /** The refined registration, capture → reference (4×4, column-major), with its RMS error in reference units. */
  registration: Registration;
  /** The change map of the confident splats (its `distances` and `regionOf` follow the confident splats' order). */
  map: ChangeMap;
  /** Splats in the capture file, and how many of them were confident enough to measure. */
  captureCount: number;
  capturePoints: number;
  /** The same for the reference file. */
  referenceCount: number;
  referencePoints: number;
  /** Cameras in the capture's camera metadata, whose centres oriented its surfaces (0: none, see the module's comment). */
  cameraCount: number;
  /** The same for the reference. */
  referenceCameraCount: number;
  /** What each file is ('mesh': a GLB, whose counts above are of points sampled on its surface). */
  captureKind: ComparedKind;
  referenceKind: ComparedKind;
  /** The values file: one signed distance and one region id per splat of the capture file (per sampled point of a GLB), NaN and 0 where not measured. */
  values: Uint8Array<ArrayBuffer>;
  /** Wall time of each step, ms. */
  timings: { readMs: number; registrationMs: number; changeMapMs: number };
}

/** One side of a comparison as read: what it is, its entries in the file (splats, or sampled points), the points compared and, for a splat, which splat each point is. */
interface Side {
  kind: ComparedKind;
  count: number;
  points: PointSet;
  index: Uint32Array | null;
  /** A mesh's samples' typical spacing, model units (0 for a splat). */
  spacing: number;
}

/** Progress steps reported by {@link compareCaptureFiles}. */
export type ComparisonStep = 'reading' | 'registering' | 'measuring';

/**
 * Compares a capture file with its reference file. The camera centres of each one's camera
 * metadata orient its surfaces (see the module's comment).
 * @param capturePath the capture's splat file (3DGS PLY or `.splat`) or GLB on disk (a GLB is told by its magic)
 * @param referencePath the reference model's splat file or GLB on disk
 * @param initial the alignment to start from, capture → reference (16 numbers, column-major): the
 *   pair's stored alignment, or the identity when both are in one frame
 * @param names the files' names for messages (default their paths' last parts)
 * @param onStep called before each step (for progress lines)
 * @param cameras the camera metadata files of both captures on disk ({@link CameraFiles}; default none)
 * @returns the registration, the change map, the counts (splats, confident splats, cameras), the
 *   encoded values file and the timings
 * @throws AppError `not-found` or `invalid-argument` (from {@link readCapture}, {@link readCameraCentres},
 *   `readMeshTriangles`, `sampleMeshSurface`) when a file cannot be read or a mesh has no surface; `invalid-argument` from the change map when a capture has no
 *   confident splats or the matrix is not a transform
 */
export async function compareCaptureFiles(
  capturePath: string,
  referencePath: string,
  initial: readonly number[],
  names: { capture?: string; reference?: string } = {},
  onStep: (step: ComparisonStep) => void = () => undefined,
  cameras: CameraFiles = {},
): Promise<CaptureComparison> {
  onStep('reading');
  const started = performance.now();
  const centres = async (path: string | null | undefined) => (path ? await readCameraCentres(path) : new Float32Array(0));
  const [captureMesh, referenceMesh] = [await isGlbFile(capturePath), await isGlbFile(referencePath)];
  const splatSide = async (path: string, name: string | undefined, camerasPath: string | null | undefined): Promise<Side> => {
    const splats = await readCapture(path, { name });
    const kept = confident(splats);
    return {
      kind: 'splat',
      count: splats.count,
      points: { ...kept, viewpoints: await centres(camerasPath) },
      index: kept.index,
      spacing: 0,
    };
  };
  const meshSide = async (path: string, name: string | undefined, samples: number): Promise<Side> => {
    const points = sampleMeshSurface(await readMeshTriangles(path, name), samples);
    return { kind: 'mesh', count: points.count, points, index: null, spacing: points.spacing };
  };
  const captureSplat = captureMesh ? null : await splatSide(capturePath, names.capture, cameras.capture);
  const referenceSplat = referenceMesh ? null : await splatSide(referencePath, names.reference, cameras.reference);
  const samplesAgainst = (other: Side | null) =>
    other === null ? MESH_SAMPLES_BOTH : Math.min(MESH_SAMPLES_MAX, Math.max(MESH_SAMPLES_MIN, other.points.count));
  const captureSide = captureSplat ?? (await meshSide(capturePath, names.capture, samplesAgainst(referenceSplat)));
  const referenceSide = referenceSplat ?? (await meshSide(referencePath, names.reference, samplesAgainst(captureSplat)));
  const capture = captureSide.points;
  const reference = referenceSide.points;
  const read = performance.now();

  onStep('registering');
  const registration = refineRegistration(capture, reference, initial);
  const registered = performance.now();

  onStep('measuring');
  // Up in the reference's frame (for a splat side without camera metadata; a mesh's normals say outside by themselves).
  const up = referenceSide.kind === 'mesh' ? GLB_UP : SPLAT_UP;
  const minLevelOfDetection = MESH_LEVEL_SPACINGS * Math.max(captureSide.spacing, referenceSide.spacing);
  const map = computeChangeMap(capture, reference, registration.matrix, { rmsError: registration.rmsError, up, minLevelOfDetection });
  const measured = performance.now();

  // Spread over every splat of the file: the viewer colours splats in file order (a mesh's samples are all measured, in order).
  const distances = new Float32Array(captureSide.count).fill(Number.NaN);
  const regionOf = new Int32Array(captureSide.count);
  for (let i = 0; i < capture.count; i += 1) {
    const at = captureSide.index?.[i] ?? i;
    distances[at] = map.distances[i]!;
    regionOf[at] = map.regionOf[i]!;
  }
  return {
    registration,
    map,
    captureCount: captureSide.count,
    capturePoints: capture.count,
    referenceCount: referenceSide.count,
    referencePoints: reference.count,
    cameraCount: (capture.viewpoints?.length ?? 0) / 3,
    referenceCameraCount: (reference.viewpoints?.length ?? 0) / 3,
    captureKind: captureSide.kind,
    referenceKind: referenceSide.kind,
    values: encodeChangeValues({ levelOfDetection: map.levelOfDetection, distances, regionOf }),
    timings: { readMs: read - started, registrationMs: registered - read, changeMapMs: measured - registered },
  };
}
