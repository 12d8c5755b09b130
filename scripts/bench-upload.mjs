#!/usr/bin/env node
// Upload benchmark, `npm run bench:upload`:
// builds a test folder (one ~1 GB splat plus 500 photos) in a temporary folder, times `cp -r` of
// it on the same disk, starts `catalog serve` on loopback, uploads it with
// `catalog models upload-many` and prints, from the same run: throughput as a ratio to `cp -r`,
// the CLI's peak RSS, the bytes a re-run sends, and the bytes re-sent when an upload killed
// with SIGKILL in the middle of the large file is resumed.
// Throughput and RSS are the medians of BENCH_RUNS rounds; each round times `cp -r` and then a
// fresh upload of the same folder (the model deleted in between), both until `sync` returns, so
// both are measured under the same disk and machine load. The server's CPU time per round is
// printed too (from /proc), to show where the time goes.
// The files pass the content checks: the splat is a valid compact `.splat` (32-byte
// records with finite positions) and the photos are real JPEGs (noise, so they do not shrink).
// A `.splat` gets no web-sized copy; for a training `.ply` the server also compresses it after
// the upload, measured on its own by `npm run bench:web-splat`.
// Options (env): BENCH_SPLAT_MB (default 1024), BENCH_PHOTOS (500), BENCH_PHOTO_KB (200),
// BENCH_RUNS (3), BENCH_DIR (default: a new folder in the OS temp folder; removed at the end),
// BENCH_SERVER_NODE_ARGS (Node options for the server, e.g. '--cpu-prof --cpu-prof-dir=DIR').
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // the test fixtures' TypeScript and their @shared/… paths
// the same .splat records and noise photos as the CLI tests (tests/support/model-fixtures.ts)
const { fillSplatBlock, noisyJpeg } = await import(pathToFileURL(join(root, 'tests/support/model-fixtures.ts')).href);
const cli = join(root, 'cli/bin/catalog.js');
const SPLAT_MB = Number(process.env.BENCH_SPLAT_MB || 1024);
const PHOTOS = Number(process.env.BENCH_PHOTOS || 500);
const PHOTO_KB = Number(process.env.BENCH_PHOTO_KB || 200);
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || 3));
const work = process.env.BENCH_DIR || mkdtempSync(join(tmpdir(), 'catalog-bench-'));
const dataDir = join(work, 'data');
const batch = join(work, 'campaign');
const MB = 1024 * 1024;

const log = (line) => process.stderr.write(`${line}\n`);
const fmt = (bytes) => `${(bytes / MB).toFixed(1)} MiB`;

async function buildFolder() {
  const model = join(batch, 'tower');
  mkdirSync(join(model, 'images'), { recursive: true });
  const size = SPLAT_MB * MB;
  const fd = openSync(join(model, 'model.splat'), 'w');
  // 32-byte records: position (3 float), scale (3 float), RGBA, rotation (4 bytes)
  const block = Buffer.alloc(8 * MB);
  for (let i = 0; i < size / block.length; i++) {
    fillSplatBlock(block, i);
    writeSync(fd, block);
  }
  closeSync(fd);
  // 16 distinct photos, cycled
  const photos = await Promise.all(Array.from({ length: 16 }, (_, i) => noisyJpeg(PHOTO_KB * 1024, i)));
  let photoBytes = 0;
  for (let i = 0; i < PHOTOS; i++) {
    const photo = photos[i % photos.length];
    writeFileSync(join(model, 'images', `IMG_${String(i).padStart(4, '0')}.jpg`), photo);
    photoBytes += photo.length;
  }
  writeFileSync(join(model, 'model.json'), JSON.stringify({ publicId: 'BENCH-001', name: 'Benchmark tower', type: 'splat' }));
  return size + photoBytes;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

let clockTicks;
/** CPU seconds (user + system) a process has used so far, from /proc (NaN where there is no /proc). */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    return (Number(fields[11]) + Number(fields[12])) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

/** `cp -r` of the folder until `sync` returns, in seconds. */
function timeCp() {
  execFileSync('sync');
  const start = process.hrtime.bigint();
  execFileSync('cp', ['-r', batch, join(work, 'cp-copy')]);
  execFileSync('sync');
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  rmSync(join(work, 'cp-copy'), { recursive: true, force: true });
  execFileSync('sync');
  return seconds;
}

/** Runs the CLI under /usr/bin/time; resolves with its JSON output, wall seconds and peak RSS (KiB). */
function runCli(args, { killAtPercent } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    // The bin itself, as users run `catalog` (its shebang carries the CLI's Node options).
    const child = spawn('/usr/bin/time', ['-f', 'PEAK_RSS_KB=%M CPU_USER=%U CPU_SYS=%S', cli, ...args], {
      cwd: root,
      env: { ...process.env, CATALOG_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      if (killAtPercent !== undefined) {
        const m = /\] splat .*\((\d+)%\)/g;
        let hit;
        for (let r = m.exec(stderr); r !== null; r = m.exec(stderr)) if (Number(r[1]) >= killAtPercent) hit = true;
        if (hit) {
          killAtPercent = undefined;
          // the node process is the child of /usr/bin/time
          const pid = execFileSync('pgrep', ['-P', String(child.pid)])
            .toString()
            .trim()
            .split('\n')[0];
          process.kill(Number(pid), 'SIGKILL');
        }
      }
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const rss = Number(/PEAK_RSS_KB=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      const cpu = /CPU_USER=([\d.]+) CPU_SYS=([\d.]+)/.exec(stderr);
      const cpuSeconds = cpu ? Number(cpu[1]) + Number(cpu[2]) : Number.NaN;
      let json = null;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = null;
      }
      resolve({ code, seconds, rssKb: rss, cpuSeconds, json, stderr });
    });
  });
}

async function main() {
  log(`Benchmark folder: ${work}`);
  const total = await buildFolder();
  log(`Built ${fmt(total)}: ${SPLAT_MB} MiB splat + ${PHOTOS} photos of ${PHOTO_KB} KiB`);

  // BENCH_SERVER_NODE_ARGS: Node options for the server, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof' to see where its time goes.
  const serverNodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...serverNodeArgs, cli, 'serve', '--port', '0', '--data-dir', dataDir, '--no-portal', '--json'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    server.stdout.on('data', (c) => {
      out += c;
      try {
        resolve(JSON.parse(out).result.url);
      } catch {
        // wait for the whole line
      }
    });
    server.on('exit', () => reject(new Error('catalog serve exited')));
  });
  log(`catalog serve at ${url}`);
  try {
    const project = await runCli(['projects', 'create', '--name', 'Benchmark', '--structure-id', 'BENCH', '--json']);
    const projectId = project.json.result.id;

    const rounds = [];
    let first;
    for (let round = 1; round <= RUNS; round++) {
      const cpSeconds = timeCp();
      if (first) {
        const removed = await runCli(['models', 'delete', first.json.result.models[0].modelId, '--confirm', 'Benchmark tower', '--json']);
        if (removed.json?.status !== 'ok') throw new Error(`delete failed: ${removed.stderr}`);
      }
      execFileSync('sync');
      const serverCpuBefore = cpuSecondsOf(server.pid);
      first = await runCli(['models', 'upload-many', batch, '--project', projectId, '--concurrency', '2', '--json']);
      // Like the cp figure, the upload counts until its bytes are on disk.
      const syncStart = process.hrtime.bigint();
      execFileSync('sync');
      first.seconds += Number(process.hrtime.bigint() - syncStart) / 1e9;
      if (first.json?.status !== 'ok') throw new Error(`upload failed: ${first.stderr}`);
      const serverCpuSeconds = cpuSecondsOf(server.pid) - serverCpuBefore;
      rounds.push({ cpSeconds, uploadSeconds: first.seconds, rssKb: first.rssKb, cliCpuSeconds: first.cpuSeconds, serverCpuSeconds });
      log(
        `round ${round}: cp ${cpSeconds.toFixed(2)} s, upload ${first.seconds.toFixed(2)} s (${(cpSeconds / first.seconds).toFixed(3)} x cp), ` +
          `peak RSS ${(first.rssKb / 1024).toFixed(1)} MiB, CPU: CLI ${first.cpuSeconds.toFixed(2)} s, server ${serverCpuSeconds.toFixed(2)} s`,
      );
    }
    const cpSeconds = median(rounds.map((r) => r.cpSeconds));
    const again = await runCli(['models', 'upload-many', batch, '--project', projectId, '--json']);
    const modelId = first.json.result.models[0].modelId;
    const deleted = await runCli(['models', 'delete', modelId, '--confirm', 'Benchmark tower', '--json']);
    if (deleted.json?.status !== 'ok') throw new Error(`delete failed: ${deleted.stderr}`);
    const killed = await runCli(['models', 'upload-many', batch, '--project', projectId], { killAtPercent: 50 });
    const resumed = await runCli(['models', 'upload-many', batch, '--project', projectId, '--json']);
    const r = resumed.json?.result ?? {};
    const expectedRest = total - (r.bytesResumed ?? 0) - (r.bytesSkipped ?? 0);

    const uploadSeconds = median(rounds.map((r) => r.uploadSeconds));
    const uploadRate = total / uploadSeconds;
    const cpRate = total / cpSeconds;
    const figures = {
      totalBytes: total,
      rounds: RUNS,
      cpSeconds: Number(cpSeconds.toFixed(2)),
      cpMiBps: Number((cpRate / MB).toFixed(1)),
      uploadSeconds: Number(uploadSeconds.toFixed(2)),
      uploadMiBps: Number((uploadRate / MB).toFixed(1)),
      throughputRatioToCp: Number((uploadRate / cpRate).toFixed(3)),
      peakRssMiB: Number((Math.max(...rounds.map((r) => r.rssKb)) / 1024).toFixed(1)),
      uploadCliCpuSeconds: Number(median(rounds.map((r) => r.cliCpuSeconds)).toFixed(2)),
      uploadServerCpuSeconds: Number(median(rounds.map((r) => r.serverCpuSeconds)).toFixed(2)),
      perRound: rounds.map((r) => ({
        cpSeconds: Number(r.cpSeconds.toFixed(2)),
        uploadSeconds: Number(r.uploadSeconds.toFixed(2)),
        ratio: Number((r.cpSeconds / r.uploadSeconds).toFixed(3)),
        peakRssMiB: Number((r.rssKb / 1024).toFixed(1)),
      })),
      rerunBytesSent: again.json?.result?.bytesSent ?? null,
      rerunRecordsCreated: again.json?.result?.counts?.created ?? null,
      killedExitSignal: killed.code === null ? 'SIGKILL' : killed.code,
      resumeBytesResumedPast: r.bytesResumed ?? null,
      resumeBytesSent: r.bytesSent ?? null,
      resumeBytesReSent: r.bytesSent === undefined ? null : r.bytesSent - expectedRest,
      resumeRecordsCreated: r.counts?.created ?? null,
      resumePeakRssMiB: Number((resumed.rssKb / 1024).toFixed(1)),
    };
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    log(
      `median of ${RUNS}: throughput ${figures.uploadMiBps} MiB/s vs cp ${figures.cpMiBps} MiB/s = ${figures.throughputRatioToCp} x cp (target >= 0.9); ` +
        `peak RSS ${figures.peakRssMiB} MiB (highest round; target <= 150); CPU: CLI ${figures.uploadCliCpuSeconds} s, server ${figures.uploadServerCpuSeconds} s; re-run sent ${figures.rerunBytesSent} bytes; ` +
        `resume after SIGKILL resumed past ${fmt(figures.resumeBytesResumedPast ?? 0)}, re-sent ${figures.resumeBytesReSent} bytes`,
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.on('exit', resolve));
    if (!process.env.BENCH_DIR) rmSync(work, { recursive: true, force: true });
  }
}

await main();
