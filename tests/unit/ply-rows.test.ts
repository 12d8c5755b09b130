import { describe, expect, it } from 'vitest';
import { parsePlyHeader } from '@shared/content-check/ply-header.js';
import { PLY_DATAVIEW_GETTERS, plyScalarReader, plyVertexLayout } from '@shared/content-check/ply-rows.js';

const header = (lines: string[]) => parsePlyHeader(new TextEncoder().encode(`ply\n${lines.join('\n')}\nend_header\n`))!;

describe('PLY rows', () => {
  it('reads every PLY scalar type little-endian, under both of its names', () => {
    const view = new DataView(new ArrayBuffer(8));
    const cases: Array<[string[], (v: DataView) => void, number]> = [
      [['char', 'int8'], (v) => v.setInt8(0, -5), -5],
      [['uchar', 'uint8'], (v) => v.setUint8(0, 250), 250],
      [['short', 'int16'], (v) => v.setInt16(0, -1234, true), -1234],
      [['ushort', 'uint16'], (v) => v.setUint16(0, 60_000, true), 60_000],
      [['int', 'int32'], (v) => v.setInt32(0, -70_000, true), -70_000],
      [['uint', 'uint32'], (v) => v.setUint32(0, 4_000_000_000, true), 4_000_000_000],
      [['float', 'float32'], (v) => v.setFloat32(0, 1.5, true), 1.5],
      [['double', 'float64'], (v) => v.setFloat64(0, -2.25, true), -2.25],
    ];
    for (const [names, write, expected] of cases) {
      write(view);
      for (const name of names) {
        expect(plyScalarReader(name)!(view, 0), name).toBe(expected);
        // the getter a worker is handed reads the same
        expect(DataView.prototype[PLY_DATAVIEW_GETTERS[name]!].call(view, 0, true), name).toBe(expected);
      }
    }
    expect(plyScalarReader('half')).toBeNull();
    expect(plyScalarReader('constructor')).toBeNull();
  });

  it('lays out the vertex rows after the header and the fixed-size elements before them', () => {
    const parsed = header([
      'format binary_little_endian 1.0',
      'element extra 2',
      'property short a',
      'element vertex 3',
      'property float x',
      'property uchar red',
      'property double y',
    ]);
    const stride = 4 + 1 + 8;
    const start = parsed.headerBytes + 2 * 2;
    const layout = plyVertexLayout(parsed, start + 3 * stride);
    expect(layout).toEqual({
      count: 3,
      start,
      stride,
      fields: new Map([
        ['x', { offset: 0, type: 'float' }],
        ['red', { offset: 4, type: 'uchar' }],
        ['y', { offset: 5, type: 'double' }],
      ]),
    });
    expect(plyVertexLayout(parsed, start + 3 * stride - 1)).toEqual({
      problem: 'short',
      bytes: start + 3 * stride - 1,
      expectedBytes: start + 3 * stride,
    });
  });

  it('names what keeps rows from being read one by one: no vertices, a list property in or before them', () => {
    expect(plyVertexLayout(header(['format binary_little_endian 1.0', 'element face 1', 'property float a']), 1000)).toEqual({
      problem: 'no-vertices',
    });
    expect(plyVertexLayout(header(['format binary_little_endian 1.0', 'element vertex 0', 'property float x']), 1000)).toEqual({
      problem: 'no-vertices',
    });
    const listBefore = header([
      'format binary_little_endian 1.0',
      'element face 1',
      'property list uchar int i',
      'element vertex 1',
      'property float x',
    ]);
    expect(plyVertexLayout(listBefore, 1000)).toEqual({ problem: 'list-properties' });
    const listAfter = header([
      'format binary_little_endian 1.0',
      'element vertex 1',
      'property float x',
      'element face 1',
      'property list uchar int i',
    ]);
    expect(plyVertexLayout(listAfter, 1000)).toMatchObject({ count: 1, stride: 4 });
  });
});
