import { describe, expect, it } from 'vitest';
import { computeChangeMap, type PointSet } from '@shared/change-map/index.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A seeded generator: uniform in [0, 1) and standard normal. */
function random(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0;
  const uniform = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** A 2 m × 2 m ground at z = 0 with noise; `lift(x, y)` raises it locally (a bump). */
function ground(count: number, noise: number, seed: number, lift: (x: number, y: number) => number = () => 0): PointSet {
  const { uniform, normal } = random(seed);
  const positions = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    const x = uniform() * 2;
    const y = uniform() * 2;
    positions.set([x, y, lift(x, y) + noise * normal()], i * 3);
  }
  return { count, positions };
}

/** Two point sets as one. */
function join(a: PointSet, b: PointSet): PointSet {
  const positions = new Float32Array((a.count + b.count) * 3);
  positions.set(a.positions.subarray(0, a.count * 3));
  positions.set(b.positions.subarray(0, b.count * 3), a.count * 3);
  return { count: a.count + b.count, positions };
}

/** Points on the four walls and the top of an upright box standing on the ground. */
function post(count: number, x: number, y: number, half: number, height: number, noise: number, seed: number): PointSet {
  const { uniform, normal } = random(seed);
  const positions = new Float32Array(count * 3);
  const wall = 4 * 2 * half * height;
  const top = 4 * half * half;
  for (let i = 0; i < count; i += 1) {
    let p: [number, number, number];
    if (uniform() * (wall + top) < top) p = [x + (uniform() * 2 - 1) * half, y + (uniform() * 2 - 1) * half, height];
    else {
      const side = Math.floor(uniform() * 4);
      const along = (uniform() * 2 - 1) * half;
      const z = uniform() * height;
      p =
        side === 0
          ? [x - half, y + along, z]
          : side === 1
            ? [x + half, y + along, z]
            : side === 2
              ? [x + along, y - half, z]
              : [x + along, y + half, z];
    }
    positions.set([p[0] + noise * normal(), p[1] + noise * normal(), p[2] + noise * normal()], i * 3);
  }
  return { count, positions };
}

const bump = (cx: number, cy: number, radius: number, height: number) => (x: number, y: number) =>
  Math.hypot(x - cx, y - cy) < radius ? height : 0;

describe('computeChangeMap: level of detection', () => {
  it('grows with the surfaces’ roughness and adds the registration error', () => {
    const smooth = computeChangeMap(ground(20_000, 0.002, 1), ground(20_000, 0.002, 2), IDENTITY, { rmsError: 0 });
    // 1.96 · √(σ²/nc + σ²/nr) with σ = 2 mm: the capture's distance is pooled over its patch and
    // its neighbours (some 40 to 110 points), the reference plane stands at its own patch's mean
    // (6 to 16 points).
    expect(smooth.levelOfDetection).toBeGreaterThan(1.96 * 0.002 * Math.sqrt(1 / 110 + 1 / 16));
    expect(smooth.levelOfDetection).toBeLessThan(1.96 * 0.002 * Math.sqrt(1 / 40 + 1 / 6));
    const rough = computeChangeMap(ground(20_000, 0.008, 1), ground(20_000, 0.008, 2), IDENTITY, { rmsError: 0 });
    expect(rough.levelOfDetection / smooth.levelOfDetection).toBeGreaterThan(3.5);
    expect(rough.levelOfDetection / smooth.levelOfDetection).toBeLessThan(4.5);
    const registered = computeChangeMap(ground(20_000, 0.002, 1), ground(20_000, 0.002, 2), IDENTITY, { rmsError: 0.01 });
    expect(registered.levelOfDetection - smooth.levelOfDetection).toBeCloseTo(0.01, 9);
    expect(registered.rmsError).toBe(0.01);
  });

  it('measures the registration error from the pairs when it is not given', () => {
    const map = computeChangeMap(ground(20_000, 0.002, 3), ground(20_000, 0.002, 4), IDENTITY);
    expect(map.rmsError).toBeGreaterThan(0);
    expect(map.rmsError).toBeLessThan(0.002);
    expect(map.levelOfDetection).toBeGreaterThan(map.rmsError);
  });
});

describe('computeChangeMap: change regions', () => {
  const reference = ground(20_000, 0.002, 10);

  it('finds two separate bumps as two capture regions, sized and measured', () => {
    const lift = (x: number, y: number) => bump(0.5, 0.5, 0.2, 0.05)(x, y) + bump(1.5, 1.4, 0.25, 0.08)(x, y);
    const capture = ground(20_000, 0.002, 11, lift);
    const map = computeChangeMap(capture, reference, IDENTITY);
    expect(map.regions).toHaveLength(2);
    const [big, small] = map.regions as [(typeof map.regions)[0], (typeof map.regions)[0]];
    expect([big.id, small.id]).toEqual([1, 2]);
    expect(big.side).toBe('capture');
    expect(big.count).toBeGreaterThan(small.count);
    expect(big.centroid[0]).toBeCloseTo(1.5, 1);
    expect(big.centroid[1]).toBeCloseTo(1.4, 1);
    expect(big.meanDistance).toBeGreaterThan(0.065);
    expect(big.maxDistance).toBeCloseTo(0.08, 2);
    expect(small.centroid[0]).toBeCloseTo(0.5, 1);
    expect(small.meanDistance).toBeGreaterThan(0.035);
    expect(small.maxDistance).toBeCloseTo(0.05, 2);
    expect(big.min[0]).toBeGreaterThan(1.2);
    expect(big.max[0]).toBeLessThan(1.8);
    // The points of each bump carry its id, and almost nothing else does.
    let agree = 0;
    let inRegions = 0;
    for (let i = 0; i < capture.count; i += 1) {
      const [x, y] = [capture.positions[i * 3]!, capture.positions[i * 3 + 1]!];
      const truth = bump(1.5, 1.4, 0.25, 1)(x, y) ? 1 : bump(0.5, 0.5, 0.2, 1)(x, y) ? 2 : 0;
      if (map.regionOf[i] !== 0) inRegions += 1;
      if (truth !== 0 && map.regionOf[i] === truth) agree += 1;
    }
    expect(agree / inRegions).toBeGreaterThan(0.9);
  });

  it('reads a bump lower than the level of detection as no change', () => {
    const map = computeChangeMap(ground(20_000, 0.002, 12, bump(1, 1, 0.3, 0.001)), reference, IDENTITY);
    expect(map.levelOfDetection).toBeGreaterThan(0.001);
    expect(map.regions).toEqual([]);
  });

  it('drops regions smaller than the minimum count', () => {
    const lift = (x: number, y: number) => bump(0.5, 0.5, 0.2, 0.05)(x, y) + bump(1.5, 1.4, 0.1, 0.08)(x, y);
    const map = computeChangeMap(ground(20_000, 0.002, 13, lift), reference, IDENTITY, { minRegionCount: 300 });
    expect(map.regions).toHaveLength(1);
    expect(map.regions[0]!.centroid[0]).toBeCloseTo(0.5, 1);
  });

  it('finds a part that is in the reference but gone from the capture as a reference region, reading negative', () => {
    const withPost = join(reference, post(3_000, 1.2, 0.8, 0.08, 0.5, 0.002, 14));
    const map = computeChangeMap(ground(20_000, 0.002, 15), withPost, IDENTITY);
    expect(map.regions).toHaveLength(1);
    const [removed] = map.regions as [(typeof map.regions)[0]];
    expect(removed.side).toBe('reference');
    expect(removed.centroid[0]).toBeCloseTo(1.2, 1);
    expect(removed.centroid[1]).toBeCloseTo(0.8, 1);
    expect(removed.max[2]).toBeGreaterThan(0.45);
    expect(removed.meanDistance).toBeLessThan(-0.1);
    expect(removed.maxDistance).toBeLessThan(-0.4);
    expect(Array.from(map.regionOf).every((id) => id === 0)).toBe(true);
    // Looking for removals can be turned off.
    expect(computeChangeMap(ground(20_000, 0.002, 15), withPost, IDENTITY, { removals: false }).regions).toEqual([]);
  });
});
