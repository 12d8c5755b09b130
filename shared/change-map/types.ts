/**
 * The shapes of the change map: the point sets it compares, the refined registration of a capture
 * onto its reference, the change regions and the per-point result, and the options of each step.
 * Positions are in model units; matrices are 4×4, column-major (three.js `Matrix4.elements`
 * order) and map capture coordinates into the reference's frame.
 */
import type { ChangeRegionData } from '../types.js';

/** Points as flat xyz, model units: point i is `positions[3i .. 3i+2]`. */
export interface PointSet {
  count: number;
  positions: Float32Array;
  /**
   * The camera centres that saw the points (the positions of the capture's camera metadata), flat
   * xyz in the same frame and units as `positions`. The change map turns each local surface to face
   * the cameras nearest it; absent or empty, it falls back on `ChangeMapOptions.up` and the shape.
   * Registration ignores them.
   */
  viewpoints?: Float32Array;
  /**
   * Per point, the unit normal on the outer side of the surface it lies on, flat xyz in the same
   * frame as `positions` (a GLB mesh's samples carry their triangle's normal). Given, the change map
   * turns each local surface to agree with its points' normals, and neither viewpoints nor `up`
   * are asked. Registration ignores them.
   */
  normals?: Float32Array;
}

/** Registration result: matrix maps capture coords into the reference frame (4x4, column-major, three.js order). */
export interface Registration {
  matrix: number[];
  /** Root mean square of the kept pairs' signed distances to the reference surface, model units. */
  rmsError: number;
  iterations: number;
  /** The pairs kept in the last iteration (far pairs rejected). */
  pairs: number;
}

/** Options of {@link Registration} refinement. Every one has a default suited to a splat capture. */
export interface RegistrationOptions {
  /** At most this many capture patches take part in each iteration (default 10 000). */
  maxPairs?: number;
  /** At most this many iterations (default 60). */
  maxIterations?: number;
  /** Stop when an iteration turns by less than this many radians and moves less than `tolerance` × the cloud's size (default 1e-7). */
  tolerance?: number;
  /** Keep at most this fraction of the pairs, the closest ones (default 0.9). */
  keepFraction?: number;
  /** Never pair points farther apart than this, model units (default: no limit beyond the robust cut). */
  maxDistance?: number;
  /** Points per local patch, the neighbourhood a plane is fitted to (default 16). */
  patchSize?: number;
}

/**
 * One connected group of changed points: the stored change map's region (`ChangeRegionData`:
 * side, centroid and extent in the reference frame, count, mean and largest signed distance).
 */
export type ChangeRegion = ChangeRegionData;

/** The change map of a capture against its reference. */
export interface ChangeMap {
  /** Per capture point, signed (positive = outside the reference surface along its outward normal, towards its viewer), NaN = not measured. */
  distances: Float32Array;
  /** Per capture point, region id or 0. */
  regionOf: Int32Array;
  /** Per reference point, the id of the 'reference' region (a removal) it belongs to, or 0. */
  referenceRegionOf: Int32Array;
  /** Model units; |d| below it reads as unchanged. */
  levelOfDetection: number;
  /** Of the registration used. */
  rmsError: number;
  /** Both sides. */
  regions: ChangeRegion[];
  histogram: { min: number; max: number; counts: number[] };
}

/** Options of the change map. Every one has a default suited to a splat capture. */
export interface ChangeMapOptions {
  /** Points a local patch aims at (default 16): its shape is fitted over it and its neighbours, its distance pooled with theirs. */
  patchSize?: number;
  /** The confidence factor of the level of detection: 1.96 for 95 % (default). */
  confidence?: number;
  /** The registration's error to add to the level of detection; default: the RMS of the capture patches' own mean distances under the given matrix (the closest 90 %, robustly cut). */
  rmsError?: number;
  /** The level of detection is never below this, model units (default 0). */
  minLevelOfDetection?: number;
  /** Regions with fewer points are dropped (default 50). */
  minRegionCount?: number;
  /** Changed patches closer than this are one region, model units (default 3 × the patches' typical spacing). */
  linkRadius?: number;
  /** Points farther than this from any reference surface are not measured (NaN), model units (default: no limit). */
  maxDistance?: number;
  /** Look for removed parts (reference points with no capture surface near them) (default true). */
  removals?: boolean;
  /** A removal is dropped when at least this fraction of it faces changed capture surface: the part moved rather than went (default 0.5). */
  movedFraction?: number;
  /** Bins of the histogram of distances (default 64). */
  histogramBins?: number;
  /**
   * The scene's up direction in the reference's frame (any length but 0): [0, −1, 0] for y-down
   * 3DGS splats. A point set without viewpoints turns its near-horizontal surfaces (within 45°) to
   * face up, so a ground plane's outside is above it. Default: unknown, every surface without
   * viewpoints oriented by the shape alone.
   */
  up?: [number, number, number];
}
