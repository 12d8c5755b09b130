import { describe, expect, it } from 'vitest';
import {
  AlignmentMessages,
  IDENTITY_MATRIX,
  alignmentRmsError,
  applyAlignment,
  applyAlignmentToDirection,
  invertAlignment,
  isAlignmentMatrix,
  sameFrameAlignment,
  solveAlignment,
  type AlignmentPair,
} from '@shared/alignment.js';
import type { ModelPoint } from '@shared/types.js';

/** A similarity built independently of the solver: Rodrigues' rotation about `axis` by `angle`, then scale, then translation. */
function similarity(axis: ModelPoint, angle: number, scale: number, t: ModelPoint): number[] {
  const n = Math.hypot(axis.x, axis.y, axis.z);
  const [x, y, z] = [axis.x / n, axis.y / n, axis.z / n];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const C = 1 - c;
  // Row-major rotation.
  const R = [
    [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
    [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
    [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
  ];
  const m = new Array<number>(16).fill(0);
  for (let col = 0; col < 3; col += 1) for (let row = 0; row < 3; row += 1) m[col * 4 + row] = scale * R[row]![col]!;
  m[12] = t.x;
  m[13] = t.y;
  m[14] = t.z;
  m[15] = 1;
  return m;
}

const MODEL_POINTS: ModelPoint[] = [
  { x: 0.4, y: -1.2, z: 3.3 },
  { x: 5.1, y: 0.7, z: -2.2 },
  { x: -3.6, y: 4.4, z: 0.9 },
];

function pairsFor(matrix: number[], points = MODEL_POINTS): AlignmentPair[] {
  return points.map((model) => ({ model, reference: applyAlignment(matrix, model) }));
}

function expectMatrixClose(actual: readonly number[], expected: readonly number[], tolerance: number) {
  expect(actual).toHaveLength(16);
  const worst = Math.max(...actual.map((v, i) => Math.abs(v - expected[i]!)));
  expect(worst).toBeLessThan(tolerance);
}

describe('shared/alignment.ts: 3-point alignment between captures', () => {
  it.each([
    ['a general rotation, scale 2.5', { x: 1, y: 2, z: -0.5 }, 1.1, 2.5, { x: 10, y: -3, z: 7.25 }],
    ['a half turn (quaternion w = 0), scale 0.01', { x: 0.3, y: -1, z: 0.2 }, Math.PI, 0.01, { x: -0.5, y: 0.2, z: 1 }],
    ['a y-down flip (180° about x), scale 1', { x: 1, y: 0, z: 0 }, Math.PI, 1, { x: 0, y: 0, z: 0 }],
    ['no rotation, scale 100, far away', { x: 0, y: 0, z: 1 }, 0, 100, { x: 123456.5, y: -98765.25, z: 4321 }],
    ['a small turn, scale 1', { x: -2, y: 0.1, z: 3 }, 0.002, 1, { x: 0.001, y: 0, z: -0.003 }],
  ])('recovers %s within 1e-9', (_name, axis, angle, scale, t) => {
    const truth = similarity(axis, angle, scale, t);
    const solved = solveAlignment(pairsFor(truth));
    // Relative to the matrix's size (a translation of 1e5 has ~1e-11 of rounding per unit).
    const size = Math.max(1, ...truth.map(Math.abs));
    expectMatrixClose(solved.matrix, truth, 1e-9 * size);
    expect(solved.scale).toBeCloseTo(scale, 9);
    expect(solved.rmsError).toBeLessThan(1e-9 * size);
    for (const { model, reference } of pairsFor(truth)) {
      const mapped = applyAlignment(solved.matrix, model);
      expect(Math.hypot(mapped.x - reference.x, mapped.y - reference.y, mapped.z - reference.z)).toBeLessThan(1e-9 * size);
    }
    // Last row of an affine matrix, column-major.
    expect([solved.matrix[3], solved.matrix[7], solved.matrix[11], solved.matrix[15]]).toEqual([0, 0, 0, 1]);
    expect(isAlignmentMatrix(solved.matrix)).toBe(true);
  });

  it('refuses coincident and collinear points on either side, and anything but 3 finite pairs', () => {
    const truth = similarity({ x: 0, y: 1, z: 0 }, 0.5, 2, { x: 1, y: 2, z: 3 });
    const good = pairsFor(truth);
    const withModel = (points: ModelPoint[]) => points.map((model, i) => ({ model, reference: good[i]!.reference }));
    const withReference = (points: ModelPoint[]) => points.map((reference, i) => ({ model: good[i]!.model, reference }));
    const a = { x: 1, y: 1, z: 1 };
    const b = { x: 2, y: 3, z: 4 };
    const onLine = { x: 3, y: 5, z: 7 }; // a + 2(b − a)
    expect(() => solveAlignment(withModel([a, a, b]))).toThrow(AlignmentMessages.coincidentModel);
    expect(() => solveAlignment(withModel([a, b, { ...a }]))).toThrow(AlignmentMessages.coincidentModel);
    expect(() => solveAlignment(withModel([a, b, onLine]))).toThrow(AlignmentMessages.collinearModel);
    expect(() => solveAlignment(withReference([b, b, a]))).toThrow(AlignmentMessages.coincidentReference);
    expect(() => solveAlignment(withReference([a, onLine, b]))).toThrow(AlignmentMessages.collinearReference);
    // Nearly on one line (1e-12 off a line 2 units long) is on one line.
    expect(() => solveAlignment(withModel([a, b, { x: 3, y: 5, z: 7 + 1e-12 }]))).toThrow(AlignmentMessages.collinearModel);
    expect(() => solveAlignment(good.slice(0, 2))).toThrow(AlignmentMessages.pairCount);
    expect(() => solveAlignment([...good, good[0]!])).toThrow(AlignmentMessages.pairCount);
    expect(() => solveAlignment(withModel([a, b, { x: Number.NaN, y: 0, z: 0 }]))).toThrow(AlignmentMessages.notFinite);
    expect(() => solveAlignment(withReference([a, b, { x: Infinity, y: 0, z: 0 }]))).toThrow(AlignmentMessages.notFinite);
  });

  it('a perturbed pair: the RMS error is that of the solved matrix over the pairs, above 0, at most the true transform’s', () => {
    const truth = similarity({ x: 1, y: 1, z: 0 }, 0.7, 1.5, { x: -2, y: 4, z: 0.5 });
    const pairs = pairsFor(truth);
    const delta = { x: 0.03, y: -0.04, z: 0 }; // 0.05 units
    pairs[1] = {
      model: pairs[1]!.model,
      reference: { x: pairs[1]!.reference.x + delta.x, y: pairs[1]!.reference.y + delta.y, z: pairs[1]!.reference.z },
    };
    const solved = solveAlignment(pairs);
    // By hand: the RMS of the residuals of the matrix returned.
    const residuals = pairs.map(({ model, reference }) => {
      const m = applyAlignment(solved.matrix, model);
      return (m.x - reference.x) ** 2 + (m.y - reference.y) ** 2 + (m.z - reference.z) ** 2;
    });
    expect(solved.rmsError).toBeCloseTo(Math.sqrt((residuals[0]! + residuals[1]! + residuals[2]!) / 3), 12);
    expect(solved.rmsError).toBeCloseTo(alignmentRmsError(solved.matrix, pairs), 12);
    // The true transform leaves 0.05 on one pair of three: RMS 0.05/√3 ≈ 0.0289; least squares does no worse.
    const trueRms = alignmentRmsError(truth, pairs);
    expect(trueRms).toBeCloseTo(0.05 / Math.sqrt(3), 12);
    expect(solved.rmsError).toBeGreaterThan(0.001);
    expect(solved.rmsError).toBeLessThanOrEqual(trueRms + 1e-12);
    // And still close to the truth.
    expect(solved.scale).toBeGreaterThan(1.49);
    expect(solved.scale).toBeLessThan(1.51);
  });

  it('inverts: reference → model and back, points and directions; same frame is the identity', () => {
    const truth = similarity({ x: 0.2, y: -0.4, z: 1 }, 2.2, 3.5, { x: 7, y: 8, z: -9 });
    const inverse = invertAlignment(truth);
    for (const p of MODEL_POINTS) {
      const back = applyAlignment(inverse, applyAlignment(truth, p));
      expect(Math.hypot(back.x - p.x, back.y - p.y, back.z - p.z)).toBeLessThan(1e-12);
    }
    expectMatrixClose(invertAlignment(inverse), truth, 1e-12);
    expectMatrixClose(invertAlignment([...IDENTITY_MATRIX]), IDENTITY_MATRIX, 0 + 1e-15);
    const up = applyAlignmentToDirection(truth, { x: 0, y: 2, z: 0 });
    expect(Math.hypot(up.x, up.y, up.z)).toBeCloseTo(1, 12);
    const upBack = applyAlignmentToDirection(inverse, up);
    expect(upBack.x).toBeCloseTo(0, 12);
    expect(upBack.y).toBeCloseTo(1, 12);
    expect(upBack.z).toBeCloseTo(0, 12);
    expect(() => invertAlignment([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])).toThrow(AlignmentMessages.matrixInvalid);
    expect(() => invertAlignment([1, 2, 3])).toThrow(AlignmentMessages.matrixInvalid);
    expect(isAlignmentMatrix([1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])).toBe(false);
    const same = sameFrameAlignment();
    expect(same.matrix).toEqual([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    expect(same.rmsError).toBe(0);
    expect(applyAlignment(same.matrix, { x: 1.5, y: -2, z: 3 })).toEqual({ x: 1.5, y: -2, z: 3 });
  });
});
