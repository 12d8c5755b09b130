#!/usr/bin/env node
// Viewer benchmark (issue 13), `npm run bench:viewer`: one run in headless Chromium with
// software WebGL (SwiftShader), against a `catalog serve` on loopback. For each scene it prints
// the time from navigation to the first frame whose centre shows the model (the canvas's centre
// region differs from the background), the bytes downloaded, and the median frame time while
// orbiting (arrow keys, or an orbiting camera in the bare page), beside:
// - the baseline: the same figures for an empty scene (the viewer with nothing to draw is the
//   bare page with no file: it measures the browser's and the renderer's own floor);
// - the peer: a bare three + Spark page (no application code: fetch the same download link,
//   `new SplatMesh({ fileBytes })`, render every frame), on the same files in the same run.
// Scenes: the 3DGS sample (../shared/samples/3dgs-konstruct, 9,080 Gaussians, when present) and
// a synthetic splat of BENCH_SPLATS Gaussians (default 1,000,000; SH degree 0 PLY, generated here).
// Software rendering is slow and noisy on this 2-core machine: read the figures as orders of
// magnitude, and ratios only against figures of the same run.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'cli/bin/catalog.js');
const samples = resolve(root, '..', 'shared', 'samples');
const SPLATS = Number(process.env.BENCH_SPLATS || 1_000_000);
const ORBIT_MS = Number(process.env.BENCH_ORBIT_MS || 8000);
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
  const props = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
  const header = Buffer.from(`ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n${props.map((p) => `property float ${p}\n`).join('')}end_header\n`);
  const body = Buffer.alloc(count * props.length * 4);
  let seed = 1;
  const rand = () => ((seed = (seed * 1664525 + 1013904223) >>> 0) / 4294967296);
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
  await build({ entryPoints: [entry], bundle: true, format: 'esm', outfile: out, minify: true, logLevel: 'silent', absWorkingDir: root, nodePaths: [join(root, 'node_modules')] });
  return readFileSync(out, 'utf8');
}

/** Share of the centre 40% of the first canvas that differs from the background. */
const coverageScript = () => {
  const canvas = document.querySelector('canvas');
  if (!canvas || canvas.width === 0) return 0;
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  const ctx = copy.getContext('2d');
  ctx.drawImage(canvas, 0, 0);
  const { data } = ctx.getImageData(Math.floor(canvas.width * 0.3), Math.floor(canvas.height * 0.3), Math.floor(canvas.width * 0.4), Math.floor(canvas.height * 0.4));
  let n = 0;
  for (let i = 0; i < data.length; i += 4) if (Math.abs(data[i] - 0x1b) + Math.abs(data[i + 1] - 0x1f) + Math.abs(data[i + 2] - 0x24) > 30) n += 1;
  return n / (data.length / 4);
};

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
    const run = (args) => execFileSync('node', [cli, ...args], { env, cwd: root }).toString().trim();
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
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    // The bare page, served on the same origin so it may fetch the download links.
    await context.route(`${base}/bench/bare.html*`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><style>html,body{margin:0;height:100%}canvas{width:100%;height:100%;display:block}</style><canvas></canvas><script type="module" src="/bench/bare.js"></script>' }));
    await context.route(`${base}/bench/bare.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: bare }));
    const page = await context.newPage();
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

    /** Navigates, waits for the centre to show something (or `emptyMs` for an empty scene), orbits, returns the figures. */
    async function measure(url, { empty = false, orbit }) {
      bytes = 0;
      const started = Date.now();
      await page.goto(url);
      let first = Number.NaN;
      const deadline = started + 180_000;
      for (;;) {
        const frames = await page
          .evaluate(() => Number(document.querySelector('[data-testid=viewport]')?.dataset.renderedFrames ?? window.__frames?.length ?? 0))
          .catch(() => 0);
        if (frames > 0 && (empty || (await page.evaluate(coverageScript).catch(() => 0)) > 0.01)) {
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

    const orbitViewer = async () => {
      const canvas = page.locator('[data-testid=viewport] canvas');
      await canvas.focus();
      const times = [];
      const end = Date.now() + ORBIT_MS;
      let last = await page.evaluate(() => [Number(document.querySelector('[data-testid=viewport]').dataset.renderedFrames), performance.now()]);
      while (Date.now() < end) {
        await page.keyboard.press('ArrowLeft');
        await page.waitForTimeout(50);
        const now = await page.evaluate(() => [Number(document.querySelector('[data-testid=viewport]').dataset.renderedFrames), performance.now()]);
        if (now[0] > last[0]) {
          times.push((now[1] - last[1]) / (now[0] - last[0]));
          last = now;
        }
      }
      return times;
    };
    const orbitBare = async () => {
      await page.evaluate(() => {
        window.__orbit = true;
        window.__frames.length = 0;
      });
      await page.waitForTimeout(ORBIT_MS);
      return page.evaluate(() => window.__frames.slice(1).map((t, i) => t - window.__frames[i]));
    };

    const rows = [];
    rows.push(['empty scene (baseline)', 'bare three+Spark', await measure(`${base}/bench/bare.html`, { empty: true, orbit: orbitBare })]);
    for (const scene of scenes) {
      rows.push([scene.publicId, 'catalog viewer', await measure(`${base}/viewer/?id=${scene.publicId}`, { orbit: orbitViewer })]);
      // the same download link the viewer uses, asked for with the service key
      const key = JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')).key;
      const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
      const query = await (await fetch(`${base}/v1/query/models`, { method: 'POST', headers, body: JSON.stringify({ query: { where: [['publicId', '==', scene.publicId]] } }) })).json();
      const url = (await (await fetch(`${base}/v1/download-url/${query.docs[0].files.splatPath}`, { headers })).json()).url;
      rows.push([scene.publicId, 'bare three+Spark (peer)', await measure(`${base}/bench/bare.html?url=${encodeURIComponent(url)}&name=${scene.name}`, { orbit: orbitBare })]);
    }

    const baseline = rows[0][2];
    const pad = (text, n) => String(text).padEnd(n);
    console.log(`\nViewer benchmark (headless Chromium, SwiftShader software WebGL, ${new Date().toISOString()})`);
    console.log(`${pad('scene', 24)}${pad('page', 26)}${pad('first frame', 22)}${pad('downloaded', 14)}orbit frame time`);
    for (const [scene, pageName, r] of rows) {
      const first = Number.isFinite(r.first) ? `${(r.first / 1000).toFixed(2)} s (${(r.first / baseline.first).toFixed(1)}×)` : 'none in 180 s';
      const frame = Number.isFinite(r.frame) ? `${r.frame.toFixed(0)} ms (${(r.frame / baseline.frame).toFixed(1)}×)` : 'n/a';
      console.log(`${pad(scene, 24)}${pad(pageName, 26)}${pad(first, 22)}${pad(`${(r.bytes / 1024 / 1024).toFixed(2)} MiB`, 14)}${frame}`);
    }
    console.log('(× = ratio to the empty scene of this run)');
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
