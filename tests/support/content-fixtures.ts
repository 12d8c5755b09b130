/**
 * Hostile files for the content checks' tests (tests/unit/content-trust.test.ts and
 * tests/contract/trust-content.test.ts): PLY headers that lie about their counts, PNGs whose
 * header declares more pixels than a decoder should ever allocate, HTML and SVG dressed as
 * photos, polyglots, and SPZ files that are not what they say. All small: a bomb is refused from
 * its header, so none is ever inflated here.
 */
import { crc32, deflateSync, gzipSync } from 'node:zlib';
import { GAUSSIAN_PROPERTIES } from '@shared/content-check/index.js';
import { HTML_PAGE } from './model-fixtures.js';

/** A PNG chunk: length, type, data, CRC. */
export function pngChunk(type: string, data: Uint8Array): Buffer {
  const chunk = Buffer.alloc(12 + data.byteLength);
  chunk.writeUInt32BE(data.byteLength, 0);
  chunk.write(type, 4, 'latin1');
  chunk.set(data, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.byteLength)), 8 + data.byteLength);
  return chunk;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG of `width` × `height` with `bitDepth`/`colourType` and the given IDAT data (already compressed). */
function png(width: number, height: number, idat: Uint8Array, bitDepth = 8, colourType = 2, extra: Buffer[] = []): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = bitDepth;
  ihdr[9] = colourType;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr), ...extra, pngChunk('IDAT', idat), pngChunk('IEND', new Uint8Array(0))]);
}

/** A 65-byte PNG whose header declares 2,147,483,647 × 2,147,483,647 pixels (and holds none). */
export function headerOnlyBombPng(): Buffer {
  return png(2_147_483_647, 2_147_483_647, deflateSync(Buffer.alloc(0)));
}

let zlibBomb: Buffer | null = null;

/**
 * A real decompression bomb: a 20,000 × 20,000 one-bit greyscale PNG of zeros, about 49 KB that
 * inflate to 50 MB of rows and decode to 400 megapixels (made once, about 0.6 s).
 */
export function zlibBombPng(): Buffer {
  zlibBomb ??= png(20_000, 20_000, deflateSync(Buffer.alloc(20_000 * (1 + 2_500)), { level: 9 }), 1, 0);
  return zlibBomb;
}

/** A valid 2 × 2 RGB PNG, with optional chunks before its IDAT. */
export function tinyPng(extra: Buffer[] = []): Buffer {
  const rows = Buffer.alloc(2 * (1 + 2 * 3), 0x7f);
  rows[0] = 0;
  rows[7] = 0;
  return png(2, 2, deflateSync(rows), 8, 2, extra);
}

/** A PNG+HTML polyglot: a valid PNG with an HTML page appended after its IEND chunk. */
export function pngWithHtmlAppended(): Buffer {
  return Buffer.concat([tinyPng(), Buffer.from(`<html><body><script>alert(document.domain)</script></body></html>\n`)]);
}

/** A valid PNG whose tEXt chunk holds HTML markup (inert: it is only ever served as image/png). */
export function pngWithHtmlInText(): Buffer {
  return tinyPng([pngChunk('tEXt', Buffer.from('Comment\0<script>alert(1)</script>', 'latin1'))]);
}

/** An SVG image with a script. */
export const SVG_IMAGE = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>\n';

/** The same SVG with an XML declaration first. */
export const SVG_WITH_PROLOG = `<?xml version="1.0" encoding="UTF-8"?>\n${SVG_IMAGE}`;

export { HTML_PAGE };

/** The vertex properties of the 3DGS PLY headers below (SH degree 0). */
const GAUSSIAN_VERTEX = GAUSSIAN_PROPERTIES.map((p) => `property float ${p}\n`).join('');

/**
 * A binary 3DGS PLY header with `before` (header lines) ahead of its vertex element, followed by
 * `data` bytes of filler: the shape of the header-bypass attack ('element junk abc' then
 * 'element vertex 2147483647').
 * @param before the lines before `element vertex`, e.g. 'element junk abc\nproperty uchar a\n'
 * @param vertices the vertex count as written
 */
export function plyWithHeader(before: string, vertices: string | number = 2_147_483_647, data = 64): Buffer {
  const header = `ply\nformat binary_little_endian 1.0\n${before}element vertex ${vertices}\n${GAUSSIAN_VERTEX}end_header\n`;
  return Buffer.concat([Buffer.from(header, 'latin1'), Buffer.alloc(data)]);
}

/** SPZ's 16-byte header (magic, version, Gaussians, SH degree, fractional bits, flags, reserved). */
export function spzHeader(
  gaussians: number,
  options: { version?: number; shDegree?: number; flags?: number; magic?: number } = {},
): Buffer {
  const header = Buffer.alloc(16);
  header.writeUInt32LE(options.magic ?? 0x5053474e, 0);
  header.writeUInt32LE(options.version ?? 2, 4);
  header.writeUInt32LE(gaussians, 8);
  header[12] = options.shDegree ?? 0;
  header[13] = 12;
  header[14] = options.flags ?? 1;
  return header;
}

/** A gzip stream of an SPZ header and `dataBytes` zero bytes of Gaussian data. */
export function spzFile(gaussians: number, dataBytes: number, options: Parameters<typeof spzHeader>[1] = {}): Buffer {
  return gzipSync(Buffer.concat([spzHeader(gaussians, options), Buffer.alloc(dataBytes)]));
}

/** Bytes an SPZ v2 of SH degree 0 holds per Gaussian (position 9, alpha 1, colour 3, scale 3, rotation 3). */
export const SPZ_V2_DEGREE0_BYTES = 19;
