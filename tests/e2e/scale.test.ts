/**
 * Large catalogs in headless Chromium (the pages stay bounded and usable as the catalog grows): 400 projects and 1,300 models seeded through the
 * API (plus the demo catalog, `catalog seed`, for its accounts), one project ('SCALE-BIG') with 300 models
 * whose GLB files exist, signed in as the demo admin:
 * - /catalog and /projects keep the DOM bounded (under 3,000 elements, far fewer cards than
 *   projects) and scrolling the page to the end reveals the last projects (still bounded);
 * - /projects?view=table opens the table (Structure ID, Name, Models, Reference, Location),
 *   bounded, and its last row shows after scrolling; at 360 px the page never scrolls sideways;
 * - the 300-model project's detail shows a page of 24 cards whose 'View Model' links all resolve,
 *   with about as many link requests as cards; Next shows the following 24;
 * - /models finds a model by search (publicId, project name) and by the project filter, and each
 *   row links its project.
 * Screenshots go to test-results/scale-*.png.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WriteOp } from '@shared/ports/index.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { triangleGlb } from '../support/model-fixtures.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const ADMIN = DEMO_ACCOUNTS.find((a) => a.role === 'admin') as (typeof DEMO_ACCOUNTS)[number];
const PROJECTS = 400;
const BIG_MODELS = 300;
const OTHER_MODELS = 1_000;
const MAX_DOM_NODES = 3_000;
const TEST_TIMEOUT_MS = 120_000;

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] scale test skipped: ${skipReason}`);

const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const pad = (i: number): string => String(i).padStart(4, '0');
/** Counts the page's DOM elements. */
const domNodes = (page: Page) => page.evaluate(() => document.querySelectorAll('*').length);

describe.skipIf(skipReason !== null)('large catalogs: 400 projects, 1,300 models', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let context: BrowserContext | null = null;
  let page: Page | null = null;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'e2e-scale', portalDir: portalDist, seed: true });
    const ops: WriteOp[] = [];
    for (let i = 0; i < PROJECTS; i++) {
      ops.push({
        op: 'set',
        collection: 'projects',
        id: `scale-${pad(i)}`,
        data: {
          name: i === 0 ? 'Scale Big Project' : `Scale Site ${pad(i)}`,
          structure_id: i === 0 ? 'SCALE-BIG' : `SCL-${pad(i)}`,
          description: `Site number ${i} of the scale test.`,
          slug: `scale-${i}`,
        },
      });
    }
    const model = (n: number, projectIndex: number, publicId: string, name: string) => ({
      op: 'set' as const,
      collection: 'models' as const,
      id: uuid(n),
      data: {
        uuid: uuid(n),
        publicId,
        name,
        projectId: `scale-${pad(projectIndex)}`,
        isReference: false,
        modelType: 'mesh',
        visible: true,
        files: { glbPath: `models/${uuid(n)}/model.glb`, glbSize: 1024 },
        metadata: { captureDate: `2025-01-${String((n % 28) + 1).padStart(2, '0')}`, annotationsCount: 0 },
      },
    });
    for (let n = 0; n < BIG_MODELS; n++) ops.push(model(n, 0, `SCALE-BIG-${String(n).padStart(3, '0')}`, `Big survey ${n}`));
    for (let n = 0; n < OTHER_MODELS; n++) {
      const project = 1 + (n % (PROJECTS - 1));
      ops.push(model(BIG_MODELS + n, project, `SCL-${pad(project)}-${Math.floor(n / (PROJECTS - 1))}`, `Survey ${n}`));
    }
    for (let i = 0; i < ops.length; i += 500) await seeded.service.catalog.batch(ops.slice(i, i + 500));
    const glb = await triangleGlb('scale test');
    for (let n = 0; n < BIG_MODELS; n += 64) {
      const items = Array.from({ length: Math.min(64, BIG_MODELS - n) }, (_, k) => ({
        path: `models/${uuid(n + k)}/model.glb`,
        source: new Blob([glb]),
        contentType: 'model/gltf-binary',
      }));
      await seeded.service.files.uploadBatch!(items);
    }
    browser = await launchChromium();
  }, 240_000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await seeded?.stop();
    console.info(`[e2e] scale figures: ${JSON.stringify(figures)}`);
  });

  beforeEach(screenshotOnFailure('scale', () => page));

  async function openSignedIn(viewport?: { width: number; height: number }): Promise<Page> {
    await context?.close().catch(() => undefined);
    context = await offlineContext(browser, viewport ?? { width: 1400, height: 900 });
    page = await context.newPage();
    await submitSignIn(page, seeded.url, ADMIN.email, ADMIN.password);
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    return page;
  }

  const shot = (p: Page, name: string) => p.screenshot({ path: join(RESULTS, `scale-${name}.png`) });
  const scrollToEnd = async (p: Page) => {
    // a few steps: rows are measured as they render, and the page grows or shrinks to fit them
    for (let i = 0; i < 6; i++) {
      await p.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await p.waitForTimeout(250);
    }
  };

  it(
    '/projects renders a bounded grid; scrolling to the end reveals the last project',
    async () => {
      const p = await openSignedIn();
      await p.goto(`${seeded.url}/projects`);
      await p.getByRole('heading', { name: 'Scale Big Project' }).waitFor();
      const cards = await p.getByTestId('project-card').count();
      figures.projectsCardsTop = cards;
      figures.projectsNodesTop = await domNodes(p);
      expect(cards).toBeLessThan(60);
      expect(figures.projectsNodesTop).toBeLessThan(MAX_DOM_NODES);
      expect(await p.getByRole('heading', { name: 'Scale Site 0399' }).count()).toBe(0);
      await shot(p, 'projects-top');
      await scrollToEnd(p);
      await p.getByRole('heading', { name: 'Scale Site 0399' }).waitFor();
      expect(await p.getByRole('heading', { name: 'Scale Big Project' }).count()).toBe(0);
      figures.projectsNodesEnd = await domNodes(p);
      expect(figures.projectsNodesEnd).toBeLessThan(MAX_DOM_NODES);
      await shot(p, 'projects-end');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '/catalog keeps Browse All bounded and reaches the last project by scrolling',
    async () => {
      const p = await openSignedIn();
      await p.goto(`${seeded.url}/catalog`);
      await p.getByTestId('all-projects').getByTestId('catalog-card').first().waitFor();
      figures.catalogNodesTop = await domNodes(p);
      expect(figures.catalogNodesTop).toBeLessThan(MAX_DOM_NODES);
      expect(await p.getByTestId('catalog-card').count()).toBeLessThan(80);
      await scrollToEnd(p);
      await p.getByRole('heading', { name: 'Scale Site 0399' }).waitFor();
      figures.catalogNodesEnd = await domNodes(p);
      expect(figures.catalogNodesEnd).toBeLessThan(MAX_DOM_NODES);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '/projects?view=table shows the bounded table, its last row after scrolling, and fits 360 px',
    async () => {
      const p = await openSignedIn();
      await p.goto(`${seeded.url}/projects?view=table`);
      const table = p.getByTestId('project-table');
      await table.getByRole('cell', { name: 'SCALE-BIG' }).waitFor();
      expect(await table.getByRole('columnheader').allTextContents()).toEqual([
        'Structure ID',
        'Name',
        'Models',
        'Reference',
        'Location',
        'Actions',
      ]);
      expect(await table.getByTestId('project-row').filter({ hasText: 'SCALE-BIG' }).getByRole('cell').nth(2).textContent()).toContain(
        '300',
      );
      expect(await p.getByTestId('project-row').count()).toBeLessThan(100);
      expect(await domNodes(p)).toBeLessThan(MAX_DOM_NODES);
      await scrollToEnd(p);
      await table.getByRole('cell', { name: 'SCL-0399' }).waitFor();
      await p.getByRole('button', { name: 'Card Grid' }).click();
      await p.waitForURL(`${seeded.url}/projects`);
      await p.getByTestId('project-card').first().waitFor();

      const phone = await openSignedIn({ width: 360, height: 780 });
      for (const path of ['/projects?view=table', '/projects', '/models']) {
        await phone.goto(`${seeded.url}${path}`);
        await phone.locator('[data-testid=project-row], [data-testid=project-card], [data-testid=model-row]').first().waitFor();
        const { scrollWidth, innerWidth } = await phone.evaluate(() => ({
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        }));
        expect(scrollWidth, path).toBeLessThanOrEqual(innerWidth);
        await shot(phone, `phone-${path.replace(/[^a-z]+/g, '-')}`);
      }
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "the 300-model project's detail shows 24 cards a page with every link resolved",
    async () => {
      const p = await openSignedIn();
      const linkRequests: string[] = [];
      p.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/v1/download-url/')) linkRequests.push(request.url());
      });
      const started = Date.now();
      await p.goto(`${seeded.url}/projects/scale-0000`);
      await p.getByRole('heading', { name: '3D Models (300)' }).waitFor();
      const cards = p.getByTestId('project-model');
      await expect.poll(() => cards.count()).toBe(24);
      await expect.poll(() => cards.getByRole('link', { name: 'View Model' }).count(), { timeout: 60_000 }).toBe(24);
      figures.detailLinksReadyMs = Date.now() - started;
      figures.detailLinkRequests = linkRequests.length;
      figures.detailNodes = await domNodes(p);
      expect(linkRequests.length).toBeGreaterThanOrEqual(24);
      expect(linkRequests.length).toBeLessThanOrEqual(30);
      expect(figures.detailNodes).toBeLessThan(MAX_DOM_NODES);
      expect(await p.getByTestId('model-page').first().textContent()).toBe('Showing 1–24 of 300 · Page 1 of 13');
      await shot(p, 'detail');
      const firstName = await cards.first().getByRole('heading').textContent();
      await p.getByRole('button', { name: 'Next' }).first().click();
      await expect.poll(() => p.getByTestId('model-page').first().textContent()).toBe('Showing 25–48 of 300 · Page 2 of 13');
      expect(await cards.first().getByRole('heading').textContent()).not.toBe(firstName);
      await expect.poll(() => cards.getByRole('link', { name: 'View Model' }).count(), { timeout: 60_000 }).toBe(24);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    '/models finds a model by search and by project, each row linking its project',
    async () => {
      const p = await openSignedIn();
      await p.goto(`${seeded.url}/models`);
      await p.getByTestId('model-row').first().waitFor();
      const total = Number((await p.getByTestId('model-count').textContent())?.split(' ')[0]);
      expect(total).toBeGreaterThanOrEqual(BIG_MODELS + OTHER_MODELS);
      const search = p.getByLabel('Search models');
      await search.fill('SCL-0123-1');
      await expect.poll(() => p.getByTestId('model-count').textContent()).toBe('1 model found');
      const row = p.getByTestId('model-row').first();
      expect(await row.getByText('SCL-0123-1', { exact: true }).count()).toBe(1);
      await row.getByRole('link', { name: 'Scale Site 0123' }).click();
      await p.waitForURL(`${seeded.url}/projects/scale-0123`);
      await p.goBack();
      await p.getByLabel('Search models').fill('Scale Site 0042');
      await expect.poll(() => p.getByTestId('model-count').textContent()).toBe('3 models found');
      await p.getByLabel('Search models').fill('');
      await p.getByLabel('Filter by project').selectOption('scale-0000');
      await expect.poll(() => p.getByTestId('model-count').textContent()).toBe(`${BIG_MODELS} models found`);
      expect(await domNodes(p)).toBeLessThan(MAX_DOM_NODES);
      await shot(p, 'models-filtered');
    },
    TEST_TIMEOUT_MS,
  );
});
