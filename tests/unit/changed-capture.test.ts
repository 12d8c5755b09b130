// The generated changed pair of the demo tower (cli/src/lib/demo-data/changed-capture.ts): the
// capture differs from the reference in count, its truth labels sit on the bent member, the added
// cabinet and the removed antenna, its misregistration is a 0.5° turn and a few cm, the bent
// Gaussians stand about 0.30 m off the member, each capture comes with its flight's camera
// metadata in its own frame (the capture's moved by the misregistration), and the same options give
// the same pair. The demo's changed capture (TWR-001-2025-09), compared with the demo reference
// (TWR-001-2024-05) as `catalog models changes` compares them, with both models' camera metadata
// or none: the added cabinet reads positive, the bent brace positive, the removed panel negative.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import type { ChangeRegion } from '@shared/change-map/index.js';
import { compareCaptureFiles, type CameraFiles } from '../../cli/src/lib/change-map/compare-files.js';
import { readCapture } from '../../cli/src/lib/change-map/read-capture.js';
import { CAPTURE_FLIGHT, REFERENCE_FLIGHT } from '../../cli/src/lib/demo-data/changed-capture.js';
import {
  DEMO_PROJECTS,
  encodeChangedPair,
  makeCameraMetadata,
  makeChangedPair,
  makeDemoModelFiles,
  toYDown,
  type ChangedPair,
} from '../../cli/src/lib/demo-data/index.js';
import { towerParts, type Part } from '../../cli/src/lib/demo-data/structures.js';
import { dot, length, normalize, scale, sub, type Vec3 } from '@shared/vec3.js';

/** p transformed by a 4×4 column-major matrix. */
const apply = (m: readonly number[], p: Vec3): Vec3 =>
  [0, 1, 2].map((r) => m[r]! * p[0] + m[4 + r]! * p[1] + m[8 + r]! * p[2] + m[12 + r]!) as Vec3;
const at = (a: Float32Array, i: number): Vec3 => [a[i * 3]!, a[i * 3 + 1]!, a[i * 3 + 2]!];
const indicesOf = (labels: Uint8Array, label: number) => [...labels.keys()].filter((i) => labels[i] === label);
const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

describe('the changed pair of the demo tower', () => {
  let pair: ChangedPair;
  beforeAll(() => {
    pair = makeChangedPair({ count: 150_000, seed: 7 });
  }, 60_000);

  it('has two captures of different counts, each change labelled on its side', () => {
    const { reference, capture, truth } = pair;
    expect(reference.count).toBe(150_000);
    expect(capture.count).toBe(139_500);
    expect(truth.captureLabels.length).toBe(capture.count);
    expect(truth.referenceLabels.length).toBe(reference.count);
    expect(new Set(truth.captureLabels)).toEqual(new Set([0, 1, 2]));
    expect(new Set(truth.referenceLabels)).toEqual(new Set([0, 3]));
    expect(truth.changes.map((c) => [c.label, c.kind, c.side])).toEqual([
      [1, 'bent', 'capture'],
      [2, 'added', 'capture'],
      [3, 'removed', 'reference'],
    ]);
    expect(truth.changes.map((c) => c.count)).toEqual([
      indicesOf(truth.captureLabels, 1).length,
      indicesOf(truth.captureLabels, 2).length,
      indicesOf(truth.referenceLabels, 3).length,
    ]);
    for (const change of truth.changes) expect(change.count).toBeGreaterThan(100);
  });

  it('is misregistered by a 0.5° turn and a few cm, and states the inverse as the alignment', () => {
    const m = pair.truth.misregistration;
    const trace = m[0]! + m[5]! + m[10]!;
    expect((Math.acos((trace - 1) / 2) * 180) / Math.PI).toBeCloseTo(0.5, 9);
    expect(m.slice(12)).toEqual([0.03, -0.02, 0.04, 1]);
    expect([m[3], m[7], m[11]]).toEqual([0, 0, 0]);
    // alignment · misregistration is the identity
    const product = [0, 1, 2, 3].flatMap((c) =>
      [0, 1, 2, 3].map((r) => [0, 1, 2, 3].reduce((s, k) => s + pair.truth.alignment[k * 4 + r]! * m[c * 4 + k]!, 0)),
    );
    product.forEach((v, k) => expect(v).toBeCloseTo(k % 5 === 0 ? 1 : 0, 12));
  });

  it('bends the member 0.30 m at its middle, out of its face, tapering to its ends', () => {
    const member = towerParts().find(
      (p): p is Extract<Part, { kind: 'beam' }> =>
        p.kind === 'beam' && p.role === 'brace' && p.a[1] === 15 && p.b[1] === 21 && p.a[0] > 0 && p.b[0] < 0 && p.a[2] > 0 && p.b[2] > 0,
    )!;
    // the member in the file frame
    const [a, b] = [toYDown(member.a), toYDown(member.b)];
    const axis = normalize(sub(b, a));
    const memberLength = length(sub(b, a));
    const offsets = indicesOf(pair.truth.captureLabels, 1).map((i) => {
      const r = sub(apply(pair.truth.alignment, at(pair.capture.position, i)), a);
      const t = dot(r, axis) / memberLength;
      return { t, off: sub(r, scale(axis, t * memberLength)) };
    });
    const middle = offsets.filter((o) => Math.abs(o.t - 0.5) < 0.1);
    expect(middle.length).toBeGreaterThan(20);
    const mean = middle.reduce((s, o) => s + length(o.off), 0) / middle.length;
    expect(mean).toBeGreaterThan(0.285);
    expect(mean).toBeLessThan(0.31);
    // outward from the +z face: −z in the y-down file frame
    for (const o of middle) expect(o.off[2]).toBeLessThan(-0.2);
    // tapering: a quarter of the way along, 0.30 · sin(π/4)
    const quarter = offsets.filter((o) => Math.abs(o.t - 0.25) < 0.03);
    const quarterMean = quarter.reduce((s, o) => s + length(o.off), 0) / quarter.length;
    expect(quarterMean).toBeCloseTo(0.3 * Math.SQRT1_2, 1);
    expect(pair.truth.changes[0]).toMatchObject({ magnitude: 0.3 });
    expect(pair.truth.changes[0]!.maxDistance).toBeGreaterThan(0.295);
    expect(pair.truth.changes[0]!.maxDistance).toBeLessThan(0.32);
  });

  it('adds the cabinet on the gravel beside the +x face and removes an antenna panel', () => {
    // every cabinet Gaussian, brought back into the reference frame, is on the 0.8 × 1.2 × 1.6 m block (noise aside)
    for (const i of indicesOf(pair.truth.captureLabels, 2)) {
      const [x, y, z] = apply(pair.truth.alignment, at(pair.capture.position, i));
      expect(x).toBeGreaterThan(4.55);
      expect(x).toBeLessThan(5.45);
      expect(-y).toBeGreaterThan(0);
      expect(-y).toBeLessThan(1.65);
      expect(Math.abs(z)).toBeLessThan(0.65);
    }
    const [, cabinet, antenna] = pair.truth.changes;
    expect(cabinet).toMatchObject({ magnitude: 1.6 });
    expect(cabinet!.maxDistance).toBeCloseTo(1.6, 6);
    // the antenna: a 2.1 m panel standing above the platform (36 m), its region as long as it
    expect(antenna!.magnitude).toBeCloseTo(2.1, 9);
    expect(antenna!.max[1] - antenna!.min[1]).toBeGreaterThan(2.0);
    expect(antenna!.max[1] - antenna!.min[1]).toBeLessThan(2.1);
    expect(-antenna!.centroid[1]).toBeCloseTo(36 + 1.65, 1);
    expect(antenna!.maxDistance).toBeGreaterThan(0.12);
    expect(antenna!.maxDistance).toBeLessThan(0.18);
    for (const i of indicesOf(pair.truth.referenceLabels, 3)) {
      const p = at(pair.reference.position, i);
      for (const k of [0, 1, 2]) {
        expect(p[k]).toBeGreaterThanOrEqual(antenna!.min[k]! - 1e-6);
        expect(p[k]).toBeLessThanOrEqual(antenna!.max[k]! + 1e-6);
      }
    }
  });
});

describe("the changed pair's camera metadata", () => {
  it("is each flight's, in its capture's own frame: the capture's moved with it by the misregistration", () => {
    const { cameras, truth } = makeChangedPair({ count: 5_000, seed: 3 });
    for (const side of ['reference', 'capture'] as const) expect(parseCameraMetadata(JSON.stringify(cameras[side])).ok, side).toBe(true);
    expect(cameras.reference).toEqual(makeCameraMetadata(REFERENCE_FLIGHT));
    const flight = makeCameraMetadata(CAPTURE_FLIGHT);
    expect(cameras.capture).toHaveLength(16);
    // brought back by the alignment, each of the capture's cameras is where its flight put it, and turned as it was
    const m = truth.alignment;
    cameras.capture.forEach((camera, k) => {
      const back = apply(m, camera.position);
      for (const a of [0, 1, 2]) expect(back[a]).toBeCloseTo(flight[k]!.position[a]!, 5);
      for (const r of [0, 1, 2])
        for (const c of [0, 1, 2])
          expect(m[r]! * camera.rotation[0][c] + m[4 + r]! * camera.rotation[1][c] + m[8 + r]! * camera.rotation[2][c]).toBeCloseTo(
            flight[k]!.rotation[r]![c]!,
            5,
          );
      expect(camera.img_name).toBe(flight[k]!.img_name);
    });
  });
});

describe("the demo's changed capture against the demo reference", () => {
  it(
    'reads the cabinet added on the gravel positive, the bent brace positive and the removed panel negative',
    { timeout: 120_000 },
    async () => {
      const model = (publicId: string) => DEMO_PROJECTS.flatMap((p) => p.models).find((m) => m.publicId === publicId)!;
      const dir = mkdtempSync(join(tmpdir(), 'catalog-demo-changes-'));
      try {
        const paths: Record<string, string> = {};
        for (const [side, publicId] of [
          ['reference', 'TWR-001-2024-05'],
          ['capture', 'TWR-001-2025-09'],
        ] as const) {
          const files = await makeDemoModelFiles(model(publicId));
          paths[side] = join(dir, `${side}.ply`);
          writeFileSync(paths[side], files.splat!.bytes);
          // both demo captures have their drone flight's camera metadata, as real captures do
          paths[`${side}Cameras`] = join(dir, `${side}-cameras.json`);
          writeFileSync(paths[`${side}Cameras`]!, files.cameraMetadata!.text);
        }
        const compare = (cameras: CameraFiles) => compareCaptureFiles(paths.capture!, paths.reference!, IDENTITY, {}, undefined, cameras);
        for (const [how, cameras, counts] of [
          ['cameras', { capture: paths.captureCameras, reference: paths.referenceCameras }, [16, 20]],
          ['no cameras', {}, [0, 0]],
        ] as const) {
          const { map, cameraCount, referenceCameraCount } = await compare(cameras);
          expect([cameraCount, referenceCameraCount], how).toEqual(counts);
          expect(map.regions, how).toHaveLength(3);
          // in the reference's frame (y-down): the cabinet stands beside the +x face, the brace 15 to 21 m up, the panel above the platform
          const near = (r: ChangeRegion, y: number) => Math.abs(-r.centroid[1] - y) < 2;
          const cabinet = map.regions.find((r) => r.side === 'capture' && near(r, 0.8) && r.centroid[0] > 4)!;
          const brace = map.regions.find((r) => r.side === 'capture' && near(r, 18))!;
          const panel = map.regions.find((r) => r.side === 'reference' && near(r, 37.7))!;
          for (const [what, region] of Object.entries({ cabinet, brace, panel })) expect(region, `${what} (${how})`).toBeDefined();
          expect(cabinet.meanDistance, how).toBeGreaterThan(0.5);
          expect(cabinet.maxDistance, how).toBeCloseTo(1.6, 1);
          expect(brace.maxDistance, how).toBeGreaterThan(0.2);
          expect(brace.meanDistance, how).toBeGreaterThan(0);
          expect(panel.maxDistance, how).toBeLessThan(-0.1);
          expect(panel.meanDistance, how).toBeLessThan(0);
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('the changed pair, small', () => {
  it('is the same for the same options, another for another seed', () => {
    const one = makeChangedPair({ count: 20_000, seed: 5 });
    const two = makeChangedPair({ count: 20_000, seed: 5 });
    expect(Buffer.from(two.capture.position.buffer).equals(Buffer.from(one.capture.position.buffer))).toBe(true);
    expect(Buffer.from(two.reference.position.buffer).equals(Buffer.from(one.reference.position.buffer))).toBe(true);
    expect(two.truth).toEqual(one.truth);
    const other = makeChangedPair({ count: 20_000, seed: 6 });
    expect(Buffer.from(other.capture.position.buffer).equals(Buffer.from(one.capture.position.buffer))).toBe(false);
  });

  it('adds 1 cm of noise before the misregistration: undone, the capture is the quiet one plus the noise', () => {
    const noisy = makeChangedPair({ count: 20_000, seed: 5 });
    const quiet = makeChangedPair({ count: 20_000, seed: 5, noise: 0, rotationDegrees: 0, translation: [0, 0, 0] });
    let squares = 0;
    let largest = 0;
    for (let i = 0; i < noisy.capture.count; i += 1) {
      const d = sub(apply(noisy.truth.alignment, at(noisy.capture.position, i)), at(quiet.capture.position, i));
      squares += dot(d, d);
      largest = Math.max(largest, length(d));
    }
    const sigma = Math.sqrt(squares / (3 * noisy.capture.count));
    expect(sigma).toBeGreaterThan(0.0095);
    expect(sigma).toBeLessThan(0.0105);
    expect(largest).toBeLessThan(0.08);
    expect(Buffer.from(noisy.reference.position.buffer).equals(Buffer.from(quiet.reference.position.buffer))).toBe(true);
  });

  it('writes both captures as 3DGS PLY files that read back as they are', async () => {
    const pair = makeChangedPair({ count: 5_000, captureCount: 6_000, seed: 2 });
    const files = encodeChangedPair(pair);
    const dir = mkdtempSync(join(tmpdir(), 'catalog-changed-pair-'));
    try {
      for (const side of ['reference', 'capture'] as const) {
        const path = join(dir, `${side}.ply`);
        writeFileSync(path, files[side]);
        const read = await readCapture(path);
        expect(read.count).toBe(pair[side].count);
        expect(read.positions).toEqual(pair[side].position);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses counts too small to hold the changes', () => {
    expect(() => makeChangedPair({ count: 999 })).toThrow('at least 1,000 Gaussians');
    expect(() => makeChangedPair({ count: 5000, captureCount: 10.5 })).toThrow('not 10.5');
  });
});
