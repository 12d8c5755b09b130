/**
 * The portal in headless Chromium against a real embedded backend: sign-in
 * errors, sign-in as the seeded user, project detail (type label, total size, viewer link), and
 * live updates (a model created through the service backend appears without reload).
 *
 * Needs the built portal (`npm test` builds it first) and /usr/bin/chromium; skips with a printed
 * reason when either is missing.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist, repoRoot } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { triangleGlb } from '../support/model-fixtures.js';
import { formatBytes } from '@shared/format.js';
import { viewerLink } from '@shared/links.js';
import { sortModelsByPublicId } from '@shared/order.js';
import { modelTypeLabel, totalFileSize } from '@shared/model-type.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import { addModel, createProject, registerUser } from '@shared/workflows/index.js';

const SEED_COMMAND = join(repoRoot, 'cli/src/commands/seed.ts');
const USER = { email: 'user@demo.lab', password: 'demo-user-1' };
const ADMIN = { email: 'admin@demo.lab', password: 'demo-admin-1' };

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] portal browser test skipped: ${skipReason}`);

/** Seeds the demo data without the CLI (used only when engineer D's `catalog seed` is absent). */
async function seedDirectly(service: Backend): Promise<void> {
  await registerUser(service, { ...ADMIN, role: 'admin' }, 'e2e');
  await registerUser(service, { ...USER, role: 'user' }, 'e2e');
  const glb = await triangleGlb();
  const tower = await createProject(service.catalog, {
    name: 'North Ridge Telecom Tower',
    structure_id: 'TWR-001',
    description: 'Lattice telecom tower on the north ridge.',
    lat: 43.47,
    lng: -80.54,
    address: 'North Ridge',
  });
  await createProject(service.catalog, { name: 'Harbour Light Mast', structure_id: 'MST-003', description: 'Mast.' });
  for (const [publicId, captureDate, reference] of [
    ['TWR-001-A', '2024-05-01', true],
    ['TWR-001-B', '2025-05-01', false],
  ] as const) {
    await addModel(service, {
      projectId: tower,
      publicId,
      name: `Survey ${captureDate}`,
      modelType: 'mesh',
      captureDate,
      setAsReference: reference,
      files: { glb: { source: new Blob([glb]), name: 'model.glb' } },
    });
  }
}

describe.skipIf(skipReason !== null)('portal in headless Chromium', () => {
  let server: EmbeddedServer;
  let service: Backend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let viewerUrl: string;
  let tower: Project;
  const browserErrors: string[] = [];

  beforeAll(async () => {
    const seed = existsSync(SEED_COMMAND);
    server = await startEmbeddedServer({ prefix: 'e2e', portalDir: portalDist, seed });
    service = server.service;
    if (!seed) {
      console.warn('[e2e] `catalog seed` not found; seeding through the service backend');
      await seedDirectly(service);
    }
    const [found] = await service.catalog.query('projects', { where: [['structure_id', '==', 'TWR-001']] });
    if (!found) throw new Error('seed did not create project TWR-001');
    tower = found as Project;
    // no external viewer configured: the links open the portal's built-in viewer
    expect(((await (await fetch(new URL('/v1/config', server.url))).json()) as { viewerUrl: string | null }).viewerUrl).toBeNull();
    viewerUrl = `${server.url}/viewer`;

    browser = await launchChromium();
    context = await offlineContext(browser);
    page = await context.newPage();
    page.on('pageerror', (error) => browserErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.log(`[browser ${message.type()}] ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) console.log(`[browser http ${response.status()}] ${response.request().method()} ${response.url()}`);
    });
  });

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  beforeEach(screenshotOnFailure('failure', () => page));

  async function signIn(email: string, password: string): Promise<void> {
    await submitSignIn(page, server.url, email, password);
  }

  function modelCard(publicId: string): Locator {
    return page.getByTestId('project-model').filter({ hasText: publicId });
  }

  it("shows 'Incorrect password.' for a wrong password and stays on /login", async () => {
    await signIn(USER.email, 'not-the-password');
    await page.getByRole('alert').filter({ hasText: 'Incorrect password.' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByText('Account Registration Required:').count()).toBe(1);
    await page.screenshot({ path: join(RESULTS, 'portal-login-error.png') });
  });

  it('signs the seeded user in, lists projects and opens a project with its models', async () => {
    await signIn(USER.email, USER.password);
    await page.waitForURL(`${server.url}/projects`);
    await page.getByTestId('role-badge').filter({ hasText: 'USER' }).waitFor();
    const card = page.getByTestId('project-card').filter({ hasText: 'ID: TWR-001' });
    await card.waitFor();
    await page.screenshot({ path: join(RESULTS, 'portal-projects.png') });
    await card.getByRole('link', { name: 'View Details' }).click();
    await page.waitForURL(`${server.url}/projects/${tower.id}`);
    await page.getByRole('heading', { name: tower.name, level: 1 }).waitFor();

    const models = (await service.catalog.query('models', { where: [['projectId', '==', tower.id]] })) as Model[];
    const visible = models.filter((m) => m.visible !== false);
    expect(visible.length).toBeGreaterThan(0);
    await page.getByRole('heading', { name: `3D Models (${visible.length})` }).waitFor();
    for (const model of visible) {
      const item = modelCard(model.publicId);
      await item.waitFor();
      expect(await item.getByTestId('model-type').textContent()).toBe(modelTypeLabel(model));
      expect(await item.getByTestId('model-size').textContent()).toBe(formatBytes(totalFileSize(model)));
      const view = item.getByRole('link', { name: 'View Model' });
      await view.waitFor();
      expect(await view.getAttribute('href')).toBe(viewerLink(viewerUrl, model.publicId));
    }
    // Admin-only links are not shown to a user.
    expect(await page.getByRole('link', { name: 'Project Management' }).count()).toBe(0);
  });

  it('shows a model created through the service backend without a reload', async () => {
    expect(new URL(page.url()).pathname).toBe(`/projects/${tower.id}`);
    const before = await page.evaluate(() => performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin);
    const heading = page.getByRole('heading', { name: /^3D Models \(\d+\)$/ });
    const count = Number(/\((\d+)\)/.exec((await heading.textContent()) ?? '')?.[1]);

    const glb = await triangleGlb();
    const { model } = await addModel(service, {
      projectId: tower.id,
      publicId: 'TWR-001-LIVE',
      name: 'Live drone pass',
      modelType: 'mesh',
      captureDate: '2026-01-15',
      setAsReference: false,
      files: { glb: { source: new Blob([glb]), name: 'live.glb' } },
    });

    const item = modelCard('TWR-001-LIVE');
    await item.waitFor({ timeout: 15_000 });
    await page.getByRole('heading', { name: `3D Models (${count + 1})` }).waitFor();
    expect(await item.getByTestId('model-type').textContent()).toBe('Mesh');
    expect(await item.getByTestId('model-size').textContent()).toBe(formatBytes(glb.byteLength));
    expect(totalFileSize(model)).toBe(glb.byteLength);
    await item.getByRole('link', { name: 'View Model' }).waitFor();
    const after = await page.evaluate(() => performance.getEntriesByType('navigation').length + ':' + performance.timeOrigin);
    expect(after).toBe(before);

    await page.screenshot({ path: join(RESULTS, 'portal-project-detail.png'), fullPage: true });
  });

  it('lists the models ordered by publicId in the virtualised model list', async () => {
    await page
      .getByRole('link', { name: /Model List/ })
      .first()
      .click();
    await page.waitForURL(`${server.url}/models`);
    await page.getByRole('heading', { name: 'Infrastructure Inspection 3D Models' }).waitFor();
    const all = ((await service.catalog.query('models')) as Model[]).filter((m) => m.visible !== false);
    await page.getByText(`${all.length} models found`).waitFor();
    await page.getByText('TWR-001-LIVE').waitFor();
    const shown = await page.getByTestId('model-row').locator('.badge.mono').allTextContents();
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(
      sortModelsByPublicId(all)
        .map((m) => m.publicId)
        .slice(0, shown.length),
    );
    await page.screenshot({ path: join(RESULTS, 'portal-model-list.png') });
  });

  it('silently redirects a user away from /admin/* and the add-model page to /projects', async () => {
    await page.goto(`${server.url}/admin/users`);
    await page.waitForURL(`${server.url}/projects`);
    await page.goto(`${server.url}/projects/${tower.id}/add-model`);
    await page.waitForURL(`${server.url}/projects`);
    expect(await page.getByRole('link', { name: /Admin/ }).count()).toBe(0);
  });

  it('collapses the navigation on arrival at /catalog from the landing page', async () => {
    await page.goto(`${server.url}/`);
    await page.getByText('BETA', { exact: true }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'portal-landing.png') });
    await page.getByRole('link', { name: 'Access Now' }).click();
    await page.waitForURL(`${server.url}/catalog`);
    const navWidth = (px: number) =>
      page.waitForFunction((width) => document.querySelector('[data-testid="side-nav"]')?.getBoundingClientRect().width === width, px);
    await page.locator('[data-testid="side-nav"][data-collapsed="true"]').waitFor();
    await navWidth(64);
    await page.screenshot({ path: join(RESULTS, 'portal-catalog-collapsed.png') });
    await page.getByRole('button', { name: 'Expand navigation' }).click();
    await navWidth(256);
  });

  it('signs out to /login, and a signed-out visit to a shell route goes to /login', async () => {
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.goto(`${server.url}/models`);
    await page.waitForURL(`${server.url}/login`);
  });

  it("lets an admin see hidden models ('Hidden') and hide/show them", async () => {
    const hidden = ((await service.catalog.query('models', { where: [['visible', '==', false]] })) as Model[])[0];
    expect(hidden, 'the seed has a hidden model').toBeDefined();
    if (!hidden) return;
    await signIn(ADMIN.email, ADMIN.password);
    await page.waitForURL(`${server.url}/projects`);
    await page.getByTestId('role-badge').filter({ hasText: 'ADMIN' }).waitFor();
    await page.goto(`${server.url}/models`);
    const row = page.getByTestId('model-row').filter({ hasText: hidden.publicId });
    await row.getByText('Hidden', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Show' }).click();
    await row.getByRole('button', { name: 'Hide' }).waitFor();
    expect(await row.getByText('Hidden', { exact: true }).count()).toBe(0);
    expect((await service.catalog.get('models', hidden.id))?.visible).toBe(true);
    await row.getByRole('button', { name: 'Hide' }).click();
    await row.getByText('Hidden', { exact: true }).waitFor();
    expect((await service.catalog.get('models', hidden.id))?.visible).toBe(false);
    await page.screenshot({ path: join(RESULTS, 'portal-model-list-admin.png') });
    expect(browserErrors).toEqual([]);
  });
});
