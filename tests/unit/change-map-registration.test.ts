import { describe, expect, it } from 'vitest';
import { refineRegistration, type PointSet } from '@shared/change-map/index.js';
import { AppError } from '@shared/errors.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

/** A seeded generator: uniform in [0, 1) and standard normal. */
function random(seed: number): { uniform: () => number; normal: () => number } {
  let s = seed >>> 0;
  const uniform = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 4294967296;
  const normal = (): number => Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/** An axis-aligned box: centre and half-sizes. */
type Box = { centre: [number, number, number]; half: [number, number, number] };

/** A small frame structure: two legs, a cross beam, a slab and a block, so every direction is pinned by some face. */
const STRUCTURE: Box[] = [
  { centre: [0, 0, 1], half: [0.1, 0.1, 1] },
  { centre: [1.5, 0, 1], half: [0.1, 0.1, 1] },
  { centre: [0.75, 0, 1.6], half: [0.65, 0.05, 0.05] },
  { centre: [0.75, 0.3, 0.05], half: [1, 0.6, 0.05] },
  { centre: [1.1, 0.6, 0.4], half: [0.2, 0.15, 0.3] },
];

/** Points on the boxes' surfaces, spread by area, with Gaussian noise. */
function sample(boxes: Box[], count: number, noise: number, seed: number): PointSet {
  const { uniform, normal } = random(seed);
  const faceAreas = boxes.flatMap((b) => [0, 1, 2].map((axis) => 8 * b.half[(axis + 1) % 3]! * b.half[(axis + 2) % 3]!));
  const total = faceAreas.reduce((a, b) => a + b, 0);
  const positions = new Float32Array(count * 3);
  for (let i = 0; i < count; i += 1) {
    let r = uniform() * total;
    let f = 0;
    while (r > faceAreas[f]! && f < faceAreas.length - 1) r -= faceAreas[f++]!;
    const box = boxes[Math.floor(f / 3)]!;
    const axis = f % 3;
    for (let a = 0; a < 3; a += 1) {
      const offset = a === axis ? (uniform() < 0.5 ? -1 : 1) * box.half[a]! : (uniform() * 2 - 1) * box.half[a]!;
      positions[i * 3 + a] = box.centre[a]! + offset + noise * normal();
    }
  }
  return { count, positions };
}

/** The rigid motion x ↦ R x + t, R a rotation by `angle` about the unit `axis`, column-major. */
function motion(axis: [number, number, number], angle: number, t: [number, number, number]): number[] {
  const [x, y, z] = axis;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const C = 1 - c;
  const R = [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
  return [R[0]![0]!, R[1]![0]!, R[2]![0]!, 0, R[0]![1]!, R[1]![1]!, R[2]![1]!, 0, R[0]![2]!, R[1]![2]!, R[2]![2]!, 0, t[0], t[1], t[2], 1];
}

/** The points expressed in the frame that `matrix` maps onto their given frame (applies the inverse of a rigid motion). */
function intoCaptureFrame(points: PointSet, matrix: number[]): PointSet {
  const positions = new Float32Array(points.count * 3);
  for (let i = 0; i < points.count; i += 1) {
    const d = [0, 1, 2].map((a) => points.positions[i * 3 + a]! - matrix[12 + a]!);
    for (let a = 0; a < 3; a += 1) positions[i * 3 + a] = matrix[a * 4]! * d[0]! + matrix[a * 4 + 1]! * d[1]! + matrix[a * 4 + 2]! * d[2]!;
  }
  return { count: points.count, positions };
}

/** The largest difference between two matrices' rotation entries, and between their translations. */
function matrixError(a: number[], b: number[]): { rotation: number; translation: number } {
  const rot = [0, 1, 2, 4, 5, 6, 8, 9, 10].map((i) => Math.abs(a[i]! - b[i]!));
  return { rotation: Math.max(...rot), translation: Math.hypot(a[12]! - b[12]!, a[13]! - b[13]!, a[14]! - b[14]!) };
}

describe('refineRegistration', () => {
  const reference = sample(STRUCTURE, 40_000, 0.004, 1);
  const truth = motion([0.36, 0.48, 0.8], (1 * Math.PI) / 180, [0.03, -0.02, 0.015]);

  it('recovers a known 1° rotation and 4 cm translation from noisy samples of the same structure', () => {
    const capture = intoCaptureFrame(sample(STRUCTURE, 36_000, 0.004, 2), truth);
    const result = refineRegistration(capture, reference, IDENTITY);
    const error = matrixError(result.matrix, truth);
    expect(error.rotation).toBeLessThan(0.0015); // under 0.1°
    expect(error.translation).toBeLessThan(0.004);
    // The pairs are smoothed patch centres against fitted planes: the error left is well under the noise.
    expect(result.rmsError).toBeGreaterThan(0);
    expect(result.rmsError).toBeLessThan(0.006);
    expect(result.iterations).toBeGreaterThan(1);
    expect(result.pairs).toBeGreaterThan(1000);
  });

  it('is not pulled by a part that really changed', () => {
    // The block has moved 25 cm in the capture.
    const changed = STRUCTURE.map((b, i) =>
      i === 4 ? { ...b, centre: [b.centre[0] - 0.25, b.centre[1], b.centre[2]] as [number, number, number] } : b,
    );
    const capture = intoCaptureFrame(sample(changed, 36_000, 0.004, 3), truth);
    const result = refineRegistration(capture, reference, IDENTITY);
    const error = matrixError(result.matrix, truth);
    expect(error.rotation).toBeLessThan(0.002);
    expect(error.translation).toBeLessThan(0.006);
  });

  it('starts from the given matrix and keeps a right one', () => {
    const capture = intoCaptureFrame(sample(STRUCTURE, 20_000, 0.004, 4), truth);
    const result = refineRegistration(capture, reference, truth, { maxPairs: 4000 });
    const error = matrixError(result.matrix, truth);
    expect(error.rotation).toBeLessThan(0.0015);
    expect(error.translation).toBeLessThan(0.003);
  });

  it('returns the initial matrix for an empty point set and refuses a malformed one', () => {
    const empty = { count: 0, positions: new Float32Array(0) };
    expect(refineRegistration(empty, reference, truth)).toEqual({ matrix: truth, rmsError: 0, iterations: 0, pairs: 0 });
    expect(() => refineRegistration(reference, reference, [1, 0, 0])).toThrow(AppError);
    expect(() => refineRegistration(reference, reference, [...IDENTITY.slice(0, 15), 2])).toThrow(AppError);
  });
});
