/**
 * The PLY header of a 3DGS training file, read before any of its data: the properties a Gaussian
 * has, the size of each PLY scalar type, the header's parser with its line-by-line rules
 * ({@link parsePlyHeader}), and the SH degree a count of f_rest_* properties gives. Pure: the
 * checks of PLY bodies (`ply.ts`) and the CLI's web-sized copies read headers through it.
 */
import { asciiOf } from './sniff.js';
import { formatNumber } from '../format.js';

/** Bytes read from the start of a PLY for its header (64 KiB: 3DGS headers are about 1.5 KiB). */
export const PLY_HEADER_MAX_BYTES = 64 * 1024;

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
