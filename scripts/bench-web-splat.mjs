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
import { copyFile, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // the CLI's TypeScript sources and their @shared/… paths
const { compressSplatFile } = await import(pathToFileURL(join(root, 'cli/src/lib/web-splat.ts')).href);
// the tests' generator of plausible 3DGS PLY files, seeded, so every run compresses the same file
const { writeGaussianPlyFile } = await import(pathToFileURL(join(root, 'tests/support/model-fixtures.ts')).href);

const GAUSSIANS = Number(process.env.BENCH_GAUSSIANS || 1_000_000);
const SH_DEGREE = Math.min(3, Math.max(0, Number(process.env.BENCH_SH ?? 3)));
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 1));
const MB = 1024 * 1024;
const log = (line) => process.stderr.write(`${line}\n`);

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
    const bytes = await writeGaussianPlyFile(ply, GAUSSIANS, SH_DEGREE);
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
