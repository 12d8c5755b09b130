/**
 * The browse screens by keyboard and under axe (WCAG 2.1 AA), in headless Chromium against the
 * embedded server with the demo catalog plus 400 projects seeded through the service backend (as
 * tests/e2e/scale.test.ts does; the first, 'Keyboard Big Project', with 30 models, two pages):
 * (a) axe-core (WCAG 2.1 A/AA and best practice) finds nothing on the states the route walk of
 *     responsive.test.ts does not open: /projects/map (the plain grid, as in CI) with a popup open,
 *     both pages of a 30-model project and /models with a search typed, as user and as admin at
 *     1400×900 and 390×844 (page titles checked too);
 * (b) with the keyboard alone (page.keyboard, no mouse): Tab walks the virtualised grid card by
 *     card to the last of the 403 projects and Shift+Tab back to the first, likewise the table;
 *     Enter opens the last project; 'Search models' is typed into, the result count announced,
 *     and a model's 'View 3D' opened with Enter; on the map a marker's popup opens with Enter
 *     ('View Project' focused, Tab kept inside, Escape back to the marker) and 'View Project'
 *     opens the project. Where focus is is asserted at each step;
 * (c) the tile map (MapLibre, WebGL in SwiftShader, tiles from a loopback server as in
 *     tests/e2e/map.test.ts): its canvas is named and zooms with '+', the keyboard list of what the
 *     map shows appears when focused, a cluster entry zooms in, a point entry opens the popup
 *     ('View Project' focused, Escape back to the entry), and axe finds nothing with it open.
 * Screenshots go to test-results/browse-a11y-*.png.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WriteOp } from '@shared/ports/index.js';
import { sortProjectsByStructureId } from '@shared/order.js';
import type { Project } from '@shared/types.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { axeViolations } from '../support/axe.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { startTileServer, type TileServer } from '../support/tiles.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const account = (role: 'user' | 'admin') => DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number];
const PROJECTS = 400;
const BIG_MODELS = 30;
const TEST_TIMEOUT_MS = 240_000;
const WIDTHS = [
  { width: 1400, height: 900 },
  { width: 390, height: 844 },
] as const;

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] browse-a11y test skipped: ${skipReason}`);

const pad = (i: number): string => String(i).padStart(4, '0');
const uuid = (i: number): string => `00000000-0000-4000-9000-${String(i).padStart(12, '0')}`;

/** What has focus: its tag, accessible-name parts and where it is. */
interface Focused {
  tag: string;
  text: string;
  label: string | null;
  description: string;
  testId: string | null;
  inGrid: boolean;
  inTable: boolean;
  inMap: boolean;
  inDialog: string | null;
  id: string;
}
const focused = (page: Page): Promise<Focused> =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    const describedBy = (el?.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      text: (el?.textContent ?? '').trim(),
      label: el?.getAttribute('aria-label') ?? null,
      description: describedBy.map((id) => document.getElementById(id)?.textContent?.trim() ?? '').join(' '),
      testId: el?.getAttribute('data-testid') ?? null,
      inGrid: Boolean(el?.closest('[data-testid="project-grid"]')),
      inTable: Boolean(el?.closest('[data-testid="project-table"]')),
      inMap: Boolean(el?.closest('[data-testid="keyless-map"]')),
      inDialog: el?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? null,
      id: el?.id ?? '',
    };
  });

const shot = (p: Page, name: string) => p.screenshot({ path: join(RESULTS, `browse-a11y-${name}.png`) });

/** Presses Tab until `until` holds for the focused element (at most `max` presses); returns it. */
async function tabUntil(page: Page, until: (f: Focused) => boolean, max = 80): Promise<Focused> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    if (until(now)) return now;
  }
  throw new Error(`focus never got there in ${max} Tabs (last: ${JSON.stringify(await focused(page))})`);
}

describe.skipIf(skipReason !== null)('browse screens: axe and the keyboard', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  let ordered: Project[] = [];
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'e2e-browse-a11y', portalDir: portalDist, seed: true });
    const ops: WriteOp[] = [];
    for (let i = 0; i < PROJECTS; i++) {
      ops.push({
        op: 'set',
        collection: 'projects',
        id: `kbd-${pad(i)}`,
        data: {
          name: i === 0 ? 'Keyboard Big Project' : `Keyboard Site ${pad(i)}`,
          structure_id: `ZKB-${pad(i)}`,
          description: `Site number ${i} of the keyboard test.`,
          slug: `kbd-${i}`,
        },
      });
    }
    for (let n = 0; n < BIG_MODELS; n++) {
      ops.push({
        op: 'set',
        collection: 'models',
        id: uuid(n),
        data: {
          uuid: uuid(n),
          publicId: `ZKB-BIG-${String(n).padStart(3, '0')}`,
          name: `Keyboard survey ${n}`,
          projectId: 'kbd-0000',
          isReference: false,
          modelType: 'mesh',
          visible: true,
          files: { glbPath: `models/${uuid(n)}/model.glb`, glbSize: 1024 },
          metadata: { captureDate: `2025-02-${String((n % 28) + 1).padStart(2, '0')}`, annotationsCount: 0 },
        },
      });
    }
    for (let i = 0; i < ops.length; i += 500) await seeded.service.catalog.batch(ops.slice(i, i + 500));
    ordered = sortProjectsByStructureId((await seeded.service.catalog.query('projects')) as Project[]);
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await seeded?.stop();
    console.info(`[e2e] browse-a11y figures: ${JSON.stringify(figures)}`);
  });

  beforeEach(screenshotOnFailure('browse-a11y', () => page));

  async function openSignedIn(role: 'user' | 'admin', viewport: { width: number; height: number } = WIDTHS[0]): Promise<Page> {
    await context?.close().catch(() => undefined);
    context = await offlineContext(browser, viewport);
    page = await context.newPage();
    const { email, password } = account(role);
    await submitSignIn(page, seeded.url, email, password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    return page;
  }

  for (const role of ['user', 'admin'] as const) {
    for (const viewport of WIDTHS) {
      it(
        `axe finds nothing on the browse screens as ${role} at ${viewport.width}×${viewport.height}`,
        async () => {
          const p = await openSignedIn(role, viewport);
          const found: string[] = [];
          const scan = async (name: string) => found.push(...(await axeViolations(p, `${viewport.width} ${role} ${name}`)));

          await p.goto(`${seeded.url}/projects`);
          await p.getByTestId('project-card').first().waitFor();
          expect(await p.title()).toMatch(/^Projects · /);
          // /projects (cards and table) and the demo project's detail are scanned on every route walk
          // (responsive.test.ts); here the states those routes open and the long lists.

          await p.goto(`${seeded.url}/projects/map`);
          await p.getByTestId('keyless-map').waitFor();
          expect(await p.getByTestId('keyless-map').getAttribute('data-renderer')).toBe('grid');
          expect(await p.title()).toMatch(/^Project Map · /);
          await p.getByTestId('map-marker').first().click();
          await p.getByTestId('map-popup').waitFor();
          await scan('/projects/map with a popup');
          if (viewport.width === 1400) await shot(p, `${role}-map-popup`);

          await p.goto(`${seeded.url}/projects/kbd-0000`);
          await p.getByRole('heading', { level: 1, name: 'Keyboard Big Project' }).waitFor();
          await p.getByTestId('project-model').first().waitFor();
          expect(await p.title()).toMatch(/^Keyboard Big Project · /);
          await scan('project detail');
          await p.getByRole('navigation', { name: 'Model pages', exact: true }).getByRole('button', { name: 'Next' }).click();
          await p.getByRole('status').filter({ hasText: 'Page 2 of 2' }).waitFor();
          await scan('project detail page 2');

          await p.goto(`${seeded.url}/models`);
          await p.getByTestId('model-row').first().waitFor();
          expect(await p.title()).toMatch(/^Models · /);
          await p.getByLabel('Search models').fill('TWR-001');
          await p
            .getByRole('status')
            .filter({ hasText: /^\d+ models found$/ })
            .waitFor();
          await expect.poll(() => p.getByTestId('model-row').count()).toBeLessThan(5);
          await scan('/models with a search');
          if (viewport.width === 390) await shot(p, `${role}-models-phone`);

          expect(found).toEqual([]);
        },
        TEST_TIMEOUT_MS,
      );
    }
  }

  it(
    'Tab walks the 403-project card grid to the last card, Enter opens it; Shift+Tab walks back to the first',
    async () => {
      const p = await openSignedIn('user');
      await p.goto(`${seeded.url}/projects`);
      await p.getByTestId('project-card').first().waitFor();
      const started = Date.now();
      let now = await tabUntil(p, (f) => f.inGrid);
      for (let i = 0; i < ordered.length; i++) {
        // each Tab lands on the next project's 'View Details', described by its name
        expect({ text: now.text, description: now.description, inGrid: now.inGrid }, `card ${i}`).toEqual({
          text: 'View Details',
          description: ordered[i]?.name,
          inGrid: true,
        });
        if (i < ordered.length - 1) {
          await p.keyboard.press('Tab');
          now = await focused(p);
        }
      }
      figures.gridTabMs = Date.now() - started;
      expect(await p.getByTestId('project-card').count()).toBeLessThan(60); // still virtualised
      await shot(p, 'grid-last-card');
      // the focused card stays when the page is scrolled far away from it (scroll bar, screen reader), and Tab goes on from it
      await p.evaluate(() => window.scrollTo(0, 0));
      await p.waitForTimeout(300);
      expect(await focused(p)).toMatchObject({ text: 'View Details', description: ordered[ordered.length - 1]?.name, inGrid: true });
      await p.keyboard.press('Shift+Tab');
      expect((await focused(p)).description).toBe(ordered[ordered.length - 2]?.name);
      await p.keyboard.press('Tab');
      // and back, card by card
      for (let i = ordered.length - 2; i >= 0; i--) {
        await p.keyboard.press('Shift+Tab');
        now = await focused(p);
        expect({ text: now.text, description: now.description }, `card ${i} going back`).toEqual({
          text: 'View Details',
          description: ordered[i]?.name,
        });
      }
      await p.keyboard.press('Shift+Tab');
      expect((await focused(p)).inGrid).toBe(false);
      // forward again to the last one, which Enter opens
      await p.keyboard.press('Tab');
      now = await focused(p);
      expect(now.description).toBe(ordered[0]?.name);
      const last = ordered[ordered.length - 1] as Project;
      for (let i = 1; i < ordered.length; i++) await p.keyboard.press('Tab');
      expect((await focused(p)).description).toBe(last.name);
      await p.keyboard.press('Enter');
      await p.waitForURL(`${seeded.url}/projects/${last.id}`);
      await p.getByRole('heading', { level: 1, name: last.name }).waitFor();
      expect(await p.title()).toMatch(new RegExp(`^${last.name} · `));
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the table view: the view switch is a pair of pressed buttons, Tab walks the rows to the last project',
    async () => {
      const p = await openSignedIn('admin');
      await p.goto(`${seeded.url}/projects`);
      await p.getByTestId('project-card').first().waitFor();
      let now = await tabUntil(p, (f) => f.text === 'Table View');
      expect(await p.locator(':focus').getAttribute('aria-pressed')).toBe('false');
      await p.keyboard.press('Enter');
      await p.waitForURL(`${seeded.url}/projects?view=table`);
      // the URL changes before the re-render that presses the button
      await expect.poll(() => p.locator(':focus').getAttribute('aria-pressed')).toBe('true');
      expect((await focused(p)).text).toBe('Table View');
      now = await tabUntil(p, (f) => f.inTable);
      for (let i = 0; i < ordered.length; i++) {
        expect({ text: now.text, description: now.description }, `row ${i}`).toEqual({
          text: 'View Details',
          description: ordered[i]?.name,
        });
        if (i < ordered.length - 1) {
          await p.keyboard.press('Tab');
          now = await focused(p);
        }
      }
      expect(await p.getByTestId('project-row').count()).toBeLessThan(100);
      for (let i = ordered.length - 2; i >= ordered.length - 40; i--) {
        await p.keyboard.press('Shift+Tab');
        expect((await focused(p)).description, `row ${i} going back`).toBe(ordered[i]?.name);
      }
      // scrolled far away, the focused row stays and Tab goes on from it
      await p.evaluate(() => window.scrollTo(0, 0));
      await p.waitForTimeout(300);
      expect((await focused(p)).description).toBe(ordered[ordered.length - 40]?.name);
      await p.keyboard.press('Tab');
      expect((await focused(p)).description).toBe(ordered[ordered.length - 39]?.name);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "search models by keyboard: the count is announced, 'View 3D' (described by the model) opens with Enter",
    async () => {
      const p = await openSignedIn('user');
      await p.goto(`${seeded.url}/models`);
      await p.getByTestId('model-row').first().waitFor();
      let now = await tabUntil(p, (f) => f.id === 'model-search');
      expect(await p.locator(':focus').getAttribute('type')).toBe('search');
      await p.keyboard.type('BRG-002-2025-04');
      const count = p.getByTestId('model-count');
      await expect.poll(() => count.textContent()).toBe('1 model found');
      expect(await count.getAttribute('role')).toBe('status');
      await p.keyboard.press('Tab');
      expect((await focused(p)).id).toBe('model-project-filter');
      await p.keyboard.press('Tab');
      now = await focused(p);
      expect(now.text).toBe('Grand River Footbridge'); // the row's project link
      await p.keyboard.press('Tab');
      now = await focused(p);
      expect(now).toMatchObject({ tag: 'a', text: 'View 3D', description: 'BRG-002-2025-04 Grand River Footbridge, April 2025' });
      const [viewer] = await Promise.all([context!.waitForEvent('page'), p.keyboard.press('Enter')]);
      await viewer.waitForLoadState('domcontentloaded');
      expect(viewer.url()).toContain('BRG-002-2025-04');
      await viewer.close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'Tab walks every row of the virtualised model list (600 px, a few rows rendered) and Shift+Tab back',
    async () => {
      const p = await openSignedIn('user');
      await p.goto(`${seeded.url}/models`);
      await p.getByTestId('model-row').first().waitFor();
      const total = Number((await p.getByTestId('model-count').textContent())?.split(' ')[0]);
      expect(total).toBeGreaterThan(30);
      expect(await p.getByTestId('model-row').count()).toBeLessThan(total);
      const row = () =>
        p.evaluate(() => Number(document.activeElement?.closest('[data-testid="model-row"]')?.getAttribute('aria-posinset') ?? 0));
      // which row and which of its controls has focus ('0:-1' outside the list): a key press has
      // taken effect once this changes (the next row is scrolled in and focused a few frames later)
      const at = () =>
        p.evaluate(() => {
          const active = document.activeElement;
          const owner = active?.closest('[data-testid="model-row"]');
          if (!active || !owner) return '0:-1';
          return `${owner.getAttribute('aria-posinset')}:${[...owner.querySelectorAll('a, button, input, select')].indexOf(active)}`;
        });
      const press = async (key: 'Tab' | 'Shift+Tab') => {
        const before = await at();
        await p.keyboard.press(key);
        await expect.poll(at, { timeout: 5_000, message: `${key} from ${before} moved nothing` }).not.toBe(before);
      };
      await tabUntil(p, (f) => f.id === 'model-project-filter');
      const visited = new Set<number>();
      let last = 0;
      for (let i = 0; i < 4 * total; i++) {
        await press('Tab');
        const now = await row();
        if (now === 0) break; // past the list
        expect(now === last || now === last + 1, `row ${now} after ${last}`).toBe(true);
        visited.add(now);
        last = now;
      }
      expect(last).toBe(total);
      expect(visited.size).toBe(total);
      // back up through rows that are no longer rendered
      await press('Shift+Tab');
      expect(await row()).toBe(total);
      for (let target = total - 1; target >= total - 12; target--) {
        for (let k = 0; k < 4 && (await row()) !== target; k++) await press('Shift+Tab');
        expect(await row()).toBe(target);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the map by keyboard: a marker's popup opens with Enter, keeps Tab inside, Escape returns, 'View Project' opens the project",
    async () => {
      const p = await openSignedIn('user');
      await p.goto(`${seeded.url}/projects/map`);
      const map = p.getByTestId('keyless-map');
      await map.waitFor();
      // the map region itself takes focus: arrow keys pan it
      await tabUntil(p, (f) => f.testId === 'keyless-map');
      expect(await p.locator(':focus').getAttribute('aria-label')).toBe('Project map');
      const centre = await map.getAttribute('data-center');
      await p.keyboard.press('ArrowRight');
      await expect.poll(() => map.getAttribute('data-center')).not.toBe(centre);
      // Tab reaches a marker (a cluster zooms in first and hands focus on)
      let now = await tabUntil(p, (f) => f.testId === 'map-marker' || f.testId === 'map-cluster', 20);
      for (let i = 0; i < 5 && now.testId === 'map-cluster'; i++) {
        await p.keyboard.press('Enter');
        await expect.poll(async () => (await focused(p)).inMap).toBe(true);
        now = await focused(p);
        if (now.testId !== 'map-marker') now = await tabUntil(p, (f) => f.testId === 'map-marker' || f.testId === 'map-cluster', 20);
      }
      expect(now.testId).toBe('map-marker');
      const name = now.label as string;
      const project = ordered.find((x) => x.name === name) as Project;
      expect(project, name).toBeDefined();
      // The popup opens, then takes the focus (a frame later on a loaded machine): wait for each state.
      await p.keyboard.press('Enter');
      await p.getByRole('dialog', { name }).waitFor();
      await expect.poll(() => focused(p)).toMatchObject({ text: 'View Project', inDialog: name });
      await shot(p, 'map-popup-keyboard');
      await p.keyboard.press('Tab');
      expect(await focused(p)).toMatchObject({ label: 'Close', inDialog: name });
      await p.keyboard.press('Tab');
      expect(await focused(p)).toMatchObject({ text: 'View Project', inDialog: name });
      await p.keyboard.press('Escape');
      await expect.poll(() => p.getByRole('dialog').count()).toBe(0);
      await expect.poll(() => focused(p)).toMatchObject({ testId: 'map-marker', label: name });
      await p.keyboard.press('Enter');
      await expect.poll(() => focused(p)).toMatchObject({ text: 'View Project', inDialog: name });
      await p.keyboard.press('Enter');
      await p.waitForURL(`${seeded.url}/projects/${project.id}`);
      await p.getByRole('heading', { level: 1, name }).waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});

describe.skipIf(skipReason !== null)('the tile map by keyboard', () => {
  let seeded: EmbeddedServer;
  let tiles: TileServer | null = null;
  let browser: Browser;
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  let located: Project[] = [];

  beforeAll(async () => {
    tiles = await startTileServer({ r: 230, g: 236, b: 240 });
    seeded = await startEmbeddedServer({ prefix: 'e2e-browse-a11y-tiles', portalDir: portalDist, seed: true, mapTilesUrl: tiles.url });
    // a tight group of 40 places that the fitted view draws as a cluster
    const ops: WriteOp[] = Array.from({ length: 40 }, (_, i) => ({
      op: 'set',
      collection: 'projects',
      id: `group-${pad(i)}`,
      data: {
        name: `Group Site ${pad(i)}`,
        structure_id: `GRP-${pad(i)}`,
        description: '',
        slug: `group-${i}`,
        location: { lat: 43.46 + (i % 7) * 0.002, lng: -80.5 + Math.floor(i / 7) * 0.002, address: null, mapUrl: null },
      },
    }));
    await seeded.service.catalog.batch(ops);
    located = ((await seeded.service.catalog.query('projects')) as Project[]).filter((p) => typeof p.location?.lat === 'number');
    browser = await launchChromium({ webgl: true });
  }, 240_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await seeded?.stop();
    await tiles?.close();
  });

  beforeEach(screenshotOnFailure('browse-a11y-tiles', () => page));

  it(
    "canvas keys, the keyboard list, a point's popup and 'View Project' without a mouse; axe with the popup open",
    async () => {
      context = await offlineContext(browser, { width: 1400, height: 900 });
      const p = (page = await context.newPage());
      const { email, password } = account('user');
      await submitSignIn(p, seeded.url, email, password);
      await p.waitForURL((url) => !url.pathname.startsWith('/login'));
      await p.goto(`${seeded.url}/projects/map`);
      const map = p.getByTestId('tile-map');
      await expect.poll(async () => Number(await map.getAttribute('data-tiles-loaded')), { timeout: 30_000 }).toBeGreaterThan(0);
      await expect
        .poll(async () => Number(await map.getAttribute('data-clusters')) + Number(await map.getAttribute('data-points')))
        .toBeGreaterThan(0);
      // MapLibre's canvas: named, '+' zooms in
      const canvas = await tabUntil(p, (f) => f.tag === 'canvas');
      expect(canvas.label).toBe('Project map: arrow keys pan, + and − zoom');
      const zoom = Number(await map.getAttribute('data-zoom'));
      await p.keyboard.press('+');
      await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeGreaterThan(zoom);
      await p.keyboard.press('-');
      await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeCloseTo(zoom, 1);
      // the list of what the map shows: out of sight until focused
      const list = p.locator('.map-keyboard-list');
      expect((await list.boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
      // after the canvas: MapLibre's zoom buttons and the attribution, then the list (once the map
      // has settled at this zoom and listed what it shows)
      await expect.poll(() => list.locator('button').count(), { timeout: 10_000 }).toBeGreaterThan(0);
      const inKeyboardList = () => p.evaluate(() => Boolean(document.activeElement?.closest('.map-keyboard-list')));
      let now = await focused(p);
      for (let k = 0; k < 6 && !(await inKeyboardList()); k++) now = await tabUntil(p, () => true, 1);
      expect(await inKeyboardList()).toBe(true);
      expect((await list.boundingBox())?.width ?? 0).toBeGreaterThan(100);
      await shot(p, 'tiles-keyboard-list');
      const inList = () =>
        p.evaluate(() => document.activeElement?.closest('.map-keyboard-list') !== null && document.activeElement?.tagName === 'BUTTON');
      const isCluster = (f: Focused) => / projects: zoom in$/.test(f.text);
      // clusters come first in the list: Enter zooms into one and focus lands on the new list's first entry
      expect(isCluster(now), now.text).toBe(true);
      const fitted = Number(await map.getAttribute('data-zoom'));
      await p.keyboard.press('Enter');
      await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeGreaterThan(fitted);
      await expect.poll(inList, { timeout: 10_000 }).toBe(true);
      now = await focused(p);
      for (let i = 0; i < 8 && isCluster(now); i++) {
        // a point further down this view's list?
        while (isCluster(now) && (await inList())) now = await tabUntil(p, () => true, 1);
        if ((await inList()) && !isCluster(now)) break;
        // none: back to the list's last entry, a cluster, which zooms in; focus lands on the new list's first entry
        await p.keyboard.press('Shift+Tab');
        expect(isCluster(await focused(p))).toBe(true);
        const before = Number(await map.getAttribute('data-zoom'));
        await p.keyboard.press('Enter');
        await expect.poll(async () => Number(await map.getAttribute('data-zoom')), { timeout: 10_000 }).toBeGreaterThan(before);
        await expect.poll(inList, { timeout: 10_000 }).toBe(true);
        now = await focused(p);
      }
      const name = now.text;
      const project = located.find((x) => x.name === name) as Project;
      expect(project, `a project entry, not '${name}'`).toBeDefined();
      // The popup opens, then takes the focus (a frame later on a loaded machine): wait for each state.
      await p.keyboard.press('Enter');
      await p.getByRole('dialog', { name }).waitFor();
      await expect.poll(() => focused(p)).toMatchObject({ text: 'View Project', inDialog: name });
      expect(await axeViolations(p, '1400 user tile map with a popup')).toEqual([]);
      await shot(p, 'tiles-popup-keyboard');
      await p.keyboard.press('Escape');
      await expect.poll(() => p.getByRole('dialog').count()).toBe(0);
      await expect.poll(async () => (await focused(p)).text).toBe(name); // back on the list's entry
      await p.keyboard.press('Enter');
      await expect.poll(() => focused(p)).toMatchObject({ text: 'View Project', inDialog: name });
      await p.keyboard.press('Enter');
      await p.waitForURL(`${seeded.url}/projects/${project.id}`);
      await p.getByRole('heading', { level: 1, name }).waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});
