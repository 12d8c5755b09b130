// The change map's acceptance case, on the generated changed pair of the demo tower (a brace bent
// 0.30 m, an antenna panel removed, a cabinet added, 1 cm splat noise, another splat count and a
// 0.5° + 5.4 cm misregistration): from the identity, ICP brings the RMS under 2 cm and the matrix
// within 1 cm of the true alignment over the structure's extent; the change map then finds exactly
// the three changes as regions — each change's Gaussians overlapping their region with an IoU of
// at least 0.8, its largest distance within 10 % of the truth's — and no region anywhere else.
// The splats go through `confident` as `catalog models changes` reads them (compare-files.ts).
// Each region reads with the sign of its change (positive: material added or moved outward,
// towards the viewer; negative: removed): the brace bowed out of its face and the cabinet set on
// the gravel positive, the antenna panel gone negative — both when the normals face the cameras of
// each capture's flight (their centres, the capture's in its own misregistered frame) and when,
// without cameras, near-horizontal surfaces face up (−y, the splats being y-down).
import { describe, expect, it } from 'vitest';
import { computeChangeMap, refineRegistration, type ChangeMap, type ChangeRegion } from '@shared/change-map/index.js';
import type { CameraMetadataEntry } from '@shared/types.js';
import { confident } from '../../cli/src/lib/change-map/read-capture.js';
import { makeChangedPair, type ChangedPair, type ChangeTruth } from '../../cli/src/lib/demo-data/index.js';

type Gaussians = ChangedPair['capture'];

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A capture's splats as the reader gives them: centre, opacity, largest σ. */
function splatsOf(g: Gaussians): { count: number; positions: Float32Array; opacity: Float32Array; scale: Float32Array } {
  const scale = new Float32Array(g.count);
  for (let i = 0; i < g.count; i += 1) scale[i] = Math.max(g.sigma[i * 3]!, g.sigma[i * 3 + 1]!, g.sigma[i * 3 + 2]!);
  return { count: g.count, positions: g.position, opacity: g.opacity, scale };
}

/** The largest distance between where two column-major matrices take the corners of a point set's bounding box. */
function gapOverExtent(a: number[], b: readonly number[], positions: Float32Array, count: number): number {
  const lo = [Infinity, Infinity, Infinity];
  const hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < count; i += 1) {
    for (let k = 0; k < 3; k += 1) {
      lo[k] = Math.min(lo[k]!, positions[i * 3 + k]!);
      hi[k] = Math.max(hi[k]!, positions[i * 3 + k]!);
    }
  }
  let worst = 0;
  for (let corner = 0; corner < 8; corner += 1) {
    const p = [0, 1, 2].map((k) => ((corner >> k) & 1 ? hi[k]! : lo[k]!));
    let d2 = 0;
    for (let r = 0; r < 3; r += 1) {
      const d = (a[r]! - b[r]!) * p[0]! + (a[4 + r]! - b[4 + r]!) * p[1]! + (a[8 + r]! - b[8 + r]!) * p[2]! + (a[12 + r]! - b[12 + r]!);
      d2 += d * d;
    }
    worst = Math.max(worst, Math.sqrt(d2));
  }
  return worst;
}

/** Of the regions on a change's side, the one whose points overlap the change's Gaussians best, with that IoU. */
function bestRegion(
  change: ChangeTruth,
  map: ChangeMap,
  labels: { capture: Uint8Array; reference: Uint8Array },
): { region: ChangeRegion | null; iou: number } {
  const [regionOf, label] = change.side === 'capture' ? [map.regionOf, labels.capture] : [map.referenceRegionOf, labels.reference];
  let best: { region: ChangeRegion | null; iou: number } = { region: null, iou: 0 };
  for (const region of map.regions.filter((r) => r.side === change.side)) {
    let both = 0;
    let inRegion = 0;
    let inChange = 0;
    for (let i = 0; i < regionOf.length; i += 1) {
      const a = regionOf[i] === region.id;
      const b = label[i] === change.label;
      if (a) inRegion += 1;
      if (b) inChange += 1;
      if (a && b) both += 1;
    }
    const iou = both / (inRegion + inChange - both);
    if (iou > best.iou) best = { region, iou };
  }
  return best;
}

/** The camera centres of camera metadata, flat xyz: a point set's viewpoints. */
const centres = (cameras: CameraMetadataEntry[]) => Float32Array.from(cameras.flatMap((c) => c.position));

/** The sign each change's region must read with: the bent brace bowed outward and the added cabinet positive, the removed antenna negative. */
const SIGN: Record<ChangeTruth['kind'], 1 | -1> = { bent: 1, added: 1, removed: -1 };

describe('change map of the generated tower pair', () => {
  it('registers from the identity, then finds exactly the bent brace, the added cabinet and the removed antenna', () => {
    const pair = makeChangedPair({ count: 200_000 }); // and 186,000 in the capture
    const capture = confident(splatsOf(pair.capture));
    const reference = confident(splatsOf(pair.reference));

    const registration = refineRegistration(capture, reference, IDENTITY);
    expect(registration.rmsError).toBeLessThan(0.02);
    expect(gapOverExtent(registration.matrix, pair.truth.alignment, capture.positions, capture.count)).toBeLessThan(0.01);

    // The truth per confident point, in the order the map gives its values.
    const labels = {
      capture: Uint8Array.from(capture.index, (i) => pair.truth.captureLabels[i]!),
      reference: Uint8Array.from(reference.index, (i) => pair.truth.referenceLabels[i]!),
    };
    const options = { rmsError: registration.rmsError };
    const withCameras = computeChangeMap(
      { ...capture, viewpoints: centres(pair.cameras.capture) },
      { ...reference, viewpoints: centres(pair.cameras.reference) },
      registration.matrix,
      options,
    );
    const upOnly = computeChangeMap(capture, reference, registration.matrix, { ...options, up: [0, -1, 0] });
    for (const [how, map] of [
      ['cameras', withCameras],
      ['up', upOnly],
    ] as const) {
      expect(map.regions, how).toHaveLength(3);
      const found = pair.truth.changes.map((change) => ({ change, ...bestRegion(change, map, labels) }));
      for (const { change, region, iou } of found) {
        const what = `${change.kind} (${how})`;
        expect(region, what).not.toBeNull();
        expect(iou, what).toBeGreaterThanOrEqual(0.8);
        expect(Math.abs(Math.abs(region!.maxDistance) - change.maxDistance) / change.maxDistance, what).toBeLessThan(0.1);
        // The sign of the change: the cabinet stands out of the gravel, the brace out of its face;
        // the capture's surface is behind where the antenna was.
        expect(Math.sign(region!.maxDistance), what).toBe(SIGN[change.kind]);
        expect(Math.sign(region!.meanDistance), what).toBe(SIGN[change.kind]);
      }
      // Each region is one of the changes: none lies in the unchanged parts.
      expect(new Set(found.map((f) => f.region!.id)).size, how).toBe(3);
    }
    // Generating, registering and mapping 200,000 + 186,000 points (twice) takes about 8 s on one core.
  }, 60_000);
});
