/**
 * Web-sized splats: the compressed copy (SPZ version 3, about 10× smaller than a training PLY)
 * that the viewer loads instead of the original. Made for every splat the content checks
 * accept: a binary little-endian 3DGS PLY of spherical-harmonics degree 0 to 3 and a `.splat`.
 *
 * The header is parsed here (the shared PLY header parser); a worker thread then reads the
 * records block by block (the file is never in memory whole) and writes the SPZ with Niantic's
 * reference SPZ library (@adobe/spz, WebAssembly), half a million Gaussians at a time, so its
 * memory is bounded whatever the capture's size (web-splat-worker.mjs says how the parts are
 * joined), and a server or CLI keeps answering while a large file compresses. Spark's own
 * `transcodeSpz` writes only SH-degree-3 input (it panics on degree 0 to 2 and on `.splat`).
 * One compression runs at a time per process; `npm run bench:large` prints its peak memory.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { GAUSSIAN_PROPERTIES, PLY_HEADER_MAX_BYTES, parsePlyHeader, shDegreeOf } from '@shared/content-check/ply-header.js';
import { PLY_DATAVIEW_GETTERS, plyVertexLayout, type DataViewGetter } from '@shared/content-check/ply-rows.js';
import { SPLAT_RECORD_BYTES } from '@shared/content-check/splat-file.js';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import { packageRoot } from './package-root.js';

/** Compressions run at once in this process. */
const limit = pLimit(1);

/**
 * Captures with more Gaussians than this get a preview beside their web-sized copy: the viewer
 * shows it first, after a small part of the bytes, and refines to the full copy (a large capture).
 */
export const PREVIEW_ABOVE_GAUSSIANS = LARGE_CAPTURE_GAUSSIANS;

/** Gaussians of a preview (the most important ones of the capture, SH degree 0). */
export const PREVIEW_GAUSSIANS = 131_072;

/** Result of {@link compressSplatFile}. */
export interface WebSplatResult {
  /** Size of the SPZ in bytes. */
  bytes: number;
  /** The preview written (size in bytes and Gaussians), or null when none was asked for or the capture is small. */
  preview: { bytes: number; gaussians: number } | null;
  /** Time spent reading the splat and writing the SPZ, in milliseconds. */
  ms: number;
}

/** Where the worker finds each property of a record: byte offset in the record and the DataView method that reads it. */
type Field = [offset: number, getter: DataViewGetter];

/** What the worker reads: a PLY's vertex records, or a `.splat`'s 32-byte records. */
export type SplatLayout =
  | {
      kind: 'ply';
      /** Byte offset of the first vertex record. */
      start: number;
      count: number;
      /** Bytes per vertex record. */
      stride: number;
      shDegree: number;
      /** x, y, z, f_dc_0..2, opacity, scale_0..2, rot_0..3. */
      fields: Record<string, Field>;
      /** f_rest_0 … f_rest_{n−1}, in order (n = 3·((degree+1)²−1)). */
      rest: Field[];
    }
  | { kind: 'splat'; count: number };

/**
 * Reads where the Gaussians of a splat file are: for a `.splat` (by its name) the record count;
 * for a PLY, from its header, the offset of the vertex records, their stride and where each
 * property sits. Only what the content checks accept is laid out.
 * @param path the file on disk
 * @param name its file name (`.splat` or `.ply`; tells the format)
 * @returns the layout the worker reads
 * @throws AppError `invalid-argument` for a PLY that is not binary little-endian, lacks a 3DGS
 *   property, has list properties or elements before its vertices that are not fixed-size, has
 *   an f_rest count that fits no SH degree up to 3, or is shorter than its header says; and for
 *   a `.splat` whose size is not a multiple of 32 bytes
 */
export async function readSplatLayout(path: string, name: string): Promise<SplatLayout> {
  const cannot = (why: string) => new AppError(ErrorCode.InvalidArgument, `The web-sized copy could not be made: ${name} ${why}`);
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    if (name.toLowerCase().endsWith('.splat')) {
      if (size === 0 || size % SPLAT_RECORD_BYTES !== 0) throw cannot(`is not a whole number of ${SPLAT_RECORD_BYTES}-byte records`);
      return { kind: 'splat', count: size / SPLAT_RECORD_BYTES };
    }
    const head = new Uint8Array(Math.min(size, PLY_HEADER_MAX_BYTES));
    await file.read(head, 0, head.length, 0);
    let header;
    try {
      header = parsePlyHeader(head);
    } catch (error) {
      throw cannot(`has an invalid PLY header: ${errorMessage(error)}`);
    }
    if (header === null) throw cannot('is not a PLY file');
    if (header.format !== 'binary_little_endian')
      throw cannot(`is a '${header.format}' PLY: copies are made of binary_little_endian PLY files`);
    const layout = plyVertexLayout(header, size);
    if ('problem' in layout) {
      if (layout.problem === 'no-vertices') throw cannot('has no vertices');
      if (layout.problem === 'list-properties') throw cannot('has list properties in or before its vertices');
      throw cannot('is shorter than its header says');
    }
    const at = new Map<string, Field>([...layout.fields].map(([name, { offset, type }]) => [name, [offset, PLY_DATAVIEW_GETTERS[type]!]]));
    const missing = GAUSSIAN_PROPERTIES.filter((p) => !at.has(p));
    if (missing.length > 0) throw cannot(`lacks the 3DGS properties ${missing.join(', ')}`);
    const restCount = [...layout.fields.keys()].filter((name) => /^f_rest_\d+$/.test(name)).length;
    const shDegree = shDegreeOf(restCount);
    if (shDegree === null || shDegree > 3) throw cannot(`has ${restCount} f_rest properties: copies are made of SH degrees 0 to 3`);
    const rest: Field[] = [];
    for (let k = 0; k < restCount; k += 1) {
      const field = at.get(`f_rest_${k}`);
      if (field === undefined) throw cannot(`lacks f_rest_${k}`);
      rest.push(field);
    }
    return {
      kind: 'ply',
      start: layout.start,
      count: layout.count,
      stride: layout.stride,
      shDegree,
      fields: Object.fromEntries(GAUSSIAN_PROPERTIES.map((p) => [p, at.get(p)!])),
      rest,
    };
  } finally {
    await file.close();
  }
}

/**
 * Writes the web-sized copy (SPZ version 3) of a splat file, in a worker thread.
 * @param input path of the splat (a 3DGS PLY or a `.splat`)
 * @param output path of the SPZ to write (replaced)
 * @param name the splat's file name (its extension tells the format; default 'model.ply')
 * @param options.partGaussians Gaussians compressed at a time (default 524,288, about 250 MB of
 *   working memory at SH degree 3; tests use small parts to compare the assembled copy)
 * @param options.preview where to write a preview (an SPZ of the capture's `gaussians` most
 *   important Gaussians: largest opacity × volume, SH degree 0); it is written only for a large
 *   capture, one of more than {@link PREVIEW_ABOVE_GAUSSIANS} Gaussians (counted from the header
 *   or the `.splat`'s size) and more than `gaussians`; default none
 * @param options.previewAboveGaussians for tests only: the capture size above which a preview is
 *   written, instead of {@link PREVIEW_ABOVE_GAUSSIANS} (so small generated captures get one)
 * @param options.worker the worker script's path, where it is not beside this module's sources
 *   (the Cloud Functions' bundle carries its own bundled copy); default
 *   `cli/src/lib/web-splat-worker.mjs` of this package
 * @returns the SPZ's size, the preview written (or null) and the time it took
 * @throws AppError `invalid-argument` when the file cannot be read as a splat (see
 *   {@link readSplatLayout}) or the SPZ writer refuses it, `internal` when the worker dies
 */
export function compressSplatFile(
  input: string,
  output: string,
  name = 'model.ply',
  options: {
    partGaussians?: number;
    preview?: { output: string; gaussians: number };
    previewAboveGaussians?: number;
    worker?: string;
  } = {},
): Promise<WebSplatResult> {
  return limit(async () => {
    const layout = await readSplatLayout(input, name);
    const large = layout.count > (options.previewAboveGaussians ?? PREVIEW_ABOVE_GAUSSIANS);
    const preview = large ? (options.preview ?? null) : null;
    return new Promise<WebSplatResult>((resolve, reject) => {
      const worker = new Worker(options.worker ?? join(packageRoot(), 'cli', 'src', 'lib', 'web-splat-worker.mjs'), {
        workerData: { input, output, layout, partGaussians: options.partGaussians, preview },
      });
      let settled = false;
      type Reply = { ok: true; bytes: number; ms: number; preview: WebSplatResult['preview'] } | { ok: false; message: string };
      worker.once('message', (message: Reply) => {
        settled = true;
        if (message.ok) resolve({ bytes: message.bytes, ms: message.ms, preview: message.preview });
        else reject(new AppError(ErrorCode.InvalidArgument, `The web-sized copy could not be made: ${message.message}`));
        void worker.terminate();
      });
      worker.once('error', (error) => {
        if (!settled) reject(new AppError(ErrorCode.Internal, `The web-sized copy could not be made: ${error.message}`, { cause: error }));
        settled = true;
      });
      worker.once('exit', (code) => {
        if (!settled) reject(new AppError(ErrorCode.Internal, `The web-sized copy's worker stopped (exit code ${code})`));
        settled = true;
      });
    });
  });
}
