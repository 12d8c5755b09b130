#!/usr/bin/env node
// Change map benchmark, `npm run bench:changes`: one run on a generated changed pair of the demo
// tower (makeChangedPair: a capture with one brace bent 0.30 m, one antenna panel removed, a
// cabinet added, 1 cm position noise and a 0.5° + 5.4 cm misregistration), by default 1 M
// Gaussians in the reference and 1 M in the capture, written as 3DGS PLY files (and plain xyz PLY
// copies for CloudCompare) in the OS temp folder, removed at the end.
// - Ours, in a child process under /usr/bin/time (peak RSS): readCapture + confident of both
//   files, refineRegistration from the identity, computeChangeMap; the time of each step, the
//   process's wall time and peak RSS, the registration's RMS and its error against the true
//   alignment (RMS displacement of the capture's points between the two matrices).
// - CloudCompare's cloud-to-cloud distance (C2C), when `CloudCompare` is on PATH, headless: ICP of
//   the capture onto the reference (90 % overlap, as our registration keeps the closest 90 % of
//   its pairs) then C2C of the capture to the reference, and a second run of C2C of the reference
//   to the registered capture (what shows a removed part); their wall time and peak RSS, and,
//   apart, the wall time of a run that only loads both clouds and writes them as ASCII (the I/O
//   share of CloudCompare's time, which the comparison leaves in).
// Accuracy against the pair's truth (per Gaussian labels): the changed-set IoU (predicted changed
// Gaussians of both captures against the truly changed ones; ours: the capture Gaussians in a
// change region and the reference Gaussians of a removal region; C2C: the Gaussians whose distance
// exceeds a threshold, at our level of detection and at the threshold that suits C2C best), per
// change the IoU of its best-matching region (C2C makes no regions), and the median |distance|
// over the truly unchanged capture Gaussians. A region's Gaussians are the map's own: the capture
// points with its id in `regionOf`, the reference points with its id in `referenceRegionOf`.
// Prints one JSON document on stdout and the table (ours vs C2C, ratios, the target: more accurate
// on both figures and no slower) on stderr.
// Options (env): BENCH_CHANGES_GAUSSIANS (reference Gaussians, default 1000000),
// BENCH_CHANGES_CAPTURE_GAUSSIANS (default the same), BENCH_CHANGES_SEED (default 1),
// BENCH_CHANGES_CC ('off' skips CloudCompare), BENCH_CHANGES_CC_ICP (CloudCompare's ICP options,
// default '-OVERLAP 90 -RANDOM_SAMPLING_LIMIT 50000 -MIN_ERROR_DIFF 1e-6'), BENCH_CHANGES_CC_C2C
// (options after -C2C_DIST, e.g. '-MODEL LS KNN 6' for a local model; default none: plain C2C).
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { timed as timedIn } from './bench-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const self = fileURLToPath(import.meta.url);
register({ tsconfig: join(root, 'tsconfig.json') }); // the CLI's TypeScript sources and their @shared/… paths
const MiB = 1024 * 1024;
const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;
const round = (value, digits) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : null);

/**
 * The measured child: our change map of the capture PLY against the reference PLY. Writes the
 * per-point arrays into `outDir` (distances.f32 and regions.i32 per confident capture splat,
 * index.u32: which capture splat each one is; reference-regions.i32 and reference-index.u32 the
 * same for the reference's confident splats) and the figures as JSON on stdout.
 */
async function ours(capturePath, referencePath, outDir) {
  const { readCapture, confident } = await import(pathToFileURL(join(root, 'cli/src/lib/change-map/read-capture.ts')).href);
  const { refineRegistration, computeChangeMap } = await import(pathToFileURL(join(root, 'shared/change-map/index.ts')).href);
  const start = process.hrtime.bigint();
  const capture = confident(await readCapture(capturePath));
  const reference = confident(await readCapture(referencePath));
  const read = seconds(start);
  const registered = process.hrtime.bigint();
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const registration = refineRegistration(capture, reference, identity);
  const registrationSeconds = seconds(registered);
  const mapped = process.hrtime.bigint();
  // as `catalog models changes` measures a capture without camera metadata: splats are y-down, so up is −y
  const map = computeChangeMap(capture, reference, registration.matrix, { up: [0, -1, 0] });
  const changeMapSeconds = seconds(mapped);
  const total = seconds(start);
  const bytes = (a) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  writeFileSync(join(outDir, 'distances.f32'), bytes(map.distances));
  writeFileSync(join(outDir, 'regions.i32'), bytes(map.regionOf));
  writeFileSync(join(outDir, 'index.u32'), bytes(capture.index));
  writeFileSync(join(outDir, 'reference-regions.i32'), bytes(map.referenceRegionOf));
  writeFileSync(join(outDir, 'reference-index.u32'), bytes(reference.index));
  process.stdout.write(
    JSON.stringify({
      confident: { capture: capture.count, reference: reference.count },
      seconds: { read, registration: registrationSeconds, changeMap: changeMapSeconds, total },
      registration: {
        matrix: registration.matrix,
        rmsError: registration.rmsError,
        iterations: registration.iterations,
        pairs: registration.pairs,
      },
      levelOfDetection: map.levelOfDetection,
      rmsError: map.rmsError,
      regions: map.regions,
    }),
  );
}

/** {@link timedIn} in the repository's root. */
const timed = (command, args, env = {}) => timedIn(command, args, { cwd: root, env });

/** The path of an executable `name` on PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this folder
    }
  }
  return null;
}

/** A binary little-endian PLY of bare points (x, y, z float32): what CloudCompare reads fastest. */
function xyzPly(positions, count) {
  const header = `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\nproperty float x\nproperty float y\nproperty float z\nend_header\n`;
  return Buffer.concat([Buffer.from(header), Buffer.from(positions.buffer, positions.byteOffset, count * 12)]);
}

/** Point i of flat xyz `p` moved by the 4×4 column-major matrix `m`, into `out` at i. */
function transformInto(m, p, i, out) {
  const [x, y, z] = [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
  for (let r = 0; r < 3; r += 1) out[i * 3 + r] = m[r] * x + m[4 + r] * y + m[8 + r] * z + m[12 + r];
}

/** RMS over the points of `p` of the distance between where matrix `a` and matrix `b` (column-major) take them. */
function alignmentError(a, b, p, count) {
  let sum = 0;
  for (let i = 0; i < count; i += 1) {
    const [x, y, z] = [p[i * 3], p[i * 3 + 1], p[i * 3 + 2]];
    for (let r = 0; r < 3; r += 1) {
      const d = (a[r] - b[r]) * x + (a[4 + r] - b[4 + r]) * y + (a[8 + r] - b[8 + r]) * z + (a[12 + r] - b[12 + r]);
      sum += d * d;
    }
  }
  return Math.sqrt(sum / count);
}

/** A rigid column-major 4×4 matrix's inverse: the transposed rotation and −Rᵀt. */
function invertRigid(m) {
  const out = [m[0], m[4], m[8], 0, m[1], m[5], m[9], 0, m[2], m[6], m[10], 0, 0, 0, 0, 1];
  for (let r = 0; r < 3; r += 1) out[12 + r] = -(m[r * 4] * m[12] + m[r * 4 + 1] * m[13] + m[r * 4 + 2] * m[14]);
  return out;
}

/** CloudCompare's matrix text (4 rows of 4 numbers, row-major) as a column-major array, and back. */
const fromRows = (text) => {
  const v = text.trim().split(/\s+/).map(Number);
  if (v.length !== 16 || v.some((x) => !Number.isFinite(x))) throw new Error(`Not a 4×4 matrix: ${text}`);
  return [0, 1, 2, 3].flatMap((c) => [v[c], v[4 + c], v[8 + c], v[12 + c]]);
};
const toRows = (m) => [0, 1, 2, 3].map((r) => [m[r], m[4 + r], m[8 + r], m[12 + r]].map((x) => x.toFixed(12)).join(' ')).join('\n') + '\n';

/** The median of the finite values of `values` at the indices where `keep(i)` holds. */
function medianWhere(values, keep) {
  const kept = [];
  for (let i = 0; i < values.length; i += 1) if (keep(i) && Number.isFinite(values[i])) kept.push(Math.abs(values[i]));
  if (kept.length === 0) return Number.NaN;
  const sorted = Float64Array.from(kept).sort();
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** IoU of two flag arrays, or of sums of true positives, predictions and truths: TP / (P + T − TP). */
const iouOf = (tp, predicted, truth) => (predicted + truth - tp === 0 ? 1 : tp / (predicted + truth - tp));
function setCounts(predicted, truth) {
  let tp = 0;
  let p = 0;
  let t = 0;
  for (let i = 0; i < truth.length; i += 1) {
    if (predicted[i]) p += 1;
    if (truth[i]) t += 1;
    if (predicted[i] && truth[i]) tp += 1;
  }
  return { tp, p, t };
}

/** Our figures against the truth: per change its best region's IoU, the overall changed-set IoU (regions, and |d| > level), the median |d| unchanged. */
function scoreOurs(result, pair) {
  const { truth, captureCount, referenceCount } = pair;
  const lod = result.levelOfDetection;
  const regionOfCapture = new Int32Array(captureCount);
  for (let k = 0; k < result.index.length; k += 1) regionOfCapture[result.index[k]] = result.regionOf[k];
  const regionOfReference = new Int32Array(referenceCount);
  for (let k = 0; k < result.referenceIndex.length; k += 1) regionOfReference[result.referenceIndex[k]] = result.referenceRegionOf[k];

  // per change: the region of its side that overlaps its Gaussians best
  const changes = truth.changes.map((change) => {
    const labels = change.side === 'capture' ? truth.captureLabels : truth.referenceLabels;
    const regionOf = change.side === 'capture' ? regionOfCapture : regionOfReference;
    let best = { iou: 0, region: null };
    for (const region of result.regions.filter((r) => r.side === change.side)) {
      const c = setCounts(
        regionOf.map((r) => (r === region.id ? 1 : 0)),
        labels.map((l) => (l === change.label ? 1 : 0)),
      );
      const iou = iouOf(c.tp, c.p, c.t);
      if (iou > best.iou) best = { iou, region, scored: c.p };
    }
    return {
      label: change.label,
      kind: change.kind,
      side: change.side,
      truthCount: change.count,
      truthMaxDistance: round(change.maxDistance, 4),
      regionId: best.region?.id ?? null,
      regionCount: best.region?.count ?? 0,
      // the Gaussians scored as the region's: its points with the region's id
      scoredCount: best.scored ?? 0,
      regionMaxDistance: round(best.region?.maxDistance ?? Number.NaN, 4),
      maxDistanceError: best.region
        ? round(Math.abs(Math.abs(best.region.maxDistance) - change.maxDistance) / change.maxDistance, 3)
        : null,
      iou: round(best.iou, 3),
    };
  });
  const matched = new Set(changes.map((c) => c.regionId));
  const captureTruth = truth.captureLabels.map((l) => (l ? 1 : 0));
  const referenceTruth = truth.referenceLabels.map((l) => (l ? 1 : 0));
  const a = setCounts(
    regionOfCapture.map((r) => (r ? 1 : 0)),
    captureTruth,
  );
  const b = setCounts(
    regionOfReference.map((r) => (r ? 1 : 0)),
    referenceTruth,
  );
  // the same at the level alone: capture Gaussians with |d| > level, and the removal regions' Gaussians
  const distanceOfCapture = new Float32Array(captureCount).fill(Number.NaN);
  for (let k = 0; k < result.index.length; k += 1) distanceOfCapture[result.index[k]] = result.distances[k];
  const c = setCounts(
    distanceOfCapture.map((d) => (Math.abs(d) > lod ? 1 : 0)),
    captureTruth,
  );
  let unmeasured = 0;
  for (let i = 0; i < captureCount; i += 1) if (!Number.isFinite(distanceOfCapture[i])) unmeasured += 1;
  return {
    changes,
    regions: result.regions.length,
    regionsMatchingNoChange: result.regions
      .filter((r) => !matched.has(r.id))
      .map((r) => ({ id: r.id, side: r.side, count: r.count, maxDistance: round(r.maxDistance, 4) })),
    changedSetIoU: round(iouOf(a.tp + b.tp, a.p + b.p, a.t + b.t), 4),
    changedSetIoUAtLevel: round(iouOf(c.tp + b.tp, c.p + b.p, c.t + b.t), 4),
    medianAbsDistanceUnchanged: medianWhere(distanceOfCapture, (i) => truth.captureLabels[i] === 0),
    unmeasuredCapturePoints: unmeasured,
  };
}

/** Reads CloudCompare's ASCII export (x y z distance per line, in the order of its input): the positions and the last column. */
function readAsc(path, count) {
  const text = readFileSync(path, 'latin1');
  const positions = new Float64Array(count * 3);
  const values = new Float32Array(count);
  let n = 0;
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf('\n', at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end).trim();
    at = end + 1;
    if (line === '' || line.startsWith('//')) continue;
    if (n >= count) throw new Error(`${path} has more than ${count} points`);
    const fields = line.split(/[\s,;]+/);
    for (let k = 0; k < 3; k += 1) positions[n * 3 + k] = Number(fields[k]);
    values[n] = Number(fields[fields.length - 1]);
    n += 1;
  }
  if (n !== count) throw new Error(`${path} has ${n} points, not ${count}`);
  return { positions, values };
}

/** Checks that CloudCompare kept the input's order: its exported point i is point i of `input` moved by `matrix` (column-major). */
function checkOrder(exported, input, matrix, count, what) {
  const moved = new Float64Array(3);
  for (const i of [0, 1, count >> 1, count - 2, count - 1]) {
    const one = Float64Array.from(input.subarray(i * 3, i * 3 + 3));
    transformInto(matrix, one, 0, moved);
    const gap = Math.hypot(moved[0] - exported[i * 3], moved[1] - exported[i * 3 + 1], moved[2] - exported[i * 3 + 2]);
    if (gap > 1e-3) throw new Error(`CloudCompare's ${what} is not in the input's order (point ${i} is ${gap.toFixed(4)} away)`);
  }
}

/**
 * C2C's changed-set IoU at `threshold` and at the best threshold: every Gaussian of both captures
 * whose distance exceeds the threshold is predicted changed. The best is searched over thresholds
 * 0.5 mm apart up to 2 m (a histogram of both sides' distances).
 */
function c2cIoU(captureDistances, referenceDistances, truth, threshold) {
  const step = 0.0005;
  const bins = 4000;
  const predictedAbove = new Float64Array(bins + 2);
  const truthAbove = new Float64Array(bins + 2);
  let truthCount = 0;
  let tp = 0;
  let p = 0;
  const add = (d, changed) => {
    if (changed) truthCount += 1;
    if (!Number.isFinite(d)) return;
    if (Math.abs(d) > threshold) {
      p += 1;
      if (changed) tp += 1;
    }
    // counted for every threshold below |d|: bin k stands for threshold k × step
    const k = Math.min(bins + 1, Math.ceil(Math.abs(d) / step));
    predictedAbove[k] += 1;
    if (changed) truthAbove[k] += 1;
  };
  for (let i = 0; i < captureDistances.length; i += 1) add(captureDistances[i], truth.captureLabels[i] !== 0);
  for (let i = 0; i < referenceDistances.length; i += 1) add(referenceDistances[i], truth.referenceLabels[i] !== 0);
  // a distance in bin k (|d| ≤ k × step) exceeds every threshold (k' × step) with k' < k
  let best = { iou: 0, threshold: 0 };
  let cumP = 0;
  let cumT = 0;
  for (let k = bins + 1; k >= 1; k -= 1) {
    cumP += predictedAbove[k];
    cumT += truthAbove[k];
    const iou = iouOf(cumT, cumP, truthCount);
    if (iou > best.iou) best = { iou, threshold: (k - 1) * step };
  }
  return {
    atThreshold: { threshold: round(threshold, 4), iou: round(iouOf(tp, p, truthCount), 4) },
    best: { threshold: round(best.threshold, 4), iou: round(best.iou, 4) },
  };
}

/** CloudCompare's ICP and C2C both ways, and a load-and-write-only run; its figures against the truth. */
async function cloudCompare(cc, files, pair, levelOfDetection, work) {
  const env = { QT_QPA_PLATFORM: 'offscreen' };
  const common = ['-SILENT', '-NO_TIMESTAMP', '-AUTO_SAVE', 'OFF'];
  const icp = (process.env.BENCH_CHANGES_CC_ICP || '-OVERLAP 90 -RANDOM_SAMPLING_LIMIT 50000 -MIN_ERROR_DIFF 1e-6')
    .split(/\s+/)
    .filter(Boolean);
  const c2c = ['-C2C_DIST', ...(process.env.BENCH_CHANGES_CC_C2C ?? '').split(/\s+/).filter(Boolean)];
  // the compared cloud (the first loaded) alone, with its distances as the last column
  const saveFirst = (file) => ['-POP_CLOUDS', '-C_EXPORT_FMT', 'ASC', '-SAVE_CLOUDS', 'FILE', file];
  const captureAsc = join(work, 'capture_C2C.asc');
  const referenceAsc = join(work, 'reference_C2C.asc');
  // 1: register the capture onto the reference, then the capture's distances to the reference
  const forward = await timed(
    cc,
    [...common, '-O', files.captureXyz, '-O', files.referenceXyz, '-ICP', ...icp, ...c2c, ...saveFirst(captureAsc)],
    env,
  );
  const matrixFile = files.captureXyz.replace(/\.ply$/, '_REGISTRATION_MATRIX.txt');
  const matrix = fromRows(readFileSync(matrixFile, 'utf8'));
  const inverseFile = join(work, 'inverse.txt');
  writeFileSync(inverseFile, toRows(invertRigid(matrix)));
  // 2: the reference's distances to the registered capture (the reference moved into the capture's frame instead: the same distances)
  const backward = await timed(
    cc,
    [...common, '-O', files.referenceXyz, '-APPLY_TRANS', inverseFile, '-O', files.captureXyz, ...c2c, ...saveFirst(referenceAsc)],
    env,
  );
  // the I/O share: load both, write both as ASCII (CloudCompare takes the two names as one argument)
  const [ioA, ioB] = [join(work, 'io-a.asc'), join(work, 'io-b.asc')];
  const io = await timed(
    cc,
    [...common, '-O', files.captureXyz, '-O', files.referenceXyz, '-C_EXPORT_FMT', 'ASC', '-SAVE_CLOUDS', 'FILE', `${ioA} ${ioB}`],
    env,
  );
  rmSync(ioA, { force: true });
  rmSync(ioB, { force: true });

  for (const [run, file] of [
    [forward, captureAsc],
    [backward, referenceAsc],
  ])
    if (!existsSync(file)) throw new Error(`CloudCompare wrote no ${file}: ${run.stdout.slice(-2000)}`);
  const captureOut = readAsc(captureAsc, pair.captureCount);
  checkOrder(captureOut.positions, pair.capturePositions, matrix, pair.captureCount, 'capture');
  const referenceOut = readAsc(referenceAsc, pair.referenceCount);
  checkOrder(referenceOut.positions, pair.referencePositions, invertRigid(matrix), pair.referenceCount, 'reference');
  const ious = c2cIoU(captureOut.values, referenceOut.values, pair.truth, levelOfDetection);
  const icpRms = Number(/RMS:\s*([\d.eE+-]+)/.exec(forward.stdout)?.[1] ?? Number.NaN);
  const wall = forward.seconds + backward.seconds;
  return {
    icpOptions: icp.join(' '),
    c2cOptions: c2c.slice(1).join(' '),
    seconds: {
      wall: round(wall, 2),
      icpAndCaptureC2C: round(forward.seconds, 2),
      referenceC2C: round(backward.seconds, 2),
      loadAndWriteOnly: round(io.seconds, 2),
    },
    peakRssMiB: Math.round(Math.max(forward.rssKiB, backward.rssKiB) / 1024),
    registration: {
      matrix: matrix.map((x) => round(x, 9)),
      rmsError: round(icpRms, 5),
      alignmentErrorVsTruth: round(alignmentError(matrix, pair.truth.alignment, pair.capturePositions, pair.captureCount), 5),
    },
    changedSetIoUAtLevel: ious.atThreshold,
    bestChangedSetIoU: ious.best,
    medianAbsDistanceUnchanged: medianWhere(captureOut.values, (i) => pair.truth.captureLabels[i] === 0),
  };
}

const mm = (metres) => (Number.isFinite(metres) ? `${(metres * 1000).toFixed(1)} mm` : '—');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b !== 0 ? `${(a / b).toFixed(2)}×` : '—');

/** The comparison table, one line each. */
function table(o, c) {
  const rows = [
    ['', 'ours', c?.c2cOptions ? `CloudCompare C2C ${c.c2cOptions}` : 'CloudCompare C2C', 'ours / C2C'],
    ['time (wall, s)', o.seconds.wall.toFixed(2), c ? c.seconds.wall.toFixed(2) : '—', c ? ratio(o.seconds.wall, c.seconds.wall) : '—'],
    ['peak RSS (MiB)', String(o.peakRssMiB), c ? String(c.peakRssMiB) : '—', c ? ratio(o.peakRssMiB, c.peakRssMiB) : '—'],
    [
      'changed-set IoU',
      o.accuracy.changedSetIoU.toFixed(3),
      c ? `${c.bestChangedSetIoU.iou.toFixed(3)} (best, > ${mm(c.bestChangedSetIoU.threshold)})` : '—',
      c ? ratio(o.accuracy.changedSetIoU, c.bestChangedSetIoU.iou) : '—',
    ],
    [
      'changed-set IoU at our level',
      `${o.accuracy.changedSetIoUAtLevel.toFixed(3)} (|d| > ${mm(o.levelOfDetection)})`,
      c ? c.changedSetIoUAtLevel.iou.toFixed(3) : '—',
      c ? ratio(o.accuracy.changedSetIoUAtLevel, c.changedSetIoUAtLevel.iou) : '—',
    ],
    [
      'median |d| unchanged',
      mm(o.accuracy.medianAbsDistanceUnchanged),
      c ? mm(c.medianAbsDistanceUnchanged) : '—',
      c ? ratio(o.accuracy.medianAbsDistanceUnchanged, c.medianAbsDistanceUnchanged) : '—',
    ],
    ['registration error vs truth', mm(o.registration.alignmentErrorVsTruth), c ? mm(c.registration.alignmentErrorVsTruth) : '—', ''],
  ];
  const widths = rows[0].map((_, k) => Math.max(...rows.map((r) => r[k].length)));
  return rows.map((r) => r.map((cell, k) => cell.padEnd(widths[k])).join('  ')).join('\n');
}

async function main() {
  const referenceCount = Number(process.env.BENCH_CHANGES_GAUSSIANS || 1_000_000);
  const captureCount = Number(process.env.BENCH_CHANGES_CAPTURE_GAUSSIANS || referenceCount);
  const seed = Number(process.env.BENCH_CHANGES_SEED || 1);
  const { makeChangedPair, encodeChangedPair } = await import(pathToFileURL(join(root, 'cli/src/lib/demo-data/index.ts')).href);
  const work = mkdtempSync(join(tmpdir(), 'catalog-bench-changes-'));
  try {
    const generated = process.hrtime.bigint();
    let made = makeChangedPair({ count: referenceCount, captureCount, seed });
    const files = {
      capture: join(work, 'capture.ply'),
      reference: join(work, 'reference.ply'),
      captureXyz: join(work, 'capture-xyz.ply'),
      referenceXyz: join(work, 'reference-xyz.ply'),
    };
    let encoded = encodeChangedPair(made);
    writeFileSync(files.capture, encoded.capture);
    writeFileSync(files.reference, encoded.reference);
    writeFileSync(files.captureXyz, xyzPly(made.capture.position, made.capture.count));
    writeFileSync(files.referenceXyz, xyzPly(made.reference.position, made.reference.count));
    const pair = {
      truth: made.truth,
      captureCount: made.capture.count,
      referenceCount: made.reference.count,
      capturePositions: made.capture.position,
      referencePositions: made.reference.position,
    };
    const plyBytes = encoded.capture.length + encoded.reference.length;
    // the rest of the Gaussians' attributes and the PLY bytes go
    made = null;
    encoded = null;
    log(
      `Changed pair: ${pair.referenceCount.toLocaleString('en-US')} reference + ${pair.captureCount.toLocaleString('en-US')} capture Gaussians, ` +
        `${(plyBytes / MiB).toFixed(0)} MiB of PLY, generated in ${seconds(generated).toFixed(1)} s; truth: ` +
        pair.truth.changes.map((c) => `${c.kind} ${c.count} Gaussians (${c.side}, max ${mm(c.maxDistance)})`).join(', '),
    );

    // ours, in its own process
    const outDir = join(work, 'ours');
    mkdirSync(outDir);
    const run = await timed(process.execPath, [self, '--ours', files.capture, files.reference, outDir]);
    const figures = JSON.parse(run.stdout);
    const buffer = (name) => {
      const b = readFileSync(join(outDir, name));
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    };
    const result = {
      ...figures,
      distances: new Float32Array(buffer('distances.f32')),
      regionOf: new Int32Array(buffer('regions.i32')),
      index: new Uint32Array(buffer('index.u32')),
      referenceRegionOf: new Int32Array(buffer('reference-regions.i32')),
      referenceIndex: new Uint32Array(buffer('reference-index.u32')),
    };
    const accuracy = scoreOurs(result, pair);
    const oursFigures = {
      seconds: {
        read: round(figures.seconds.read, 2),
        registration: round(figures.seconds.registration, 2),
        changeMap: round(figures.seconds.changeMap, 2),
        total: round(figures.seconds.total, 2),
        wall: round(run.seconds, 2),
      },
      peakRssMiB: Math.round(run.rssKiB / 1024),
      confident: figures.confident,
      registration: {
        matrix: figures.registration.matrix.map((x) => round(x, 9)),
        rmsError: round(figures.registration.rmsError, 5),
        iterations: figures.registration.iterations,
        pairs: figures.registration.pairs,
        alignmentErrorVsTruth: round(
          alignmentError(figures.registration.matrix, pair.truth.alignment, pair.capturePositions, pair.captureCount),
          5,
        ),
      },
      levelOfDetection: round(figures.levelOfDetection, 5),
      regions: figures.regions,
      accuracy: { ...accuracy, medianAbsDistanceUnchanged: round(accuracy.medianAbsDistanceUnchanged, 5) },
    };
    log(
      `Ours: ${oursFigures.seconds.wall} s wall (read ${oursFigures.seconds.read} s, registration ${oursFigures.seconds.registration} s, ` +
        `change map ${oursFigures.seconds.changeMap} s, total ${oursFigures.seconds.total} s), peak ${oursFigures.peakRssMiB} MiB; ` +
        `registration RMS ${mm(figures.registration.rmsError)} after ${figures.registration.iterations} iterations ` +
        `(${mm(oursFigures.registration.alignmentErrorVsTruth)} from the true alignment); level of detection ${mm(figures.levelOfDetection)}; ` +
        `${figures.regions.length} regions`,
    );
    for (const c of accuracy.changes)
      log(
        `  ${c.kind.padEnd(8)} (${c.side}, ${c.truthCount} Gaussians): region ${c.regionId ?? '—'} (${c.regionCount} Gaussians${c.scoredCount !== c.regionCount ? `, ${c.scoredCount} scored` : ''}), IoU ${c.iou.toFixed(3)}, ` +
          `max |d| ${mm(Math.abs(c.regionMaxDistance ?? Number.NaN))} vs ${mm(c.truthMaxDistance)}`,
      );
    if (accuracy.regionsMatchingNoChange.length > 0)
      log(
        `  regions matching no change: ${accuracy.regionsMatchingNoChange.map((r) => `#${r.id} ${r.side} ${r.count} pts, max ${mm(r.maxDistance)}`).join('; ')}`,
      );

    // CloudCompare
    let cc = null;
    let ccSkipped = null;
    const ccPath = process.env.BENCH_CHANGES_CC === 'off' ? null : onPath('CloudCompare');
    if (process.env.BENCH_CHANGES_CC === 'off') ccSkipped = 'BENCH_CHANGES_CC=off';
    else if (ccPath === null) ccSkipped = 'CloudCompare is not on PATH';
    if (ccPath !== null) {
      cc = await cloudCompare(ccPath, files, pair, figures.levelOfDetection, work);
      cc.medianAbsDistanceUnchanged = round(cc.medianAbsDistanceUnchanged, 5);
      log(
        `CloudCompare C2C: ${cc.seconds.wall} s wall (ICP + capture C2C ${cc.seconds.icpAndCaptureC2C} s, ` +
          `reference C2C ${cc.seconds.referenceC2C} s; loading and writing alone ${cc.seconds.loadAndWriteOnly} s), peak ${cc.peakRssMiB} MiB; ` +
          `ICP RMS ${mm(cc.registration.rmsError)} (${mm(cc.registration.alignmentErrorVsTruth)} from the true alignment)`,
      );
    } else log(`CloudCompare C2C: skipped (${ccSkipped})`);

    const target = cc && {
      moreAccurateIoU: oursFigures.accuracy.changedSetIoU > cc.bestChangedSetIoU.iou,
      moreAccurateMedian: oursFigures.accuracy.medianAbsDistanceUnchanged < cc.medianAbsDistanceUnchanged,
      noSlower: oursFigures.seconds.wall <= cc.seconds.wall,
    };
    const document = {
      gaussians: { reference: pair.referenceCount, capture: pair.captureCount },
      seed,
      truth: {
        alignment: pair.truth.alignment,
        changes: pair.truth.changes.map((c) => ({
          label: c.label,
          kind: c.kind,
          side: c.side,
          count: c.count,
          maxDistance: round(c.maxDistance, 4),
        })),
      },
      ours: oursFigures,
      cloudCompare: cc ?? { skipped: ccSkipped },
      ratios: cc && {
        wall: round(oursFigures.seconds.wall / cc.seconds.wall, 3),
        peakRss: round(oursFigures.peakRssMiB / cc.peakRssMiB, 3),
        changedSetIoU: round(oursFigures.accuracy.changedSetIoU / cc.bestChangedSetIoU.iou, 3),
        medianAbsDistanceUnchanged: round(oursFigures.accuracy.medianAbsDistanceUnchanged / cc.medianAbsDistanceUnchanged, 3),
      },
      target: target && { ...target, met: target.moreAccurateIoU && target.moreAccurateMedian && target.noSlower },
    };
    process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
    log('');
    log(table(oursFigures, cc));
    log(
      'Target: more accurate than C2C on both figures (changed-set IoU against its best threshold, median |d| of the unchanged part) and no slower (wall).',
    );
    if (target)
      log(
        `  IoU ${target.moreAccurateIoU ? 'met' : 'NOT met'}, median ${target.moreAccurateMedian ? 'met' : 'NOT met'}, time ${target.noSlower ? 'met' : 'NOT met'}: ` +
          `target ${document.target.met ? 'MET' : 'NOT MET'}`,
      );
    else log(`  not judged: CloudCompare was skipped (${ccSkipped})`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// the child measures ours; the parent runs the bench
if (process.argv[2] === '--ours') await ours(process.argv[3], process.argv[4], process.argv[5]);
else await main();
