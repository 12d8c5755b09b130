/**
 * The check of a web-sized splat (`models/{uuid}/model.spz`, SPZ as the catalog writes it and
 * Spark reads it): a gzip stream whose first 16 bytes, once inflated, are SPZ's header — magic `NGSP`
 * (0x5053474e), version 2 or 3 (the ones Spark reads), a number of Gaussians, an SH degree 0–3,
 * fractional bits, flags (only 'antialiased') and a zero reserved byte — followed by exactly the
 * bytes those numbers call for (positions, alphas, colours, scales, rotations, SH coefficients).
 *
 * The stream is inflated a chunk at a time and never held: bytes are only counted, and the
 * inflation stops at the first byte beyond what the header declares. So a gzip bomb costs at most
 * what a real copy of the declared size costs, and the declared size is bounded by
 * {@link PLY_MAX_ELEMENT_COUNT} Gaussians and by deflate's largest ratio to the file's size.
 * Uses the platform's `DecompressionStream` (browsers, Node 18+).
 */
import type { FileCheckBase } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts, CHUNK_BYTES, refusedFacts } from './byte-source.js';
import { contentMessage, lfsPointerMessage } from './messages.js';
import { describeContent, isLfsPointer, SNIFF_BYTES } from './sniff.js';
import { PLY_MAX_ELEMENT_COUNT } from './ply-header.js';
import { formatNumber } from '../format.js';
import { errorMessage } from '../errors.js';

/** SPZ's magic number, little-endian 'NGSP'. */
export const SPZ_MAGIC = 0x5053474e;

/** The SPZ versions a web-sized copy may have: 2 and 3 (smallest-three rotations; what the catalog writes); Spark 2.2 reads no other. */
export const SPZ_VERSIONS: readonly number[] = [2, 3];

/** Bytes of SPZ's header (inside the gzip stream). */
export const SPZ_HEADER_BYTES = 16;

/** The header flag for a splat trained with antialiasing (the only flag a web-sized copy has). */
const FLAG_ANTIALIASED = 0x1;

/** Deflate's largest expansion (about 1032 : 1): a stream cannot inflate to more than this times its size. */
const DEFLATE_MAX_RATIO = 1032;

/** SH coefficients per colour channel for SH degree 0–3. */
const SH_COEFFICIENTS = [0, 3, 8, 15] as const;

/** A checked SPZ file. */
export interface SpzCheck extends FileCheckBase {
  /** SPZ version (0 when refused before the header). */
  version: number;
  /** Gaussians the header declares (0 when refused before the header). */
  gaussians: number;
  /** Spherical-harmonics degree, 0–3. */
  shDegree: number;
  /** Bytes of the inflated stream. */
  inflatedBytes: number;
}

/**
 * The inflated size an SPZ header calls for.
 * @param version 2 or 3 (3 stores rotations in 4 bytes instead of 3)
 * @param gaussians the number of Gaussians
 * @param shDegree 0–3
 * @returns bytes, header included
 */
export function spzInflatedBytes(version: number, gaussians: number, shDegree: number): number {
  const rotation = version >= 3 ? 4 : 3;
  // 24-bit fixed-point position (9), alpha (1), colour (3), scale (3), rotation, 8-bit SH coefficients
  const perGaussian = 9 + 1 + 3 + 3 + rotation + 3 * SH_COEFFICIENTS[shDegree as 0 | 1 | 2 | 3];
  return SPZ_HEADER_BYTES + gaussians * perGaussian;
}

function refusedSpz(source: ByteSource, problem: string, facts: Partial<SpzCheck> = {}): SpzCheck {
  return {
    ...refusedFacts(source, problem),
    version: 0,
    gaussians: 0,
    shDegree: 0,
    inflatedBytes: 0,
    ...facts,
  };
}

/** What is wrong with an SPZ header, or null; `size` is the compressed file's size. */
function headerProblem(view: DataView, size: number): string | null {
  const magic = view.getUint32(0, true);
  const version = view.getUint32(4, true);
  const gaussians = view.getUint32(8, true);
  const shDegree = view.getUint8(12);
  const flags = view.getUint8(14);
  if (magic !== SPZ_MAGIC) return "is a gzip file but not an SPZ splat: its data does not start with SPZ's magic 'NGSP'";
  if (!SPZ_VERSIONS.includes(version)) return `is SPZ version ${version}: only versions ${SPZ_VERSIONS.join(' and ')} can be viewed`;
  if (gaussians === 0) return 'is an SPZ splat without Gaussians';
  if (gaussians > PLY_MAX_ELEMENT_COUNT) {
    return `declares ${formatNumber(gaussians)} Gaussians, more than the ${formatNumber(PLY_MAX_ELEMENT_COUNT)} a splat may have`;
  }
  if (shDegree > 3) return `declares spherical-harmonics degree ${shDegree}: a web-sized splat has degree 0 to 3`;
  if ((flags & ~FLAG_ANTIALIASED) !== 0 || view.getUint8(15) !== 0) {
    return `has header flags 0x${flags.toString(16)} and reserved byte ${view.getUint8(15)} that no web-sized copy has`;
  }
  const expected = spzInflatedBytes(version, gaussians, shDegree);
  if (expected > size * DEFLATE_MAX_RATIO) {
    return `declares ${formatNumber(gaussians)} Gaussians (${formatNumber(expected)} bytes), more than a ${formatNumber(size)}-byte gzip stream can hold`;
  }
  return null;
}

/**
 * Checks a web-sized splat as SPZ, streaming: gzip, SPZ's header (see the module's comment), and
 * an inflated size equal to what the header declares. The gzip trailer's size (the inflated size
 * modulo 2³²) is compared first, so most mismatches are refused without inflating anything.
 * @param source the file
 * @returns verdict 'refused' with the problem in the user's terms ('This .spz is an HTML page, not
 *   an SPZ splat (model.spz).', '… holds 1,000 bytes more than its header declares …'); else the
 *   version, Gaussians and SH degree
 * @throws only when the source cannot be read
 */
export async function checkSpz(source: ByteSource): Promise<SpzCheck> {
  const { name, size } = source;
  if (size === 0) return refusedSpz(source, contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, SNIFF_BYTES));
  if (isLfsPointer(head)) return refusedSpz(source, lfsPointerMessage(name, size, 'splat'));
  if (head.byteLength < 18 || head[0] !== 0x1f || head[1] !== 0x8b || head[2] !== 8) {
    const { phrase } = await describeContent(head);
    return refusedSpz(
      source,
      contentMessage(name, phrase ? `is ${phrase}, not an SPZ splat` : 'is not an SPZ splat: it is not a gzip stream'),
    );
  }
  const tail = await source.read(size - 4, 4);
  const trailerSize = new DataView(tail.buffer, tail.byteOffset, 4).getUint32(0, true);

  let offset = 0;
  const input = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (offset >= size) {
        controller.close();
        return;
      }
      const bytes = await source.read(offset, Math.min(CHUNK_BYTES, size - offset));
      if (bytes.byteLength === 0) {
        controller.close();
        return;
      }
      offset += bytes.byteLength;
      // a copy: the stream takes ownership of what it is given
      controller.enqueue(bytes.slice());
    },
  });
  const reader = input.pipeThrough(new DecompressionStream('gzip') as unknown as TransformStream<Uint8Array, Uint8Array>).getReader();
  const header = new Uint8Array(SPZ_HEADER_BYTES);
  let inflated = 0;
  let expected = -1;
  let facts: Partial<SpzCheck> = {};
  const stop = async (problem: string): Promise<SpzCheck> => {
    await reader.cancel().catch(() => undefined);
    return refusedSpz(source, contentMessage(name, problem), { ...facts, inflatedBytes: inflated });
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (inflated < SPZ_HEADER_BYTES) header.set(value.subarray(0, SPZ_HEADER_BYTES - inflated), inflated);
      inflated += value.byteLength;
      if (expected < 0 && inflated >= SPZ_HEADER_BYTES) {
        const view = new DataView(header.buffer);
        const problem = headerProblem(view, size);
        if (problem !== null) return await stop(problem);
        const version = view.getUint32(4, true);
        const gaussians = view.getUint32(8, true);
        const shDegree = view.getUint8(12);
        facts = { version, gaussians, shDegree };
        expected = spzInflatedBytes(version, gaussians, shDegree);
        if (trailerSize !== expected % 2 ** 32) {
          return await stop(
            `declares ${formatNumber(gaussians)} Gaussians (${formatNumber(expected)} bytes of data) but its gzip trailer records ${formatNumber(trailerSize)} bytes`,
          );
        }
      }
      if (expected >= 0 && inflated > expected) {
        return await stop(
          `holds more data than its header declares (${formatNumber(expected)} bytes for ${formatNumber(facts.gaussians!)} Gaussians)`,
        );
      }
    }
  } catch (error) {
    const reason = errorMessage(error);
    return refusedSpz(source, contentMessage(name, `is a damaged gzip stream, not a readable SPZ splat (${reason})`), {
      ...facts,
      inflatedBytes: inflated,
    });
  }
  if (inflated < SPZ_HEADER_BYTES) return refusedSpz(source, contentMessage(name, `is too short for an SPZ header (${inflated} bytes)`));
  if (inflated < expected) {
    return refusedSpz(
      source,
      contentMessage(
        name,
        `is truncated: its header declares ${formatNumber(facts.gaussians!)} Gaussians (${formatNumber(expected)} bytes) but it holds ${formatNumber(inflated)}`,
      ),
      { ...facts, inflatedBytes: inflated },
    );
  }
  return {
    ...acceptedFacts(source),
    version: facts.version!,
    gaussians: facts.gaussians!,
    shDegree: facts.shDegree!,
    inflatedBytes: inflated,
  };
}
