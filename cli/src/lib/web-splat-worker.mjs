// Worker thread of cli/src/lib/web-splat.ts: reads a splat (a 3DGS PLY of any SH degree, or a
// .splat) and writes its web-sized copy (SPZ version 3) with Niantic's SPZ library (@adobe/spz:
// the format's reference implementation, compiled to WebAssembly), then posts the byte count.
//
// Memory stays bounded whatever the size of the capture: the Gaussians go through the library in
// parts of PART_GAUSSIANS, each read block by block from the file. SPZ quantises every Gaussian on
// its own (fixed-point positions with a fixed number of fractional bits, 8-bit alpha, colour and
// log-scale, smallest-three rotations, SH at fixed bit depths), and lays the data out by attribute
// (positions, alphas, colours, scales, rotations, SH) after a 16-byte header. So each part's
// inflated output is cut into its six attribute sections, each appended to its own temporary
// file, and the copy is the header (with the total count) and the six files, gzipped in order:
// the same bytes the library writes for the whole cloud at once (the tests compare them).
//
// Plain JavaScript so it runs the same from the TypeScript sources and from the CLI bundle; the
// main thread parses the header and hands over the layout (where each property sits in a record).
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip, gunzipSync } from 'node:zlib';
import { parentPort, workerData } from 'node:worker_threads';
import createSpzModule from '@adobe/spz';

/** Records read per block: the file is never in memory whole. */
const BLOCK_RECORDS = 16_384;
/** Gaussians compressed at a time (about 250 MB of working memory at SH degree 3). */
const PART_GAUSSIANS = 524_288;
/** SPZ's header bytes (inside the gzip stream); the Gaussian count is the uint32 at byte 8. */
const SPZ_HEADER_BYTES = 16;
/** Zeroth-order spherical-harmonics constant: a .splat colour c in [0, 1] is 0.5 + SH_C0 · f_dc. */
const SH_C0 = 0.28209479177387814;

/**
 * A little-endian reader of one property: the layout names the DataView method for its PLY type
 * (shared/content-check/ply-rows.ts), so the type table lives in one place.
 */
function fieldReader([offset, getter]) {
  const get = DataView.prototype[getter];
  return (view, at) => get.call(view, at + offset, true);
}

/**
 * Calls `each(view, offset, index)` for records `from` to `from + count − 1` of the file (index
 * counted from `from`), reading them block by block.
 */
async function forEachRecord(path, start, from, count, stride, each) {
  const file = await open(path, 'r');
  try {
    const block = Buffer.alloc(BLOCK_RECORDS * stride);
    const view = new DataView(block.buffer, block.byteOffset, block.byteLength);
    for (let first = 0; first < count; first += BLOCK_RECORDS) {
      const n = Math.min(BLOCK_RECORDS, count - first);
      const want = n * stride;
      let got = 0;
      while (got < want) {
        const { bytesRead } = await file.read(block, got, want - got, start + (from + first) * stride + got);
        if (bytesRead === 0) throw new Error(`the file ends after ${from + first + Math.floor(got / stride)} Gaussians`);
        got += bytesRead;
      }
      for (let i = 0; i < n; i += 1) each(view, i * stride, first + i);
    }
  } finally {
    await file.close();
  }
}

/** The Gaussian cloud of `count` records from `from` of a binary little-endian 3DGS PLY (the layout names each property's offset and type). */
async function readPly(path, layout, from, count) {
  const { start, stride, shDegree, fields, rest } = layout;
  const read = (name) => fieldReader(fields[name]);
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
  const restReaders = rest.map(fieldReader);
  const cloud = emptyCloud(count, shDegree, coefficients);
  await forEachRecord(path, start, from, count, stride, (view, at, i) => {
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

/** The Gaussian cloud of `count` records from `from` of a .splat: 32-byte records of centre, linear scale, RGBA and a byte quaternion (w, x, y, z). */
async function readSplat(path, from, count) {
  const cloud = emptyCloud(count, 0, 0);
  const logit = (byte) => {
    const a = Math.min(Math.max(byte, 0.5), 254.5) / 255;
    return Math.log(a / (1 - a));
  };
  await forEachRecord(path, 0, from, count, 32, (view, at, i) => {
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

/** Bytes per Gaussian of each SPZ version-3 section: positions, alphas, colours, scales, rotations, SH. */
function sectionBytes(shDegree) {
  const coefficients = (shDegree + 1) ** 2 - 1;
  return [9, 1, 3, 3, 4, 3 * coefficients];
}

/** Bins of the importance histogram a preview's threshold is read from, over [IMPORTANCE_MIN, IMPORTANCE_MAX). */
const IMPORTANCE_BINS = 4096;
const IMPORTANCE_MIN = -40;
const IMPORTANCE_MAX = 20;

/**
 * How much a Gaussian shapes a coarse view: the log of its opacity times its volume
 * (log σ(alpha) + scale₀ + scale₁ + scale₂, with log scales and an opacity logit, as stored).
 */
function importance(cloud, i) {
  const a = cloud.alphas[i];
  const logOpacity = a >= 0 ? -Math.log1p(Math.exp(-a)) : a - Math.log1p(Math.exp(a));
  return logOpacity + cloud.scales[i * 3] + cloud.scales[i * 3 + 1] + cloud.scales[i * 3 + 2];
}

function importanceBin(value) {
  const bin = Math.floor(((value - IMPORTANCE_MIN) / (IMPORTANCE_MAX - IMPORTANCE_MIN)) * IMPORTANCE_BINS);
  return Math.min(IMPORTANCE_BINS - 1, Math.max(0, Number.isFinite(bin) ? bin : 0));
}

/** Reads the Gaussians `from` … `from + n − 1` as a cloud. */
function readPart(input, layout, from, n) {
  return layout.kind === 'splat' ? readSplat(input, from, n) : readPly(input, layout, from, n);
}

/** The most a preview Gaussian is enlarged along each axis (see {@link writePreview}). */
const PREVIEW_MAX_ENLARGEMENT = 3;

/**
 * Writes the preview of a large capture: its `wanted` most important Gaussians (by
 * {@link importance}, the threshold read from `histogram`), at SH degree 0, as one SPZ. Each
 * stands in for about count / wanted Gaussians of the capture, so each is drawn larger: every
 * axis by the square root of that ratio (at most {@link PREVIEW_MAX_ENLARGEMENT}×), which keeps
 * about the area of a surface covered. Without it a preview of a capture made of many small
 * Gaussians is a sparse scatter of sub-pixel dots that a renderer's antialiasing fades to nothing.
 * @returns the preview's size in bytes and Gaussian count
 */
async function writePreview(spz, input, layout, partGaussians, histogram, wanted, output) {
  let threshold = IMPORTANCE_BINS - 1;
  for (let seen = 0; threshold > 0 && seen + histogram[threshold] < wanted; threshold -= 1) seen += histogram[threshold];
  // log scales: enlarging is adding the log of the factor
  const enlarge = Math.log(Math.min(PREVIEW_MAX_ENLARGEMENT, Math.sqrt(Math.max(1, layout.count / wanted))));
  const preview = emptyCloud(wanted, 0, 0);
  let kept = 0;
  for (let from = 0; from < layout.count && kept < wanted; from += partGaussians) {
    const n = Math.min(partGaussians, layout.count - from);
    const cloud = await readPart(input, layout, from, n);
    for (let i = 0; i < n && kept < wanted; i += 1) {
      if (importanceBin(importance(cloud, i)) < threshold) continue;
      preview.positions.set(cloud.positions.subarray(i * 3, i * 3 + 3), kept * 3);
      for (let axis = 0; axis < 3; axis += 1) preview.scales[kept * 3 + axis] = cloud.scales[i * 3 + axis] + enlarge;
      preview.rotations.set(cloud.rotations.subarray(i * 4, i * 4 + 4), kept * 4);
      preview.colors.set(cloud.colors.subarray(i * 3, i * 3 + 3), kept * 3);
      preview.alphas[kept] = cloud.alphas[i];
      kept += 1;
    }
  }
  const cut = {
    ...preview,
    numPoints: kept,
    positions: preview.positions.subarray(0, kept * 3),
    scales: preview.scales.subarray(0, kept * 3),
    rotations: preview.rotations.subarray(0, kept * 4),
    alphas: preview.alphas.subarray(0, kept),
    colors: preview.colors.subarray(0, kept * 3),
  };
  const bytes = spz.saveSpzToBuffer(cut, { version: 3, from: spz.CoordinateSystem.UNSPECIFIED, sh1Bits: 5, shRestBits: 4 });
  const handle = await open(output, 'w');
  try {
    await handle.writeFile(bytes);
  } finally {
    await handle.close();
  }
  return { bytes: bytes.byteLength, gaussians: kept };
}

/**
 * Writes the SPZ of the splat at `input` to `output`, a part at a time; with `preview`, also
 * the preview of its most important Gaussians (when the capture has more than `preview.gaussians`).
 * @returns the SPZ's size in bytes, and the preview's size and count (or null)
 */
async function writeSpz(input, output, layout, partGaussians, preview) {
  const spz = await createSpzModule({ print: () => {}, printErr: () => {} });
  const count = layout.count;
  const shDegree = layout.kind === 'splat' ? 0 : layout.shDegree;
  const sizes = sectionBytes(shDegree);
  const dir = await mkdtemp(join(tmpdir(), 'catalog-spz-'));
  try {
    const sections = sizes.map((_, k) => join(dir, `section-${k}`));
    const writers = sections.map((path) => createWriteStream(path));
    let header = null;
    const wantsPreview = preview !== null && count > preview.gaussians;
    const histogram = new Float64Array(IMPORTANCE_BINS);
    for (let from = 0; from < count; from += partGaussians) {
      const n = Math.min(partGaussians, count - from);
      const cloud = await readPart(input, layout, from, n);
      if (wantsPreview) for (let i = 0; i < n; i += 1) histogram[importanceBin(importance(cloud, i))] += 1;
      // SPZ version 3 (what Spark 2.2 reads; it does not read version 4). No coordinate
      // conversion: the viewer reads the copy in the original's frame, as it reads the original.
      const packed = spz.saveSpzToBuffer(cloud, { version: 3, from: spz.CoordinateSystem.UNSPECIFIED, sh1Bits: 5, shRestBits: 4 });
      if (!(packed instanceof Uint8Array) || packed.byteLength === 0) throw new Error('the SPZ writer produced no bytes');
      const raw = gunzipSync(packed);
      const expected = SPZ_HEADER_BYTES + n * sizes.reduce((a, b) => a + b, 0);
      if (raw.byteLength !== expected)
        throw new Error(`the SPZ writer produced ${raw.byteLength} bytes for ${n} Gaussians, not ${expected}`);
      header ??= Buffer.from(raw.subarray(0, SPZ_HEADER_BYTES));
      let at = SPZ_HEADER_BYTES;
      for (let k = 0; k < sizes.length; k += 1) {
        const length = n * sizes[k];
        if (!writers[k].write(raw.subarray(at, at + length))) await new Promise((resolve) => writers[k].once('drain', resolve));
        at += length;
      }
    }
    await Promise.all(writers.map((w) => new Promise((resolve, reject) => w.end((error) => (error ? reject(error) : resolve())))));
    header.writeUInt32LE(count, 8);
    async function* whole() {
      yield header;
      for (const path of sections) yield* createReadStream(path);
    }
    await pipeline(whole(), createGzip(), createWriteStream(output));
    const handle = await open(output, 'r');
    let bytes;
    try {
      bytes = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    const previewMade = wantsPreview
      ? await writePreview(spz, input, layout, partGaussians, histogram, preview.gaussians, preview.output)
      : null;
    return { bytes, preview: previewMade };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const { input, output, layout, partGaussians, preview } = workerData;
try {
  const started = performance.now();
  const written = await writeSpz(input, output, layout, partGaussians ?? PART_GAUSSIANS, preview ?? null);
  parentPort.postMessage({ ok: true, bytes: written.bytes, preview: written.preview, ms: performance.now() - started });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) });
}
