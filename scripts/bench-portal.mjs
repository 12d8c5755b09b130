#!/usr/bin/env node
// Portal benchmark on a large catalog, `npm run bench:portal`: starts `catalog serve`
// (the embedded backend, in its own process) in a temporary data folder with a built portal,
// seeds 1,000 projects and 10,000 models through the API (batches of 500 writes with the service
// key; names, places and dates from the demo data's seeded generator, so every run seeds the same
// catalog), one project ('BENCH-BIG') with 300 models whose files exist (one small GLB each, sent in
// batch uploads), then prints from this one run:
// - per screen (/catalog, /projects, /projects/map, /models, the 300-model project's detail) in
//   headless Chromium (1400×900, signed in as an admin): time from navigation to content (the
//   screen's first card or row visible, and for project detail every visible 'View Model' ready),
//   the DOM node count (`document.querySelectorAll('*').length`), API requests and their bytes;
//   for /catalog, /projects and /projects/map (which read the projects and their summaries, not
//   the models) also the API bytes per project, which stay flat as the models grow (compare a run
//   with BENCH_MODELS=20000);
// - the 10,000-model query (`POST /v1/query/models`, what the model list subscribes to): median
//   time of BENCH_QUERY_RUNS requests (default 15) and the bytes on the wire, uncompressed
//   (Accept-Encoding: identity, the baseline) side by side with gzip and br.
// Options (env): BENCH_PORTAL_DIST (a built portal; default portal/dist, which `npm run bench:portal`
// builds first), BENCH_PROJECTS (1000), BENCH_MODELS (10000), BENCH_BIG_MODELS (300),
// BENCH_QUERY_RUNS (15), BENCH_SERVER_NODE_ARGS (extra node flags for the server, e.g. --cpu-prof).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') }); // the CLI's TypeScript sources and their @shared/… paths

// ---- server mode: `node scripts/bench-portal.mjs --serve <dataDir> <portalDir>` --------------------
// The server runs in its own process (as `catalog serve` does) so the bench's own work never
// shares its event loop; this mode is `catalog serve` with a chosen portal folder.
if (process.argv[2] === '--serve') {
  const { startServer } = await import(pathToFileURL(join(root, 'cli/src/server/index.ts')).href);
  const server = await startServer({ dataDir: process.argv[3], port: 0, portalDir: process.argv[4] || null });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  await main();
}

/** Median of numbers (NaN for none). */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function main() {
  const PROJECTS = Number(process.env.BENCH_PROJECTS || 1000);
  const MODELS = Number(process.env.BENCH_MODELS || 10_000);
  const BIG = Number(process.env.BENCH_BIG_MODELS || 300);
  const QUERY_RUNS = Math.max(1, Number(process.env.BENCH_QUERY_RUNS || 15));
  const portalDir = resolve(process.env.BENCH_PORTAL_DIST || join(root, 'portal', 'dist'));
  const log = (line) => process.stderr.write(`${line}\n`);
  if (!existsSync(join(portalDir, 'index.html')))
    throw new Error(`No built portal in ${portalDir}: run npm run build (or set BENCH_PORTAL_DIST)`);
  const { random } = await import(pathToFileURL(join(root, 'cli/src/lib/demo-data/random.ts')).href);
  const work = mkdtempSync(join(tmpdir(), 'catalog-bench-portal-'));
  const dataDir = join(work, 'data');
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS || '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, fileURLToPath(import.meta.url), '--serve', dataDir, portalDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: work,
  });
  let browser;
  try {
    const base = await new Promise((resolveUrl, reject) => {
      const timer = setTimeout(() => reject(new Error('catalog serve did not start')), 60_000);
      child.once('exit', (code) => reject(new Error(`catalog serve exited (${code})`)));
      child.stdout.once('data', (chunk) => {
        clearTimeout(timer);
        resolveUrl(JSON.parse(chunk.toString()).url);
      });
    });
    const key = JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')).key;
    const auth = { authorization: `Bearer ${key}` };
    const api = async (path, body) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.status === 204 ? null : response.json();
    };

    // ---- seed -------------------------------------------------------------------------------
    const seeded = Date.now();
    const rand = random(17);
    const pick = (list) => list[Math.floor(rand() * list.length)];
    const kinds = ['Telecom Tower', 'Footbridge', 'Highway Bridge', 'Water Tower', 'Mast', 'Dam', 'Culvert', 'Overpass'];
    const places = ['North Ridge', 'Grand River', 'Harbour', 'Cedar Falls', 'Elm Street', 'Lakeshore', 'Pine Hill', 'Old Mill'];
    const projects = [];
    for (let i = 0; i < PROJECTS; i++) {
      const kind = pick(kinds);
      const located = rand() < 0.9;
      projects.push({
        id: `bench-p${String(i).padStart(4, '0')}`,
        data: {
          name: i === 0 ? 'Bench Big Project' : `${pick(places)} ${kind} ${i}`,
          structure_id: i === 0 ? 'BENCH-BIG' : `${kind.slice(0, 3).toUpperCase()}-${String(i).padStart(4, '0')}`,
          slug: `bench-${i}`,
          description: `Inspection of the ${kind.toLowerCase()} at ${pick(places)}: drone surveys every season, ${Math.floor(rand() * 40) + 10} m high.`,
          ...(located
            ? {
                location: {
                  lat: Number((43 + rand() * 2).toFixed(5)),
                  lng: Number((-81 + rand() * 3).toFixed(5)),
                  address: `${i} ${pick(places)} Rd`,
                },
              }
            : {}),
          reference_model_id: null,
          created_at: '2025-01-01T00:00:00.000Z',
        },
      });
    }
    const models = [];
    const big = projects[0];
    const modelDoc = (project, n, withFiles) => {
      const uuid = `00000000-0000-4000-8000-${String(models.length).padStart(12, '0')}`; // uuid-shaped (storage paths need one)
      const day = String(1 + Math.floor(rand() * 28)).padStart(2, '0');
      const month = String(1 + Math.floor(rand() * 12)).padStart(2, '0');
      const glb = `models/${uuid}/model.glb`;
      return {
        id: uuid,
        data: {
          uuid,
          publicId: `${project.data.structure_id}-${String(n).padStart(3, '0')}`,
          name: `${project.data.name} survey ${n}`,
          projectId: project.id,
          isReference: false,
          modelType: 'mesh',
          owner_uid: null,
          visible: rand() > 0.05,
          files: {
            splatPath: null,
            splatSize: null,
            glbPath: glb,
            glbSize: withFiles ? 1024 : 1024 * 1024,
            cameraMetadata: null,
            images: [],
            thumbnails: [],
            assets: [],
          },
          metadata: { captureDate: `2025-${month}-${day}`, displayOrder: 0, annotationsCount: Math.floor(rand() * 5) },
          created_at: '2025-01-01T00:00:00.000Z',
          last_updated: '2025-01-01T00:00:00.000Z',
          uploaded_at: '2025-01-01T00:00:00.000Z',
        },
      };
    };
    for (let n = 1; n <= BIG; n++) models.push({ ...modelDoc(big, n, true), visible: true });
    for (let i = 0; models.length < MODELS; i++) {
      const project = projects[1 + (i % (PROJECTS - 1))];
      models.push(modelDoc(project, Math.floor(i / (PROJECTS - 1)) + 1, false));
    }
    for (const m of models.slice(0, BIG)) m.data.visible = true;
    const writes = [
      ...projects.map((p) => ({ op: 'set', collection: 'projects', id: p.id, data: p.data })),
      ...models.map((m) => ({ op: 'set', collection: 'models', id: m.id, data: m.data })),
    ];
    for (let at = 0; at < writes.length; at += 500) await api('/v1/batch', { ops: writes.slice(at, at + 500) });
    log(`seeded ${PROJECTS} projects and ${models.length} models in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    // the 300-model project: its first model is its reference, and every model's GLB exists
    await api('/v1/batch', {
      ops: [
        { op: 'update', collection: 'projects', id: big.id, data: { reference_model_id: models[0].id } },
        { op: 'update', collection: 'models', id: models[0].id, data: { isReference: true } },
      ],
    });
    const { createLocalBackend } = await import(pathToFileURL(join(root, 'shared/adapters/local/index.ts')).href);
    const { triangleGlb } = await import(pathToFileURL(join(root, 'tests/support/model-fixtures.ts')).href);
    const service = createLocalBackend({ baseUrl: base, serviceKey: key });
    const glb = await triangleGlb('bench:portal');
    for (let at = 0; at < BIG; at += 64) {
      const items = models.slice(at, Math.min(BIG, at + 64));
      await service.files.uploadBatch(
        items.map((m) => ({ path: m.data.files.glbPath, source: new Blob([glb]), contentType: 'model/gltf-binary' })),
      );
    }
    await service.close();
    log(`stored ${BIG} GLB files`);

    // ---- the 10,000-model query ---------------------------------------------------------------
    // Raw HTTP (node:http, nothing decoded): the time to the answer's last byte and its bytes on the wire.
    const rawQuery = (encoding) =>
      new Promise((done, fail) => {
        const body = JSON.stringify({ query: { orderBy: [['publicId', 'asc']] } });
        const start = performance.now();
        const request = http.request(
          `${base}/v1/query/models`,
          {
            method: 'POST',
            headers: {
              ...auth,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
              'accept-encoding': encoding,
            },
          },
          (response) => {
            let wire = 0;
            response.on('data', (chunk) => (wire += chunk.length));
            response.on('end', () =>
              done({ ms: performance.now() - start, wire, encoding: response.headers['content-encoding'] || 'identity' }),
            );
            response.on('error', fail);
          },
        );
        request.on('error', fail);
        request.end(body);
      });
    // a write to the models collection: the next query reads and serialises (and compresses) afresh
    const touch = () =>
      api('/v1/batch', {
        ops: [
          { op: 'update', collection: 'models', id: models[1].id, data: { 'metadata.annotationsCount': Math.floor(Math.random() * 9) } },
        ],
      });
    const queryRows = [];
    for (const encoding of ['identity', 'gzip', 'br']) {
      const cold = [];
      const warm = [];
      for (let i = 0; i < QUERY_RUNS; i++) {
        await touch();
        cold.push(await rawQuery(encoding));
        warm.push(await rawQuery(encoding));
      }
      queryRows.push({
        asked: encoding,
        got: cold[0].encoding,
        cold: median(cold.map((r) => r.ms)),
        warm: median(warm.map((r) => r.ms)),
        wire: warm[0].wire,
      });
    }
    // ---- the screens, in headless Chromium ------------------------------------------------------
    const account = await (async () => {
      const response = await fetch(`${base}/v1/auth/accounts`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'bench-admin@lab.example', password: 'bench-admin-1' }),
      });
      if (!response.ok) throw new Error(`create account: ${response.status} ${await response.text()}`);
      return (await response.json()).user;
    })();
    await api('/v1/batch', {
      ops: [
        { op: 'set', collection: 'users', id: account.uid, data: { uid: account.uid, email: 'bench-admin@lab.example', role: 'admin' } },
      ],
    });
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort()); // offline, as CI: map tiles fail, the grid map shows
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel('Email').fill('bench-admin@lab.example');
    await page.getByLabel('Password').fill('bench-admin-1');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/login'), { timeout: 60_000 });

    let requests = [];
    page.on('requestfinished', async (request) => {
      if (!new URL(request.url()).pathname.startsWith('/v1/')) return;
      const entry = { url: request.url(), wire: 0, decoded: 0 };
      requests.push(entry);
      const sizes = await request.sizes().catch(() => null);
      entry.wire = sizes?.responseBodySize ?? 0;
      const response = await request.response();
      entry.decoded = (await response?.body().catch(() => null))?.length ?? entry.wire;
    });
    page.on('request', (request) => {
      // the live-update stream never finishes: counted when it opens
      if (new URL(request.url()).pathname === '/v1/events') requests.push({ url: request.url(), wire: 0, decoded: 0 });
    });
    const nodes = () => page.evaluate(() => document.querySelectorAll('*').length);
    const linksReady = () =>
      page.waitForFunction(
        () => {
          const cards = [...document.querySelectorAll('[data-testid=project-model]')];
          return cards.length > 0 && cards.every((card) => [...card.querySelectorAll('a')].some((a) => a.textContent === 'View Model'));
        },
        undefined,
        { timeout: 60_000, polling: 50 },
      );
    const screens = [
      {
        name: '/catalog',
        path: '/catalog',
        ready: () => page.locator('[data-testid=all-projects] [data-testid=catalog-card]').first().waitFor({ timeout: 60_000 }),
        scroll: true,
      },
      {
        name: '/projects',
        path: '/projects',
        ready: () => page.locator('[data-testid=project-card]').first().waitFor({ timeout: 60_000 }),
        scroll: true,
      },
      {
        name: '/projects?view=table',
        path: '/projects?view=table',
        ready: () => page.locator('[data-testid=project-row]').first().waitFor({ timeout: 60_000 }),
        scroll: true,
      },
      {
        name: '/projects/map',
        path: '/projects/map',
        ready: () => page.locator('[data-testid=map-cluster], [data-testid=map-marker]').first().waitFor({ timeout: 60_000 }),
      },
      { name: '/models', path: '/models', ready: () => page.locator('[data-testid=model-row]').first().waitFor({ timeout: 60_000 }) },
      { name: `project detail (${BIG} models)`, path: `/projects/${big.id}`, ready: linksReady },
    ];
    const screenRows = [];
    for (const screen of screens) {
      await page.goto('about:blank');
      requests = [];
      const start = performance.now();
      await page.goto(`${base}${screen.path}`);
      // a screen whose content never shows (e.g. an older portal without ?view=table) is reported, not fatal
      const ms = await screen.ready().then(
        () => performance.now() - start,
        () => Number.NaN,
      );
      await page.waitForTimeout(1000); // late requests (thumbnails, links) settle
      const domTop = await nodes();
      let domEnd = null;
      if (screen.scroll) {
        await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        await page.waitForTimeout(500);
        domEnd = await nodes();
      }
      screenRows.push({
        name: screen.name,
        ms,
        domTop,
        domEnd,
        requests: requests.length,
        wire: requests.reduce((sum, r) => sum + r.wire, 0),
        decoded: requests.reduce((sum, r) => sum + r.decoded, 0),
      });
      log(
        `${screen.name}: ${ms.toFixed(0)} ms, ${domTop} nodes${domEnd === null ? '' : ` (${domEnd} at the end)`}, ${requests.length} API requests`,
      );
    }
    await context.close();

    // ---- the table --------------------------------------------------------------------------------
    const kB = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
    const pad = (text, n) => String(text).padEnd(n);
    const lpad = (text, n) => String(text).padStart(n);
    console.log(
      `\nPortal benchmark (${PROJECTS} projects, ${models.length} models, headless Chromium 1400×900, admin; ${new Date().toISOString()})`,
    );
    console.log(
      `${pad('screen', 28)}${lpad('to content', 12)}${lpad('DOM nodes', 11)}${lpad('after scroll', 14)}${lpad('API requests', 14)}${lpad('API bytes (wire)', 18)}${lpad('uncompressed', 14)}`,
    );
    for (const r of screenRows) {
      console.log(
        `${pad(r.name, 28)}${lpad(Number.isFinite(r.ms) ? `${(r.ms / 1000).toFixed(2)} s` : 'none', 12)}${lpad(r.domTop, 11)}${lpad(r.domEnd ?? '—', 14)}${lpad(r.requests, 14)}${lpad(kB(r.wire), 18)}${lpad(kB(r.decoded), 14)}`,
      );
    }
    // the project screens read the projects and one summary per project: their bytes grow with the projects, not the models
    console.log(`
API bytes read by the project screens (${PROJECTS} projects, ${models.length} models): per project and per model`);
    console.log(`${pad('screen', 28)}${lpad('uncompressed', 14)}${lpad('per project', 14)}${lpad('per model', 12)}`);
    for (const r of screenRows.filter((row) => ['/catalog', '/projects', '/projects?view=table', '/projects/map'].includes(row.name))) {
      console.log(
        `${pad(r.name, 28)}${lpad(kB(r.decoded), 14)}${lpad(`${(r.decoded / PROJECTS).toFixed(0)} B`, 14)}${lpad(`${(r.decoded / models.length).toFixed(1)} B`, 12)}`,
      );
    }
    console.log(
      `\n${models.length}-model query (POST /v1/query/models as the service key, ordered by publicId; median of ${QUERY_RUNS}, time to the last byte)`,
    );
    console.log(
      `${pad('Accept-Encoding', 18)}${pad('answered', 10)}${lpad('after a write', 15)}${lpad('unchanged', 12)}${lpad('bytes on the wire', 19)}${lpad('vs identity', 13)}`,
    );
    const identity = queryRows[0];
    for (const r of queryRows) {
      console.log(
        `${pad(r.asked, 18)}${pad(r.got, 10)}${lpad(`${r.cold.toFixed(1)} ms`, 15)}${lpad(`${r.warm.toFixed(1)} ms`, 12)}${lpad(r.wire.toLocaleString('en-US'), 19)}${lpad(`${((r.wire / identity.wire) * 100).toFixed(1)} %`, 13)}`,
      );
    }
    console.log(
      '(identity = the uncompressed baseline; "after a write" = the first query after a model changed: read, serialised and compressed afresh)',
    );
  } finally {
    await browser?.close().catch(() => undefined);
    child.kill('SIGTERM');
    await new Promise((done) => (child.exitCode !== null ? done() : child.once('exit', done)));
    rmSync(work, { recursive: true, force: true });
  }
}
