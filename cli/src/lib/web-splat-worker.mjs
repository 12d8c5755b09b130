// Worker thread of cli/src/lib/web-splat.ts: reads a splat (a 3DGS PLY of any SH degree, or a
// .splat) in fixed-size blocks into the per-attribute arrays of a Gaussian cloud and writes the
// web-sized copy with Niantic's SPZ library (@adobe/spz: the format's reference implementation,
// compiled to WebAssembly), then posts the byte count.
// Plain JavaScript so it runs the same from the TypeScript sources and from the CLI bundle; the
// main thread parses the header and hands over the layout (where each property sits in a record).
import { open, writeFile } from 'node:fs/promises';
import { parentPort, workerData } from 'node:worker_threads';
import createSpzModule from '@adobe/spz';

/** Records read per block: the file is never in memory whole. */
const BLOCK_RECORDS = 16_384;
/** Zeroth-order spherical-harmonics constant: a .splat colour c in [0, 1] is 0.5 + SH_C0 · f_dc. */
const SH_C0 = 0.28209479177387814;

/** DataView readers by PLY scalar type (little-endian). */
const READERS = {
  char: (v, at) => v.getInt8(at),
  int8: (v, at) => v.getInt8(at),
  uchar: (v, at) => v.getUint8(at),
  uint8: (v, at) => v.getUint8(at),
  short: (v, at) => v.getInt16(at, true),
  int16: (v, at) => v.getInt16(at, true),
  ushort: (v, at) => v.getUint16(at, true),
  uint16: (v, at) => v.getUint16(at, true),
  int: (v, at) => v.getInt32(at, true),
  int32: (v, at) => v.getInt32(at, true),
  uint: (v, at) => v.getUint32(at, true),
  uint32: (v, at) => v.getUint32(at, true),
  float: (v, at) => v.getFloat32(at, true),
  float32: (v, at) => v.getFloat32(at, true),
  double: (v, at) => v.getFloat64(at, true),
  float64: (v, at) => v.getFloat64(at, true),
};

/** Calls `each(view, offset, index)` for every record of the file, reading it block by block. */
async function forEachRecord(path, start, count, stride, each) {
  const file = await open(path, 'r');
  try {
    const block = Buffer.alloc(BLOCK_RECORDS * stride);
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    for (let first = 0; first < count; first += BLOCK_RECORDS) {
      const n = Math.min(BLOCK_RECORDS, count - first);
      const want = n * stride;
      let got = 0;
      while (got < want) {
        const { bytesRead } = await file.read(block, got, want - got, start + first * stride + got);
        if (bytesRead === 0) throw new Error(`the file ends after ${first + Math.floor(got / stride)} of ${count} Gaussians`);
        got += bytesRead;
      }
      for (let i = 0; i < n; i += 1) each(view, i * stride, first + i);
    }
  } finally {
    await file.close();
  }
}

/** The Gaussian cloud of a binary little-endian 3DGS PLY (the layout names each property's offset and type). */
async function readPly(path, layout) {
  const { start, count, stride, shDegree, fields, rest } = layout;
  const read = (name) => {
    const [offset, type] = fields[name];
    const get = READERS[type];
    return (view, at) => get(view, at + offset);
  };
  const x = read('x'),
    y = read('y'),
    z = read('z');
  const s0 = read('scale_0'),
    s1 = read('scale_1'),
    s2 = read('scale_2');
  const r0 = read('rot_0'),
    r1 = read('rot_1'),
    r2 = read('rot_2'),
    r3 = read('rot_3');
  const alpha = read('opacity');
  const c0 = read('f_dc_0'),
    c1 = read('f_dc_1'),
    c2 = read('f_dc_2');
  const coefficients = rest.length / 3; // per colour channel
  const restReaders = rest.map(([offset, type]) => {
    const get = READERS[type];
    return (view, at) => get(view, at + offset);
  });
  const cloud = emptyCloud(count, shDegree, coefficients);
  await forEachRecord(path, start, count, stride, (view, at, i) => {
    cloud.positions[i * 3] = x(view, at);
    cloud.positions[i * 3 + 1] = y(view, at);
    cloud.positions[i * 3 + 2] = z(view, at);
    cloud.scales[i * 3] = s0(view, at);
    cloud.scales[i * 3 + 1] = s1(view, at);
    cloud.scales[i * 3 + 2] = s2(view, at);
    // PLY stores (w, x, y, z); the cloud (x, y, z, w)
    cloud.rotations[i * 4] = r1(view, at);
    cloud.rotations[i * 4 + 1] = r2(view, at);
    cloud.rotations[i * 4 + 2] = r3(view, at);
    cloud.rotations[i * 4 + 3] = r0(view, at);
    cloud.alphas[i] = alpha(view, at);
    cloud.colors[i * 3] = c0(view, at);
    cloud.colors[i * 3 + 1] = c1(view, at);
    cloud.colors[i * 3 + 2] = c2(view, at);
    // PLY's f_rest is channel-major (all red coefficients, then green, then blue); the cloud's
    // is coefficient-major with the channels interleaved
    for (let k = 0; k < coefficients; k += 1) {
      const to = (i * coefficients + k) * 3;
      cloud.sh[to] = restReaders[k](view, at);
      cloud.sh[to + 1] = restReaders[k + coefficients](view, at);
      cloud.sh[to + 2] = restReaders[k + 2 * coefficients](view, at);
    }
  });
  return cloud;
}

/** The Gaussian cloud of a .splat: 32-byte records of centre, linear scale, RGBA and a byte quaternion (w, x, y, z). */
async function readSplat(path, layout) {
  const { count } = layout;
  const cloud = emptyCloud(count, 0, 0);
  const logit = (byte) => {
    const a = Math.min(Math.max(byte, 0.5), 254.5) / 255;
    return Math.log(a / (1 - a));
  };
  await forEachRecord(path, 0, count, 32, (view, at, i) => {
    for (let k = 0; k < 3; k += 1) {
      cloud.positions[i * 3 + k] = view.getFloat32(at + k * 4, true);
      cloud.scales[i * 3 + k] = Math.log(Math.max(view.getFloat32(at + 12 + k * 4, true), 1e-12));
      cloud.colors[i * 3 + k] = (view.getUint8(at + 24 + k) / 255 - 0.5) / SH_C0;
    }
    cloud.alphas[i] = logit(view.getUint8(at + 27));
    const q = (k) => (view.getUint8(at + 28 + k) - 128) / 128;
    cloud.rotations[i * 4] = q(1);
    cloud.rotations[i * 4 + 1] = q(2);
    cloud.rotations[i * 4 + 2] = q(3);
    cloud.rotations[i * 4 + 3] = q(0);
  });
  return cloud;
}

function emptyCloud(count, shDegree, coefficients) {
  return {
    numPoints: count,
    shDegree,
    antialiased: false,
    extensions: [],
    positions: new Float32Array(count * 3),
    scales: new Float32Array(count * 3),
    rotations: new Float32Array(count * 4),
    alphas: new Float32Array(count),
    colors: new Float32Array(count * 3),
    sh: new Float32Array(count * coefficients * 3),
  };
}

const { input, output, layout } = workerData;
try {
  const started = performance.now();
  const spz = await createSpzModule({ print: () => {}, printErr: () => {} });
  const cloud = layout.kind === 'splat' ? await readSplat(input, layout) : await readPly(input, layout);
  // SPZ version 3 (what Spark 2.2 reads; it does not read version 4). No coordinate conversion:
  // the viewer reads the copy in the original's frame, as it reads the original.
  const bytes = spz.saveSpzToBuffer(cloud, { version: 3, from: spz.CoordinateSystem.UNSPECIFIED, sh1Bits: 5, shRestBits: 4 });
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) throw new Error('the SPZ writer produced no bytes');
  await writeFile(output, bytes);
  parentPort.postMessage({ ok: true, bytes: bytes.byteLength, ms: performance.now() - started });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
