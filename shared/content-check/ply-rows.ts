/**
 * Reading the vertex rows of a binary little-endian PLY: which DataView method reads each PLY
 * scalar type, and where the vertex rows and each of their properties sit in the file (from the
 * parsed header). The content checks, the web-sized copy's worker and the change map's capture
 * reader all read rows this way.
 */
import { PLY_TYPE_BYTES, type PlyHeader } from './ply-header.js';

/** A DataView method that reads one number. */
export type DataViewGetter = 'getInt8' | 'getUint8' | 'getInt16' | 'getUint16' | 'getInt32' | 'getUint32' | 'getFloat32' | 'getFloat64';

/**
 * The DataView method that reads each PLY scalar type (both of the format's spellings, e.g.
 * `uchar` and `uint8`). Plain strings, so a worker thread can be handed them.
 */
export const PLY_DATAVIEW_GETTERS: Readonly<Record<string, DataViewGetter>> = {
  char: 'getInt8',
  int8: 'getInt8',
  uchar: 'getUint8',
  uint8: 'getUint8',
  short: 'getInt16',
  int16: 'getInt16',
  ushort: 'getUint16',
  uint16: 'getUint16',
  int: 'getInt32',
  int32: 'getInt32',
  uint: 'getUint32',
  uint32: 'getUint32',
  float: 'getFloat32',
  float32: 'getFloat32',
  double: 'getFloat64',
  float64: 'getFloat64',
};

/** One little-endian reader per DataView method (separate functions, so each call site stays monomorphic). */
const READERS: Readonly<Record<DataViewGetter, (view: DataView, at: number) => number>> = {
  getInt8: (v, at) => v.getInt8(at),
  getUint8: (v, at) => v.getUint8(at),
  getInt16: (v, at) => v.getInt16(at, true),
  getUint16: (v, at) => v.getUint16(at, true),
  getInt32: (v, at) => v.getInt32(at, true),
  getUint32: (v, at) => v.getUint32(at, true),
  getFloat32: (v, at) => v.getFloat32(at, true),
  getFloat64: (v, at) => v.getFloat64(at, true),
};

/**
 * The reader of one PLY scalar type from a little-endian DataView.
 * @param type a PLY scalar type name (`float`, `uchar`, `int16`, …)
 * @returns `(view, byteOffset) => number`, or null for a name that is not a PLY scalar type
 */
export function plyScalarReader(type: string): ((view: DataView, at: number) => number) | null {
  const getter = Object.hasOwn(PLY_DATAVIEW_GETTERS, type) ? PLY_DATAVIEW_GETTERS[type] : undefined;
  return getter === undefined ? null : READERS[getter];
}

/** Where one property sits in a vertex row: its byte offset in the row and its PLY scalar type. */
export interface PlyField {
  offset: number;
  type: string;
}

/** Where a binary PLY's vertex rows are and how one is laid out. */
export interface PlyVertexLayout {
  /** Vertex rows (the header's count). */
  count: number;
  /** Byte offset of the first vertex row in the file. */
  start: number;
  /** Bytes per vertex row. */
  stride: number;
  /** Every vertex property by name. */
  fields: Map<string, PlyField>;
}

/** Why a PLY's vertex rows cannot be read row by row; each caller words it for its reader. */
export type PlyVertexLayoutProblem =
  | { problem: 'no-vertices' }
  | { problem: 'list-properties' }
  /** The file has `bytes`; its header declares rows up to `expectedBytes`. */
  | { problem: 'short'; bytes: number; expectedBytes: number };

/**
 * The layout of a binary PLY's vertex rows, from its parsed header: the rows start after the
 * header and after the rows of every element declared before the vertices, which must all have
 * fixed-size rows (no list properties, known scalar types), as the vertices themselves must.
 * The file must be at least as long as its header says the vertices end.
 * @param header the parsed header (`parsePlyHeader`); its format is not checked here
 * @param fileBytes the file's size in bytes
 * @returns the layout, or the problem: no vertex element or zero vertices, a list property (or an
 *   unknown type) in or before the vertices, a file shorter than the vertex rows' end
 */
export function plyVertexLayout(header: PlyHeader, fileBytes: number): PlyVertexLayout | PlyVertexLayoutProblem {
  const vertexIndex = header.elements.findIndex((e) => e.name === 'vertex');
  const vertex = header.elements[vertexIndex];
  if (vertex === undefined || vertex.count === 0) return { problem: 'no-vertices' };
  const upToVertices = header.elements.slice(0, vertexIndex + 1);
  const fixedSize = upToVertices.every((e) => e.properties.every((p) => p.list === null && Object.hasOwn(PLY_TYPE_BYTES, p.type)));
  if (!fixedSize) return { problem: 'list-properties' };
  const rowBytes = (e: (typeof upToVertices)[number]) => e.properties.reduce((n, p) => n + PLY_TYPE_BYTES[p.type]!, 0);
  const start = header.headerBytes + upToVertices.slice(0, -1).reduce((n, e) => n + e.count * rowBytes(e), 0);
  const stride = rowBytes(vertex);
  const expectedBytes = start + vertex.count * stride;
  if (fileBytes < expectedBytes) return { problem: 'short', bytes: fileBytes, expectedBytes };
  const fields = new Map<string, PlyField>();
  let offset = 0;
  for (const p of vertex.properties) {
    fields.set(p.name, { offset, type: p.type });
    offset += PLY_TYPE_BYTES[p.type]!;
  }
  return { count: vertex.count, start, stride, fields };
}
