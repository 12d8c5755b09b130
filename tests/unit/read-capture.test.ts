// The capture reader of the change map (cli/src/lib/change-map/read-capture.ts): the demo tower
// written as a 3DGS PLY and as a .splat reads back as written (centres, opacity, largest σ), any
// SH degree and row layout reads from its header, the confident filter drops floaters, blobs and
// broken centres, a file that is no capture is refused with its name and the reason, and, when
// present, the real samples read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { confident, readCapture, type CaptureSplats } from '../../cli/src/lib/change-map/read-capture.js';
import type { Gaussians } from '../../cli/src/lib/demo-data/gaussians.js';
import { encodeSplatPly, makeTowerSplat } from '../../cli/src/lib/demo-data/splat-writer.js';
import { AppError } from '@shared/errors.js';
import { gaussianPly } from '../support/model-fixtures.js';
import { samplePath, samplesPresent } from '../support/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'catalog-read-capture-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Writes bytes to a file of the temporary folder and returns its path. */
function file(name: string, bytes: Uint8Array | string): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

/** Gaussians as a compact `.splat`: centre, linear σ (float32 each), RGBA bytes, rotation bytes (w, x, y, z around 128). */
function encodeSplatFile(g: Gaussians): Uint8Array {
  const out = new Uint8Array(g.count * 32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < g.count; i += 1) {
    for (let k = 0; k < 3; k += 1) {
      view.setFloat32(i * 32 + k * 4, g.position[i * 3 + k]!, true);
      view.setFloat32(i * 32 + 12 + k * 4, g.sigma[i * 3 + k]!, true);
      out[i * 32 + 24 + k] = Math.round(g.colour[i * 3 + k]! * 255);
    }
    out[i * 32 + 27] = Math.round(g.opacity[i]! * 255);
    for (let k = 0; k < 4; k += 1) out[i * 32 + 28 + k] = Math.round(g.rotation[i * 4 + k]! * 127 + 128);
  }
  return out;
}

const largestSigma = (g: Gaussians, i: number) => Math.max(g.sigma[i * 3]!, g.sigma[i * 3 + 1]!, g.sigma[i * 3 + 2]!);

/** The refusal a promise ends in. */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readCapture', () => {
  // the draft tower: a tenth of it floaters (faint grey Gaussians in the air)
  const tower = makeTowerSplat({ count: 4000, seed: 3, floaters: 0.1 });

  it('reads the demo PLY back: centres as written, opacity through the sigmoid, the largest σ through exp', async () => {
    const read = await readCapture(file('tower.ply', encodeSplatPly(tower)));
    expect(read.count).toBe(4000);
    expect(read.positions).toEqual(tower.position);
    let [opacityError, scaleError] = [0, 0];
    for (let i = 0; i < read.count; i += 1) {
      opacityError = Math.max(opacityError, Math.abs(read.opacity[i]! - tower.opacity[i]!));
      scaleError = Math.max(scaleError, Math.abs(read.scale[i]! / largestSigma(tower, i) - 1));
    }
    expect(opacityError).toBeLessThan(1e-6);
    expect(scaleError).toBeLessThan(1e-5);
  });

  it('reads the same a few rows at a time as in one block', async () => {
    const path = file('blocks.ply', encodeSplatPly(tower));
    const whole = await readCapture(path);
    const inSevens = await readCapture(path, { blockRows: 7 });
    expect(inSevens).toEqual(whole);
  });

  it('reads a .splat: centres, alpha byte / 255, the largest linear σ', async () => {
    const read = await readCapture(file('tower.splat', encodeSplatFile(tower)));
    expect(read.count).toBe(4000);
    expect(read.positions).toEqual(tower.position);
    expect(read.opacity).toEqual(Float32Array.from(tower.opacity, (o) => Math.round(o * 255) / 255));
    expect(read.scale).toEqual(Float32Array.from({ length: read.count }, (_, i) => largestSigma(tower, i)));
  });

  it('reads SH degrees 0 to 3 and any row layout from the header', async () => {
    for (const degree of [0, 1, 2, 3]) {
      const read = await readCapture(file(`sh${degree}.ply`, gaussianPly(5, degree)));
      expect(read.count).toBe(5);
      expect(Array.from(read.positions)).toEqual([0, 0, 0, 1, 2, -1, 2, 4, -2, 3, 6, -3, 4, 8, -4]);
      for (let i = 0; i < 5; i += 1) {
        expect(read.opacity[i]).toBeCloseTo(1 / (1 + Math.exp(-2)), 6);
        expect(read.scale[i]).toBeCloseTo(Math.exp(-3), 6);
      }
    }
    // another element first, the properties in another order, doubles and a byte among them
    const header =
      'ply\nformat binary_little_endian 1.0\ncomment made by hand\nelement camera 2\nproperty float f\nproperty uchar k\n' +
      'element vertex 2\nproperty double z\nproperty uchar red\nproperty float scale_2\nproperty float opacity\nproperty double x\n' +
      'property float scale_0\nproperty float y\nproperty float scale_1\nend_header\n';
    const head = new TextEncoder().encode(header);
    const rowBytes = 8 + 1 + 4 + 4 + 8 + 4 + 4 + 4;
    const bytes = new Uint8Array(head.length + 2 * 5 + 2 * rowBytes);
    bytes.set(head);
    const view = new DataView(bytes.buffer, head.length + 2 * 5);
    const rows: [x: number, y: number, z: number, logit: number, s0: number, s1: number, s2: number][] = [
      [1.5, -2.25, 3.125, 0, -1, -4, -2],
      [10, 20, 30, -1, 0.5, 0, 0.25],
    ];
    rows.forEach(([x, y, z, logit, s0, s1, s2], row) => {
      const at = row * rowBytes;
      view.setFloat64(at, z, true);
      view.setUint8(at + 8, 200);
      view.setFloat32(at + 9, s2, true);
      view.setFloat32(at + 13, logit, true);
      view.setFloat64(at + 17, x, true);
      view.setFloat32(at + 25, s0, true);
      view.setFloat32(at + 29, y, true);
      view.setFloat32(at + 33, s1, true);
    });
    const read = await readCapture(file('layout.ply', bytes));
    expect(Array.from(read.positions)).toEqual([1.5, -2.25, 3.125, 10, 20, 30]);
    expect(read.opacity[0]).toBeCloseTo(0.5, 6);
    expect(read.opacity[1]).toBeCloseTo(1 / (1 + Math.E), 6);
    expect(read.scale[0]).toBeCloseTo(Math.exp(-1), 6);
    expect(read.scale[1]).toBeCloseTo(Math.exp(0.5), 6);
  });

  it('refuses a file that is no capture, naming it and the reason', async () => {
    expect((await refusal(readCapture(join(dir, 'absent.ply')))).toJSON()).toMatchObject({
      code: 'not-found',
      message: 'Cannot read the capture absent.ply: there is no such file',
    });
    const cases: [string, Uint8Array | string, string][] = [
      ['empty.ply', '', 'Cannot read the capture empty.ply: it is empty (0 bytes)'],
      [
        'page.ply',
        '<!doctype html><html></html>',
        'Cannot read the capture page.ply: it is neither a PLY (no "ply" header ending in end_header) nor a .splat',
      ],
      [
        'text.ply',
        'ply\nformat ascii 1.0\nelement vertex 0\nend_header\n',
        "Cannot read the capture text.ply: it is a 'ascii' PLY; captures are read from binary_little_endian PLY files",
      ],
      [
        'bad-header.ply',
        'ply\nformat binary_little_endian 1.0\nelement vertex many\nend_header\n',
        "Cannot read the capture bad-header.ply: its PLY header is invalid: line 3 ('element vertex many'): the count 'many' is not a whole number of rows",
      ],
      [
        'points.ply',
        'ply\nformat binary_little_endian 1.0\nelement vertex 1\nproperty float x\nproperty float y\nproperty float z\nend_header\n' +
          'x'.repeat(12),
        'Cannot read the capture points.ply: its vertices lack the 3DGS properties opacity, scale_0, scale_1, scale_2',
      ],
      ['cut.ply', gaussianPly(10, 0).subarray(0, -1), 'Cannot read the capture cut.ply: it is shorter than its header says'],
      [
        'odd.splat',
        new Uint8Array(33),
        'Cannot read the capture odd.splat: its size (33 bytes) is not a multiple of the 32 bytes of a .splat record',
      ],
    ];
    for (const [name, bytes, message] of cases) {
      const error = await refusal(readCapture(file(name, bytes)));
      expect(error.code).toBe('invalid-argument');
      expect(error.message).toContain(message);
    }
  });

  it.skipIf(!samplesPresent())('reads the real samples: the 3DGS training PLY (SH degree 3) and the .splat', async () => {
    for (const [path, count] of [
      ['3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply', 9080],
      ['splat/model.splat', 22764],
    ] as const) {
      const read = await readCapture(samplePath(path));
      expect(read.count).toBe(count);
      expect(read.positions.every(Number.isFinite)).toBe(true);
      expect(read.opacity.every((o) => o >= 0 && o <= 1)).toBe(true);
      expect(read.scale.every((s) => s > 0 && Number.isFinite(s))).toBe(true);
      const kept = confident(read);
      expect(kept.count).toBeGreaterThan(count / 20);
      expect(kept.count).toBeLessThan(count);
    }
  });
});

describe('confident', () => {
  it('drops the floaters of a draft reconstruction and keeps the tower', () => {
    const tower = makeTowerSplat({ count: 4000, seed: 3, floaters: 0.1 });
    const capture: CaptureSplats = {
      count: tower.count,
      positions: tower.position,
      opacity: tower.opacity,
      scale: Float32Array.from({ length: tower.count }, (_, i) => largestSigma(tower, i)),
    };
    const kept = confident(capture);
    // the generator writes the floaters last, at opacity 0.25
    const floaters = Array.from(tower.opacity).filter((o) => o === 0.25).length;
    expect(floaters).toBe(400);
    expect(kept.count).toBe(3600);
    expect(Array.from(kept.index)).toEqual(Array.from({ length: 3600 }, (_, i) => i));
    expect(kept.positions).toEqual(tower.position.subarray(0, 3600 * 3));
  });

  it('drops blobs far larger than the rest, broken centres and values out of range', () => {
    const count = 1000;
    const capture: CaptureSplats = {
      count,
      positions: Float32Array.from({ length: count * 3 }, (_, k) => k / 10),
      opacity: new Float32Array(count).fill(0.9),
      scale: Float32Array.from({ length: count }, (_, i) => 0.01 + (i % 10) / 1000),
    };
    capture.scale[10] = 5; // a blob
    capture.scale[11] = 0.05; // large, within 3 × the 95th percentile (0.019)
    capture.positions[12 * 3 + 1] = NaN;
    capture.scale[13] = Infinity;
    capture.opacity[14] = 0.29;
    const kept = confident(capture);
    expect(kept.maxScale).toBeCloseTo(3 * 0.019, 6);
    expect(kept.count).toBe(count - 4);
    expect(Array.from(kept.index.subarray(10, 12))).toEqual([11, 15]);
    expect(Array.from(kept.positions.subarray(10 * 3, 10 * 3 + 3))).toEqual(Array.from(capture.positions.subarray(11 * 3, 11 * 3 + 3)));
    // a plain percentile cap, when asked for: the median of the 997 opaque sizes is 0.015 (the
    // 495 smaller ones are 0.010 to 0.014), so the 100 of 0.015 stay
    const half = confident(capture, { scaleMultiple: 1, scalePercentile: 0.5 });
    expect(half.maxScale).toBeCloseTo(0.015, 6);
    expect(half.count).toBe(595);
    expect(confident(capture, { minOpacity: 0.95 })).toMatchObject({ count: 0, maxScale: Infinity });
    expect(() => confident(capture, { minOpacity: 2 })).toThrow('The least opacity must be within 0..1, not 2');
    expect(() => confident(capture, { scalePercentile: -1 })).toThrow('within 0..1');
    expect(() => confident(capture, { scaleMultiple: 0 })).toThrow('above 0');
  });
});
