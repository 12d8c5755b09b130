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
 */
import { computeChangeMap, encodeChangeValues, refineRegistration, type ChangeMap, type Registration } from '@shared/change-map/index.js';
import { confident, readCameraCentres, readCapture } from './read-capture.js';

/** Up in a splat file's frame: −y, as 3DGS/COLMAP output is y-down (the viewer turns splats 180° about x unless told otherwise). */
export const SPLAT_UP: [number, number, number] = [0, -1, 0];

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
  /** The per-splat values file: one signed distance and one region id per splat of the capture file, NaN and 0 where not measured. */
  values: Uint8Array<ArrayBuffer>;
  /** Wall time of each step, ms. */
  timings: { readMs: number; registrationMs: number; changeMapMs: number };
}

/** Progress steps reported by {@link compareCaptureFiles}. */
export type ComparisonStep = 'reading' | 'registering' | 'measuring';

/**
 * Compares a capture file with its reference file. The camera centres of each one's camera
 * metadata orient its surfaces (see the module's comment).
 * @param capturePath the capture's splat file (3DGS PLY or `.splat`) on disk
 * @param referencePath the reference model's splat file on disk
 * @param initial the alignment to start from, capture → reference (16 numbers, column-major): the
 *   pair's stored alignment, or the identity when both are in one frame
 * @param names the files' names for messages (default their paths' last parts)
 * @param onStep called before each step (for progress lines)
 * @param cameras the camera metadata files of both captures on disk ({@link CameraFiles}; default none)
 * @returns the registration, the change map, the counts (splats, confident splats, cameras), the
 *   encoded values file and the timings
 * @throws AppError `not-found` or `invalid-argument` (from {@link readCapture}, {@link readCameraCentres})
 *   when a file cannot be read; `invalid-argument` from the change map when a capture has no
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
  const captureSplats = await readCapture(capturePath, { name: names.capture });
  const referenceSplats = await readCapture(referencePath, { name: names.reference });
  const centres = async (path: string | null | undefined) => (path ? await readCameraCentres(path) : new Float32Array(0));
  const capture = { ...confident(captureSplats), viewpoints: await centres(cameras.capture) };
  const reference = { ...confident(referenceSplats), viewpoints: await centres(cameras.reference) };
  const read = performance.now();

  onStep('registering');
  const registration = refineRegistration(capture, reference, initial);
  const registered = performance.now();

  onStep('measuring');
  const map = computeChangeMap(capture, reference, registration.matrix, { rmsError: registration.rmsError, up: SPLAT_UP });
  const measured = performance.now();

  // Spread over every splat of the file: the viewer colours splats in file order.
  const distances = new Float32Array(captureSplats.count).fill(Number.NaN);
  const regionOf = new Int32Array(captureSplats.count);
  for (let i = 0; i < capture.count; i += 1) {
    const splat = capture.index[i]!;
    distances[splat] = map.distances[i]!;
    regionOf[splat] = map.regionOf[i]!;
  }
  return {
    registration,
    map,
    captureCount: captureSplats.count,
    capturePoints: capture.count,
    referenceCount: referenceSplats.count,
    referencePoints: reference.count,
    cameraCount: capture.viewpoints.length / 3,
    referenceCameraCount: reference.viewpoints.length / 3,
    values: encodeChangeValues({ levelOfDetection: map.levelOfDetection, distances, regionOf }),
    timings: { readMs: read - started, registrationMs: registered - read, changeMapMs: measured - registered },
  };
}
