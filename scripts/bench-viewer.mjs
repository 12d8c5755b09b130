#!/usr/bin/env node
// Viewer benchmark, `npm run bench:viewer`: one run in headless Chromium with software WebGL
// (SwiftShader), against a `catalog serve` on loopback. For each scene and page it prints the time
// from navigation to the first screenshot whose centre shows the model (the centre 40% of the page
// differs from the background colour of its corners), the bytes downloaded before that first
// frame and in all, for the catalog viewer the time until the full copy replaced a large
// capture's preview, and the median frame time while orbiting (an orbit step, then a screenshot
// that waits for the new frame: see orbitSteps), measured the same way on every page:
// - the baseline: an empty scene (a bare three + Spark page with no file: the browser's and the
//   renderer's own floor);
// - the catalog viewer (its web copy: the preview of a large capture first, then the full copy
//   drawn through Spark's level-of-detail tree);
// - the peer: PlayCanvas's SuperSplat viewer (@playcanvas/supersplat-viewer, its standalone page,
//   WebGL renderer, no UI) given the same PLY, installed on first use into tools/bench-peer; and a
//   bare three + Spark page (no application code: fetch the same PLY, `new SplatMesh({ fileBytes })`,
//   orbit every frame), the library's own floor. All on the same files in the same run.
// Scenes: the 3DGS sample (../shared/samples/3dgs-konstruct, 9,080 Gaussians, when present) and
// generated captures, BENCH_VIEWER_CASES (default '1000000:3,3000000:3': Gaussians:SH degree; a
// tower-like column, tests/support/model-fixtures.ts), uploaded with the CLI so that they get the
// web copy and preview a real upload gets.
// The peer's own formats are not measured: `@playcanvas/splat-transform` 3.7 (SOG, Streamed SOG)
// took over 15 minutes for 100,000 SH3 Gaussians on this 2-core CPU (`-g cpu`, no GPU here), so a
// capture of millions does not convert in a benchmark's time.
// Software rendering is slow and noisy on this 2-core machine: read the figures as orders of
// magnitude, and ratios only against figures of the same run.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // shared/'s TypeScript
// seeded real-size captures, written a block at a time
const { writeGaussianPlyFile } = await import(pathToFileURL(join(root, 'tests/support/model-fixtures.ts')).href);
const cli = join(root, 'cli/bin/catalog.js');
const samples = resolve(root, '..', 'shared', 'samples');
const CASES = (process.env.BENCH_VIEWER_CASES || '1000000:3,3000000:3')
  .split(',')
  .filter(Boolean)
  .map((item) => {
    const [gaussians, degree = '3'] = item.split(':');
    return { gaussians: Number(gaussians), degree: Number(degree) };
  });
const ORBIT_STEPS = Number(process.env.BENCH_ORBIT_STEPS || 3);
/** Which pages to measure on each scene (default all): catalog, supersplat, bare. */
const PAGES = new Set((process.env.BENCH_VIEWER_PAGES || 'catalog,supersplat,bare').split(',').filter(Boolean));
/** With BENCH_TRACE=1, each poll before the first frame is logged (readiness, coverage, bytes, time). */
const TRACE = process.env.BENCH_TRACE === '1';
/** How long a page may take to show its first frame, ms. */
const FIRST_FRAME_LIMIT_MS = Number(process.env.BENCH_FIRST_FRAME_LIMIT_S || 300) * 1000;
const work = mkdtempSync(join(tmpdir(), 'catalog-bench-viewer-'));
const log = (line) => process.stderr.write(`${line}\n`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The bare three + Spark page's script, bundled with esbuild (the peer and the baseline). */
async function bundleBarePage() {
  const entry = join(work, 'bare-entry.js');
  writeFileSync(
    entry,
    `import * as THREE from 'three';
import { SparkRenderer, SplatMesh } from '@sparkjsdev/spark';
const params = new URLSearchParams(location.search);
const renderer = new THREE.WebGLRenderer({ canvas: document.querySelector('canvas'), preserveDrawingBuffer: true });
renderer.setSize(innerWidth, innerHeight, false);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x1b1f24);
scene.add(new SparkRenderer({ renderer }));
const camera = new THREE.PerspectiveCamera(50, innerWidth / innerHeight, 0.01, 10000);
camera.position.set(0, 0, 5);
window.__frames = [];
window.__orbit = false;
let target = new THREE.Vector3();
let radius = 5;
async function load() {
  const url = params.get('url');
  if (!url) return;
  const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
  const mesh = new SplatMesh({ fileBytes: bytes, fileName: params.get('name') });
  await mesh.initialized;
  mesh.quaternion.set(1, 0, 0, 0);
  scene.add(mesh);
  mesh.updateMatrixWorld(true);
  const xs = [], ys = [], zs = [];
  const p = new THREE.Vector3();
  mesh.forEachSplat((i, c) => { if (i % 16 === 0) { p.copy(c).applyMatrix4(mesh.matrixWorld); xs.push(p.x); ys.push(p.y); zs.push(p.z); } });
  const q = (a, f) => a.sort((u, v) => u - v)[Math.floor(f * (a.length - 1))];
  const lo = new THREE.Vector3(q(xs, 0.1), q(ys, 0.1), q(zs, 0.1)), hi = new THREE.Vector3(q(xs, 0.9), q(ys, 0.9), q(zs, 0.9));
  target = lo.clone().add(hi).multiplyScalar(0.5);
  radius = hi.distanceTo(lo) / 2 / Math.sin((50 * Math.PI) / 360) * 1.05;
}
load();
let angle = 0;
renderer.setAnimationLoop(() => {
  if (window.__orbit) angle += 0.05;
  camera.position.set(target.x + radius * Math.sin(angle + 0.8), target.y + radius * 0.4, target.z + radius * Math.cos(angle + 0.8));
  camera.lookAt(target);
  renderer.render(scene, camera);
  window.__frames.push(performance.now());
});
`,
  );
  const out = join(work, 'bare.js');
  await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    outfile: out,
    minify: true,
    logLevel: 'silent',
    absWorkingDir: root,
    nodePaths: [join(root, 'node_modules')],
  });
  return readFileSync(out, 'utf8');
}

/**
 * Share of the centre 40% of a PNG screenshot that differs from the background (the median
 * colour of the four 8×8 corner patches), decoded by the browser in `decoder` (a blank page).
 */
async function centreCoverage(decoder, png) {
  return decoder.evaluate(async (base64) => {
    const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${base64}`)).blob());
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const { width, height } = canvas;
    const corners = [];
    for (const [x0, y0] of [
      [0, 0],
      [width - 8, 0],
      [0, height - 8],
      [width - 8, height - 8],
    ]) {
      const { data } = context.getImageData(x0, y0, 8, 8);
      for (let i = 0; i < data.length; i += 4) corners.push([data[i], data[i + 1], data[i + 2]]);
    }
    const channel = (k) => corners.map((c) => c[k]).sort((a, b) => a - b)[corners.length >> 1];
    const bg = [channel(0), channel(1), channel(2)];
    const { data } = context.getImageData(
      Math.floor(width * 0.3),
      Math.floor(height * 0.3),
      Math.floor(width * 0.4),
      Math.floor(height * 0.4),
    );
    let n = 0;
    for (let i = 0; i < data.length; i += 4)
      if (Math.abs(data[i] - bg[0]) + Math.abs(data[i + 1] - bg[1]) + Math.abs(data[i + 2] - bg[2]) > 30) n += 1;
    return n / (data.length / 4);
  }, png.toString('base64'));
}

/** The SuperSplat viewer's standalone site, installed into tools/bench-peer on first use; null (with the reason logged) when it cannot be. */
function supersplatViewer() {
  const prefix = join(root, 'tools', 'bench-peer');
  const site = join(prefix, 'node_modules', '@playcanvas', 'supersplat-viewer', 'public');
  if (!existsSync(join(site, 'index.html'))) {
    try {
      log('installing the peer viewer (npm ci --prefix tools/bench-peer)…');
      execFileSync('npm', ['ci', '--prefix', prefix, '--no-audit', '--no-fund'], { stdio: ['ignore', 'ignore', 'inherit'] });
    } catch (error) {
      log(`(the SuperSplat viewer could not be installed: ${error.message}; only the bare three + Spark peer runs)`);
      return null;
    }
  }
  const version = JSON.parse(
    readFileSync(join(prefix, 'node_modules', '@playcanvas', 'supersplat-viewer', 'package.json'), 'utf8'),
  ).version;
  return { site, version };
}

async function main() {
  const dataDir = join(work, 'data');
  const child = spawn('node', [cli, 'serve', '--port', '0', '--data-dir', dataDir, '--json'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let browser;
  try {
    const base = await new Promise((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error('catalog serve did not start')), 60_000);
      child.stdout.once('data', (chunk) => {
        clearTimeout(timer);
        resolveUrl(JSON.parse(chunk.toString()).result.url);
      });
    });
    const env = { ...process.env, CATALOG_DATA_DIR: dataDir };
    const run = (args) =>
      execFileSync('node', [cli, ...args], { env, cwd: root })
        .toString()
        .trim();
    const project = run(['projects', 'create', '--name', 'Viewer bench', '--structure-id', 'BENCH-V']);
    const scenes = [];
    const key = JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const modelOf = async (publicId) =>
      (
        await (
          await fetch(`${base}/v1/query/models`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ query: { where: [['publicId', '==', publicId]] } }),
          })
        ).json()
      ).docs[0];
    /** Uploads a folder holding `file` as model `publicId` and waits for its web copy (and a large capture's preview). */
    const upload = async (publicId, folder, name, large) => {
      const started = Date.now();
      run(['models', 'upload', folder, '--project', project, '--public-id', publicId, '--name', publicId]);
      for (;;) {
        // a poll that fails (the server closing an idle keep-alive socket while it works) is tried again
        const files = (await modelOf(publicId).catch(() => null))?.files ?? {};
        if (files.webSplatPath && (!large || files.webSplatPreviewPath)) {
          log(
            `${publicId}: uploaded with its web copy in ${((Date.now() - started) / 1000).toFixed(1)} s (${(files.webSplatSize / 1048576).toFixed(1)} MiB${large ? `, preview ${(files.webSplatPreviewSize / 1048576).toFixed(2)} MiB` : ''})`,
          );
          break;
        }
        if (Date.now() - started > 30 * 60_000) throw new Error(`${publicId}: no web copy after 30 minutes`);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      rmSync(folder, { recursive: true, force: true });
      scenes.push({ publicId, name });
    };
    const sample = join(samples, '3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply');
    if (existsSync(sample)) {
      const folder = join(work, 'BENCH-3DGS');
      mkdirSync(folder, { recursive: true });
      copyFileSync(sample, join(folder, 'point_cloud.ply'));
      await upload('BENCH-3DGS', folder, 'point_cloud.ply', false);
    } else log('(no ../shared/samples: the 3DGS sample scene is left out)');
    for (const { gaussians, degree } of CASES) {
      const publicId = `BENCH-${gaussians >= 1e6 ? `${gaussians / 1e6}M` : `${gaussians / 1e3}K`}-SH${degree}`;
      const folder = join(work, publicId);
      mkdirSync(folder, { recursive: true });
      log(`generating ${gaussians.toLocaleString('en-US')} Gaussians at SH degree ${degree}…`);
      const size = await writeGaussianPlyFile(join(folder, 'model.ply'), gaussians, degree);
      log(`${publicId}: ${(size / 1048576).toFixed(0)} MiB PLY; uploading…`);
      await upload(publicId, folder, 'model.ply', gaussians > 400_000);
    }
    run(['users', 'register', 'bench@lab.example', '--password', 'bench-pass-1', '--role', 'user']);

    const bare = await bundleBarePage();
    const peer = supersplatViewer();
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
        '--disable-background-networking',
        '--no-first-run',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    // Every page records the time of each animation frame (the same measure everywhere).
    await context.addInitScript(() => {
      window.__raf = [];
      const tick = (t) => {
        window.__raf.push(t);
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
      // The catalog viewer starts its full copy once the preview has been drawn (data-refining
      // turns on): the page's own record of that moment (ms since navigation) and of the bytes of
      // catalog files downloaded by then. Screenshots cannot tell it as closely: in software WebGL
      // a screenshot returns seconds after it was asked for.
      new MutationObserver(() => {
        if (window.__previewDrawn || !document.querySelector('[data-testid=viewport][data-refining=on]')) return;
        const at = performance.now();
        const bytes = performance
          .getEntriesByType('resource')
          .filter((entry) => entry.name.includes('/v1/files/') && entry.responseEnd <= at)
          .reduce((sum, entry) => sum + (entry.encodedBodySize || 0), 0);
        window.__previewDrawn = { at, bytes };
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-refining'] });
    });
    // The bare page and the peer's static site, served on the same origin so they may fetch the download links.
    await context.route(`${base}/bench/bare.html*`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: '<!doctype html><style>html,body{margin:0;height:100%}canvas{width:100%;height:100%;display:block}</style><canvas></canvas><script type="module" src="/bench/bare.js"></script>',
      }),
    );
    await context.route(`${base}/bench/bare.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: bare }));
    let settingsJson = null;
    if (peer) {
      const { defaultSettings } = await import(
        pathToFileURL(join(root, 'tools/bench-peer/node_modules/@playcanvas/supersplat-viewer/dist/settings.js')).href
      );
      settingsJson = JSON.stringify(defaultSettings('object'));
      await context.route(`${base}/bench/ssv/**`, (route) => {
        const name = new URL(route.request().url()).pathname.slice('/bench/ssv/'.length) || 'index.html';
        if (name === 'settings.json') return route.fulfill({ contentType: 'application/json', body: settingsJson });
        const file = join(peer.site, name);
        if (!file.startsWith(peer.site) || !existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
        const type = name.endsWith('.html')
          ? 'text/html'
          : name.endsWith('.js')
            ? 'text/javascript'
            : name.endsWith('.css')
              ? 'text/css'
              : 'application/octet-stream';
        return route.fulfill({ contentType: type, body: readFileSync(file) });
      });
    }
    const page = await context.newPage();
    if (TRACE) page.on('console', (message) => log(`  [page] ${message.text()}`));
    const decoder = await context.newPage();
    let bytes = 0;
    // bytes of the catalog's files whose download has finished (one still under way counts when it ends)
    page.on('requestfinished', async (request) => {
      if (!request.url().includes('/v1/files/')) return;
      const sizes = await request.sizes().catch(() => null);
      if (sizes) bytes += sizes.responseBodySize;
    });
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill('bench@lab.example');
    await page.getByLabel('Password').fill('bench-pass-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/projects`);
    await page.bringToFront();

    /** Navigates, waits for the centre to show something (an empty scene: its first frame), orbits, returns the figures. */
    async function measure(url, { empty = false, orbit, ready = null, refined = null }) {
      bytes = 0;
      const started = Date.now();
      // the page before may still be drawing a frame that takes minutes in software: wait for the navigation, not 30 s
      await page.goto(url, { timeout: FIRST_FRAME_LIMIT_MS, waitUntil: 'commit' });
      let first = Number.NaN;
      let bytesFirst = Number.NaN;
      let full = Number.NaN;
      const deadline = started + FIRST_FRAME_LIMIT_MS;
      let traced = false;
      for (;;) {
        const frames = await page.evaluate(() => window.__raf?.length ?? 0).catch(() => 0);
        // the catalog viewer's progress bars sit in the centre while a file loads: wait for its ready state first
        const isReady = ready === null || (await page.evaluate(ready).catch(() => false));
        // A screenshot waits for a frame: seconds each in software with a million splats.
        const shows = async () => {
          const shot = await page.screenshot({ timeout: 120_000 });
          const coverage = await centreCoverage(decoder, shot);
          if (TRACE) writeFileSync(join(tmpdir(), `bench-viewer-${Date.now() - started}.png`), shot);
          if (TRACE)
            log(
              `  ${((Date.now() - started) / 1000).toFixed(1)} s: centre ${(coverage * 100).toFixed(1)} %, ${(bytes / 1048576).toFixed(1)} MiB in`,
            );
          return coverage > 0.01;
        };
        if (TRACE && isReady && frames > 1 && !traced) {
          traced = true;
          log(`  ${((Date.now() - started) / 1000).toFixed(1)} s: ready, ${(bytes / 1048576).toFixed(1)} MiB in`);
        }
        if (
          frames > 1 &&
          isReady &&
          (empty || (await shows().catch((error) => (log(`screenshot: ${error.message.split('\n')[0]}`), false))))
        ) {
          first = Date.now() - started;
          bytesFirst = bytes;
          break;
        }
        if (Date.now() > deadline) break;
        await page.waitForTimeout(100);
      }
      // the catalog viewer: until the full copy replaced the preview (at once for a small capture)
      if (Number.isFinite(first) && refined) {
        await page
          .waitForFunction(refined, null, { timeout: FIRST_FRAME_LIMIT_MS, polling: 250 })
          .then(() => (full = Date.now() - started))
          .catch(() => log(`${url}: the full copy was not in within the limit`));
      }
      // a scene that never showed (or a page that died) gets no orbit figure
      const frameTimes = Number.isFinite(first) ? await orbit().catch((error) => (log(`orbit failed: ${error.message}`), [])) : [];
      const preview = await page.evaluate(() => window.__previewDrawn ?? null).catch(() => null);
      return {
        first,
        bytesFirst,
        full,
        bytes,
        frame: median(frameTimes),
        previewAt: preview?.at ?? null,
        previewBytes: preview?.bytes ?? null,
      };
    }

    /**
     * Frame time while orbiting, measured the same way on every page: a small orbit step (a 30 px
     * drag, or the bare page's own per-frame orbit), then a screenshot, which waits until a new
     * frame is presented (in software WebGL the GPU process, not the page's main thread, is the
     * bottleneck, so animation-frame intervals alone would not see it). ORBIT_STEPS steps after one
     * warm-up; the empty scene's figure is the cost of the step and the screenshot themselves.
     */
    /** The catalog viewer's count of drawn frames (0 on other pages). */
    const renderedFrames = () =>
      page.evaluate(() => Number(document.querySelector('[data-testid=viewport]')?.dataset.renderedFrames ?? 0)).catch(() => 0);
    async function orbitSteps(step) {
      const times = [];
      for (let i = 0; i <= ORBIT_STEPS; i += 1) {
        const started = Date.now();
        const drawnBefore = TRACE ? await renderedFrames() : 0;
        await step(i);
        const stepped = Date.now();
        await page.screenshot({ timeout: 600_000 });
        if (i > 0) times.push(Date.now() - started);
        if (TRACE)
          log(
            `  orbit step ${i}: step ${stepped - started} ms, screenshot ${Date.now() - stepped} ms, frames drawn ${(await renderedFrames()) - drawnBefore}`,
          );
      }
      return times;
    }
    const orbitByDrag = () =>
      orbitSteps(async (i) => {
        const x = 500 + (i % 2 ? 30 : 0);
        await page.mouse.move(x, 400);
        await page.mouse.down();
        await page.mouse.move(x + (i % 2 ? -30 : 30), 410, { steps: 3 });
        await page.mouse.up();
      });
    const orbitBare = async () => {
      await page.evaluate(() => (window.__orbit = true));
      return orbitSteps(async () => undefined);
    };

    const rows = [];
    // each row is logged as it is measured: a run of millions of Gaussians in software takes an hour
    const pushRow = (row) => {
      rows.push(row);
      const [scene, pageName, r] = row;
      log(`${scene} / ${pageName}: ${JSON.stringify(r)}`);
    };
    pushRow(['empty scene (baseline)', 'bare three+Spark', await measure(`${base}/bench/bare.html`, { empty: true, orbit: orbitBare })]);
    for (const scene of scenes) {
      const viewerReady = () => document.querySelector('[data-testid=viewport]')?.dataset.state === 'ready';
      const viewerRefined = () => document.querySelector('[data-testid=viewport]')?.dataset.refining === 'off';
      if (PAGES.has('catalog'))
        pushRow([
          scene.publicId,
          'catalog viewer',
          await measure(`${base}/viewer/?id=${scene.publicId}`, { orbit: orbitByDrag, ready: viewerReady, refined: viewerRefined }),
        ]);
      // the uploaded PLY's download link, asked for with the service key
      const model = await modelOf(scene.publicId);
      const url = (await (await fetch(`${base}/v1/download-url/${model.files.splatPath}`, { headers })).json()).url;
      if (peer && PAGES.has('supersplat'))
        pushRow([
          scene.publicId,
          `SuperSplat viewer ${peer.version}`,
          await measure(
            `${base}/bench/ssv/index.html?webgl&noui&settings=${encodeURIComponent(`${base}/bench/ssv/settings.json`)}&content=${encodeURIComponent(url)}`,
            { orbit: orbitByDrag },
          ),
        ]);
      if (PAGES.has('bare'))
        pushRow([
          scene.publicId,
          'bare three+Spark',
          await measure(`${base}/bench/bare.html?url=${encodeURIComponent(url)}&name=${scene.name}`, { orbit: orbitBare }),
        ]);
    }

    const baseline = rows[0][2];
    const pad = (text, n) => String(text).padEnd(n);
    console.log(`\nViewer benchmark (headless Chromium, SwiftShader software WebGL, ${new Date().toISOString()})`);
    const mib = (n) => (Number.isFinite(n) ? `${(n / 1048576).toFixed(2)} MiB` : '—');
    console.log(
      `${pad('scene', 18)}${pad('page', 27)}${pad('first frame', 20)}${pad('bytes before it', 17)}${pad('full detail', 13)}${pad('downloaded', 14)}orbit frame time`,
    );
    for (const [scene, pageName, r] of rows) {
      const first = Number.isFinite(r.first)
        ? `${(r.first / 1000).toFixed(2)} s (${(r.first / baseline.first).toFixed(1)}×)`
        : `none in ${FIRST_FRAME_LIMIT_MS / 1000} s`;
      const full = Number.isFinite(r.full) ? `${(r.full / 1000).toFixed(2)} s` : '—';
      const frame = Number.isFinite(r.frame) ? `${r.frame.toFixed(0)} ms (${(r.frame / baseline.frame).toFixed(1)}×)` : 'n/a';
      console.log(
        `${pad(scene, 18)}${pad(pageName, 27)}${pad(first, 20)}${pad(mib(r.bytesFirst), 17)}${pad(full, 13)}${pad(mib(r.bytes), 14)}${frame}`,
      );
    }
    for (const [scene, pageName, r] of rows)
      if (r.previewAt !== null && r.previewAt !== undefined)
        console.log(
          `${scene} / ${pageName}: preview drawn ${(r.previewAt / 1000).toFixed(2)} s after navigation with ${mib(r.previewBytes)} downloaded (the page's own record)`,
        );
    console.log(
      "(× = ratio to the empty scene of this run; first frame = navigation to the first screenshot showing the model; bytes before it = downloads finished by then; full detail = the catalog viewer's full copy in place of the preview; downloaded = bytes of catalog files, orbit included)",
    );
  } finally {
    await browser?.close().catch(() => undefined);
    child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
