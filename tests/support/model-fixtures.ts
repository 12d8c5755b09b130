/**
 * Small model files that pass the content checks (shared/content-check/), made in the test
 * itself so tests run without ../shared/samples: a 3DGS PLY, a `.splat`, a one-triangle GLB,
 * PNG and JPEG photos (sharp), camera metadata. And the bad files the checks must refuse.
 */
import { open } from 'node:fs/promises';
import { Document, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { TRAINING_PLY_PROPERTIES } from '@shared/content-check/ply-header.js';
import { random } from '../../cli/src/lib/demo-data/index.js';

/** The 62 float properties of a 3DGS training PLY at SH degree 3 (shared/content-check/ply-header.ts). */
export const GAUSSIAN_PLY_PROPERTIES = TRAINING_PLY_PROPERTIES;

/** Bytes per Gaussian of {@link gaussianPly} (62 float32). */
export const GAUSSIAN_PLY_STRIDE = GAUSSIAN_PLY_PROPERTIES.length * 4;

/** The properties of a 3DGS PLY at SH degree `degree` (0–3): 17 at degree 0, 62 at degree 3. */
export function gaussianPlyProperties(degree = 3): string[] {
  const rest = 3 * ((degree + 1) ** 2 - 1);
  return GAUSSIAN_PLY_PROPERTIES.filter((p) => !/^f_rest_(\d+)$/.test(p) || Number(p.slice(7)) < rest);
}

/** The header of {@link gaussianPly} for `count` Gaussians (at SH degree `degree`, default 3). */
export function gaussianPlyHeader(count: number, degree = 3): string {
  return `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${gaussianPlyProperties(degree)
    .map((p) => `property float ${p}\n`)
    .join('')}end_header\n`;
}

/**
 * A valid 3DGS PLY (binary little-endian, SH degree 3 unless `degree` says otherwise) of `count`
 * Gaussians on a line from (0,0,0) to (count−1, 2·(count−1), −(count−1)), so its bounding box is known.
 */
export function gaussianPly(count: number, degree = 3): Uint8Array<ArrayBuffer> {
  const properties = gaussianPlyProperties(degree);
  const stride = properties.length * 4;
  const index = (name: string) => properties.indexOf(name);
  const header = new TextEncoder().encode(gaussianPlyHeader(count, degree));
  const out = new Uint8Array(header.length + count * stride);
  out.set(header, 0);
  const view = new DataView(out.buffer, header.length);
  for (let i = 0; i < count; i += 1) {
    const at = (name: string, v: number) => view.setFloat32(i * stride + index(name) * 4, v, true);
    at('x', i);
    at('y', 2 * i);
    at('z', 0 - i || 0);
    at('opacity', 2); // logit
    for (const s of ['scale_0', 'scale_1', 'scale_2']) at(s, -3); // log scale
    at('rot_0', 1); // w
  }
  return out;
}

/** Gaussians of a {@link gaussianPly} of about `bytes` bytes (at least 1). */
export function gaussianCountForBytes(bytes: number): number {
  return Math.max(1, Math.floor(bytes / GAUSSIAN_PLY_STRIDE));
}

/** A valid compact `.splat` of `count` Gaussians (32 bytes each) on the same line as {@link gaussianPly}. */
export function splatFile(count: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(count * 32);
  const view = new DataView(out.buffer);
  for (let i = 0; i < count; i += 1) {
    view.setFloat32(i * 32, i, true);
    view.setFloat32(i * 32 + 4, 2 * i, true);
    view.setFloat32(i * 32 + 8, 0 - i || 0, true);
    for (let k = 0; k < 3; k += 1) view.setFloat32(i * 32 + 12 + k * 4, 0.05, true);
    out.set([200, 120, 60, 255, 255, 128, 128, 128], i * 32 + 24);
  }
  return out;
}

/**
 * Fills `block` (a multiple of 32 bytes) with patterned `.splat` records whose positions are
 * finite (within ±10), different for each `blockIndex`: large `.splat` files for upload tests and
 * benchmarks, written a block at a time.
 * @param block the buffer to fill
 * @param blockIndex which block of the file this is
 */
export function fillSplatBlock(block: Buffer, blockIndex: number): void {
  for (let j = 0; j < block.length; j += 32) {
    const k = (blockIndex * 2654435761 + j * 40503) >>> 0;
    block.writeFloatLE((k % 2001) / 100 - 10, j);
    block.writeFloatLE(((k >>> 8) % 2001) / 100 - 10, j + 4);
    block.writeFloatLE(((k >>> 16) % 2001) / 100 - 10, j + 8);
    for (let s = 12; s < 24; s += 4) block.writeFloatLE(0.01 + (k % 7) / 100, j + s);
    block.writeUInt32LE(k, j + 24);
    block.writeUInt32LE((k ^ 0x80808080) >>> 0, j + 28);
  }
}

/**
 * A real JPEG of gaussian noise of at least `minBytes` bytes (noise does not compress, so a photo
 * of a given size is cheap to make); `seed` varies its tint.
 */
export async function noisyJpeg(minBytes: number, seed = 0): Promise<Buffer> {
  for (let side = Math.max(16, Math.ceil(Math.sqrt(minBytes / 0.8))); ; side = Math.ceil(side * 1.2)) {
    const jpeg = await sharp({
      create: {
        width: side,
        height: side,
        channels: 3,
        background: { r: 128, g: 128 - (seed % 64), b: 128 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 95 })
      .toBuffer();
    if (jpeg.length >= minBytes) return jpeg;
  }
}

/** A valid GLB (glTF 2.0) of one triangle, written with @gltf-transform/core; about 0.7 KB. */
export async function triangleGlb(generator = 'catalog tests'): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = generator;
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]))
    .setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setMaterial(doc.createMaterial('grey'));
  const mesh = doc.createMesh('triangle').addPrimitive(prim);
  doc.createScene('scene').addChild(doc.createNode('node').setMesh(mesh));
  const bytes = await new NodeIO().writeBinary(doc);
  return new Uint8Array(bytes);
}

/** Options of {@link texturedGlb}. */
export interface TexturedGlbOptions {
  /** Triangles in all (about; rounded to whole grid rows per texture). Default 4,000. */
  triangles?: number;
  /** Number of textures, one material and one primitive each. Default 1. */
  textures?: number;
  /** Width and height of each texture in pixels. Default 2048. */
  textureEdge?: number;
  /** How the textures are stored in the GLB. Default 'png'. */
  textureFormat?: 'png' | 'jpeg';
  /** Varies the surface and the textures' tint. Default 7. */
  seed?: number;
}

/**
 * A textured GLB shaped like a photogrammetry capture of a tower: a bumpy cylinder of
 * triangles (positions, normals, texture coordinates, 32-bit indices), split into one primitive
 * per texture, each texture Gaussian noise (sharp: the worst case for an image codec, so a copy
 * that gains on it gains on photos too). For the web-sized GLB tests and `npm run bench:large`
 * (several 4096² textures and a dense mesh come to about 150 MB).
 * @returns the GLB bytes and its triangle count
 */
export async function texturedGlb(options: TexturedGlbOptions = {}): Promise<{ glb: Uint8Array<ArrayBuffer>; triangles: number }> {
  const { triangles = 4000, textures = 1, textureEdge = 2048, textureFormat = 'png', seed = 7 } = options;
  const rand = random(seed);
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'catalog tests (textured GLB)';
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh('capture');
  // each part is a band of the cylinder: `columns` quads around, `rows` up
  const perPart = Math.max(2, Math.ceil(triangles / textures));
  const columns = Math.max(2, Math.round(Math.sqrt(perPart / 2)));
  const rows = Math.max(1, Math.round(perPart / (2 * columns)));
  let total = 0;
  for (let part = 0; part < textures; part++) {
    const count = (rows + 1) * (columns + 1);
    const position = new Float32Array(count * 3);
    const normal = new Float32Array(count * 3);
    const uv = new Float32Array(count * 2);
    for (let r = 0; r <= rows; r++) {
      for (let c = 0; c <= columns; c++) {
        const i = r * (columns + 1) + c;
        const angle = (c / columns) * 2 * Math.PI;
        const radius = 4 + 0.3 * rand();
        position.set([radius * Math.cos(angle), ((part + r / rows) * 40) / textures, radius * Math.sin(angle)], i * 3);
        normal.set([Math.cos(angle), 0, Math.sin(angle)], i * 3);
        uv.set([c / columns, r / rows], i * 2);
      }
    }
    const index = new Uint32Array(rows * columns * 6);
    let k = 0;
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < columns; c++) {
        const a = r * (columns + 1) + c;
        const b = a + columns + 1;
        index.set([a, b, a + 1, a + 1, b, b + 1], k);
        k += 6;
      }
    }
    total += index.length / 3;
    const image = sharp({
      create: {
        width: textureEdge,
        height: textureEdge,
        channels: 3,
        background: { r: 110 + ((seed + part * 37) % 60), g: 120, b: 130 },
        noise: { type: 'gaussian', mean: 128, sigma: 30 },
      },
    });
    const encoded = textureFormat === 'png' ? await image.png().toBuffer() : await image.jpeg({ quality: 92 }).toBuffer();
    const texture = doc.createTexture(`texture-${part}`).setImage(new Uint8Array(encoded)).setMimeType(`image/${textureFormat}`);
    const material = doc.createMaterial(`material-${part}`).setBaseColorTexture(texture).setRoughnessFactor(1).setMetallicFactor(0);
    const accessor = (type: 'VEC3' | 'VEC2' | 'SCALAR', array: Float32Array | Uint32Array) =>
      doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
    mesh.addPrimitive(
      doc
        .createPrimitive()
        .setAttribute('POSITION', accessor('VEC3', position))
        .setAttribute('NORMAL', accessor('VEC3', normal))
        .setAttribute('TEXCOORD_0', accessor('VEC2', uv))
        .setIndices(accessor('SCALAR', index))
        .setMaterial(material),
    );
  }
  doc.createScene('scene').addChild(doc.createNode('capture').setMesh(mesh));
  const bytes = await new NodeIO().writeBinary(doc);
  return { glb: new Uint8Array(bytes), triangles: total };
}

/** A PNG photo of `width`×`height` pixels (sharp). */
export async function pngPhoto(width = 64, height = 48): Promise<Buffer<ArrayBuffer>> {
  // sharp's output never lives in a SharedArrayBuffer.
  return sharp({ create: { width, height, channels: 3, background: { r: 120, g: 130, b: 140 } } })
    .png()
    .toBuffer() as Promise<Buffer<ArrayBuffer>>;
}

/** A JPEG photo of `width`×`height` pixels (sharp). */
export async function jpegPhoto(width = 64, height = 48): Promise<Buffer<ArrayBuffer>> {
  return sharp({ create: { width, height, channels: 3, background: { r: 160, g: 90, b: 60 } } })
    .jpeg()
    .toBuffer() as Promise<Buffer<ArrayBuffer>>;
}

/**
 * One camera metadata entry (id, img_name, position, 3×3 rotation, width, height: the 3DGS
 * `cameras.json` keys): camera 1 at the origin looking down +z (identity rotation), a 10×10 image
 * of `a.jpg`, with `overrides` applied (e.g. a bad `id`).
 */
export function cameraEntry(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    img_name: 'a.jpg',
    position: [0, 0, 0],
    rotation: [
      [1, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ],
    width: 10,
    height: 10,
    fx: 5,
    fy: 5,
    ...overrides,
  };
}

/**
 * Camera metadata (a JSON array of such entries) of `names.length` cameras, one per image name, in a ring
 * looking at the origin.
 */
export function cameraMetadataText(names: readonly string[]): string {
  return JSON.stringify(
    names.map((img_name, id) => {
      const a = (id / Math.max(1, names.length)) * 2 * Math.PI;
      return {
        id,
        img_name,
        width: 64,
        height: 48,
        position: [4 * Math.sin(a), 0, -4 * Math.cos(a)],
        rotation: [
          [Math.cos(a), 0, -Math.sin(a)],
          [0, 1, 0],
          [Math.sin(a), 0, Math.cos(a)],
        ],
        fx: 50,
        fy: 50,
      };
    }),
  );
}

/** An HTML page, as a web server's error page saved under a model file's name. */
export const HTML_PAGE = '<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>\n';

/** A Git LFS pointer, as committed in place of a large `.ply`. */
export const LFS_POINTER =
  'version https://git-lfs.github.com/spec/v1\noid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 115000000\n';

/**
 * Writes a 3DGS PLY of `count` Gaussians at SH degree `degree` (0–3) to `path`, a block of 16,384
 * Gaussians at a time (any size, bounded memory), with plausible values: centres in a 40 m box
 * around a tower-like column, log scales around −4, opacity logits, unit quaternions, DC colours
 * and small higher-order SH coefficients, from a seeded generator (the same file every run).
 * For benchmarks of real-size captures.
 * @returns the file's size in bytes
 */
export async function writeGaussianPlyFile(path: string, count: number, degree = 3, seed = 16): Promise<number> {
  const rand = random(seed);
  const names = gaussianPlyProperties(degree);
  const index = (name: string) => names.indexOf(name);
  const rest = names.filter((n) => n.startsWith('f_rest_')).map(index);
  const stride = names.length * 4;
  const header = Buffer.from(gaussianPlyHeader(count, degree));
  const file = await open(path, 'w');
  try {
    await file.write(header);
    const perBlock = 16_384;
    const block = Buffer.alloc(perBlock * stride);
    for (let done = 0; done < count; done += perBlock) {
      const n = Math.min(perBlock, count - done);
      for (let i = 0; i < n; i++) {
        const put = (k: number, v: number) => block.writeFloatLE(v, i * stride + k * 4);
        const height = rand() * 40;
        const radius = 2 + 6 * (1 - height / 40) * rand();
        const angle = rand() * 2 * Math.PI;
        put(index('x'), radius * Math.cos(angle));
        put(index('y'), -height);
        put(index('z'), radius * Math.sin(angle));
        for (const k of ['nx', 'ny', 'nz']) put(index(k), 0);
        for (const k of ['f_dc_0', 'f_dc_1', 'f_dc_2']) put(index(k), (rand() - 0.5) * 2);
        for (const k of rest) put(k, (rand() - 0.5) * 0.2);
        put(index('opacity'), (rand() - 0.3) * 6);
        for (const k of ['scale_0', 'scale_1', 'scale_2']) put(index(k), -4 + (rand() - 0.5) * 3);
        const q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const len = Math.hypot(...q) || 1;
        ['rot_0', 'rot_1', 'rot_2', 'rot_3'].forEach((k, j) => put(index(k), q[j]! / len));
      }
      await file.write(block, 0, n * stride);
    }
    return header.length + count * stride;
  } finally {
    await file.close();
  }
}
