import { describe, expect, it } from 'vitest';
import { add, cross, dot, length, normalize, scale, sub, vec3Of, xyzOf, type Vec3 } from '@shared/vec3.js';

describe('shared/vec3.ts', () => {
  const a: Vec3 = [1, 2, 3];
  const b: Vec3 = [-4, 0.5, 2];

  it('adds, subtracts and scales component by component, without touching the inputs', () => {
    expect(add(a, b)).toEqual([-3, 2.5, 5]);
    expect(sub(a, b)).toEqual([5, 1.5, 1]);
    expect(scale(a, -2)).toEqual([-2, -4, -6]);
    expect(a).toEqual([1, 2, 3]);
    expect(b).toEqual([-4, 0.5, 2]);
  });

  it('dot and cross products: right-handed, the cross product perpendicular to both', () => {
    expect(dot(a, b)).toBe(-4 + 1 + 6);
    expect(cross([1, 0, 0], [0, 1, 0])).toEqual([0, 0, 1]);
    expect(cross([0, 1, 0], [0, 0, 1])).toEqual([1, 0, 0]);
    const c = cross(a, b);
    expect(dot(c, a)).toBeCloseTo(0, 12);
    expect(dot(c, b)).toBeCloseTo(0, 12);
    expect(cross(a, a)).toEqual([0, 0, 0]);
  });

  it('length and normalize; the zero vector normalizes to itself', () => {
    expect(length([3, 4, 12])).toBe(13);
    expect(length([0, 0, 0])).toBe(0);
    const n = normalize([3, 4, 12]);
    expect(length(n)).toBeCloseTo(1, 12);
    expect(n[0] / n[1]).toBeCloseTo(3 / 4, 12);
    expect(normalize([0, 0, 0])).toEqual([0, 0, 0]);
  });

  it('converts between tuples and {x, y, z} objects', () => {
    expect(vec3Of({ x: 1, y: -2, z: 0.5 })).toEqual([1, -2, 0.5]);
    expect(xyzOf([1, -2, 0.5])).toEqual({ x: 1, y: -2, z: 0.5 });
  });
});
