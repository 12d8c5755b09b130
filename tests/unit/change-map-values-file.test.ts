import { describe, expect, it } from 'vitest';
import { decodeChangeValues, encodeChangeValues, VALUES_HEADER_BYTES, ValuesFileMessages } from '@shared/change-map/index.js';
import { AppError, ErrorCode } from '@shared/errors.js';

/** The error a call throws. */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('the change values file', () => {
  it('round-trips distances (NaN included) and small region ids, written as 16-bit ids', () => {
    const values = {
      levelOfDetection: 0.0125,
      distances: Float32Array.from([0.5, -0.25, NaN, 0]),
      regionOf: Int32Array.from([1, 0, 0, 65535]),
    };
    const bytes = encodeChangeValues(values);
    expect(bytes.length).toBe(VALUES_HEADER_BYTES + 4 * (4 + 2));
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('CHMP');
    const back = decodeChangeValues(bytes);
    expect(back.levelOfDetection).toBeCloseTo(0.0125, 7);
    expect(Array.from(back.distances)).toEqual([0.5, -0.25, NaN, 0]);
    expect(back.regionOf).toEqual(values.regionOf);
  });

  it('writes 32-bit ids when one does not fit in 16 bits, and reads an ArrayBuffer or an offset view alike', () => {
    const values = { levelOfDetection: 1, distances: Float32Array.from([1, 2]), regionOf: Int32Array.from([70000, 3]) };
    const bytes = encodeChangeValues(values);
    expect(bytes.length).toBe(VALUES_HEADER_BYTES + 2 * (4 + 4));
    expect(decodeChangeValues(bytes.buffer as ArrayBuffer).regionOf).toEqual(values.regionOf);
    const padded = new Uint8Array(bytes.length + 3);
    padded.set(bytes, 3);
    expect(decodeChangeValues(padded.subarray(3)).regionOf).toEqual(values.regionOf);
  });

  it('is little-endian: the count and the first distance sit where the layout says', () => {
    const bytes = encodeChangeValues({ levelOfDetection: 0, distances: Float32Array.from([1]), regionOf: Int32Array.from([2]) });
    const view = new DataView(bytes.buffer);
    expect(view.getUint16(4, true)).toBe(1);
    expect(view.getUint16(6, true)).toBe(2);
    expect(view.getUint32(8, true)).toBe(1);
    expect(view.getFloat32(16, true)).toBe(1);
    expect(view.getUint16(20, true)).toBe(2);
  });

  it('refuses a file that is not one, with a clear message', () => {
    const good = encodeChangeValues({ levelOfDetection: 0, distances: Float32Array.from([1, 2]), regionOf: Int32Array.from([0, 1]) });
    const cases: [Uint8Array, string][] = [
      [good.subarray(0, 10), ValuesFileMessages.tooShort],
      [Uint8Array.from([...'PK\u0003\u0004'].map((c) => c.charCodeAt(0)).concat(new Array(20).fill(0))), ValuesFileMessages.magic],
      [patch(good, (v) => v.setUint16(4, 2, true)), ValuesFileMessages.version],
      [patch(good, (v) => v.setUint16(6, 3, true)), ValuesFileMessages.idWidth],
      [good.subarray(0, good.length - 1), ValuesFileMessages.length],
      [patch(good, (v) => v.setUint32(8, 3, true)), ValuesFileMessages.length],
    ];
    for (const [bytes, message] of cases) {
      const error = thrown(() => decodeChangeValues(bytes));
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe(ErrorCode.InvalidArgument);
      expect((error as AppError).message).toBe(message);
    }
    expect(() => encodeChangeValues({ levelOfDetection: 0, distances: new Float32Array(2), regionOf: new Int32Array(1) })).toThrow(
      ValuesFileMessages.mismatch,
    );
  });
});

/** A copy of the bytes with a header field changed. */
function patch(bytes: Uint8Array, change: (view: DataView) => void): Uint8Array {
  const copy = bytes.slice();
  change(new DataView(copy.buffer));
  return copy;
}
