import { describe, expect, it } from 'vitest';
import { fitCamera, framingBox, padBounds, unionBounds, type Bounds, type Vec3 } from './framing.js';

/** Points spread evenly on a line from `a` to `b`, flat [x, y, z, …]. */
function line(a: Vec3, b: Vec3, count: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const t = i / (count - 1);
    out.push(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t);
  }
  return out;
}

describe('framing a splat on percentiles of its centres', () => {
  it('ignores floaters: 5% of the centres kilometres away leave the box on the model', () => {
    const centres = line([0, 0, 0], [10, 20, 30], 1001);
    for (let i = 0; i < 25; i += 1) centres.push(-5000, -5000, -5000, 5000, 5000, 5000);
    expect(framingBox(centres)).toEqual({ min: [0, 0, 0], max: [10, 20, 30] });
  });

  it('grows through evenly spread centres to their whole extent', () => {
    const box = framingBox(line([0, 0, 0], [10, 20, 40], 10_001))!;
    expect(box).toEqual({ min: [0, 0, 0], max: [10, 20, 40] });
    expect(padBounds(box, 0.05)).toEqual({ min: [-0.5, -1, -2], max: [10.5, 21, 42] });
  });

  it("keeps a tower's thin mast (few splats, no gap) but not floaters beyond a gap", () => {
    // a 37 m lattice body of 3,000 centres, a mast to 49 m of 40 centres (1.3%), two floaters at 60 m and 200 m
    const centres = line([0, 0, 0], [0, 37, 0], 3000).concat(line([0, 37.3, 0], [0, 47, 0], 40), [0, 60, 0, 0, 200, 0]);
    const box = framingBox(centres)!;
    expect(box.max[1]).toBe(47);
    expect(box.min[1]).toBe(0);
  });

  it('grows at most by half the percentile range a side (a continuum of floaters)', () => {
    // a dense model from 0 to 10 m, then thinning floaters every 0.5 m out to 510 m
    const centres = line([0, 0, 0], [0, 10, 0], 9000).concat(line([0, 10.5, 0], [0, 510, 0], 1000));
    const b = framingBox(centres)!.max[1];
    const sorted = centres.filter((_v, i) => i % 3 === 1).sort((x, y) => x - y);
    const q10 = sorted[Math.round(0.1 * (sorted.length - 1))]!;
    const q90 = sorted[Math.round(0.9 * (sorted.length - 1))]!;
    expect(b).toBeLessThanOrEqual(q90 + 0.5 * (q90 - q10) + 1e-9);
    expect(b).toBeGreaterThan(q90 + 0.4 * (q90 - q10));
  });

  it('has no box for no points or non-finite ones; a trailing partial point is ignored', () => {
    expect(framingBox([])).toBeNull();
    expect(framingBox([1, 2])).toBeNull();
    expect(framingBox([Number.NaN, 0, 0])).toBeNull();
    expect(framingBox(new Float32Array([1, 2, 3, 9]))).toEqual({ min: [1, 2, 3], max: [1, 2, 3] });
  });

  it('unites a splat box and a GLB box (hybrid models)', () => {
    expect(unionBounds([])).toBeNull();
    expect(
      unionBounds([
        { min: [0, 0, 0], max: [1, 1, 1] },
        { min: [-1, 0.5, 0], max: [0.5, 3, 1] },
      ]),
    ).toEqual({ min: [-1, 0, 0], max: [1, 3, 1] });
  });
});

describe('fitCamera', () => {
  const box: Bounds = { min: [-1, 0, -1], max: [1, 45, 1] }; // a 45 m tower, 2 m wide

  /** Whether every corner of the box projects inside the view (|ndc| ≤ 1) from the fit. */
  function allCornersVisible(bounds: Bounds, direction: Vec3, fov: number, aspect: number): boolean {
    const fit = fitCamera(bounds, direction, [0, 1, 0], fov, aspect);
    const back = direction.map((v) => v / Math.hypot(...direction)) as Vec3;
    const right = [back[2], 0, -back[0]].map((v) => v / Math.hypot(back[2], back[0])) as Vec3;
    const up: Vec3 = [
      back[1] * right[2] - back[2] * right[1],
      back[2] * right[0] - back[0] * right[2],
      back[0] * right[1] - back[1] * right[0],
    ];
    const tanV = Math.tan((fov * Math.PI) / 360);
    for (let c = 0; c < 8; c += 1) {
      const p: Vec3 = [c & 1 ? bounds.max[0] : bounds.min[0], c & 2 ? bounds.max[1] : bounds.min[1], c & 4 ? bounds.max[2] : bounds.min[2]];
      const d = p.map((v, i) => v - fit.position[i]!) as Vec3;
      const depth = -(d[0] * back[0] + d[1] * back[1] + d[2] * back[2]);
      if (depth <= 0) return false;
      const x = (d[0] * right[0] + d[1] * right[1] + d[2] * right[2]) / depth / (tanV * aspect);
      const y = (d[0] * up[0] + d[1] * up[1] + d[2] * up[2]) / depth / tanV;
      if (Math.abs(x) > 1 || Math.abs(y) > 1) return false;
    }
    return true;
  }

  it('looks at the centre of the box from the given direction', () => {
    const fit = fitCamera(box, [0, 0, 1], [0, 1, 0], 50, 1.5);
    expect(fit.target).toEqual([0, 22.5, 0]);
    expect(fit.position[0]).toBeCloseTo(0);
    expect(fit.position[1]).toBeCloseTo(22.5);
    expect(fit.position[2]).toBeCloseTo(fit.distance);
  });

  it('keeps every corner in view, in wide and in narrow viewports', () => {
    for (const aspect of [2, 1.5, 0.8, 0.4]) {
      expect(allCornersVisible(box, [1, 0.6, 1.4], 50, aspect)).toBe(true);
      expect(allCornersVisible({ min: [-30, -2, -3], max: [30, 4, 3] }, [1, 0.6, 1.4], 50, aspect)).toBe(true);
    }
  });

  it('fills the view: not much farther than needed (within the 10% margin and the sphere bound)', () => {
    const fit = fitCamera(box, [0, 0, 1], [0, 1, 0], 50, 1);
    // the tower's half height over tan(25°), plus its half depth in front of the centre
    const tight = 22.5 / Math.tan((25 * Math.PI) / 180) + 1;
    expect(fit.distance).toBeGreaterThanOrEqual(tight);
    expect(fit.distance).toBeLessThanOrEqual(tight * 1.11);
  });

  it('stands at a sane distance from a point-sized model', () => {
    const fit = fitCamera({ min: [1, 1, 1], max: [1, 1, 1] }, [0, 0, 1], [0, 1, 0], 50, 1);
    expect(fit.distance).toBeGreaterThan(0);
    expect(Number.isFinite(fit.position[2])).toBe(true);
  });
});
