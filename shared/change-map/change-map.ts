/**
 * The change map of a capture against its reference: where the capture's surface departs from the
 * reference's by more than the level of detection, and the connected regions of those departures.
 *
 * 1. The capture is moved into the reference frame; each point set is cut into small patches
 *    (about 10 to 16 neighbouring points each, the leaves of its spatial index) with a fitted
 *    shape — a plane, or a line along a thin member — and a normal oriented towards the outside,
 *    the side the surface's viewer stands on (orient-normals.ts `orientNormals`): along the points'
 *    own outward normals where a point set has them (a GLB mesh's samples, by its triangles'
 *    winding); else towards the
 *    nearest of the cameras that took the point set, where their centres are given (the capture's
 *    moved with it); without them, near-horizontal surfaces face the scene's up direction when it
 *    is given (a ground plane has no inside) and the rest point away from the middle of a larger
 *    neighbourhood. So a distance is positive where material was added or moved outward, towards
 *    the viewer (a cabinet set on the ground, a member bowed out of its face), and negative where it
 *    was removed or dented inward.
 * 2. Each capture point is measured against the reference surface — its offset from the
 *    reference elements around its patch — and every point of a patch reports the mean offset of
 *    the patch's points pooled with its neighbours', so the splats' noise averages out
 *    (distances.ts).
 * 3. A patch is changed when that distance exceeds both the cloud-wide level of detection and its
 *    own, z · √(σ²/n + σr²/nr) + the registration's error (σ²/n the variance of the pooled mean,
 *    σr²/nr that of the reference element's position; for an offset across a line, the 2-D
 *    quantile of the same confidence), and its own points' mean exceeds its own points' level too,
 *    so that pooling does not carry a change onto the patches beside it; changed patches are
 *    linked into regions, each reporting its largest pooled distance.
 * 4. The other way round, reference patches with no capture surface near them are what was removed;
 *    such a region is dropped when the capture surface nearest most of it is changed (the part
 *    moved, or something added now covers it: that is already a capture region).
 */
import { inlierCut, inlierRms, measurePatches, median, type PatchMeasure } from './distances.js';
import { computeHistogram } from './histogram.js';
import { buildPatches, type Patches } from './local-surface.js';
import { orientNormals } from './orient-normals.js';
import { boundingDiagonal } from './registration.js';
import { clusterPatches, LINK_SPACINGS, patchSpacing, summariseClusters, type RegionSummary } from './regions.js';
import { checkMatrix, checkPointSet, checkUp, transformDirections, transformPositions } from './transform.js';
import type { ChangeMap, ChangeMapOptions, ChangeRegion, PointSet } from './types.js';

const DEFAULTS = {
  patchSize: 16,
  confidence: 1.96,
  minLevelOfDetection: 0,
  minRegionCount: 50,
  movedFraction: 0.5,
  histogramBins: 64,
  keepFraction: 0.9,
} as const;

/** The median over patches of σ²/n, the variance of a fitted element's position across its shape. */
function typicalMeanVariance(patches: Patches): number {
  const v = new Float64Array(patches.count);
  for (let p = 0; p < patches.count; p += 1) v[p] = patches.uncertainty[p]!;
  const m = median(v);
  return Number.isFinite(m) ? m : 0;
}

/** The median of the measured distances' variances (0 when none is finite), model units². */
function typicalVariance(match: PatchMeasure): number {
  const m = median(match.variance);
  return Number.isFinite(m) ? m : 0;
}

/**
 * The radius that a 2-D normal offset (equal σ per axis) exceeds as rarely as a 1-D one exceeds
 * z σ: √(−2 ln α) where α = erfc(z / √2) is the two-sided tail of z.
 * @param z a confidence factor (1.96 for 95 %)
 * @returns the factor for the length of a 2-D offset (2.45 for 95 %)
 */
export function planarToRadial(z: number): number {
  return Math.sqrt(-2 * Math.log(Math.max(1e-300, erfc(z / Math.SQRT2))));
}

/** The complementary error function (Numerical Recipes' erfcc, relative error under 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/**
 * Flags the changed patches of `from` measured against `to`: a patch is changed when its pooled
 * distance exceeds the global level and its own level, z · √(variance of the pooled mean + variance
 * of the matched element's position) + rms, and its own points' mean distance exceeds the same
 * level taken with the variance of that mean. An offset mostly across lines has two directions:
 * its length is tested with the 2-D factor of the same confidence (see {@link planarToRadial}) and
 * half its variance (per direction).
 * @returns per patch 1 when changed (an unmatched patch counts as changed when `unmatchedChanged`)
 */
function flagChanges(
  from: Patches,
  to: Patches,
  match: PatchMeasure,
  z: number,
  rms: number,
  globalLevel: number,
  unmatchedChanged: boolean,
): Uint8Array {
  const changed = new Uint8Array(from.count);
  const z2 = planarToRadial(z);
  for (let p = 0; p < from.count; p += 1) {
    const q = match.patch[p]!;
    const d = match.distance[p]!;
    if (q < 0 || !Number.isFinite(d)) {
      changed[p] = unmatchedChanged ? 1 : 0;
      continue;
    }
    const [factor, share] = match.across[p] === 1 ? [z2, 0.5] : [z, 1];
    const pooled = factor * Math.sqrt(match.variance[p]! * share + to.uncertainty[q]!) + rms;
    // The patch's own points must depart too: a patch beside a change takes in some of it when pooled.
    const alone = factor * Math.sqrt(match.ownVariance[p]! * share + to.uncertainty[q]!) + rms;
    changed[p] = Math.abs(d) > Math.max(globalLevel, pooled) && Math.abs(match.own[p]!) > alone ? 1 : 0;
  }
  return changed;
}

/**
 * Computes the change map of a capture against its reference (see the module's comment).
 * The sign: a distance is positive on the outer side of the surface it is measured against,
 * the side its viewer stands on (see the module's comment for how each side's normals are
 * oriented): material added or moved outward reads positive, removed or dented inward negative.
 * @param capture the capture's points, in its own coordinates, with the centres of the cameras
 *   that took it (`viewpoints`, same coordinates; moved into the reference frame with the points)
 * @param reference the reference's points, with its own cameras' centres
 *   (either point set may carry per-point outward `normals` instead, e.g. a GLB's surface samples:
 *   they then orient its surfaces; the capture's are turned with it)
 * @param matrix capture → reference (16 numbers, column-major), e.g. from `refineRegistration`
 * @param options {@link ChangeMapOptions}; `up` is the reference frame's up direction
 * @returns per capture point its signed distance (model units of the reference; NaN where not
 *   measured) and region id (0 = none); per reference point the id of its removal region (0 =
 *   none); the level of detection; the registration error used; the regions of both sides,
 *   numbered 1… by decreasing count, each with its largest pooled distance; and a histogram of the
 *   distances. Reference-side regions report the capture surface's distance from the reference
 *   points, negated, so a removal (the reference's surface outside the capture's) reads negative.
 * @throws AppError `invalid-argument` for a malformed point set, viewpoints, matrix or up direction
 */
export function computeChangeMap(
  capture: PointSet,
  reference: PointSet,
  matrix: readonly number[],
  options: ChangeMapOptions = {},
): ChangeMap {
  checkPointSet(capture);
  checkPointSet(reference);
  const m = checkMatrix(matrix);
  const up = checkUp(options.up) ?? undefined;
  const patchSize = options.patchSize ?? DEFAULTS.patchSize;
  const z = options.confidence ?? DEFAULTS.confidence;
  const minLevel = options.minLevelOfDetection ?? DEFAULTS.minLevelOfDetection;
  const minCount = options.minRegionCount ?? DEFAULTS.minRegionCount;
  const maxDistance = options.maxDistance ?? Infinity;
  const bins = options.histogramBins ?? DEFAULTS.histogramBins;
  const n = capture.count;
  const distances = new Float32Array(n).fill(NaN);
  const regionOf = new Int32Array(n);
  const referenceRegionOf = new Int32Array(reference.count);
  if (n === 0 || reference.count === 0) {
    return {
      distances,
      regionOf,
      referenceRegionOf,
      levelOfDetection: minLevel,
      rmsError: options.rmsError ?? 0,
      regions: [],
      histogram: computeHistogram(distances, bins),
    };
  }

  const moved = transformPositions(capture.positions, n, m);
  const cap = buildPatches(moved, n, patchSize);
  const captureViewpoints = capture.viewpoints ?? new Float32Array(0);
  const captureNormals = capture.normals && transformDirections(capture.normals, n, m);
  orientNormals(cap, patchSize, {
    viewpoints: transformPositions(captureViewpoints, captureViewpoints.length / 3, m),
    up,
    normals: captureNormals,
  });
  const ref = buildPatches(reference.positions, reference.count, patchSize);
  orientNormals(ref, patchSize, { viewpoints: reference.viewpoints, up, normals: reference.normals });

  // Capture → reference, one measurement per capture patch.
  const forward = measurePatches(cap, moved, ref, maxDistance);
  const floor = 1e-9 * boundingDiagonal(reference.positions, reference.count);
  const rms = options.rmsError ?? inlierRms(forward.own, inlierCut(forward.own, DEFAULTS.keepFraction, floor)).rms;
  const levelOfDetection = Math.max(minLevel, z * Math.sqrt(typicalVariance(forward) + typicalMeanVariance(ref)) + rms);
  const capChanged = flagChanges(cap, ref, forward, z, rms, levelOfDetection, false);
  for (let p = 0; p < cap.count; p += 1) {
    const d = forward.distance[p]!;
    for (let s = cap.start[p]!; s < cap.start[p + 1]!; s += 1) distances[cap.order[s]!] = d;
  }
  const capLink = options.linkRadius ?? LINK_SPACINGS * patchSpacing(cap);
  const capClusters = clusterPatches(cap, capChanged, capLink);
  const summaries: RegionSummary[] = summariseClusters(
    'capture',
    moved,
    cap,
    capClusters.clusterOf,
    capClusters.clusters,
    forward.distance,
  );

  let refClusters: { clusterOf: Int32Array; clusters: number } | null = null;
  if (options.removals ?? true) {
    // Reference → capture: what the capture no longer covers.
    const backward = measurePatches(ref, reference.positions, cap, maxDistance);
    const refDistance = new Float64Array(ref.count);
    for (let q = 0; q < ref.count; q += 1) {
      const d = backward.distance[q]!;
      // The capture surface's side of the reference point: a removal reads negative.
      refDistance[q] = Number.isFinite(d) ? -d : -maxDistance;
    }
    const refChanged = flagChanges(ref, cap, backward, z, rms, levelOfDetection, true);
    const refLink = options.linkRadius ?? LINK_SPACINGS * patchSpacing(ref);
    refClusters = clusterPatches(ref, refChanged, refLink);
    const refSummaries = summariseClusters('reference', reference.positions, ref, refClusters.clusterOf, refClusters.clusters, refDistance);
    // A removal whose nearest capture surface is mostly changed is a part that moved, or one now
    // covered by something added: its new state is already a capture region, so drop it.
    const facing = new Float64Array(refClusters.clusters);
    const total = new Float64Array(refClusters.clusters);
    for (let q = 0; q < ref.count; q += 1) {
      const k = refClusters.clusterOf[q]!;
      if (k < 0) continue;
      total[k] += 1;
      const c = backward.nearest[q]!;
      if (c >= 0 && capChanged[c] === 1) facing[k] += 1;
    }
    const movedFraction = options.movedFraction ?? DEFAULTS.movedFraction;
    for (const s of refSummaries) if (facing[s.cluster]! < movedFraction * total[s.cluster]!) summaries.push(s);
  }

  const kept = summaries.filter((s) => s.count >= minCount && s.count > 0).sort((a, b) => b.count - a.count);
  const regions: ChangeRegion[] = kept.map(({ cluster: _cluster, ...region }, i) => ({ ...region, id: i + 1 }));
  // Each side's points take their region's id.
  for (const [side, patches, clusters, out] of [
    ['capture', cap, capClusters, regionOf],
    ['reference', ref, refClusters, referenceRegionOf],
  ] as const) {
    if (clusters === null) continue;
    const idOfCluster = new Int32Array(clusters.clusters);
    kept.forEach((s, i) => {
      if (s.side === side) idOfCluster[s.cluster] = i + 1;
    });
    for (let p = 0; p < patches.count; p += 1) {
      const k = clusters.clusterOf[p]!;
      if (k < 0 || idOfCluster[k] === 0) continue;
      for (let s = patches.start[p]!; s < patches.start[p + 1]!; s += 1) out[patches.order[s]!] = idOfCluster[k]!;
    }
  }
  return {
    distances,
    regionOf,
    referenceRegionOf,
    levelOfDetection,
    rmsError: rms,
    regions,
    histogram: computeHistogram(distances, bins),
  };
}
