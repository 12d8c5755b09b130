#!/usr/bin/env node
// Real-size captures, `npm run bench:large`: for generated 3DGS PLY files the size labs work with
// (by default 1 M Gaussians at SH degree 3, about 248 MB; 1 M at SH degree 0, about 68 MB; 3 M
// at SH degree 3, about 744 MB), each in a fresh data folder with its own embedded server:
// - `cp` of the file (until `sync` returns): the baseline;
// - `catalog models upload` of a folder holding it (the CLI's checks, the upload, the server's
//   checks and its web-sized copy; until `sync`): time, the CLI's peak RSS, the server's peak RSS
//   (worker threads included) and the longest event-loop delay on the server meanwhile
//   (perf_hooks.monitorEventLoopDelay, 10 ms resolution);
// - the web-sized copy on its own (compressSplatFile in a fresh process): time, bytes and peak RSS.
// And the same for a generated textured GLB of about 150 MB (by default 3 M triangles and six
// 4096² Gaussian-noise JPEG textures, the worst case for an image codec): the upload (with the
// server's web-sized GLB) and the copy on its own (compressGlbFile: textures to 2048 px WebP,
// meshopt geometry).
// Inputs are generated in the OS temp folder and removed at the end. Prints one JSON document on
// stdout and a summary line per capture on stderr.
// Options (env): BENCH_LARGE_CASES (default '1000000:3,1000000:0,3000000:3', Gaussians:SH degree;
// 'none' for no PLY), BENCH_LARGE_GLB (default '3000000:6', triangles:4096² textures; 'none' for no GLB).
// Not measured here yet: the viewer on these captures (see the README).
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { timed as timedIn } from './bench-process.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') });
const { texturedGlb, writeGaussianPlyFile } = await import(pathToFileURL(join(root, 'tests/support/model-fixtures.ts')).href);
const cli = join(root, 'cli/bin/catalog.js');
const CASES = (process.env.BENCH_LARGE_CASES || '1000000:3,1000000:0,3000000:3')
  .split(',')
  .filter((c) => c !== 'none')
  .map((c) => {
    const [gaussians, degree] = c.split(':').map(Number);
    return { gaussians, degree };
  });
const GLB = (process.env.BENCH_LARGE_GLB || '3000000:6')
  .split(',')
  .filter((c) => c !== 'none')
  .map((c) => {
    const [triangles, textures] = c.split(':').map(Number);
    return { triangles, textures };
  });
const MiB = 1024 * 1024;
const log = (line) => process.stderr.write(`${line}\n`);
const seconds = (start) => Number(process.hrtime.bigint() - start) / 1e9;

/** {@link timedIn} in the repository's root. */
const timed = (command, args, env = {}) => timedIn(command, args, { cwd: root, env });

/** Starts the bench server on `dataDir`; resolves with its URL and a `stop()` that resolves with its figures. */
async function startBenchServer(dataDir) {
  const server = spawn(process.execPath, [join(root, 'scripts/bench-large-server.mjs'), dataDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = [];
  let waiting = null;
  let buffer = '';
  server.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      lines.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
      waiting?.();
    }
  });
  const next = () =>
    new Promise((resolve, reject) => {
      const check = () => (lines.length > 0 ? resolve(lines.shift()) : (waiting = check));
      server.once('exit', (code) => reject(new Error(`bench server exited (${code})`)));
      check();
    });
  const { url } = await next();
  return {
    url,
    async stop() {
      const figures = next();
      server.kill('SIGTERM');
      return figures;
    },
  };
}

/**
 * Starts a bench server on `dataDir`, creates a project and uploads `folder` with the CLI (until
 * `sync`); resolves with the upload's figures (`timed`) and the server's (`stop()`).
 */
async function uploadToFreshServer(dataDir, folder) {
  const server = await startBenchServer(dataDir);
  let upload;
  let serverFigures;
  try {
    const env = { CATALOG_DATA_DIR: dataDir, CATALOG_URL: server.url };
    const project = JSON.parse(
      (await timed(cli, ['projects', 'create', '--name', 'Large', '--structure-id', 'LARGE', '--json'], env)).stdout,
    );
    execFileSync('sync');
    upload = await timed(
      cli,
      ['models', 'upload', folder, '--project', project.result.id, '--public-id', 'LARGE-1', '--name', 'Large capture', '--json', '--yes'],
      env,
    );
    execFileSync('sync');
  } finally {
    serverFigures = await server.stop();
  }
  return { upload, serverFigures };
}

/** `cp` of `file` to `copy` until `sync` returns, in seconds (the copy is removed). */
function cpSecondsOf(file, copy) {
  execFileSync('sync');
  const cpStart = process.hrtime.bigint();
  copyFileSync(file, copy);
  execFileSync('sync');
  const cpSeconds = seconds(cpStart);
  rmSync(copy);
  return cpSeconds;
}

/** The upload's figures: time and its ratio to cp, CLI and server peak RSS, the server's event-loop pauses. */
function uploadFigures(upload, serverFigures, cpSeconds) {
  return {
    seconds: Number(upload.seconds.toFixed(2)),
    toCp: Number((upload.seconds / cpSeconds).toFixed(1)),
    cliPeakRssMiB: Math.round(upload.rssKiB / 1024),
    serverPeakRssMiB: Math.round(serverFigures.peakRssKiB / 1024),
    serverMaxEventLoopDelayMs: serverFigures.maxDelayMs,
    serverP99EventLoopDelayMs: serverFigures.p99DelayMs,
  };
}

async function measure({ gaussians, degree }, work) {
  const dir = join(work, `${gaussians}-sh${degree}`);
  const folder = join(dir, 'capture');
  mkdirSync(folder, { recursive: true });
  const ply = join(folder, 'point_cloud.ply');
  const bytes = await writeGaussianPlyFile(ply, gaussians, degree);
  log(`${gaussians.toLocaleString('en-US')} Gaussians, SH degree ${degree}: ${(bytes / MiB).toFixed(1)} MiB generated`);

  const cpSeconds = cpSecondsOf(ply, join(dir, 'copy.ply'));

  const { upload, serverFigures } = await uploadToFreshServer(join(dir, 'data'), folder);

  const spz = join(dir, 'model.spz');
  const copy = await timed(process.execPath, [
    '--import',
    'tsx/esm',
    '-e',
    `const { compressSplatFile } = await import(${JSON.stringify(pathToFileURL(join(root, 'cli/src/lib/web-splat.ts')).href)});
     const r = await compressSplatFile(${JSON.stringify(ply)}, ${JSON.stringify(spz)}, 'point_cloud.ply');
     process.stdout.write(JSON.stringify(r));`,
  ]);
  const webCopy = JSON.parse(copy.stdout);
  rmSync(dir, { recursive: true, force: true });

  const figures = {
    gaussians,
    shDegree: degree,
    plyBytes: bytes,
    baselineCpSeconds: Number(cpSeconds.toFixed(2)),
    upload: {
      ...uploadFigures(upload, serverFigures, cpSeconds),
    },
    webCopy: {
      seconds: Number(copy.seconds.toFixed(2)),
      toCp: Number((copy.seconds / cpSeconds).toFixed(1)),
      bytes: webCopy.bytes,
      ratio: Number((bytes / webCopy.bytes).toFixed(1)),
      peakRssMiB: Math.round(copy.rssKiB / 1024),
    },
  };
  log(
    `  upload ${figures.upload.seconds} s (${figures.upload.toCp}× cp ${figures.baselineCpSeconds} s), CLI peak ${figures.upload.cliPeakRssMiB} MiB, ` +
      `server peak ${figures.upload.serverPeakRssMiB} MiB, longest event-loop delay ${figures.upload.serverMaxEventLoopDelayMs} ms; ` +
      `web copy ${figures.webCopy.seconds} s, ${(webCopy.bytes / MiB).toFixed(1)} MiB (${figures.webCopy.ratio}× smaller), peak ${figures.webCopy.peakRssMiB} MiB`,
  );
  return figures;
}

/** The GLB case: a generated textured GLB uploaded to its own server, then its web-sized copy made on its own. */
async function measureGlb({ triangles, textures }, work) {
  const dir = join(work, `glb-${triangles}-${textures}`);
  const folder = join(dir, 'capture');
  mkdirSync(folder, { recursive: true });
  const glb = join(folder, 'model.glb');
  const generated = await texturedGlb({ triangles, textures, textureEdge: 4096, textureFormat: 'jpeg' });
  writeFileSync(glb, generated.glb);
  const bytes = generated.glb.length;
  log(
    `GLB of ${generated.triangles.toLocaleString('en-US')} triangles, ${textures} textures of 4096²: ${(bytes / MiB).toFixed(1)} MiB generated`,
  );
  const cpSeconds = cpSecondsOf(glb, join(dir, 'copy.glb'));
  const { upload, serverFigures } = await uploadToFreshServer(join(dir, 'data'), folder);
  const record = JSON.parse(upload.stdout).result.model;

  const web = join(dir, 'model.web.glb');
  const copy = await timed(process.execPath, [
    '--import',
    'tsx/esm',
    '-e',
    `const { compressGlbFile } = await import(${JSON.stringify(pathToFileURL(join(root, 'cli/src/lib/web-glb.ts')).href)});
     const r = await compressGlbFile(${JSON.stringify(glb)}, ${JSON.stringify(web)});
     process.stdout.write(JSON.stringify(r));`,
  ]);
  const webCopy = JSON.parse(copy.stdout);
  rmSync(dir, { recursive: true, force: true });

  const figures = {
    triangles: generated.triangles,
    textures4096: textures,
    glbBytes: bytes,
    baselineCpSeconds: Number(cpSeconds.toFixed(2)),
    upload: {
      ...uploadFigures(upload, serverFigures, cpSeconds),
      webGlbSize: record.files?.webGlbSize ?? null,
    },
    webCopy: {
      seconds: Number(copy.seconds.toFixed(2)),
      workerSeconds: Number((webCopy.ms / 1000).toFixed(2)),
      bytes: webCopy.bytes,
      ratio: Number((bytes / webCopy.bytes).toFixed(1)),
      kept: webCopy.skipped === null,
      peakRssMiB: Math.round(copy.rssKiB / 1024),
    },
  };
  log(
    `  upload ${figures.upload.seconds} s (${figures.upload.toCp}× cp ${figures.baselineCpSeconds} s), CLI peak ${figures.upload.cliPeakRssMiB} MiB, ` +
      `server peak ${figures.upload.serverPeakRssMiB} MiB, longest event-loop delay ${figures.upload.serverMaxEventLoopDelayMs} ms; ` +
      `web GLB ${figures.webCopy.seconds} s, ${(webCopy.bytes / MiB).toFixed(1)} MiB (${figures.webCopy.ratio}× smaller${figures.webCopy.kept ? '' : ', not kept'}), peak ${figures.webCopy.peakRssMiB} MiB`,
  );
  return figures;
}

const work = mkdtempSync(join(tmpdir(), 'catalog-bench-large-'));
try {
  const results = [];
  for (const c of CASES) results.push(await measure(c, work));
  const glbs = [];
  for (const c of GLB) glbs.push(await measureGlb(c, work));
  process.stdout.write(`${JSON.stringify({ cases: results, glb: glbs }, null, 2)}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
