/**
 * The key-less project map (no maps-service API key needed) in headless Chromium with 1,000 projects:
 * (a) offline, as CI is (OpenStreetMap's tiles unreachable): the plain grid with clustered
 *     markers and the note, drag-pan, a cluster click zooms in, a bounded DOM;
 * (b) a tile server on 127.0.0.1 (generated 256×256 PNG tiles of one colour) configured as the
 *     server's tile URL (CATALOG_MAP_TILES_URL): MapLibre (WebGL in SwiftShader) draws the tiles
 *     (requests seen by the tile server, that colour in the canvas) and clusters (a few dozen
 *     cluster features, not 1,000 markers; the page's DOM stays under 3,000 nodes), drag-pan moves
 *     the centre, a cluster click zooms in, a single project opens the popup with 'View Project';
 *     project detail's location map is the same tile map at zoom 14, 200 px high.
 * Screenshots go to test-results/map-*.png.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WriteOp } from '@shared/ports/index.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { startTileServer, type TileServer } from '../support/tiles.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const USER = DEMO_ACCOUNTS.find((a) => a.role === 'user') as (typeof DEMO_ACCOUNTS)[number];
const PROJECTS = 1_000;
const TEST_TIMEOUT_MS = 180_000;
/** The tiles' colour: nothing else on the page is this orange. */
const TILE_RGB = { r: 255, g: 136, b: 0 };
const MAX_DOM_NODES = 3_000;

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] map test skipped: ${skipReason}`);

/** A deterministic spread of places over southern Ontario (a few tight groups and a scatter). */
function places(n: number): Array<{ lat: number; lng: number }> {
  let seed = 17;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const groups = [
    { lat: 43.47, lng: -80.54 },
    { lat: 43.65, lng: -79.38 },
    { lat: 45.42, lng: -75.69 },
    { lat: 42.98, lng: -81.25 },
  ];
  return Array.from({ length: n }, (_, i) => {
    if (i % 2 === 0) {
      const g = groups[i % groups.length]!;
      return { lat: g.lat + (random() - 0.5) * 0.3, lng: g.lng + (random() - 0.5) * 0.4 };
    }
    return { lat: 42.5 + random() * 3.5, lng: -82 + random() * 7 };
  });
}

/** Counts the page's DOM elements. */
const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length);

describe.skipIf(skipReason !== null)('the key-less project map with 1,000 projects', () => {
  let seeded: EmbeddedServer;
  let tiles: TileServer | null = null;
  let browser: Browser;
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  const pageErrors: string[] = [];
  const figures: Record<string, number | string> = {};

  beforeAll(async () => {
    const started = Date.now();
    tiles = await startTileServer(TILE_RGB);
    // the server hands its tile URL to the portal (catalog serve --map-tiles-url)
    seeded = await startEmbeddedServer({ prefix: 'e2e-map', portalDir: portalDist, seed: true, mapTilesUrl: tiles.url });
    const ops: WriteOp[] = places(PROJECTS).map((location, i) => ({
      op: 'set',
      collection: 'projects',
      id: `map-${String(i).padStart(4, '0')}`,
      data: {
        name: `Site ${String(i).padStart(4, '0')}`,
        structure_id: `MAP-${String(i).padStart(4, '0')}`,
        description: '',
        slug: `site-${i}`,
        location: { ...location, address: null, mapUrl: null },
      },
    }));
    for (let i = 0; i < ops.length; i += 500) await seeded.service.catalog.batch(ops.slice(i, i + 500));
    browser = await launchChromium({ webgl: true });
    figures.setupMs = Date.now() - started;
  }, 240_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await seeded?.stop();
    await tiles?.close();
    console.info(`[e2e] map figures: ${JSON.stringify(figures)}`);
  });

  beforeEach(screenshotOnFailure('map', () => page));

  async function openSignedIn(viewport?: { width: number; height: number }): Promise<Page> {
    await context?.close().catch(() => undefined);
    context = await offlineContext(browser, viewport);
    page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await submitSignIn(page, seeded.url, USER.email, USER.password);
    await page.waitForURL(`${seeded.url}/projects`);
    return page;
  }

  const shot = (p: Page, name: string) => p.screenshot({ path: join(RESULTS, `map-${name}.png`) });

  it(
    'offline (tiles unreachable): the plain grid with clustered markers, the note, drag-pan and cluster zoom',
    async () => {
      const p = await openSignedIn();
      // As in CI: the configured tiles cannot be reached (offlineContext already aborts OpenStreetMap's).
      await context!.route(/\/tiles\//, (route) => route.abort('internetdisconnected'));
      const started = Date.now();
      await p.goto(`${seeded.url}/projects/map`);
      const grid = p.getByTestId('keyless-map');
      await grid.waitFor({ timeout: 30_000 });
      figures.gridShownMs = Date.now() - started;
      await p.getByText('Map tiles could not be loaded; showing project locations on a plain grid.').waitFor();
      expect(await p.getByTestId('stat-with-location').locator('.stat-value').textContent()).toBe(String(PROJECTS + 2));
      const clusters = await p.getByTestId('map-cluster').count();
      const markers = await p.getByTestId('map-marker').count();
      const counted = await p
        .getByTestId('map-cluster')
        .evaluateAll((all) => all.reduce((n, el) => n + Number(el.getAttribute('data-count')), 0));
      figures.gridClusters = clusters;
      figures.gridMarkers = markers;
      expect(clusters).toBeGreaterThan(0);
      expect(clusters + markers).toBeLessThan(200);
      // every project is in a cluster or drawn as a marker (the fitted view shows them all)
      expect(counted + markers).toBe(PROJECTS + 2);
      figures.gridDomNodes = await domNodes(p);
      expect(figures.gridDomNodes).toBeLessThanOrEqual(MAX_DOM_NODES);
      await shot(p, 'grid-offline');

      // drag-pan moves the centre
      const before = await grid.getAttribute('data-center');
      const box = (await grid.boundingBox())!;
      await p.mouse.move(box.x + 200, box.y + 300);
      await p.mouse.down();
      await p.mouse.move(box.x + 350, box.y + 380, { steps: 8 });
      await p.mouse.up();
      const after = await grid.getAttribute('data-center');
      expect(after).not.toBe(before);
      const [lat0, lng0] = before!.split(',').map(Number) as [number, number];
      const [lat1, lng1] = after!.split(',').map(Number) as [number, number];
      // dragged right and down: the view moved west and north
      expect(lng1).toBeLessThan(lng0);
      expect(lat1).toBeGreaterThan(lat0);

      // a cluster click zooms in
      const zoom = Number(await grid.getAttribute('data-zoom'));
      await p.getByTestId('map-cluster').first().click();
      await expect.poll(async () => Number(await grid.getAttribute('data-zoom'))).toBeGreaterThan(zoom);
      await shot(p, 'grid-zoomed');
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'tiles from a loopback tile server: MapLibre draws them and clusters the 1,000 projects; drag-pan, cluster zoom, popup',
    async () => {
      tiles!.requests.length = 0;
      const p = await openSignedIn();
      const started = Date.now();
      await p.goto(`${seeded.url}/projects/map`);
      const map = p.getByTestId('tile-map');
      await map.waitFor();
      await expect.poll(async () => Number(await map.getAttribute('data-clusters')), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(async () => Number(await map.getAttribute('data-tiles-loaded')), { timeout: 30_000 }).toBeGreaterThan(0);
      figures.tilesShownMs = Date.now() - started;
      expect(tiles!.requests.length).toBeGreaterThan(0);
      expect(tiles!.requests.every((url) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(url))).toBe(true);
      // no grid fallback, the attribution is shown
      expect(await p.getByTestId('keyless-map').count()).toBe(0);
      const attribution = p.getByRole('link', { name: '© OpenStreetMap contributors' });
      expect(await attribution.getAttribute('href')).toBe('https://www.openstreetmap.org/copyright');

      // the canvas shows the tiles' colour (read back from a screenshot of the map)
      const image = sharp(await map.screenshot());
      const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
      let orange = 0;
      for (let i = 0; i < data.length; i += info.channels) {
        if (Math.abs(data[i]! - TILE_RGB.r) < 8 && Math.abs(data[i + 1]! - TILE_RGB.g) < 8 && Math.abs(data[i + 2]! - TILE_RGB.b) < 8)
          orange++;
      }
      figures.tilePixelShare = Math.round((orange / (info.width * info.height)) * 100) / 100;
      expect(orange / (info.width * info.height)).toBeGreaterThan(0.5);

      const clusters = Number(await map.getAttribute('data-clusters'));
      const points = Number(await map.getAttribute('data-points'));
      figures.tileClusters = clusters;
      figures.tilePoints = points;
      expect(clusters).toBeGreaterThan(0);
      expect(clusters + points).toBeLessThan(300);
      // the projects are not DOM elements: no marker buttons, a bounded page
      expect(await p.getByTestId('map-marker').count()).toBe(0);
      figures.tileDomNodes = await domNodes(p);
      expect(figures.tileDomNodes).toBeLessThanOrEqual(MAX_DOM_NODES);
      await shot(p, 'tiles');

      // drag-pan moves the centre
      const before = (await map.getAttribute('data-center'))!;
      const box = (await map.boundingBox())!;
      await p.mouse.move(box.x + 300, box.y + 250);
      await p.mouse.down();
      await p.mouse.move(box.x + 450, box.y + 320, { steps: 10 });
      await p.mouse.up();
      await expect.poll(() => map.getAttribute('data-center')).not.toBe(before);
      const [lat0, lng0] = before.split(',').map(Number) as [number, number];
      const [lat1, lng1] = (await map.getAttribute('data-center'))!.split(',').map(Number) as [number, number];
      expect(lng1).toBeLessThan(lng0);
      expect(lat1).toBeGreaterThan(lat0);

      // a click on the biggest cluster zooms in
      await p.waitForTimeout(300);
      const zoom = Number(await map.getAttribute('data-zoom'));
      const [cx, cy] = (await map.getAttribute('data-cluster-at'))!.split(',').map(Number) as [number, number];
      await p.mouse.click(box.x + cx, box.y + cy);
      await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeGreaterThan(zoom);
      await shot(p, 'tiles-zoomed');

      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a single project on the tile map opens the popup with View Project; project detail shows the tile map at zoom 14, 200 px high',
    async () => {
      const p = await openSignedIn();
      await p.goto(`${seeded.url}/projects/map-0001`);
      const detailMap = p.getByTestId('tile-map');
      await detailMap.waitFor({ timeout: 30_000 });
      await expect.poll(async () => Number(await detailMap.getAttribute('data-tiles-loaded')), { timeout: 30_000 }).toBeGreaterThan(0);
      expect(Number(await detailMap.getAttribute('data-zoom'))).toBe(14);
      expect(Math.round((await detailMap.boundingBox())!.height)).toBe(200);
      expect(await p.locator('iframe').count()).toBe(0);
      await detailMap.scrollIntoViewIfNeeded();
      await shot(p, 'detail');

      // on the project map, zoom until a single point shows, then click it
      await p.goto(`${seeded.url}/projects/map`);
      const map = p.getByTestId('tile-map');
      await expect.poll(async () => Number(await map.getAttribute('data-clusters')), { timeout: 30_000 }).toBeGreaterThan(0);
      const box = (await map.boundingBox())!;
      for (let i = 0; i < 8; i++) {
        const at = await map.getAttribute('data-cluster-at');
        if (!at) break;
        const [cx, cy] = at.split(',').map(Number) as [number, number];
        const zoom = Number(await map.getAttribute('data-zoom'));
        await p.mouse.click(box.x + cx, box.y + cy);
        await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeGreaterThan(zoom);
        await p.waitForTimeout(400);
        if (Number(await map.getAttribute('data-points')) > 0) break;
      }
      await expect.poll(() => map.getAttribute('data-point-at'), { timeout: 10_000 }).not.toBeNull();
      const single = await map.getAttribute('data-point-at');
      const [px, py] = single!.split(',').map(Number) as [number, number];
      await p.mouse.click(box.x + px, box.y + py);
      const popup = p.getByTestId('map-popup');
      await popup.waitFor();
      await shot(p, 'tiles-popup');
      await popup.getByRole('button', { name: 'View Project' }).click();
      await p.waitForURL(/\/projects\/[^/]+$/);
      expect(pageErrors).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
