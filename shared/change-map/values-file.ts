/**
 * The per-splat values file of a change map: a compact little-endian binary that the viewer colours
 * a capture from. Layout (offsets in bytes):
 *
 * | offset | type | field |
 * | --- | --- | --- |
 * | 0 | 4 ASCII bytes | magic `CHMP` |
 * | 4 | uint16 | version, 1 |
 * | 6 | uint16 | bytes per region id: 2 (uint16) or 4 (int32) |
 * | 8 | uint32 | count, the capture's points |
 * | 12 | float32 | level of detection, model units |
 * | 16 | float32 × count | signed distances (NaN = not measured) |
 * | 16 + 4·count | uint16 or int32 × count | region ids (0 = none) |
 *
 * The ids are written as uint16 when every one fits, else as int32; the file is exactly as long as
 * its header says.
 */
import { AppError, ErrorCode } from '../errors.js';

/** The first four bytes of a values file. */
export const VALUES_MAGIC = 'CHMP';
/** The version this code writes and reads. */
export const VALUES_VERSION = 1;
/** Bytes before the distances. */
export const VALUES_HEADER_BYTES = 16;

/** The messages of a refused values file, shown as they are. */
export const ValuesFileMessages = {
  tooShort: 'The change values file is shorter than its 16-byte header',
  magic: 'This is not a change values file (its first bytes are not CHMP)',
  version: 'The change values file has a version this catalog cannot read',
  idWidth: 'The change values file has an invalid region id width (it must be 2 or 4 bytes)',
  length: 'The change values file does not have the length its header gives (truncated or padded)',
  mismatch: 'Distances and region ids must have one value per point each',
} as const;

/** What a values file holds. */
export interface ChangeValues {
  levelOfDetection: number;
  /** Per point, signed, NaN = not measured. */
  distances: Float32Array;
  /** Per point, region id or 0. */
  regionOf: Int32Array;
}

/**
 * Encodes a change map's per-point values (see the module's comment for the layout).
 * @param values the distances, the region ids (one per point each) and the level of detection
 * @returns the file's bytes
 * @throws AppError `invalid-argument` ({@link ValuesFileMessages.mismatch}) when the two arrays differ in length
 */
export function encodeChangeValues(values: ChangeValues): Uint8Array<ArrayBuffer> {
  const count = values.distances.length;
  if (values.regionOf.length !== count) throw new AppError(ErrorCode.InvalidArgument, ValuesFileMessages.mismatch);
  let small = true;
  for (let i = 0; i < count; i += 1) {
    const id = values.regionOf[i]!;
    if (id < 0 || id > 0xffff) small = false;
  }
  const idBytes = small ? 2 : 4;
  const bytes = new Uint8Array(VALUES_HEADER_BYTES + count * (4 + idBytes));
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i += 1) bytes[i] = VALUES_MAGIC.charCodeAt(i);
  view.setUint16(4, VALUES_VERSION, true);
  view.setUint16(6, idBytes, true);
  view.setUint32(8, count, true);
  view.setFloat32(12, values.levelOfDetection, true);
  let at = VALUES_HEADER_BYTES;
  for (let i = 0; i < count; i += 1, at += 4) view.setFloat32(at, values.distances[i]!, true);
  if (small) for (let i = 0; i < count; i += 1, at += 2) view.setUint16(at, values.regionOf[i]!, true);
  else for (let i = 0; i < count; i += 1, at += 4) view.setInt32(at, values.regionOf[i]!, true);
  return bytes;
}

/**
 * Decodes a values file.
 * @param data the file's bytes
 * @returns the level of detection, the distances and the region ids (as int32 whatever the file's width)
 * @throws AppError `invalid-argument` with a {@link ValuesFileMessages} text: shorter than the
 *   header, wrong magic, another version, an id width other than 2 or 4, or a length that does not
 *   match the count
 */
export function decodeChangeValues(data: Uint8Array | ArrayBuffer): ChangeValues {
  const bytes = data instanceof Uint8Array ? data : new Uint8Array(data);
  const fail = (message: string): never => {
    throw new AppError(ErrorCode.InvalidArgument, message);
  };
  if (bytes.length < VALUES_HEADER_BYTES) fail(ValuesFileMessages.tooShort);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(bytes[0]!, bytes[1]!, bytes[2]!, bytes[3]!) !== VALUES_MAGIC) fail(ValuesFileMessages.magic);
  if (view.getUint16(4, true) !== VALUES_VERSION) fail(ValuesFileMessages.version);
  const idBytes = view.getUint16(6, true);
  if (idBytes !== 2 && idBytes !== 4) fail(ValuesFileMessages.idWidth);
  const count = view.getUint32(8, true);
  if (bytes.length !== VALUES_HEADER_BYTES + count * (4 + idBytes)) fail(ValuesFileMessages.length);
  const levelOfDetection = view.getFloat32(12, true);
  const distances = new Float32Array(count);
  const regionOf = new Int32Array(count);
  let at = VALUES_HEADER_BYTES;
  for (let i = 0; i < count; i += 1, at += 4) distances[i] = view.getFloat32(at, true);
  if (idBytes === 2) for (let i = 0; i < count; i += 1, at += 2) regionOf[i] = view.getUint16(at, true);
  else for (let i = 0; i < count; i += 1, at += 4) regionOf[i] = view.getInt32(at, true);
  return { levelOfDetection, distances, regionOf };
}
