/**
 * Splat file checks (pure, streaming): 3DGS training `.ply` files and compact `.splat` files.
 *
 * PLY: the `ply` magic, every header line valid before anything is computed from it
 * ({@link parsePlyHeader}), `binary_little_endian` or `ascii`, a vertex element whose declared
 * count (and every element's before it) fits the file size, the 3DGS properties (x, y, z,
 * scale_0..2, rot_0..3, opacity, f_dc_0..2; the number of f_rest_* gives the SH degree), and the
 * Git-LFS-pointer case named as such.
 * `.splat`: a non-zero multiple of 32 bytes. Both report the Gaussians' count and the box of
 * their centres, read in one pass over the data.
 */
import type { BoundingBox, SplatCheck } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts, CHUNK_BYTES, readChunks, refusedFacts } from './byte-source.js';
import { contentMessage, lfsPointerMessage } from './messages.js';
import { asciiOf, describeContent, isLfsPointer, SNIFF_BYTES } from './sniff.js';
import { formatNumber } from '../format.js';

/** Bytes read from the start of a PLY for its header (64 KiB: 3DGS headers are about 1.5 KiB). */
export const PLY_HEADER_MAX_BYTES = 64 * 1024;

/** Bytes per Gaussian in the compact `.splat` format. */
export const SPLAT_RECORD_BYTES = 32;

/** Position and DC colour of a Gaussian (the first properties a 3DGS PLY names, before any normals). */
const POSITION_AND_COLOUR = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2'] as const;
/** Opacity, scale and rotation of a Gaussian (the last properties a 3DGS PLY names). */
const OPACITY_SCALE_ROTATION = ['opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'] as const;

/** The vertex properties a 3DGS PLY must have. */
export const GAUSSIAN_PROPERTIES = [...POSITION_AND_COLOUR, ...OPACITY_SCALE_ROTATION] as const;

/**
 * The vertex properties of a 3DGS training PLY at SH degree 3, in the order the 3DGS training code
 * writes them (62 float32 values: position, normal, DC colour, 45 f_rest, opacity, scale, rotation).
 */
export const TRAINING_PLY_PROPERTIES: readonly string[] = [
  'x',
  'y',
  'z',
  'nx',
  'ny',
  'nz',
  ...POSITION_AND_COLOUR.slice(3),
  ...Array.from({ length: 45 }, (_, i) => `f_rest_${i}`),
  ...OPACITY_SCALE_ROTATION,
];

/** Size in bytes of each PLY scalar type. */
export const PLY_TYPE_BYTES: Readonly<Record<string, number>> = {
  char: 1,
  int8: 1,
  uchar: 1,
  uint8: 1,
  short: 2,
  int16: 2,
  ushort: 2,
  uint16: 2,
  int: 4,
  int32: 4,
  uint: 4,
  uint32: 4,
  float: 4,
  float32: 4,
  double: 8,
  float64: 8,
};

/** True for a PLY scalar type name (an own key of the size table: 'constructor' is none). */
function isPlyType(type: string): boolean {
  return Object.hasOwn(PLY_TYPE_BYTES, type);
}

/** One property of a PLY element. `list` properties have a count type and an item type. */
export interface PlyProperty {
  name: string;
  type: string;
  list: { countType: string } | null;
}

/** One element of a PLY header. */
export interface PlyElement {
  name: string;
  count: number;
  properties: PlyProperty[];
}

/** A parsed PLY header. */
export interface PlyHeader {
  /** 'binary_little_endian', 'binary_big_endian' or 'ascii'. */
  format: string;
  elements: PlyElement[];
  /** Bytes of the header, through the newline after `end_header`. */
  headerBytes: number;
}

/**
 * Most rows one PLY element may declare (one billion): more than any splat a viewer can hold
 * (a billion Gaussians of a training PLY are about 248 GB), and small enough that every offset
 * computed from a header stays an exact integer.
 */
export const PLY_MAX_ELEMENT_COUNT = 1_000_000_000;

/** The PLY formats a header may name (only the first two can be read here). */
const PLY_FORMATS = new Set(['binary_little_endian', 'ascii', 'binary_big_endian']);

/** The scalar types a list's count may have (whole numbers). */
const PLY_INTEGER_TYPES = new Set([
  'char',
  'int8',
  'uchar',
  'uint8',
  'short',
  'int16',
  'ushort',
  'uint16',
  'int',
  'int32',
  'uint',
  'uint32',
]);

/**
 * A PLY header line that breaks the format's rules: an unknown keyword, an element whose count
 * is not a whole number within {@link PLY_MAX_ELEMENT_COUNT}, a property of an unknown type.
 */
export class PlyHeaderError extends Error {
  /**
   * @param line the line's number in the file (1 is `ply`)
   * @param text the line as written (control characters removed, at most 60 characters)
   * @param reason what is wrong, in words
   */
  constructor(
    readonly line: number,
    readonly text: string,
    readonly reason: string,
  ) {
    super(`line ${line} ('${text}'): ${reason}`);
    this.name = 'PlyHeaderError';
  }
}

/** A header line as a message quotes it: control characters removed, at most 60 characters. */
function shownLine(raw: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = raw.replace(/[\u0000-\u001f\u007f-\u00a0]/g, ' ').trim();
  return clean.length > 60 ? `${clean.slice(0, 60)}…` : clean;
}

/**
 * Parses and validates a PLY header. Every line is checked before anything is computed from it:
 * `format` (once, before the elements: ascii, binary_little_endian or binary_big_endian, version
 * 1.0), `element <name> <count>` (a new name; the count a whole number, no sign, at most
 * {@link PLY_MAX_ELEMENT_COUNT}), `property <type> <name>` and `property list <count type> <item
 * type> <name>` (known scalar types, a whole-number count type, a new name within its element,
 * after an element), `comment` and `obj_info`; blank lines are skipped; any other line is refused.
 * @param head the file's first bytes (the header must be within them)
 * @returns the header, or null when the bytes do not start with `ply` or have no `end_header` line
 * @throws PlyHeaderError naming the first line that breaks these rules
 */
export function parsePlyHeader(head: Uint8Array): PlyHeader | null {
  if (!/^ply\r?\n/.test(asciiOf(head, 5))) return null;
  const text = asciiOf(head, PLY_HEADER_MAX_BYTES);
  const match = /(^|\n)end_header[ \t]*\r?\n/.exec(text);
  if (match === null) return null;
  const headerBytes = match.index + match[0].length;
  let format = '';
  const elements: PlyElement[] = [];
  const lines = text.slice(0, match.index).split('\n');
  // line 1 is 'ply' (tested above)
  for (let i = 1; i < lines.length; i += 1) {
    const raw = lines[i]!;
    const fail = (reason: string): PlyHeaderError => new PlyHeaderError(i + 1, shownLine(raw), reason);
    const parts = raw.trim().split(/[ \t]+/);
    const keyword = parts[0]!;
    if (keyword === '' || keyword === 'comment' || keyword === 'obj_info') continue;
    if (keyword === 'format') {
      if (format !== '') throw fail('a second format line');
      if (elements.length > 0) throw fail('the format line must come before the elements');
      if (parts.length !== 3 || !PLY_FORMATS.has(parts[1]!))
        throw fail('the format must be ascii, binary_little_endian or binary_big_endian, then 1.0');
      if (parts[2] !== '1.0') throw fail(`PLY version '${parts[2]}' is not 1.0`);
      format = parts[1]!;
    } else if (keyword === 'element') {
      if (format === '') throw fail('an element before the format line');
      if (parts.length !== 3) throw fail('an element line is "element <name> <count>"');
      const [, elementName, countText] = parts as [string, string, string];
      if (!/^\d+$/.test(countText)) throw fail(`the count '${shownLine(countText)}' is not a whole number of rows`);
      const count = Number(countText);
      if (count > PLY_MAX_ELEMENT_COUNT) {
        throw fail(`the count ${formatNumber(count)} is more than the ${formatNumber(PLY_MAX_ELEMENT_COUNT)} rows an element may have`);
      }
      if (elements.some((e) => e.name === elementName)) throw fail(`a second element '${elementName}'`);
      elements.push({ name: elementName, count, properties: [] });
    } else if (keyword === 'property') {
      const element = elements[elements.length - 1];
      if (element === undefined) throw fail('a property before any element');
      let property: PlyProperty;
      if (parts[1] === 'list') {
        if (parts.length !== 5) throw fail('a list property is "property list <count type> <item type> <name>"');
        const [, , countType, itemType, propertyName] = parts as [string, string, string, string, string];
        if (!PLY_INTEGER_TYPES.has(countType)) throw fail(`a list's count type '${shownLine(countType)}' is not a whole-number type`);
        if (!isPlyType(itemType)) throw fail(`unknown property type '${shownLine(itemType)}'`);
        property = { name: propertyName, type: itemType, list: { countType } };
      } else {
        if (parts.length !== 3) throw fail('a property line is "property <type> <name>"');
        const [, type, propertyName] = parts as [string, string, string];
        if (!isPlyType(type)) throw fail(`unknown property type '${shownLine(type)}'`);
        property = { name: propertyName, type, list: null };
      }
      if (element.properties.some((p) => p.name === property.name))
        throw fail(`a second property '${property.name}' in element '${element.name}'`);
      element.properties.push(property);
    } else {
      throw fail(`'${shownLine(keyword)}' is not a PLY header keyword`);
    }
  }
  if (format === '') throw new PlyHeaderError(lines.length + 1, 'end_header', 'the header has no format line');
  return { format, elements, headerBytes };
}

/** SH degree from the number of f_rest_* properties: 3·((d+1)²−1) of them; null when the count fits no degree. */
export function shDegreeOf(fRestCount: number): number | null {
  for (let degree = 0; degree <= 4; degree += 1) if (3 * ((degree + 1) ** 2 - 1) === fRestCount) return degree;
  return null;
}

class BoxBuilder {
  private min: [number, number, number] = [Infinity, Infinity, Infinity];
  private max: [number, number, number] = [-Infinity, -Infinity, -Infinity];
  nonFinite = 0;
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
  box(): BoundingBox | null {
    return this.min[0] === Infinity ? null : { min: [...this.min], max: [...this.max] };
  }
}

/** True on little-endian platforms (every one this runs on), where float32 data can be read in place. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Adds the centres of fixed-size records to `box`, streaming `[start, end)` once.
 * @param stride bytes a record; `offsets` the byte offsets of x, y, z in a record
 * @param float32 true when x, y and z are little-endian float32 (read through a Float32Array,
 *   several times faster than a DataView), else `readers` read them
 */
async function scanCentres(
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

/** The warning about Gaussians whose centre is not a finite number ('3 Gaussians have a position…'). */
function nonFiniteWarning(count: number): string {
  return `${formatNumber(count)} Gaussians have a position that is not a finite number.`;
}

function refusedSplat(source: ByteSource, format: 'ply' | 'splat', problem: string): SplatCheck {
  return {
    ...refusedFacts(source, problem),
    format,
    encoding: null,
    gaussians: 0,
    shDegree: 0,
    boundingBox: null,
  };
}

/** Reads a scalar of a PLY type from a little-endian view. */
function reader(type: string): ((view: DataView, at: number) => number) | null {
  switch (type) {
    case 'float':
    case 'float32':
      return (v, at) => v.getFloat32(at, true);
    case 'double':
    case 'float64':
      return (v, at) => v.getFloat64(at, true);
    case 'char':
    case 'int8':
      return (v, at) => v.getInt8(at);
    case 'uchar':
    case 'uint8':
      return (v, at) => v.getUint8(at);
    case 'short':
    case 'int16':
      return (v, at) => v.getInt16(at, true);
    case 'ushort':
    case 'uint16':
      return (v, at) => v.getUint16(at, true);
    case 'int':
    case 'int32':
      return (v, at) => v.getInt32(at, true);
    case 'uint':
    case 'uint32':
      return (v, at) => v.getUint32(at, true);
    default:
      return null;
  }
}

/**
 * Checks a 3DGS training `.ply` and reads its facts, streaming the vertex data once.
 * @param source the file (its name is used in messages)
 * @returns the check: verdict 'refused' with the problem in the user's terms (a Git LFS
 *   pointer, not a PLY, big-endian, no vertices, missing 3DGS properties, truncated, non-numeric
 *   ASCII data); else the Gaussians, SH degree, encoding and bounding box, with warnings (bytes
 *   after the data, non-finite centres, an f_rest count that fits no SH degree)
 * @throws only when the source cannot be read
 */
export async function checkPly(source: ByteSource, options: SplatCheckOptions = {}): Promise<SplatCheck> {
  const { name, size } = source;
  if (size === 0) return refusedSplat(source, 'ply', contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, PLY_HEADER_MAX_BYTES));
  if (isLfsPointer(head)) return refusedSplat(source, 'ply', lfsPointerMessage(name, size, 'splat'));
  let header: PlyHeader | null;
  try {
    header = parsePlyHeader(head);
  } catch (error) {
    if (!(error instanceof PlyHeaderError)) throw error;
    return refusedSplat(source, 'ply', contentMessage(name, `has an invalid PLY header: ${error.message}`));
  }
  if (header === null) {
    if (/^ply\r?\n/.test(asciiOf(head, 5))) {
      return refusedSplat(source, 'ply', contentMessage(name, "is not a complete PLY file: its header has no 'end_header' line"));
    }
    const { phrase } = await describeContent(head.subarray(0, SNIFF_BYTES));
    return refusedSplat(
      source,
      'ply',
      contentMessage(name, phrase ? `is ${phrase}, not a PLY file` : "is not a PLY file: it does not start with a 'ply' header"),
    );
  }
  if (header.format !== 'binary_little_endian' && header.format !== 'ascii') {
    return refusedSplat(
      source,
      'ply',
      contentMessage(name, `is a PLY in '${header.format || 'no'}' format: only binary_little_endian and ascii PLY files can be viewed`),
    );
  }
  const vertexIndex = header.elements.findIndex((e) => e.name === 'vertex');
  const vertex = header.elements[vertexIndex];
  if (vertex === undefined || !Number.isInteger(vertex.count) || vertex.count <= 0) {
    return refusedSplat(source, 'ply', contentMessage(name, 'is a PLY without vertices: its header declares no Gaussians'));
  }
  const names = new Set(vertex.properties.map((p) => p.name));
  const missing = GAUSSIAN_PROPERTIES.filter((p) => !names.has(p));
  if (missing.length > 0) {
    return refusedSplat(
      source,
      'ply',
      contentMessage(
        name,
        `is not a Gaussian splat: its vertices lack the 3DGS ${missing.length === 1 ? 'property' : 'properties'} ${missing.join(', ')}${names.has('x') ? ' (a plain point cloud?)' : ''}`,
      ),
    );
  }
  const warnings: string[] = [];
  const fRest = vertex.properties.filter((p) => /^f_rest_\d+$/.test(p.name)).length;
  const degree = shDegreeOf(fRest);
  if (degree === null) warnings.push(`${fRest} f_rest properties fit no spherical-harmonics degree; read as degree 0.`);
  const shDegree = degree ?? 0;
  const count = vertex.count;
  const box = new BoxBuilder();
  const encoding = header.format;

  if (encoding === 'binary_little_endian') {
    const bad = vertex.properties.find((p) => p.list !== null || PLY_TYPE_BYTES[p.type] === undefined);
    if (bad)
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `has a vertex property '${bad.name}' of type '${bad.type}' a splat cannot have`),
      );
    const stride = vertex.properties.reduce((n, p) => n + PLY_TYPE_BYTES[p.type]!, 0);
    let start = header.headerBytes;
    for (const element of header.elements.slice(0, vertexIndex)) {
      if (element.properties.some((p) => p.list !== null || PLY_TYPE_BYTES[p.type] === undefined)) {
        return refusedSplat(
          source,
          'ply',
          contentMessage(name, `has a '${element.name}' element before its vertices that a splat viewer cannot skip`),
        );
      }
      start += element.count * element.properties.reduce((n, p) => n + PLY_TYPE_BYTES[p.type]!, 0);
    }
    const end = start + count * stride;
    if (size < end) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(
          name,
          `is truncated: its header declares ${formatNumber(count)} Gaussians (${formatNumber(end)} bytes) but the file has ${formatNumber(size)} bytes`,
        ),
      );
    }
    const fixedAfter = header.elements
      .slice(vertexIndex + 1)
      .every((e) => e.properties.every((p) => p.list === null && PLY_TYPE_BYTES[p.type] !== undefined));
    if (fixedAfter) {
      const expected =
        end +
        header.elements
          .slice(vertexIndex + 1)
          .reduce((n, e) => n + e.count * e.properties.reduce((m, p) => m + PLY_TYPE_BYTES[p.type]!, 0), 0);
      if (size < expected) {
        return refusedSplat(source, 'ply', contentMessage(name, `is truncated: it ends ${formatNumber(expected - size)} bytes early`));
      }
      if (size > expected) warnings.push(`${formatNumber(size - expected)} bytes after the data the header declares (ignored).`);
    }
    const offsets: number[] = [];
    for (const axis of ['x', 'y', 'z']) {
      let at = 0;
      for (const p of vertex.properties) {
        if (p.name === axis) break;
        at += PLY_TYPE_BYTES[p.type]!;
      }
      offsets.push(at);
    }
    const types = ['x', 'y', 'z'].map((axis) => vertex.properties.find((p) => p.name === axis)!.type);
    const readers = types.map((type) => reader(type)!);
    const float32 = types.every((type) => type === 'float' || type === 'float32');
    if (options.scanData !== false) await scanCentres(source, start, end, stride, offsets, float32, readers, box);
  } else {
    const columns = vertex.properties.length;
    const ix = ['x', 'y', 'z'].map((axis) => vertex.properties.findIndex((p) => p.name === axis));
    // Each row of an ASCII element is one line: the rows of the elements before the vertices are skipped.
    let skip = header.elements.slice(0, vertexIndex).reduce((n, e) => n + (e.properties.length > 0 ? e.count : 0), 0);
    let carry = '';
    let rows = 0;
    let badRow: number | null = null;
    const decoder = new TextDecoder();
    const takeLine = (line: string): void => {
      if (rows >= count || badRow !== null) return;
      const trimmedLine = line.trim();
      if (trimmedLine === '') return;
      if (skip > 0) {
        skip -= 1;
        return;
      }
      const values = trimmedLine.split(/\s+/);
      const numbers = ix.map((i) => Number(values[i]));
      if (values.length < columns || numbers.some((v) => Number.isNaN(v))) {
        badRow = rows + 1;
        return;
      }
      box.add(numbers[0]!, numbers[1]!, numbers[2]!);
      rows += 1;
    };
    for await (const { bytes } of readChunks(source, header.headerBytes)) {
      const text = carry + decoder.decode(bytes, { stream: true });
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) takeLine(line);
      if (rows >= count || badRow !== null) break;
    }
    takeLine(carry + decoder.decode());
    if (badRow !== null) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `is not a valid ASCII PLY: vertex ${badRow} does not have ${columns} numbers`),
      );
    }
    if (rows < count) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `is truncated: its header declares ${formatNumber(count)} Gaussians but the file has ${formatNumber(rows)}`),
      );
    }
  }
  if (box.nonFinite > 0) warnings.push(nonFiniteWarning(box.nonFinite));
  return {
    ...acceptedFacts(source, warnings),
    format: 'ply',
    encoding,
    gaussians: count,
    shDegree,
    boundingBox: box.box(),
  };
}

/** Content a `.splat` never starts with (long signatures or text), refused by name. */
const UNMISTAKABLE = new Set([
  'text/html',
  'application/xml',
  'application/x-ply',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'model/gltf-binary',
  'application/pdf',
  'application/zip',
  'application/gzip',
]);

/**
 * Checks a compact `.splat` file (32 bytes a Gaussian: position as 3 float32, scale, colour,
 * rotation) and reads its facts.
 * @param source the file
 * @returns verdict 'refused' when it is empty, a Git LFS pointer, or not a multiple of 32 bytes;
 *   else the Gaussians (size / 32), SH degree 0 and the bounding box of the centres
 * @throws only when the source cannot be read
 */
export async function checkSplatFile(source: ByteSource, options: SplatCheckOptions = {}): Promise<SplatCheck> {
  const { name, size } = source;
  if (size === 0) return refusedSplat(source, 'splat', contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, SNIFF_BYTES));
  if (isLfsPointer(head)) return refusedSplat(source, 'splat', lfsPointerMessage(name, size, 'splat'));
  // Raw float records can start with any bytes: only signatures no splat starts with count.
  const sniffed = await describeContent(head);
  if (sniffed.phrase !== null && sniffed.mime !== null && UNMISTAKABLE.has(sniffed.mime)) {
    return refusedSplat(source, 'splat', contentMessage(name, `is ${sniffed.phrase}, not a .splat file`));
  }
  if (size % SPLAT_RECORD_BYTES !== 0) {
    return refusedSplat(
      source,
      'splat',
      contentMessage(
        name,
        `is truncated or not a .splat file: its size (${formatNumber(size)} bytes) is not a multiple of ${SPLAT_RECORD_BYTES} bytes`,
      ),
    );
  }
  const box = new BoxBuilder();
  if (options.scanData !== false) {
    const float = (view: DataView, at: number): number => view.getFloat32(at, true);
    await scanCentres(source, 0, size, SPLAT_RECORD_BYTES, [0, 4, 8], true, [float, float, float], box);
  }
  return {
    ...acceptedFacts(source, box.nonFinite > 0 ? [nonFiniteWarning(box.nonFinite)] : []),
    format: 'splat',
    encoding: null,
    gaussians: size / SPLAT_RECORD_BYTES,
    shDegree: 0,
    boundingBox: box.box(),
  };
}
