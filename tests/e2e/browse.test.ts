/**
 * Every browsing screen of the portal's route table in headless Chromium against `catalog serve` with the
 * seeded demo data, as signed-out visitor, user and admin: landing, sign-in, the shell
 * redirects, catalog home, project list (grid and table), the key-less project map (markers,
 * popups, stats, the Current Location toggle with a stubbed browser geolocation), project detail
 * and the model list (hidden models, admin upload panel, Hide/Show). A screenshot of each route
 * goes to test-results/browse-*.png.
 *
 * Needs the built portal (`npm test` builds it first) and /usr/bin/chromium; skips with a printed
 * reason when either is missing. Nothing leaves 127.0.0.1 (external links are only inspected).
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { MAP_USER_LOCATION_ZOOM } from '@shared/constants.js';
import { sortModelsByPublicId, sortProjectsByStructureId } from '@shared/order.js';
import { featuredProjects, mapStats, projectMarkerColor, projectsOnMap } from '@shared/projects.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import { createProject } from '@shared/workflows/index.js';
import { DEMO_ACCOUNTS, makeTowerGlb } from '../../cli/src/lib/demo-data/index.js';
import type { RunningServer } from '../../cli/src/server/index.js';

/** The accounts `catalog seed` creates. */
const demoAccount = (role: 'user' | 'admin') => DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number];
const USER = demoAccount('user');
const ADMIN = demoAccount('admin');
const SHELL_ROUTES = ['/catalog', '/projects', '/projects/map', '/models'];
/** Headroom for a loaded CI machine (each test takes 3-4 s when idle). */
const TEST_TIMEOUT_MS = 120_000;

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] browse test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('browsing screens in headless Chromium', () => {
  let seeded: EmbeddedServer;
  let server: RunningServer;
  let service: Backend;
  let browser: Browser;
  let projects: Project[];
  let models: Model[];
  let tower: Project;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'browse', portalDir: portalDist, seed: true });
    ({ server, service } = seeded);
    projects = sortProjectsByStructureId((await service.catalog.query('projects')) as Project[]);
    models = (await service.catalog.query('models')) as Model[];
    const located = projectsOnMap(projects);
    const withModels = located.find((p) => models.some((m) => m.projectId === p.id));
    if (!withModels) throw new Error('the seed has no located project with models');
    tower = withModels;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
  });

  let current: Page | null = null;
  beforeEach(screenshotOnFailure('browse-failure', () => current));

  async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await offlineContext(browser);
    const page = await context.newPage();
    current = page;
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return { context, page };
  }

  async function signIn(page: Page, who: { email: string; password: string }, role: 'USER' | 'ADMIN'): Promise<void> {
    await submitSignIn(page, server.url, who.email, who.password);
    await page.waitForURL(`${server.url}/projects`);
    await page.getByTestId('role-badge').filter({ hasText: role }).waitFor();
  }

  /**
   * A test on a fresh page of a fresh context, signed in first when `as` names an account and the
   * role its badge shows; the context is closed when the body succeeds (left open on a failure,
   * for the screenshot).
   */
  function pageTest(
    name: string,
    as: [{ email: string; password: string }, 'USER' | 'ADMIN'] | null,
    body: (opened: { context: BrowserContext; page: Page }) => Promise<void>,
  ): void {
    it(
      name,
      async () => {
        const opened = await newPage();
        if (as) await signIn(opened.page, ...as);
        await body(opened);
        await opened.context.close();
      },
      TEST_TIMEOUT_MS,
    );
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(RESULTS, `browse-${name}.png`), fullPage: true });
  const counts = () => {
    const map = new Map<string, number>();
    for (const m of models) if (m.projectId && m.visible !== false) map.set(m.projectId, (map.get(m.projectId) ?? 0) + 1);
    return map;
  };

  pageTest('signed out: landing and sign-in render, every shell route goes to /login', null, async ({ page }) => {
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${server.url}/`);
    await page.getByText('BETA', { exact: true }).waitFor();
    // the landing route loads no map code
    expect(requested.filter((url) => /google-map-view|project-map|maps\.googleapis/.test(url))).toEqual([]);
    await page.getByText('AI-Powered Vision & 3D Analysis Platform for Infrastructure Inspection and Monitoring').waitFor();
    const cards = page.getByTestId('tool-card');
    expect(await cards.count()).toBe(3);
    expect(await page.getByRole('link', { name: 'Access Now' }).getAttribute('href')).toBe('/catalog');
    // no external viewers configured: both experimental cards open the built-in viewer, in a new tab as an external viewer
    for (const link of await page.getByRole('link', { name: 'Try Demo' }).all()) expect(await link.getAttribute('target')).toBe('_blank');
    expect(await page.getByRole('link', { name: 'Try Demo' }).nth(0).getAttribute('href')).toBe('/viewer?demo=splat');
    expect(await page.getByRole('link', { name: 'Try Demo' }).nth(1).getAttribute('href')).toBe('/viewer?compareMode=true&demo=compare');
    // three columns on a large screen; the image turns animated on hover
    const columns = await page.getByTestId('tool-grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length);
    expect(columns).toBe(3);
    const image = cards.first().locator('img');
    expect(await image.getAttribute('loading')).toBe('lazy');
    expect(await image.getAttribute('src')).toBe('/tools/catalog.svg');
    await cards.first().hover();
    await page.waitForFunction(
      () => document.querySelector('[data-testid="tool-card"] img')?.getAttribute('src') === '/tools/catalog-animated.svg',
    );
    await page.getByText('A platform for the future of infrastructure inspection.').waitFor();
    await page.getByText(`© ${new Date().getFullYear()}`, { exact: false }).waitFor();
    await shot(page, 'landing');
    await page.setViewportSize({ width: 500, height: 900 });
    expect(await page.getByTestId('tool-grid').evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length)).toBe(1);

    await page.goto(`${server.url}/login`);
    for (const text of ['Welcome back', 'Please sign in to your account', '3D model inspection platform'])
      await page.getByText(text).waitFor();
    await shot(page, 'login');
    for (const route of [...SHELL_ROUTES, `/projects/${tower.id}`, '/admin/projects']) {
      await page.goto(`${server.url}${route}`);
      await page.waitForURL(`${server.url}/login`);
    }
  });

  pageTest(
    'user: catalog home, project list, project detail and model list without admin parts or hidden models',
    [USER, 'USER'],
    async ({ page }) => {
      const c = counts();

      await page.goto(`${server.url}/catalog`);
      await page.getByRole('heading', { name: 'Infrastructure Inspection Catalog' }).waitFor();
      expect(await page.getByTestId('stat-total').locator('.stat-value').textContent()).toBe(String(projects.length));
      const featured = featuredProjects(projects, c);
      if (featured.length > 0) {
        await page.getByRole('heading', { name: 'Featured Projects' }).waitFor();
        expect(await page.getByTestId('featured').getByTestId('catalog-card').locator('.card-title').allTextContents()).toEqual(
          featured.map((p) => p.name),
        );
      }
      await page.getByRole('heading', { name: 'Browse All Projects' }).waitFor();
      await shot(page, 'catalog');
      await page.getByLabel('Search projects').fill(tower.structure_id.toLowerCase());
      await page.getByRole('heading', { name: 'Featured Projects' }).waitFor({ state: 'detached' });
      expect(await page.getByTestId('all-projects').getByTestId('catalog-card').locator('.card-title').allTextContents()).toContain(
        tower.name,
      );
      // live: a project created elsewhere appears without reload
      await page.getByLabel('Search projects').fill('');
      await createProject(service.catalog, {
        name: 'Live Bridge Pylon',
        structure_id: 'ZZZ-999',
        description: 'Created by the browse test.',
      });
      await page
        .getByTestId('stat-total')
        .locator('.stat-value')
        .filter({ hasText: String(projects.length + 1) })
        .waitFor();
      await page.getByText('Live Bridge Pylon').waitFor();

      await page.goto(`${server.url}/projects`);
      await page.getByTestId('project-card').first().waitFor();
      const ids = (await page.getByTestId('project-card').locator('.muted').allTextContents()).filter((t) => t.startsWith('ID: '));
      expect(ids).toEqual(
        sortProjectsByStructureId([...projects, { structure_id: 'ZZZ-999' } as Project]).map((p) => `ID: ${p.structure_id}`),
      );
      await shot(page, 'projects');
      await page.getByRole('button', { name: 'Table View' }).click();
      await page.getByTestId('project-row').first().waitFor();
      expect(await page.getByTestId('project-row').count()).toBe(projects.length + 1);
      await shot(page, 'projects-table');

      await page.goto(`${server.url}/projects/${tower.id}`);
      await page.getByRole('heading', { name: tower.name, level: 1 }).waitFor();
      await page.getByRole('heading', { name: /^3D Models \(\d+\)$/ }).waitFor();
      expect(await page.getByRole('link', { name: 'Project Management' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: /^Add (Reference )?Model$/ }).count()).toBe(0);
      await shot(page, 'project-detail');
      await page.goto(`${server.url}/projects/does-not-exist`);
      await page.getByText('Project Not Found').waitFor();

      await page.goto(`${server.url}/models`);
      const visible = sortModelsByPublicId(models.filter((m) => m.visible !== false));
      await page.getByText(`${visible.length} models found`).waitFor();
      expect(await page.getByRole('heading', { name: 'Upload Model' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Hide' }).count()).toBe(0);
      for (const hidden of models.filter((m) => m.visible === false))
        expect(await page.getByText(hidden.publicId, { exact: true }).count()).toBe(0);
      await shot(page, 'models');

      await page.goto(`${server.url}/admin/users`);
      await page.waitForURL(`${server.url}/projects`);
    },
  );

  pageTest(
    'user: the key-less project map shows markers, popups, stats and the Current Location toggle',
    [USER, 'USER'],
    async ({ context, page }) => {
      const c = counts();
      const located = projectsOnMap(projects);
      const stats = mapStats(projects, c);
      await page.goto(`${server.url}/projects/map`);
      await page.getByRole('heading', { name: 'Project Map' }).waitFor();
      await page.getByTestId('keyless-map').waitFor();
      expect(await page.getByTestId('stat-with-location').locator('.stat-value').textContent()).toBe(String(stats.withLocation));
      expect(await page.getByTestId('stat-multi-temporal').locator('.stat-value').textContent()).toBe(String(stats.multiTemporal));
      expect(await page.getByTestId('stat-initial-assessment').locator('.stat-value').textContent()).toBe(String(stats.initialAssessment));
      const markers = page.getByTestId('map-marker');
      expect(await markers.count()).toBe(located.length);
      for (const project of located) {
        expect(await page.getByRole('button', { name: project.name, exact: true }).getAttribute('data-color')).toBe(
          projectMarkerColor(c.get(project.id) ?? 0),
        );
      }
      const fitted = await page.getByTestId('keyless-map').getAttribute('data-zoom');
      await shot(page, 'map');

      // denied → the geolocation error message; granted → locating → on with a red marker at zoom 12; again → off and re-fit
      await page.getByTestId('location-toggle').click();
      await page.getByRole('alert').filter({ hasText: 'Location access denied by user.' }).waitFor();
      await context.grantPermissions(['geolocation'], { origin: server.url });
      await context.setGeolocation({ latitude: 43.45, longitude: -80.49 });
      await page.getByTestId('location-toggle').click();
      await page.locator('[data-testid="location-toggle"][data-status="on"]').waitFor();
      expect(await page.getByTestId('current-location-marker').getAttribute('data-color')).toBe('red');
      // The view follows the toggle in an effect, one render after the status: poll for it.
      await expect.poll(() => page.getByTestId('keyless-map').getAttribute('data-zoom')).toBe(String(MAP_USER_LOCATION_ZOOM));
      await expect.poll(() => page.getByTestId('keyless-map').getAttribute('data-center')).toBe('43.4500,-80.4900');
      await shot(page, 'map-location');
      await page.getByTestId('location-toggle').click();
      await page.locator('[data-testid="location-toggle"][data-status="off"]').waitFor();
      expect(await page.getByTestId('current-location-marker').count()).toBe(0);
      await expect.poll(() => page.getByTestId('keyless-map').getAttribute('data-zoom')).toBe(fitted);

      await page.getByRole('button', { name: tower.name, exact: true }).click();
      const popup = page.getByTestId('map-popup');
      await popup.getByText(`ID: ${tower.structure_id}`).waitFor();
      await shot(page, 'map-popup');
      await popup.getByRole('button', { name: 'View Project' }).click();
      await page.waitForURL(`${server.url}/projects/${tower.id}`);
    },
  );

  pageTest(
    'admin: hidden models with the Hidden badge, the upload panel with its validation and result messages, admin links',
    [ADMIN, 'ADMIN'],
    async ({ page }) => {
      await page.goto(`${server.url}/models`);
      await page.getByText(`${models.length} models found`).waitFor();
      const hidden = models.find((m) => m.visible === false);
      expect(hidden, 'the seed has a hidden model').toBeDefined();
      if (hidden) {
        const row = page.getByTestId('model-row').filter({ hasText: hidden.publicId });
        await row.getByText('Hidden', { exact: true }).waitFor();
        expect(await row.locator('.model-row-hidden').evaluate((el) => getComputedStyle(el).borderStyle)).toBe('dashed');
      }
      await page.getByText('To delete models or manage their files, use the Admin panel (Model Management).').waitFor();
      const panel = page.locator('.upload-panel');
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.getByRole('alert').filter({ hasText: 'At least one file (splat or glb) is required.' }).waitFor();
      const glb = await makeTowerGlb();
      await panel
        .getByLabel('GLB file (.glb)')
        .setInputFiles({ name: 'browse.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(glb) });
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.getByRole('alert').filter({ hasText: 'Please enter publicId and name.' }).waitFor();
      await panel.getByLabel('Project').selectOption(tower.id);
      await panel.getByLabel('publicId').fill('AAA-BROWSE');
      await panel.getByLabel('Name').fill('Browse upload');
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.getByText('Model uploaded successfully!').waitFor({ timeout: 15_000 });
      expect(await panel.getByLabel('publicId').inputValue()).toBe('');
      await page.getByText(`${models.length + 1} models found`).waitFor();
      await page.getByTestId('model-row').filter({ hasText: 'AAA-BROWSE' }).waitFor();
      const created = (await service.catalog.query('models', { where: [['publicId', '==', 'AAA-BROWSE']] })) as Model[];
      expect(created.map((m) => [m.projectId, m.modelType])).toEqual([[tower.id, 'mesh']]);
      await shot(page, 'models-admin');

      await page.goto(`${server.url}/projects/${tower.id}`);
      await page.getByRole('link', { name: 'Project Management' }).waitFor();
      expect(await page.getByRole('link', { name: 'Add Model' }).getAttribute('href')).toBe(`/projects/${tower.id}/add-model`);
      expect(await page.getByRole('link', { name: 'Manage' }).count()).toBeGreaterThan(0);
      await shot(page, 'project-detail-admin');
      await page.goto(`${server.url}/projects`);
      await page.getByText('Quick Actions').waitFor();
      await page.getByRole('link', { name: 'Create Project' }).waitFor();
      expect(pageErrors).toEqual([]);
    },
  );
});
