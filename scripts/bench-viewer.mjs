#!/usr/bin/env node
// Viewer benchmark (issue 13), `npm run bench:viewer`: one run in headless Chromium with
// software WebGL (SwiftShader), against a `catalog serve` on loopback. For each scene and page it
// prints the time from navigation to the first screenshot whose centre shows the model (the
// centre 40% of the page differs from the background colour of its corners), the bytes
// downloaded, and the median frame time while orbiting (an orbit step, then a screenshot that
// waits for the new frame: see orbitSteps), measured the same way on every page:
// - the baseline: an empty scene (a bare three + Spark page with no file: the browser's and the
//   renderer's own floor);
// - the peer: PlayCanvas's SuperSplat viewer (@playcanvas/supersplat-viewer, its standalone page,
//   WebGL renderer, no UI), installed on first use into tools/bench-peer; and a bare three + Spark
//   page (no application code: fetch the same download link, `new SplatMesh({ fileBytes })`,
//   orbit every frame), the library's own floor. All on the same files in the same run.
// Scenes: the 3DGS sample (../shared/samples/3dgs-konstruct, 9,080 Gaussians, when present) and
// a synthetic splat of BENCH_SPLATS Gaussians (default 1,000,000; SH degree 0 PLY, generated here).
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
// the properties a 3DGS PLY must have, as the content checks define them
const { GAUSSIAN_PROPERTIES } = await import(pathToFileURL(join(root, 'shared/content-check/splat.ts')).href);
const cli = join(root, 'cli/bin/catalog.js');
const samples = resolve(root, '..', 'shared', 'samples');
const SPLATS = Number(process.env.BENCH_SPLATS || 1_000_000);
const ORBIT_STEPS = Number(process.env.BENCH_ORBIT_STEPS || 5);
const work = mkdtempSync(join(tmpdir(), 'catalog-bench-viewer-'));
const log = (line) => process.stderr.write(`${line}\n`);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** A 3DGS PLY of `count` Gaussians with SH degree 0 (x,y,z, f_dc_0..2, opacity, scale_0..2, rot_0..3), y-down like training output. */
function syntheticPly(count) {
  const props = GAUSSIAN_PROPERTIES; // x, y, z, f_dc_0..2, opacity, scale_0..2, rot_0..3
  const header = Buffer.from(
    `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${props.map((p) => `property float ${p}\n`).join('')}end_header\n`,
  );
  const body = Buffer.alloc(count * props.length * 4);
  let seed = 1;
  const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296;
  for (let i = 0; i < count; i += 1) {
    // a lattice mast 30 units tall: points on four legs and bracing, some scatter
    const h = rand() * 30;
    const half = 3 * (1 - h / 40);
    const leg = Math.floor(rand() * 4);
    const t = rand();
    const x = (leg % 2 ? half : -half) * (t < 0.6 ? 1 : rand() * 2 - 1) + (rand() - 0.5) * 0.2;
    const z = (leg < 2 ? half : -half) * (t < 0.6 ? 1 : rand() * 2 - 1) + (rand() - 0.5) * 0.2;
    const values = [x, -h, -z, (rand() - 0.5) * 2, (rand() - 0.5) * 2, (rand() - 0.5) * 2, 2, -3.5, -3.5, -3.5, 1, 0, 0, 0];
    for (let j = 0; j < values.length; j += 1) body.writeFloatLE(values[j], (i * props.length + j) * 4);
  }
  return Buffer.concat([header, body]);
}

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
    const upload = (publicId, file, name) => {
      const folder = join(work, publicId);
      mkdirSync(folder, { recursive: true });
      if (Buffer.isBuffer(file)) writeFileSync(join(folder, name), file);
      else copyFileSync(file, join(folder, name));
      run(['models', 'upload', folder, '--project', project, '--public-id', publicId, '--name', publicId]);
      scenes.push({ publicId, name });
    };
    const sample = join(samples, '3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply');
    if (existsSync(sample)) upload('BENCH-3DGS', sample, 'point_cloud.ply');
    else log('(no ../shared/samples: the 3DGS sample scene is left out)');
    log(`generating a synthetic splat of ${SPLATS.toLocaleString('en-US')} Gaussians…`);
    upload('BENCH-SYN', syntheticPly(SPLATS), 'synthetic.ply');
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
    const decoder = await context.newPage();
    let bytes = 0;
    page.on('response', async (response) => {
      if (!response.url().includes('/v1/files/')) return;
      const length = Number(response.headers()['content-length']);
      if (Number.isFinite(length)) bytes += length;
    });
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill('bench@lab.example');
    await page.getByLabel('Password').fill('bench-pass-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`${base}/projects`);
    await page.bringToFront();

    /** Navigates, waits for the centre to show something (an empty scene: its first frame), orbits, returns the figures. */
    async function measure(url, { empty = false, orbit, ready = null }) {
      bytes = 0;
      const started = Date.now();
      await page.goto(url);
      let first = Number.NaN;
      const deadline = started + 180_000;
      for (;;) {
        const frames = await page.evaluate(() => window.__raf?.length ?? 0).catch(() => 0);
        // the catalog viewer's progress bars sit in the centre while a file loads: wait for its ready state first
        const isReady = ready === null || (await page.evaluate(ready).catch(() => false));
        // A screenshot waits for a frame: seconds each in software with a million splats.
        const shows = async () => (await centreCoverage(decoder, await page.screenshot({ timeout: 120_000 }))) > 0.01;
        if (
          frames > 1 &&
          isReady &&
          (empty || (await shows().catch((error) => (log(`screenshot: ${error.message.split('\n')[0]}`), false))))
        ) {
          first = Date.now() - started;
          break;
        }
        if (Date.now() > deadline) break;
        await page.waitForTimeout(100);
      }
      // a scene that never showed (or a page that died) gets no orbit figure
      const frameTimes = Number.isFinite(first) ? await orbit().catch((error) => (log(`orbit failed: ${error.message}`), [])) : [];
      return { first, bytes, frame: median(frameTimes) };
    }

    /**
     * Frame time while orbiting, measured the same way on every page: a small orbit step (a 30 px
     * drag, or the bare page's own per-frame orbit), then a screenshot, which waits until a new
     * frame is presented (in software WebGL the GPU process, not the page's main thread, is the
     * bottleneck, so animation-frame intervals alone would not see it). ORBIT_STEPS steps after one
     * warm-up; the empty scene's figure is the cost of the step and the screenshot themselves.
     */
    async function orbitSteps(step) {
      const times = [];
      for (let i = 0; i <= ORBIT_STEPS; i += 1) {
        const started = Date.now();
        await step(i);
        await page.screenshot({ timeout: 600_000 });
        if (i > 0) times.push(Date.now() - started);
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
    rows.push(['empty scene (baseline)', 'bare three+Spark', await measure(`${base}/bench/bare.html`, { empty: true, orbit: orbitBare })]);
    const key = JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    for (const scene of scenes) {
      const viewerReady = () => document.querySelector('[data-testid=viewport]')?.dataset.state === 'ready';
      rows.push([
        scene.publicId,
        'catalog viewer',
        await measure(`${base}/viewer/?id=${scene.publicId}`, { orbit: orbitByDrag, ready: viewerReady }),
      ]);
      // the same download link the viewer uses, asked for with the service key
      const query = await (
        await fetch(`${base}/v1/query/models`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ query: { where: [['publicId', '==', scene.publicId]] } }),
        })
      ).json();
      const url = (await (await fetch(`${base}/v1/download-url/${query.docs[0].files.splatPath}`, { headers })).json()).url;
      if (peer)
        rows.push([
          scene.publicId,
          `SuperSplat viewer ${peer.version}`,
          await measure(
            `${base}/bench/ssv/index.html?webgl&noui&settings=${encodeURIComponent(`${base}/bench/ssv/settings.json`)}&content=${encodeURIComponent(url)}`,
            { orbit: orbitByDrag },
          ),
        ]);
      rows.push([
        scene.publicId,
        'bare three+Spark',
        await measure(`${base}/bench/bare.html?url=${encodeURIComponent(url)}&name=${scene.name}`, { orbit: orbitBare }),
      ]);
    }

    const baseline = rows[0][2];
    const pad = (text, n) => String(text).padEnd(n);
    console.log(`\nViewer benchmark (headless Chromium, SwiftShader software WebGL, ${new Date().toISOString()})`);
    console.log(`${pad('scene', 24)}${pad('page', 28)}${pad('first frame', 22)}${pad('downloaded', 14)}orbit frame time`);
    for (const [scene, pageName, r] of rows) {
      const first = Number.isFinite(r.first)
        ? `${(r.first / 1000).toFixed(2)} s (${(r.first / baseline.first).toFixed(1)}×)`
        : 'none in 180 s';
      const frame = Number.isFinite(r.frame) ? `${r.frame.toFixed(0)} ms (${(r.frame / baseline.frame).toFixed(1)}×)` : 'n/a';
      console.log(`${pad(scene, 24)}${pad(pageName, 28)}${pad(first, 22)}${pad(`${(r.bytes / 1024 / 1024).toFixed(2)} MiB`, 14)}${frame}`);
    }
    console.log('(× = ratio to the empty scene of this run; first frame = navigation to the first screenshot showing the model)');
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
