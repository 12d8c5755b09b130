#!/usr/bin/env node
// Web-sized splat benchmark, `npm run bench:web-splat`:
// generates a 1,000,000-Gaussian 3DGS training PLY (SH degree 3 unless BENCH_SH says otherwise)
// in the OS temp folder, makes its web-sized copy with the CLI's compressSplatFile (SPZ v3 with
// the SPZ reference library, in a worker thread; what the embedded server and `catalog doctor
// --fix` run) and prints the original and compressed bytes, the ratio, the compression time and
// the peak RSS, and, measured in the same run on the same file, the time of fs.copyFile as a
// baseline with the compression time's ratio to it. Files are removed at the end.
// Options (env): BENCH_GAUSSIANS (default 1000000), BENCH_SH (0–3, default 3), BENCH_RUNS
// (compressions, median; default 1).
import { copyFile, mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // the CLI's TypeScript sources and their @shared/… paths
const { compressSplatFile } = await import(pathToFileURL(join(root, 'cli/src/lib/web-splat.ts')).href);
// the demo data's seeded generator (mulberry32), so every run compresses the same file
const { random } = await import(pathToFileURL(join(root, 'cli/src/lib/demo-data.ts')).href);

const GAUSSIANS = Number(process.env.BENCH_GAUSSIANS || 1_000_000);
const SH_DEGREE = Math.min(3, Math.max(0, Number(process.env.BENCH_SH ?? 3)));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
const MB = 1024 * 1024;
const log = (line) => process.stderr.write(`${line}\n`);

/**
 * Writes a 3DGS PLY of `count` Gaussians at SH degree `degree` with plausible values (what
 * training writes): centres in a 40 m box around a tower-like column, log scales around −4,
 * opacity logits, unit quaternions, DC colours and small higher-order SH coefficients.
 * @returns the file's size in bytes
 */
async function writeGaussianPly(path, count, degree) {
  const rand = random(16);
  const rest = 3 * ((degree + 1) ** 2 - 1);
  const names = ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2'];
  for (let k = 0; k < rest; k++) names.push(`f_rest_${k}`);
  names.push('opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3');
  const stride = names.length * 4;
  const file = await open(path, 'w');
  try {
    const header = Buffer.from(
      `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${names.map((n) => `property float ${n}\n`).join('')}end_header\n`,
    );
    await file.write(header);
    const perBlock = 16_384;
    const block = Buffer.alloc(perBlock * stride);
    for (let done = 0; done < count; done += perBlock) {
      const n = Math.min(perBlock, count - done);
      for (let i = 0; i < n; i++) {
        const at = i * stride;
        const put = (k, v) => block.writeFloatLE(v, at + k * 4);
        const height = rand() * 40;
        const radius = 2 + 6 * (1 - height / 40) * rand();
        const angle = rand() * 2 * Math.PI;
        put(0, radius * Math.cos(angle));
        put(1, -height);
        put(2, radius * Math.sin(angle));
        for (let k = 3; k < 6; k++) put(k, 0); // normals
        for (let k = 6; k < 9; k++) put(k, (rand() - 0.5) * 2); // f_dc
        for (let k = 9; k < 9 + rest; k++) put(k, (rand() - 0.5) * 0.2); // f_rest
        put(9 + rest, (rand() - 0.3) * 6); // opacity logit
        for (let k = 10 + rest; k < 13 + rest; k++) put(k, -4 + (rand() - 0.5) * 3); // log scales
        let q = [rand() - 0.5, rand() - 0.5, rand() - 0.5, rand() - 0.5];
        const len = Math.hypot(...q) || 1;
        q = q.map((v) => v / len);
        for (let k = 0; k < 4; k++) put(13 + rest + k, q[k]);
      }
      await file.write(block, 0, n * stride);
    }
    return header.length + count * stride;
  } finally {
    await file.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

async function main() {
  const work = await mkdtemp(join(tmpdir(), 'catalog-bench-web-splat-'));
  try {
    const ply = join(work, 'point_cloud.ply');
    const generated = process.hrtime.bigint();
    const bytes = await writeGaussianPly(ply, GAUSSIANS, SH_DEGREE);
    log(
      `Generated ${GAUSSIANS.toLocaleString('en-US')} Gaussians (SH degree ${SH_DEGREE}), ${(bytes / MB).toFixed(1)} MiB in ${seconds(generated).toFixed(1)} s: ${ply}`,
    );

    const rounds = [];
    for (let round = 1; round <= RUNS; round++) {
      // baseline: copying the same file on the same disk, in the same run
      const copyStart = process.hrtime.bigint();
      await copyFile(ply, join(work, 'copy.ply'));
      const copySeconds = seconds(copyStart);
      await rm(join(work, 'copy.ply'), { force: true });

      const spz = join(work, 'model.spz');
      const start = process.hrtime.bigint();
      const result = await compressSplatFile(ply, spz, 'point_cloud.ply');
      const wallSeconds = seconds(start);
      const compressed = (await stat(spz)).size;
      await rm(spz, { force: true });
      rounds.push({ copySeconds, wallSeconds, transcodeSeconds: result.ms / 1000, compressed });
      log(
        `round ${round}: copy ${copySeconds.toFixed(2)} s, compression ${wallSeconds.toFixed(2)} s (transcode ${(result.ms / 1000).toFixed(2)} s), ` +
          `${compressed.toLocaleString('en-US')} bytes`,
      );
    }
    const compressed = rounds[0].compressed;
    const copySeconds = median(rounds.map((r) => r.copySeconds));
    const wallSeconds = median(rounds.map((r) => r.wallSeconds));
    const figures = {
      gaussians: GAUSSIANS,
      shDegree: SH_DEGREE,
      originalBytes: bytes,
      compressedBytes: compressed,
      ratio: Number((bytes / compressed).toFixed(2)),
      compressionSeconds: Number(wallSeconds.toFixed(2)),
      transcodeSeconds: Number(median(rounds.map((r) => r.transcodeSeconds)).toFixed(2)),
      baselineCopySeconds: Number(copySeconds.toFixed(2)),
      compressionToCopyRatio: Number((wallSeconds / copySeconds).toFixed(1)),
      compressionMiBps: Number((bytes / MB / wallSeconds).toFixed(1)),
      peakRssMiB: Number((process.resourceUsage().maxRSS / 1024).toFixed(0)),
      rounds: RUNS,
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    log(
      `${GAUSSIANS.toLocaleString('en-US')}-Gaussian PLY: ${bytes.toLocaleString('en-US')} bytes → SPZ ${compressed.toLocaleString('en-US')} bytes ` +
        `(${figures.ratio}× smaller) in ${figures.compressionSeconds} s (transcode ${figures.transcodeSeconds} s); ` +
        `baseline fs.copyFile of the same file ${figures.baselineCopySeconds} s → compression takes ${figures.compressionToCopyRatio}× a copy; ` +
        `peak RSS ${figures.peakRssMiB} MiB (worker included)`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

await main();
