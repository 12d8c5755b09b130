/**
 * The change map of a capture against its reference: where the capture's surface departs from the
 * reference's by more than the level of detection, and the connected regions of those departures.
 *
 * 1. The capture is moved into the reference frame; each point set is cut into small planar
 *    patches (about 10 to 16 neighbouring points each, the leaves of its spatial index) with a
 *    fitted plane, an oriented normal and a roughness.
 * 2. Each capture point is measured against the reference surface — the signed distance to the
 *    nearest of the reference patch discs around its patch — and every point of the patch reports
 *    the patch's mean, so the splats' noise averages out.
 * 3. A patch is changed when |d| exceeds both the cloud-wide level of detection and its own pair's
 *    (z · √(σc²/nc + σr²/nr) + the registration's error); changed patches are linked into regions.
 * 4. The other way round, reference patches with no capture surface near them are what was removed;
 *    such a region is dropped when the capture surface nearest most of it is changed (the part
 *    moved, or something added now covers it: that is already a capture region).
 */
import { inlierCut, inlierRms, measurePatches, median, pairLevelOfDetection } from './distances.js';
import { computeHistogram } from './histogram.js';
import { buildPatches, orientNormals, type Patches } from './local-surface.js';
import { boundingDiagonal } from './registration.js';
import { clusterPatches, LINK_SPACINGS, patchSpacing, summariseClusters, type RegionSummary } from './regions.js';
import { checkMatrix, checkPointSet, transformPositions } from './transform.js';
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

/** The median over patches of σ²/n, the variance of a patch's mean along its normal. */
function typicalMeanVariance(patches: Patches): number {
  const v = new Float64Array(patches.count);
  for (let p = 0; p < patches.count; p += 1) v[p] = patches.roughness[p]! ** 2 / Math.max(1, patches.fitted[p]!);
  const m = median(v);
  return Number.isFinite(m) ? m : 0;
}

/**
 * Flags the changed patches of `from` measured against `to`.
 * @returns per patch 1 when |d| exceeds the global level and its pair's own level (an unmatched patch counts as changed when `unmatchedChanged`)
 */
function flagChanges(
  from: Patches,
  to: Patches,
  match: { patch: Int32Array; distance: Float64Array },
  z: number,
  rms: number,
  globalLevel: number,
  unmatchedChanged: boolean,
): Uint8Array {
  const changed = new Uint8Array(from.count);
  for (let p = 0; p < from.count; p += 1) {
    const q = match.patch[p]!;
    const d = match.distance[p]!;
    if (q < 0 || !Number.isFinite(d)) {
      changed[p] = unmatchedChanged ? 1 : 0;
      continue;
    }
    const own = pairLevelOfDetection(z, from.roughness[p]!, from.fitted[p]!, to.roughness[q]!, to.fitted[q]!, rms);
    changed[p] = Math.abs(d) > Math.max(globalLevel, own) ? 1 : 0;
  }
  return changed;
}

/**
 * Computes the change map of a capture against its reference (see the module's comment).
 * @param capture the capture's points, in its own coordinates
 * @param reference the reference's points
 * @param matrix capture → reference (16 numbers, column-major), e.g. from `refineRegistration`
 * @param options {@link ChangeMapOptions}
 * @returns per capture point its signed distance (model units of the reference; NaN where not
 *   measured) and region id (0 = none); the level of detection; the registration error used; the
 *   regions of both sides, numbered 1… by decreasing count; and a histogram of the distances.
 *   Reference-side regions report the capture surface's distance from the reference points, so a
 *   removal reads negative.
 * @throws AppError `invalid-argument` for a malformed point set or matrix
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
  const patchSize = options.patchSize ?? DEFAULTS.patchSize;
  const z = options.confidence ?? DEFAULTS.confidence;
  const minLevel = options.minLevelOfDetection ?? DEFAULTS.minLevelOfDetection;
  const minCount = options.minRegionCount ?? DEFAULTS.minRegionCount;
  const maxDistance = options.maxDistance ?? Infinity;
  const bins = options.histogramBins ?? DEFAULTS.histogramBins;
  const n = capture.count;
  const distances = new Float32Array(n).fill(NaN);
  const regionOf = new Int32Array(n);
  if (n === 0 || reference.count === 0) {
    return {
      distances,
      regionOf,
      levelOfDetection: minLevel,
      rmsError: options.rmsError ?? 0,
      regions: [],
      histogram: computeHistogram(distances, bins),
    };
  }

  const moved = transformPositions(capture.positions, n, m);
  const cap = buildPatches(moved, n, patchSize);
  orientNormals(cap, patchSize);
  const ref = buildPatches(reference.positions, reference.count, patchSize);
  orientNormals(ref, patchSize);

  // Capture → reference, one measurement per capture patch.
  const forward = measurePatches(cap, moved, ref, maxDistance);
  const floor = 1e-9 * boundingDiagonal(reference.positions, reference.count);
  const rms = options.rmsError ?? inlierRms(forward.distance, inlierCut(forward.distance, DEFAULTS.keepFraction, floor)).rms;
  const levelOfDetection = Math.max(minLevel, z * Math.sqrt(typicalMeanVariance(cap) + typicalMeanVariance(ref)) + rms);
  const capChanged = flagChanges(cap, ref, forward, z, rms, levelOfDetection, false);
  for (let p = 0; p < cap.count; p += 1) {
    const d = forward.distance[p]!;
    for (let s = cap.index.leafStart[p]!; s < cap.index.leafStart[p + 1]!; s += 1) distances[cap.index.order[s]!] = d;
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
    const refClusters = clusterPatches(ref, refChanged, refLink);
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
  const idOfCluster = new Int32Array(capClusters.clusters);
  kept.forEach((s, i) => {
    if (s.side === 'capture') idOfCluster[s.cluster] = i + 1;
  });
  for (let p = 0; p < cap.count; p += 1) {
    const k = capClusters.clusterOf[p]!;
    if (k < 0 || idOfCluster[k] === 0) continue;
    for (let s = cap.index.leafStart[p]!; s < cap.index.leafStart[p + 1]!; s += 1) regionOf[cap.index.order[s]!] = idOfCluster[k]!;
  }
  return { distances, regionOf, levelOfDetection, rmsError: rms, regions, histogram: computeHistogram(distances, bins) };
}
