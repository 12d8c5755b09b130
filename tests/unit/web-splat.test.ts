// The web-sized copy (SPZ) of every splat the content checks accept: 3DGS PLY files of SH degree
// 0 to 3 and `.splat` files. Each copy is read back with the SPZ reference library and with the
// catalog's own SPZ check, and compared with the original Gaussian by Gaussian.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import createSpzModule from '@adobe/spz';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesSource } from '@shared/content-check/byte-source.js';
import { GAUSSIAN_PROPERTIES } from '@shared/content-check/ply-header.js';
import { checkSpz } from '@shared/content-check/spz.js';
import { compressSplatFile, PREVIEW_ABOVE_GAUSSIANS, readSplatLayout } from '../../cli/src/lib/web-splat.js';
import { gaussianPlyProperties, splatFile } from '../support/model-fixtures.js';

const SH_C0 = 0.28209479177387814;

interface Gaussian {
  position: [number, number, number];
  logScale: [number, number, number];
  /** w, x, y, z (PLY order), unit length. */
  rotation: [number, number, number, number];
  opacityLogit: number;
  dc: [number, number, number];
  /** f_rest, channel-major as in the PLY. */
  rest: number[];
}

/** Gaussians with varied, known values (a seeded sequence, so failures repeat). */
function gaussians(count: number, degree: number): Gaussian[] {
  let seed = 7 + degree;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
  const restCount = 3 * ((degree + 1) ** 2 - 1);
  return Array.from({ length: count }, () => {
    const q = [rand(), rand(), rand(), rand()];
    const len = Math.hypot(...q);
    return {
      position: [rand() * 5, rand() * 5, rand() * 5],
      logScale: [-3 + rand(), -3 + rand(), -3 + rand()],
      rotation: q.map((v) => v / len) as Gaussian['rotation'],
      opacityLogit: rand() * 3,
      dc: [rand(), rand(), rand()],
      rest: Array.from({ length: restCount }, () => rand() * 0.3),
    };
  });
}

/** A binary little-endian 3DGS PLY of these Gaussians (normals included, as training writes them). */
function plyOf(list: Gaussian[], degree: number): Uint8Array {
  const names = gaussianPlyProperties(degree);
  const header = new TextEncoder().encode(
    `ply\nformat binary_little_endian 1.0\nelement vertex ${list.length}\n${names.map((n) => `property float ${n}\n`).join('')}end_header\n`,
  );
  const out = new Uint8Array(header.length + list.length * names.length * 4);
  out.set(header);
  const view = new DataView(out.buffer, header.length);
  list.forEach((g, i) => {
    const row = [...g.position, 0, 0, 0, ...g.dc, ...g.rest, g.opacityLogit, ...g.logScale, ...g.rotation];
    row.forEach((v, k) => view.setFloat32((i * names.length + k) * 4, v, true));
  });
  return out;
}

let dir: string;
let spz: Awaited<ReturnType<typeof createSpzModule>>;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-splat-test-'));
  spz = await createSpzModule({ print: () => undefined, printErr: () => undefined });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Writes `bytes` as `name`, makes its copy, and returns the copy's bytes. */
async function copyOf(bytes: Uint8Array, name: string): Promise<Uint8Array> {
  const input = join(dir, name);
  const output = join(dir, `${name}.spz`);
  await writeFile(input, bytes);
  const result = await compressSplatFile(input, output, name);
  const copy = new Uint8Array(await readFile(output));
  expect(result.bytes).toBe(copy.byteLength);
  return copy;
}

describe('web-sized copies of every splat the checks accept', () => {
  for (const degree of [0, 1, 2, 3]) {
    it(`a PLY of SH degree ${degree}: the same Gaussians, read back in the original's frame`, async () => {
      const list = gaussians(300, degree);
      const copy = await copyOf(plyOf(list, degree), `sh${degree}.ply`);
      expect(await checkSpz(bytesSource(copy, 'model.spz'))).toMatchObject({ verdict: 'ok', version: 3, gaussians: 300, shDegree: degree });

      const cloud = spz.loadSpzFromBuffer(copy, { to: spz.CoordinateSystem.UNSPECIFIED });
      expect(cloud.numPoints).toBe(300);
      expect(cloud.shDegree).toBe(degree);
      const coefficients = (degree + 1) ** 2 - 1;
      list.forEach((g, i) => {
        for (let k = 0; k < 3; k += 1) {
          expect(cloud.positions[i * 3 + k]).toBeCloseTo(g.position[k]!, 2);
          expect(cloud.scales[i * 3 + k]).toBeCloseTo(g.logScale[k]!, 1);
          expect(Math.abs(cloud.colors[i * 3 + k]! - g.dc[k]!)).toBeLessThan(0.03);
        }
        // the sign of a quaternion is free: compare up to it
        const [w, x, y, z] = g.rotation;
        const back = [cloud.rotations[i * 4 + 3]!, cloud.rotations[i * 4]!, cloud.rotations[i * 4 + 1]!, cloud.rotations[i * 4 + 2]!];
        expect(Math.abs(back[0]! * w + back[1]! * x + back[2]! * y + back[3]! * z)).toBeGreaterThan(0.99);
        // SH: the PLY's channel-major f_rest against the copy's interleaved channels (4–5 bit quantised)
        for (let c = 0; c < coefficients; c += 1) {
          for (let channel = 0; channel < 3; channel += 1) {
            const expected = g.rest[channel * coefficients + c]!;
            expect(Math.abs(cloud.sh[(i * coefficients + c) * 3 + channel]! - expected)).toBeLessThan(0.07);
          }
        }
      });
    });
  }

  it('a capture compressed in parts is the same SPZ the library writes for the whole cloud at once', async () => {
    const list = gaussians(1000, 2);
    const bytes = plyOf(list, 2);
    await writeFile(join(dir, 'parts.ply'), bytes);
    await compressSplatFile(join(dir, 'parts.ply'), join(dir, 'parts.spz'), 'parts.ply', { partGaussians: 300 });
    const parts = gunzipSync(await readFile(join(dir, 'parts.spz')));
    await compressSplatFile(join(dir, 'parts.ply'), join(dir, 'whole.spz'), 'parts.ply', { partGaussians: 1000 });
    const whole = gunzipSync(await readFile(join(dir, 'whole.spz')));
    expect(parts.byteLength).toBe(whole.byteLength);
    expect(Buffer.compare(parts, whole)).toBe(0);
    // and the library reads the joined copy as 1,000 Gaussians, the last part's last one in place
    const cloud = spz.loadSpzFromBuffer(await readFile(join(dir, 'parts.spz')), { to: spz.CoordinateSystem.UNSPECIFIED });
    expect(cloud.numPoints).toBe(1000);
    expect(cloud.positions[999 * 3]).toBeCloseTo(list[999]!.position[0], 2);
  });

  it('a large capture also gets a preview: its most important Gaussians (opacity × volume), enlarged to cover about as much, SH degree 0', async () => {
    const list = gaussians(2000, 3);
    // 100 Gaussians made large and opaque: the preview of 100 must be exactly these
    list.forEach((g, i) => {
      if (i % 20 === 7) {
        g.logScale = [0, 0, 0];
        g.opacityLogit = 4;
      }
    });
    await writeFile(join(dir, 'big.ply'), plyOf(list, 3));
    const result = await compressSplatFile(join(dir, 'big.ply'), join(dir, 'big.spz'), 'big.ply', {
      partGaussians: 700,
      preview: { output: join(dir, 'big.preview.spz'), gaussians: 100 },
      previewAboveGaussians: 1000,
    });
    expect(result.preview).toMatchObject({ gaussians: 100 });
    const preview = spz.loadSpzFromBuffer(await readFile(join(dir, 'big.preview.spz')), { to: spz.CoordinateSystem.UNSPECIFIED });
    expect(preview.numPoints).toBe(100);
    expect(preview.shDegree).toBe(0);
    const expected = list.filter((_, i) => i % 20 === 7);
    for (let i = 0; i < 100; i += 1) expect(preview.positions[i * 3]).toBeCloseTo(expected[i]!.position[0], 2);
    // each stands in for 20 Gaussians: drawn larger, √20 ≈ 4.5× along each axis but at most 3× (log scale 0 → ln 3)
    for (let i = 0; i < 300; i += 1) expect(preview.scales[i]).toBeCloseTo(Math.log(3), 1);
    expect(result.preview!.bytes).toBeLessThan(result.bytes / 10);

    // a capture with no more Gaussians than the preview's gets none
    const small = await compressSplatFile(join(dir, 'big.ply'), join(dir, 'small.spz'), 'big.ply', {
      preview: { output: join(dir, 'small.preview.spz'), gaussians: 2000 },
      previewAboveGaussians: 1000,
    });
    expect(small.preview).toBeNull();
  });

  it('a preview is written only for a capture above the threshold (400,000 Gaussians unless a test lowers it)', async () => {
    expect(PREVIEW_ABOVE_GAUSSIANS).toBe(400_000);
    await writeFile(join(dir, 'mid.ply'), plyOf(gaussians(2000, 0), 0));
    const preview = { output: join(dir, 'mid.preview.spz'), gaussians: 100 };
    // 2,000 Gaussians is more than the preview's 100 but not a large capture: no preview
    const plain = await compressSplatFile(join(dir, 'mid.ply'), join(dir, 'mid.spz'), 'mid.ply', { preview });
    expect(plain.preview).toBeNull();
    await expect(stat(preview.output)).rejects.toThrow();
    // at the threshold itself: still none; one Gaussian fewer in the threshold: a preview
    const at = await compressSplatFile(join(dir, 'mid.ply'), join(dir, 'mid.spz'), 'mid.ply', { preview, previewAboveGaussians: 2000 });
    expect(at.preview).toBeNull();
    const above = await compressSplatFile(join(dir, 'mid.ply'), join(dir, 'mid.spz'), 'mid.ply', { preview, previewAboveGaussians: 1999 });
    expect(above.preview).toEqual({ gaussians: 100, bytes: (await stat(preview.output)).size });
  });

  it('a .splat: centres, colours and opacity carried over (its linear scales become log scales)', async () => {
    const copy = await copyOf(splatFile(50), 'model.splat');
    expect(await checkSpz(bytesSource(copy, 'model.spz'))).toMatchObject({ verdict: 'ok', gaussians: 50, shDegree: 0 });
    const cloud = spz.loadSpzFromBuffer(copy, { to: spz.CoordinateSystem.UNSPECIFIED });
    for (let i = 0; i < 50; i += 1) {
      expect(cloud.positions[i * 3]).toBeCloseTo(i, 2);
      expect(cloud.positions[i * 3 + 1]).toBeCloseTo(2 * i, 2);
      expect(cloud.scales[i * 3]).toBeCloseTo(Math.log(0.05), 1);
      // RGBA 200, 120, 60, 255 (see splatFile)
      expect(0.5 + SH_C0 * cloud.colors[i * 3]!).toBeCloseTo(200 / 255, 1);
      expect(1 / (1 + Math.exp(-cloud.alphas[i]!))).toBeGreaterThan(0.99);
    }
  });

  it('reads PLY property types other than float, and vertices after another element', async () => {
    const names = GAUSSIAN_PROPERTIES;
    const header = new TextEncoder().encode(
      'ply\nformat binary_little_endian 1.0\nelement camera 1\nproperty uchar id\nelement vertex 2\n' +
        'property double x\nproperty double y\nproperty double z\n' +
        names
          .slice(3)
          .map((n) => `property float ${n}\n`)
          .join('') +
        'end_header\n',
    );
    const stride = 3 * 8 + 11 * 4;
    const out = new Uint8Array(header.length + 1 + 2 * stride);
    out.set(header);
    const view = new DataView(out.buffer, header.length + 1);
    for (let i = 0; i < 2; i += 1) {
      view.setFloat64(i * stride, 1.5 + i, true);
      view.setFloat64(i * stride + 8, -2, true);
      view.setFloat64(i * stride + 16, 3, true);
      view.setFloat32(i * stride + 24 + 7 * 4, 1, true); // rot_0 (w)
    }
    const cloud = spz.loadSpzFromBuffer(await copyOf(out, 'typed.ply'), { to: spz.CoordinateSystem.UNSPECIFIED });
    expect(Array.from(cloud.positions).map((v) => Math.round(v * 100) / 100)).toEqual([1.5, -2, 3, 2.5, -2, 3]);
  });

  it('refuses what it cannot read, with the reason', async () => {
    await writeFile(join(dir, 'ascii.ply'), 'ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nend_header\n1\n');
    await expect(readSplatLayout(join(dir, 'ascii.ply'), 'ascii.ply')).rejects.toThrow(/'ascii' PLY/);
    await writeFile(join(dir, 'points.ply'), plyOf(gaussians(2, 0), 0).slice(0, 60));
    await expect(readSplatLayout(join(dir, 'points.ply'), 'points.ply')).rejects.toThrow(/invalid PLY header|not a PLY/);
    await writeFile(join(dir, 'odd.splat'), new Uint8Array(33));
    await expect(compressSplatFile(join(dir, 'odd.splat'), join(dir, 'odd.spz'), 'odd.splat')).rejects.toThrow(/32-byte records/);
  });
});
