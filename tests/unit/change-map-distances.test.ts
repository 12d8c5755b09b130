import { describe, expect, it } from 'vitest';
import { computeChangeMap, computeHistogram, type PointSet } from '@shared/change-map/index.js';
import { AppError } from '@shared/errors.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A seeded generator: uniform in [0, 1) and standard normal. */
function random(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0;
  const uniform = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** Points on the surface of an axis-aligned cube of half-size `h` centred at the origin, with Gaussian noise. */
function cube(count: number, h: number, noise: number, seed: number): PointSet {
  const { uniform, normal } = random(seed);
  const positions = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    const face = Math.floor(uniform() * 6);
    const axis = face % 3;
    for (let a = 0; a < 3; a += 1) positions[i * 3 + a] = (a === axis ? (face < 3 ? h : -h) : (uniform() * 2 - 1) * h) + noise * normal();
  }
  return { count, positions };
}

/** Points on a sphere of radius r at the origin, with Gaussian noise along the radius. */
function sphere(count: number, r: number, noise: number, seed: number): PointSet {
  const { normal } = random(seed);
  const positions = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    const [x, y, z] = [normal(), normal(), normal()];
    const k = (r + noise * normal()) / Math.hypot(x, y, z);
    positions.set([x * k, y * k, z * k], i * 3);
  }
  return { count, positions };
}

/** The points of a cube away from its edges: on a face, within `inner` × the half-size of its centre along the face. */
function facePoints(points: PointSet, inner: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < points.count; i += 1) {
    const abs = [0, 1, 2].map((a) => Math.abs(points.positions[i * 3 + a]!)).sort((a, b) => a - b);
    if (abs[1]! < inner * abs[2]!) out.push(i);
  }
  return out;
}

/** The q-quantile of the finite values. */
function quantile(values: Float32Array | number[], q: number): number {
  const finite = Float64Array.from(Array.from(values).filter((v) => Number.isFinite(v))).sort();
  return finite[Math.min(finite.length - 1, Math.floor(q * finite.length))]!;
}

describe('computeChangeMap: signed distances to the reference surface', () => {
  it('measures a cube grown outward by 3 cm as +3 cm along the outward normals, and one shrunk as −3 cm', () => {
    const reference = cube(24_000, 1, 0.002, 1);
    const grownPoints = cube(24_000, 1.03, 0.002, 2);
    const grown = computeChangeMap(grownPoints, reference, IDENTITY, { rmsError: 0 });
    expect(grown.distances).toHaveLength(24_000);
    // Away from the edges the points read the offset, within the noise of the patches' normals.
    const faces = facePoints(grownPoints, 0.8).map((i) => grown.distances[i]!);
    expect(quantile(faces, 0.5)).toBeCloseTo(0.03, 2);
    expect(quantile(faces, 0.05)).toBeGreaterThan(0.024);
    expect(quantile(faces, 0.95)).toBeLessThan(0.036);
    // Round the edges the reading is less exact (patches cut across an edge), and a few points there
    // can read the other way; the bulk does not.
    expect(quantile(grown.distances, 0.05)).toBeGreaterThan(0);

    const shrunkPoints = cube(24_000, 0.97, 0.002, 3);
    const shrunk = computeChangeMap(shrunkPoints, reference, IDENTITY, { rmsError: 0 });
    const inner = facePoints(shrunkPoints, 0.8).map((i) => shrunk.distances[i]!);
    expect(quantile(inner, 0.5)).toBeCloseTo(-0.03, 2);
    expect(quantile(inner, 0.05)).toBeGreaterThan(-0.036);
    expect(quantile(inner, 0.95)).toBeLessThan(-0.024);
    expect(quantile(shrunk.distances, 0.95)).toBeLessThan(0);
  });

  it('measures concentric spheres by the difference of their radii, signed outward', () => {
    const reference = sphere(30_000, 1, 0.002, 4);
    const outside = computeChangeMap(sphere(30_000, 1.05, 0.002, 5), reference, IDENTITY, { rmsError: 0 });
    expect(quantile(outside.distances, 0.5)).toBeGreaterThan(0.045);
    expect(quantile(outside.distances, 0.5)).toBeLessThan(0.052);
    expect(quantile(outside.distances, 0.01)).toBeGreaterThan(0.03);
    const inside = computeChangeMap(sphere(30_000, 0.95, 0.002, 6), reference, IDENTITY, { rmsError: 0 });
    expect(quantile(inside.distances, 0.5)).toBeLessThan(-0.045);
    expect(quantile(inside.distances, 0.5)).toBeGreaterThan(-0.052);
    expect(quantile(inside.distances, 0.99)).toBeLessThan(-0.03);
  });

  it('reads the same surface captured twice as unchanged: distances within the noise, no region', () => {
    const map = computeChangeMap(sphere(30_000, 1, 0.002, 7), sphere(25_000, 1, 0.002, 8), IDENTITY);
    // Each point reports its patch's mean, so the 2 mm noise averages down.
    expect(Math.abs(quantile(map.distances, 0.5))).toBeLessThan(0.0005);
    expect(quantile(map.distances, 0.01)).toBeGreaterThan(-map.levelOfDetection);
    expect(quantile(map.distances, 0.99)).toBeLessThan(map.levelOfDetection);
    expect(map.regions).toEqual([]);
    expect(Array.from(map.regionOf).every((id) => id === 0)).toBe(true);
  });

  it('measures in the reference frame: the matrix moves the capture onto the reference first', () => {
    const reference = cube(20_000, 1, 0.002, 9);
    const shifted = cube(20_000, 1, 0.002, 10);
    for (let i = 0; i < shifted.count; i += 1) shifted.positions[i * 3] -= 5; // the capture's own frame: 5 m off in x
    const map = computeChangeMap(shifted, reference, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1]);
    expect(Math.abs(quantile(map.distances, 0.5))).toBeLessThan(0.001);
    expect(map.regions).toEqual([]);
  });

  it('summarises the distances in a histogram and leaves nothing measured for an empty reference', () => {
    const map = computeChangeMap(cube(5_000, 1.02, 0.001, 11), cube(5_000, 1, 0.001, 12), IDENTITY, { histogramBins: 10, rmsError: 0 });
    expect(map.histogram.counts).toHaveLength(10);
    expect(map.histogram.counts.reduce((a, b) => a + b, 0)).toBe(5_000);
    expect(map.histogram.min).toBeLessThanOrEqual(map.histogram.max);

    const empty = computeChangeMap(cube(100, 1, 0, 13), { count: 0, positions: new Float32Array(0) }, IDENTITY);
    expect(Array.from(empty.distances).every((d) => Number.isNaN(d))).toBe(true);
    expect(empty.regions).toEqual([]);
    expect(empty.histogram).toEqual({ min: 0, max: 0, counts: new Array(64).fill(0) });
  });

  it('refuses a malformed matrix or point set', () => {
    const points = cube(100, 1, 0, 14);
    expect(() => computeChangeMap(points, points, [1, 2, 3])).toThrow(AppError);
    expect(() => computeChangeMap({ count: 10, positions: new Float32Array(3) }, points, IDENTITY)).toThrow(/at least 3 × count/);
  });
});

describe('computeHistogram', () => {
  it('counts finite values into equal bins from the minimum to the maximum', () => {
    expect(computeHistogram([0, 1, 2, 3, NaN, 4], 4)).toEqual({ min: 0, max: 4, counts: [1, 1, 1, 2] });
    expect(computeHistogram([2, 2], 3)).toEqual({ min: 2, max: 2, counts: [2, 0, 0] });
  });
});
