// The sign of the change map on open ground, where "away from the structure's middle" has no
// answer: a cabinet set on a ground plane reads positive (material added, towards the viewer) and
// a crate taken away negative, whether the point sets carry the centres of the cameras that took
// them (each surface faces its nearest cameras; the capture's cameras move into the reference
// frame with its points) or only the scene's up direction is known (near-horizontal surfaces face
// up). The scene is y-down like a 3DGS splat; the capture is stored turned 180° about x (its own
// frame y-up), so its cameras only stand above the ground once the matrix has moved them.
// Without either, the magnitudes are the same. Malformed viewpoints and up directions are refused.
import { describe, expect, it } from 'vitest';
import { computeChangeMap, PointSetMessages, type ChangeMap, type ChangeMapOptions, type PointSet } from '@shared/change-map/index.js';

/** The capture's frame → the reference's: a 180° turn about x, (x, y, z) → (x, −y, −z), its own inverse (column-major). */
const FLIP = [1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1];
/** Up in the y-down reference frame. */
const UP: [number, number, number] = [0, -1, 0];

/** A seeded generator: uniform in [0, 1) and standard normal. */
function random(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0;
  const uniform = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

type Box = { min: [number, number]; max: [number, number]; height: number };
/** The cabinet added in the capture: 0.8 × 1.2 m, 1.6 m tall. */
const CABINET: Box = { min: [2, -0.6], max: [2.8, 0.6], height: 1.6 };
/** The crate taken away: 1 × 1 m, 1 m tall. */
const CRATE: Box = { min: [-3, -0.5], max: [-2, 0.5], height: 1 };

/**
 * Points (y-down: a height h above the ground is y = −h) on a 12 × 12 m ground plane at y = 0 and
 * on the top and four sides of each box standing on it (no underside), 1 cm of noise.
 */
function scene(boxes: Box[], seed: number): PointSet {
  const { uniform, normal } = random(seed);
  const points: number[] = [];
  const add = (x: number, height: number, z: number) => points.push(x + 0.01 * normal(), -height + 0.01 * normal(), z + 0.01 * normal());
  // (the ground runs on under the boxes: the crate's ground must not read as new surface)
  for (let i = 0; i < 24_000; i += 1) add(uniform() * 12 - 6, 0, uniform() * 12 - 6);
  for (const { min, max, height } of boxes) {
    const [w, d] = [max[0] - min[0], max[1] - min[1]];
    const [top, sides] = [w * d, 2 * (w + d) * height];
    for (let i = 0; i < Math.round(165 * (top + sides)); i += 1) {
      const [u, v] = [uniform(), uniform()];
      if (uniform() * (top + sides) < top) add(min[0] + u * w, height, min[1] + v * d);
      else {
        // around the perimeter
        const t = u * 2 * (w + d);
        const [x, z] =
          t < w
            ? [min[0] + t, min[1]]
            : t < w + d
              ? [max[0], min[1] + t - w]
              : t < 2 * w + d
                ? [max[0] - (t - w - d), max[1]]
                : [min[0], max[1] - (t - 2 * w - d)];
        add(x, v * height, z);
      }
    }
  }
  return { count: points.length / 3, positions: Float32Array.from(points) };
}

/** A ring of 12 drone cameras 10 m out and 5 m up, round the middle of the scene (y-down). */
const RING = Float32Array.from(
  Array.from({ length: 12 }, (_, i) => [10 * Math.cos((i * Math.PI) / 6), -5, 10 * Math.sin((i * Math.PI) / 6)]).flat(),
);

/** Flat xyz turned 180° about x (the reference frame ↔ the capture's). */
const flipped = (xyz: Float32Array) => xyz.map((v, i) => (i % 3 === 0 ? v : -v + 0));

const reference = scene([CRATE], 1);
const captureHere = scene([CABINET], 2);
/** The capture in its own frame: turned 180° about x; {@link FLIP} takes it back. */
const capture: PointSet = { count: captureHere.count, positions: flipped(captureHere.positions) };

/** The map's capture region (the cabinet) and reference region (the crate), which must be all it found. */
function regionsOf(map: ChangeMap) {
  expect(map.regions.map((r) => r.side).sort()).toEqual(['capture', 'reference']);
  return { cabinet: map.regions.find((r) => r.side === 'capture')!, crate: map.regions.find((r) => r.side === 'reference')! };
}

/** Asserts the cabinet reads about +1.6 m where it stands and the crate about −1 m. */
function expectSigns(map: ChangeMap): void {
  const { cabinet, crate } = regionsOf(map);
  expect(cabinet.centroid[0]).toBeCloseTo(2.4, 0);
  expect(cabinet.meanDistance).toBeGreaterThan(0.5);
  expect(cabinet.maxDistance).toBeGreaterThan(1.6 * 0.9);
  expect(cabinet.maxDistance).toBeLessThan(1.6 * 1.1);
  expect(crate.centroid[0]).toBeCloseTo(-2.5, 0);
  expect(crate.meanDistance).toBeLessThan(-0.3);
  expect(crate.maxDistance).toBeLessThan(-0.9);
  expect(crate.maxDistance).toBeGreaterThan(-1.1);
}

const map = (c: PointSet, r: PointSet, options: ChangeMapOptions = {}) => computeChangeMap(c, r, FLIP, { rmsError: 0, ...options });

describe('computeChangeMap: the sign on a ground plane', () => {
  it('with the cameras that took each capture: the added cabinet reads positive, the removed crate negative', () => {
    // each capture's cameras in its own frame: the capture's are turned with it
    expectSigns(map({ ...capture, viewpoints: flipped(RING) }, { ...reference, viewpoints: RING }));
    // one capture with cameras, the other with the up direction only
    expectSigns(map(capture, { ...reference, viewpoints: RING }, { up: UP }));
    expectSigns(map({ ...capture, viewpoints: flipped(RING) }, reference, { up: UP }));
  });

  it('without cameras, with the up direction: near-horizontal surfaces face up, and the signs are the same', () => {
    expectSigns(map(capture, reference, { up: UP }));
    // up need not be unit length, and the same scene y-up reads the same with up +y
    expectSigns(computeChangeMap(captureHere, flippedSet(reference), FLIP, { rmsError: 0, up: [0, 3, 0] }));
  });

  it('measures the same magnitudes whichever way the normals face', () => {
    const oriented = regionsOf(map(capture, reference, { up: UP }));
    const shapeOnly = regionsOf(map(capture, reference));
    for (const side of ['cabinet', 'crate'] as const) {
      expect(shapeOnly[side].count).toBe(oriented[side].count);
      expect(Math.abs(shapeOnly[side].maxDistance)).toBeCloseTo(Math.abs(oriented[side].maxDistance), 6);
    }
  });

  it('refuses viewpoints that are not x y z triples of finite numbers, and an up direction of length 0', () => {
    const points = { count: 100, positions: reference.positions.subarray(0, 300) };
    expect(() => computeChangeMap({ ...points, viewpoints: new Float32Array(4) }, points, FLIP)).toThrow(PointSetMessages.viewpoints);
    expect(() => computeChangeMap(points, { ...points, viewpoints: Float32Array.of(0, NaN, 0) }, FLIP)).toThrow(
      PointSetMessages.viewpoints,
    );
    expect(() => computeChangeMap(points, points, FLIP, { up: [0, 0, 0] })).toThrow(PointSetMessages.up);
    expect(() => computeChangeMap(points, points, FLIP, { up: [0, Infinity, 0] })).toThrow(PointSetMessages.up);
  });
});

/** A point set turned 180° about x. */
function flippedSet(points: PointSet): PointSet {
  return { count: points.count, positions: flipped(points.positions) };
}
