/**
 * The splats of a stored capture as the change map needs them: per splat its centre, opacity and
 * size, read from a 3DGS training PLY (binary little-endian, any SH degree, the row layout taken
 * from its header) or a compact `.splat`, a block of rows at a time so that a capture of gigabytes
 * is never in memory whole; the confident splats of a capture, the ones whose centres are worth
 * comparing (opaque, not oversized); and the centres of the cameras that took it, from its camera
 * metadata, which tell the change map which side of each surface is outside.
 */
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import { PLY_HEADER_MAX_BYTES, parsePlyHeader } from '@shared/content-check/ply-header.js';
import { plyScalarReader, plyVertexLayout } from '@shared/content-check/ply-rows.js';
import { SPLAT_RECORD_BYTES } from '@shared/content-check/splat-file.js';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import { formatNumber } from '@shared/format.js';

/** A capture's splats, `count` of them in flat arrays, in the file's own frame and units. */
export interface CaptureSplats {
  count: number;
  /** Centres, x y z per splat (model units). */
  positions: Float32Array;
  /** Opacity per splat, 0..1 (a PLY's logit through the sigmoid, a `.splat`'s alpha byte / 255). */
  opacity: Float32Array;
  /** Largest σ of each splat's three axes (model units: a PLY's exp(scale), a `.splat`'s linear scale). */
  scale: Float32Array;
}

/** Options of {@link readCapture}. */
export interface ReadCaptureOptions {
  /** The file's name, which messages quote and whose `.splat` extension tells that format (default the path's last part). */
  name?: string;
  /** Rows read at a time (default 16,384: 4 MB of an SH-degree-3 PLY). */
  blockRows?: number;
}

/** The vertex properties a capture's PLY must have for the change map: centre, opacity, log σ per axis. */
const NEEDED = ['x', 'y', 'z', 'opacity', 'scale_0', 'scale_1', 'scale_2'] as const;

/** Where a capture's rows are and how one row is decoded into the arrays at index `i`. */
interface RowLayout {
  count: number;
  /** Byte offset of the first row. */
  start: number;
  /** Bytes per row. */
  stride: number;
  decode: (view: DataView, at: number, i: number, out: CaptureSplats) => void;
}

/**
 * Reads the splats of a capture file: a 3DGS PLY (binary little-endian; SH degree 0 to 3 or any
 * other row layout, the offsets and types of x, y, z, opacity and scale_0..2 taken from its
 * header; elements before the vertices skipped when their rows have a fixed size) or a `.splat`
 * (32-byte records: centre, linear σ per axis, RGBA bytes, rotation bytes). The rows are read a
 * block at a time; memory is the result (20 bytes a splat) and one block.
 * @param path the file on disk
 * @param options see {@link ReadCaptureOptions}
 * @returns the splats: centres as stored, opacity 0..1, largest σ per splat (model units); values
 *   that are not finite in the file stay so (see {@link confident})
 * @throws AppError `not-found` when the file does not exist; `invalid-argument`, naming the file
 *   and the reason, when it is empty, neither a PLY nor a `.splat`, a PLY that is ascii or big-endian,
 *   has an invalid header, no vertices, lacks one of x, y, z, opacity, scale_0..2, has list
 *   properties in or before its vertices, or is shorter than its header says, and when a
 *   `.splat`'s size is not a multiple of 32 bytes
 */
export async function readCapture(path: string, options: ReadCaptureOptions = {}): Promise<CaptureSplats> {
  const name = options.name ?? basename(path);
  const cannot = (why: string) => new AppError(ErrorCode.InvalidArgument, `Cannot read the capture ${name}: ${why}`, { context: { path } });
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AppError(ErrorCode.NotFound, `Cannot read the capture ${name}: there is no such file`, { cause: error, context: { path } });
    throw error;
  }
  try {
    const { size } = await file.stat();
    if (size === 0) throw cannot('it is empty (0 bytes)');
    const head = new Uint8Array(Math.min(size, PLY_HEADER_MAX_BYTES));
    await readFully(file, head, 0);
    const layout = plyOrSplatLayout(head, size, name, cannot);
    const out: CaptureSplats = {
      count: layout.count,
      positions: new Float32Array(layout.count * 3),
      opacity: new Float32Array(layout.count),
      scale: new Float32Array(layout.count),
    };
    const blockRows = Math.max(1, Math.floor(options.blockRows ?? 16_384));
    const block = new Uint8Array(Math.min(blockRows, layout.count) * layout.stride);
    const view = new DataView(block.buffer);
    for (let first = 0; first < layout.count; first += blockRows) {
      const rows = Math.min(blockRows, layout.count - first);
      const got = await readFully(file, block.subarray(0, rows * layout.stride), layout.start + first * layout.stride);
      if (got < rows * layout.stride) throw cannot(`the file ends after ${formatNumber(first + Math.floor(got / layout.stride))} splats`);
      for (let r = 0; r < rows; r += 1) layout.decode(view, r * layout.stride, first + r, out);
    }
    return out;
  } finally {
    await file.close();
  }
}

/** Reads into all of `into` from `position`, as far as the file goes; returns the bytes read. */
async function readFully(file: FileHandle, into: Uint8Array, position: number): Promise<number> {
  let got = 0;
  while (got < into.length) {
    const { bytesRead } = await file.read(into, got, into.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got;
}

/** The row layout of a PLY (by its first bytes) or of a `.splat` (by its name), or the reason it is neither. */
function plyOrSplatLayout(head: Uint8Array, size: number, name: string, cannot: (why: string) => AppError): RowLayout {
  let header;
  try {
    header = parsePlyHeader(head);
  } catch (error) {
    throw cannot(`its PLY header is invalid: ${errorMessage(error)}`);
  }
  if (header === null) {
    if (!name.toLowerCase().endsWith('.splat')) throw cannot('it is neither a PLY (no "ply" header ending in end_header) nor a .splat');
    if (size % SPLAT_RECORD_BYTES !== 0)
      throw cannot(`its size (${formatNumber(size)} bytes) is not a multiple of the ${SPLAT_RECORD_BYTES} bytes of a .splat record`);
    return { count: size / SPLAT_RECORD_BYTES, start: 0, stride: SPLAT_RECORD_BYTES, decode: decodeSplatRecord };
  }
  if (header.format !== 'binary_little_endian')
    throw cannot(`it is a '${header.format}' PLY; captures are read from binary_little_endian PLY files`);
  const layout = plyVertexLayout(header, size);
  if ('problem' in layout) {
    if (layout.problem === 'no-vertices') throw cannot('it has no vertices');
    if (layout.problem === 'list-properties') throw cannot('it has list properties in or before its vertices');
    throw cannot(`it is shorter than its header says (${formatNumber(layout.bytes)} bytes, not ${formatNumber(layout.expectedBytes)})`);
  }
  const missing = NEEDED.filter((p) => !layout.fields.has(p));
  if (missing.length > 0) throw cannot(`its vertices lack the 3DGS properties ${missing.join(', ')}`);
  const [x, y, z, opacity, s0, s1, s2] = NEEDED.map((p) => {
    const { offset, type } = layout.fields.get(p)!;
    const read = plyScalarReader(type)!;
    return (view: DataView, row: number) => read(view, row + offset);
  }) as [Field, Field, Field, Field, Field, Field, Field];
  return {
    count: layout.count,
    start: layout.start,
    stride: layout.stride,
    decode: (view, at, i, out) => {
      out.positions[i * 3] = x(view, at);
      out.positions[i * 3 + 1] = y(view, at);
      out.positions[i * 3 + 2] = z(view, at);
      // 3DGS stores opacity as a logit and σ as its logarithm
      out.opacity[i] = 1 / (1 + Math.exp(-opacity(view, at)));
      out.scale[i] = Math.exp(Math.max(s0(view, at), s1(view, at), s2(view, at)));
    },
  };
}

type Field = (view: DataView, row: number) => number;

/** Decodes a `.splat` record: centre (3 float32), σ per axis (3 float32, linear), colour and alpha (4 bytes), rotation (4 bytes). */
function decodeSplatRecord(view: DataView, at: number, i: number, out: CaptureSplats): void {
  out.positions[i * 3] = view.getFloat32(at, true);
  out.positions[i * 3 + 1] = view.getFloat32(at + 4, true);
  out.positions[i * 3 + 2] = view.getFloat32(at + 8, true);
  out.scale[i] = Math.max(view.getFloat32(at + 12, true), view.getFloat32(at + 16, true), view.getFloat32(at + 20, true));
  out.opacity[i] = view.getUint8(at + 27) / 255;
}

/** Options of {@link confident}. */
export interface ConfidentOptions {
  /** Least opacity of a kept splat, 0..1 (default 0.3): fainter ones are floaters or fill. */
  minOpacity?: number;
  /** Which share of the opaque splats' sizes the cap is read at, 0..1 (default 0.95). */
  scalePercentile?: number;
  /**
   * The cap is this many times that percentile (default 3): only blobs far larger than the
   * capture's surface splats drop out. A plain percentile would also drop whole members, whose
   * splats are stretched along them and so are legitimately the capture's largest.
   */
  scaleMultiple?: number;
}

/** The splats of a capture worth comparing: their centres (a point set) and which splat of the capture each one is. */
export interface ConfidentSplats {
  count: number;
  /** Centres, x y z per kept splat, model units. */
  positions: Float32Array;
  /** Index in the capture of each kept splat, in order. */
  index: Uint32Array;
  /** The σ cap the splats were kept under (model units). */
  maxScale: number;
}

/**
 * The confident splats of a capture: those with a finite centre, an opacity of at least
 * `minOpacity` and a size (largest σ) of at most `scaleMultiple` × the `scalePercentile` share of
 * the opaque splats' sizes. Faint splats are floaters and fill a reconstruction leaves in the air;
 * splats far larger than the capture's typical ones are blobs that stand for no surface; neither
 * says where a surface is, so registration and distances use only the rest.
 * @param capture from {@link readCapture}
 * @param options see {@link ConfidentOptions}
 * @returns the kept centres, each one's index in the capture, and the σ cap used (Infinity when no
 *   splat is opaque enough)
 * @throws AppError `invalid-argument` when an option is out of its range
 */
export function confident(capture: CaptureSplats, options: ConfidentOptions = {}): ConfidentSplats {
  const minOpacity = options.minOpacity ?? 0.3;
  const percentile = options.scalePercentile ?? 0.95;
  const multiple = options.scaleMultiple ?? 3;
  if (!(minOpacity >= 0 && minOpacity <= 1))
    throw new AppError(ErrorCode.InvalidArgument, `The least opacity must be within 0..1, not ${minOpacity}`);
  if (!(percentile >= 0 && percentile <= 1))
    throw new AppError(ErrorCode.InvalidArgument, `The scale percentile must be within 0..1, not ${percentile}`);
  if (!(multiple > 0)) throw new AppError(ErrorCode.InvalidArgument, `The scale multiple must be above 0, not ${multiple}`);
  const { count, positions, opacity, scale } = capture;
  const opaque = (i: number) =>
    opacity[i]! >= minOpacity &&
    Number.isFinite(scale[i]!) &&
    Number.isFinite(positions[i * 3]!) &&
    Number.isFinite(positions[i * 3 + 1]!) &&
    Number.isFinite(positions[i * 3 + 2]!);
  const sizes = new Float32Array(count);
  let n = 0;
  for (let i = 0; i < count; i += 1) if (opaque(i)) sizes[n++] = scale[i]!;
  const sorted = sizes.subarray(0, n).sort();
  const maxScale = n === 0 ? Infinity : multiple * sorted[Math.min(n - 1, Math.floor(percentile * n))]!;
  const index = new Uint32Array(n);
  let kept = 0;
  for (let i = 0; i < count; i += 1) if (opaque(i) && scale[i]! <= maxScale) index[kept++] = i;
  const out = new Float32Array(kept * 3);
  for (let k = 0; k < kept; k += 1) {
    const i = index[k]!;
    out[k * 3] = positions[i * 3]!;
    out[k * 3 + 1] = positions[i * 3 + 1]!;
    out[k * 3 + 2] = positions[i * 3 + 2]!;
  }
  return { count: kept, positions: out, index: index.slice(0, kept), maxScale };
}

/**
 * The camera centres of a capture's camera metadata (3DGS `cameras.json`: each entry's `position`,
 * the camera centre in the splat's own frame and units), for the change map's viewpoints.
 * @param path the camera metadata file on disk
 * @param name the file's name, which messages quote (default the path's last part)
 * @returns x y z per camera, in entry order (model units)
 * @throws AppError `not-found` when the file does not exist; `invalid-argument`, naming the file
 *   and the reason, when it is not valid camera metadata (the messages of the upload's check)
 */
export async function readCameraCentres(path: string, name = basename(path)): Promise<Float32Array> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AppError(ErrorCode.NotFound, `Cannot read the camera metadata ${name}: there is no such file`, {
        cause: error,
        context: { path },
      });
    throw error;
  }
  const parsed = parseCameraMetadata(text);
  if (!parsed.ok)
    throw new AppError(ErrorCode.InvalidArgument, `Cannot read the camera metadata ${name}: ${parsed.message}`, { context: { path } });
  return Float32Array.from(parsed.cameras.flatMap((camera) => camera.position));
}
