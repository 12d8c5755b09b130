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
  it('ignores floaters: the 10th–90th percentile box of a model with far outliers', () => {
    const centres = line([0, 0, 0], [10, 20, 30], 1001);
    // 5% floaters kilometres away on both sides
    for (let i = 0; i < 25; i += 1) centres.push(-5000, -5000, -5000, 5000, 5000, 5000);
    const box = framingBox(centres)!;
    expect(box.min[0]).toBeGreaterThan(0);
    expect(box.max[0]).toBeLessThan(10);
    expect(box.max[2]).toBeLessThan(30);
  });

  it('padded by 12.5% a side, the percentile box of evenly spread centres is their whole extent', () => {
    const box = padBounds(framingBox(line([0, 0, 0], [10, 20, 40], 10_001))!, 0.125);
    box.min.forEach((v) => expect(v).toBeCloseTo(0, 1));
    expect(box.max[0]).toBeCloseTo(10, 1);
    expect(box.max[1]).toBeCloseTo(20, 1);
    expect(box.max[2]).toBeCloseTo(40, 1);
  });

  it('has no box for no points or non-finite ones; a trailing partial point is ignored', () => {
    expect(framingBox([])).toBeNull();
    expect(framingBox([1, 2])).toBeNull();
    expect(framingBox([Number.NaN, 0, 0])).toBeNull();
    expect(framingBox(new Float32Array([1, 2, 3, 9]))).toEqual({ min: [1, 2, 3], max: [1, 2, 3] });
  });

  it('unites a splat box and a GLB box (hybrid models)', () => {
    expect(unionBounds([])).toBeNull();
    expect(unionBounds([{ min: [0, 0, 0], max: [1, 1, 1] }, { min: [-1, 0.5, 0], max: [0.5, 3, 1] }])).toEqual({ min: [-1, 0, 0], max: [1, 3, 1] });
  });
});

describe('fitCamera', () => {
  const box: Bounds = { min: [-1, 0, -1], max: [1, 45, 1] }; // a 45 m tower, 2 m wide

  /** Whether every corner of the box projects inside the view (|ndc| ≤ 1) from the fit. */
  function allCornersVisible(bounds: Bounds, direction: Vec3, fov: number, aspect: number): boolean {
    const fit = fitCamera(bounds, direction, [0, 1, 0], fov, aspect);
    const back = direction.map((v) => v / Math.hypot(...direction)) as Vec3;
    const right = [back[2], 0, -back[0]].map((v) => v / Math.hypot(back[2], back[0])) as Vec3;
    const up: Vec3 = [back[1] * right[2] - back[2] * right[1], back[2] * right[0] - back[0] * right[2], back[0] * right[1] - back[1] * right[0]];
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
