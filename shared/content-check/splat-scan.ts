/**
 * What the two splat checks (`ply.ts` for 3DGS `.ply`, `splat-file.ts` for `.splat`) share: their
 * options, the one streaming pass over the Gaussians' centres that gives the bounding box and
 * counts the centres that are not finite numbers, and the shape of a refused check.
 */
import type { BoundingBox, SplatCheck } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { CHUNK_BYTES, readChunks, refusedFacts } from './byte-source.js';
import { formatNumber } from '../format.js';

/**
 * The bounding box of the Gaussians' centres, built one centre (or one chunk of records) at a
 * time. A centre with a coordinate that is not a finite number (NaN, ±Infinity) is left out of
 * the box and counted in `nonFinite`.
 */
export class BoxBuilder {
  private min: [number, number, number] = [Infinity, Infinity, Infinity];
  private max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  /** Centres left out because a coordinate is not a finite number. */
  nonFinite = 0;
  /** Adds one centre (model units), or counts it in {@link nonFinite} when it is not finite. */
  add(x: number, y: number, z: number): void {
    if (!Number.isFinite(x) || !Number.isFinite(y) || !Number.isFinite(z)) {
      this.nonFinite += 1;
      return;
    }
    if (x < this.min[0]) this.min[0] = x;
    if (y < this.min[1]) this.min[1] = y;
    if (z < this.min[2]) this.min[2] = z;
    if (x > this.max[0]) this.max[0] = x;
    if (y > this.max[1]) this.max[1] = y;
    if (z > this.max[2]) this.max[2] = z;
  }
  /** {@link add} for every record of `floats` (`step` floats each, x, y, z at `ix`, `iy`, `iz`), in one tight loop. */
  addAll(floats: Float32Array, step: number, ix: number, iy: number, iz: number): void {
    let [minX, minY, minZ] = this.min;
    let [maxX, maxY, maxZ] = this.max;
    let nonFinite = 0;
    for (let at = 0; at + step <= floats.length; at += step) {
      const x = floats[at + ix]!;
      const y = floats[at + iy]!;
      const z = floats[at + iz]!;
      // x - x is NaN for ±Infinity and NaN, 0 for every finite number
      if (x - x !== 0 || y - y !== 0 || z - z !== 0) {
        nonFinite += 1;
        continue;
      }
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      if (z < minZ) minZ = z;
      if (z > maxZ) maxZ = z;
    }
    this.min = [minX, minY, minZ];
    this.max = [maxX, maxY, maxZ];
    this.nonFinite += nonFinite;
  }
  /** The box of the finite centres added (min and max per axis), or null when there were none. */
  box(): BoundingBox | null {
    return this.min[0] === Infinity ? null : { min: [...this.min], max: [...this.max] };
  }
}

/** True on little-endian platforms (every one this runs on), where float32 data can be read in place. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Adds the centres of fixed-size records to `box`, streaming `[start, end)` once.
 * @param source the file; `start` and `end` the byte range of the records
 * @param stride bytes a record; `offsets` the byte offsets of x, y, z in a record
 * @param float32 true when x, y and z are little-endian float32 (read through a Float32Array,
 *   several times faster than a DataView), else `readers` read them
 * @param box the box the centres are added to
 * @throws only when the source cannot be read
 */
export async function scanCentres(
  source: ByteSource,
  start: number,
  end: number,
  stride: number,
  offsets: readonly number[],
  float32: boolean,
  readers: ReadonlyArray<(view: DataView, at: number) => number>,
  box: BoxBuilder,
): Promise<void> {
  const chunkBytes = Math.max(1, Math.floor(CHUNK_BYTES / stride)) * stride;
  const fast = float32 && LITTLE_ENDIAN && stride % 4 === 0 && offsets.every((o) => o % 4 === 0);
  const [ox, oy, oz] = offsets as [number, number, number];
  for await (const { bytes: chunk } of readChunks(source, start, end, chunkBytes)) {
    if (fast) {
      // a copy when unaligned (new Uint8Array copies; a Node Buffer's slice() would not)
      const bytes = chunk.byteOffset % 4 === 0 ? chunk : new Uint8Array(chunk);
      const floats = new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.byteLength / 4));
      const step = stride / 4;
      const [ix, iy, iz] = [ox / 4, oy / 4, oz / 4];
      box.addAll(floats, step, ix, iy, iz);
    } else {
      const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      for (let at = 0; at + stride <= chunk.byteLength; at += stride) {
        box.add(readers[0]!(view, at + ox), readers[1]!(view, at + oy), readers[2]!(view, at + oz));
      }
    }
  }
}

/** Options of the splat checks. */
export interface SplatCheckOptions {
  /**
   * Read the Gaussians' data for the bounding box and the non-finite warning (default true).
   * False checks the header and the size only — everything a refusal of a binary file depends
   * on — for a server that re-checks a file a client has already scanned. ASCII PLYs are always
   * read (their length is known only by counting lines).
   */
  scanData?: boolean;
}

/**
 * The warning about Gaussians whose centre is not a finite number.
 * @param count how many ({@link BoxBuilder.nonFinite})
 * @returns e.g. '3 Gaussians have a position that is not a finite number.'
 */
export function nonFiniteWarning(count: number): string {
  return `${formatNumber(count)} Gaussians have a position that is not a finite number.`;
}

/**
 * A splat check that refuses the file: the file's facts with `problem`, no encoding, no
 * Gaussians, SH degree 0 and no bounding box.
 * @param source the file checked
 * @param format what its name declares it to be ('ply' or 'splat')
 * @param problem the refusal in the user's terms
 */
export function refusedSplat(source: ByteSource, format: 'ply' | 'splat', problem: string): SplatCheck {
  return {
    ...refusedFacts(source, problem),
    format,
    encoding: null,
    gaussians: 0,
    shDegree: 0,
    boundingBox: null,
  };
}
