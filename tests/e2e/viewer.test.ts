/**
 * The built-in 3D viewer in headless Chromium with software WebGL (SwiftShader), against a real
 * `catalog serve` with the seeded demo catalog: it opens through the portal's own 'View Model' and
 * 'Compare' links and the landing page's demo card, and each case checks real pixels (the centre
 * of the canvas differs from the empty background), not just a <canvas>. Also: the real samples
 * of ../shared/samples (3DGS PLY, .splat, Duck.glb) uploaded with the CLI, a model whose file was
 * deleted (an error, not a blank canvas), a hidden model refused to a user, signed-out visitors,
 * and no Content-Security-Policy violation anywhere. Rendering is slow in software: tests wait
 * for a rendered frame, they never time it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '../../shared/adapters/local/index.js';
import type { Backend } from '../../shared/ports/index.js';
import type { Model, Project } from '../../shared/types.js';
import { samplePath, samplesPresent } from '../cli/helpers.js';
import { browserSkipReason, CHROMIUM, CLI, PORTAL_DIST, RESULTS, ROOT, screenshotOnFailure, submitSignIn } from './harness.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e viewer] skipping: ${skipReason}`);
const hasSamples = samplesPresent();
if (!hasSamples) console.info('[e2e viewer] skipping the real-sample cases: ../shared/samples is not beside this checkout');

/** The viewport background (portal/src/features/viewer/lib/engine.ts VIEWPORT_BACKGROUND). */
const BACKGROUND = [0x1b, 0x1f, 0x24] as const;

describe.skipIf(skipReason !== null)('built-in 3D viewer (software WebGL)', () => {
  let dataDir: string;
  let server: RunningServer;
  let service: Backend;
  let browser: Browser;
  let tower: Project;
  let models: Model[];
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('viewer-failure', () => current));

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'catalog-viewer-'));
    server = await startServer({ dataDir, port: 0, portalDir: PORTAL_DIST });
    const key = (JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string }).key;
    service = createLocalBackend({ baseUrl: server.url, serviceKey: key });
    await execa('node', [CLI, 'seed', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url } });
    const [found] = await service.catalog.query('projects', { where: [['structure_id', '==', 'TWR-001']] });
    if (!found) throw new Error('the seed has no TWR-001');
    tower = found as Project;
    models = (await service.catalog.query('models')) as Model[];
    // WebGL in software: SwiftShader, and no --disable-gpu (DESIGN.md §5).
    mkdirSync(RESULTS, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await service?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
    context.on('page', (page) => watch(page));
    return context;
  }

  function watch(page: Page): Page {
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  async function signedIn(email: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext();
    const page = await context.newPage();
    current = page;
    await submitSignIn(page, server.url, email, password);
    await page.waitForURL(`${server.url}/projects`);
    return { context, page };
  }

  /** Waits until every viewport of the page is done loading and has drawn frames; returns their states. */
  async function settled(page: Page): Promise<string[]> {
    await page.waitForFunction(
      () => {
        const viewports = [...document.querySelectorAll<HTMLElement>('[data-testid=viewport]')];
        return viewports.length > 0 && viewports.every((v) => v.dataset.state !== 'loading' && (v.dataset.state === 'error' || Number(v.dataset.renderedFrames) >= 8));
      },
      null,
      { timeout: 90_000 },
    );
    return page.$$eval('[data-testid=viewport]', (viewports) => viewports.map((v) => (v as HTMLElement).dataset.state ?? ''));
  }

  /** Share of pixels in the centre 40% of a viewport's canvas that differ from the background. */
  async function centreCoverage(viewport: Locator): Promise<number> {
    return viewport.locator('canvas').evaluate((canvas: HTMLCanvasElement, background: readonly number[]) => {
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const context = copy.getContext('2d')!;
      context.drawImage(canvas, 0, 0);
      const x = Math.floor(canvas.width * 0.3);
      const y = Math.floor(canvas.height * 0.3);
      const { data } = context.getImageData(x, y, Math.floor(canvas.width * 0.4), Math.floor(canvas.height * 0.4));
      let differing = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - background[0]!) + Math.abs(data[i + 1]! - background[1]!) + Math.abs(data[i + 2]! - background[2]!) > 30) differing += 1;
      }
      return differing / (data.length / 4);
    }, BACKGROUND);
  }

  async function expectRendered(page: Page, name: string): Promise<void> {
    const states = await settled(page);
    expect(states.every((s) => s === 'ready'), `viewport states ${states.join(', ')}`).toBe(true);
    // Spark draws the sorted splats a few frames after loading (seconds in software): wait for pixels.
    for (const viewport of await page.getByTestId('viewport').all()) {
      await expect.poll(() => centreCoverage(viewport), { timeout: 60_000, interval: 500, message: `${name}: the centre of the canvas stays empty` }).toBeGreaterThan(0.01);
    }
    await page.screenshot({ path: join(RESULTS, `viewer-${name}.png`) });
  }

  it('signed out: the viewer asks to sign in', async () => {
    const context = await newContext();
    const page = await context.newPage();
    current = page;
    await page.goto(`${server.url}/viewer/?id=TWR-001-2024-05`);
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();
    await page.getByText('Please sign in to view 3D models.').waitFor();
    expect(await page.locator('canvas').count()).toBe(0);
    await context.close();
  });

  it("opens from project detail's 'View Model' and 'Compare' links: a hybrid and compare mode render", async () => {
    const { context, page } = await signedIn('user@demo.lab', 'demo-user-1');
    await page.goto(`${server.url}/projects/${tower.id}`);
    const hybrid = page.getByTestId('project-model').filter({ hasText: 'TWR-001-2024-05' });
    const view = hybrid.getByRole('link', { name: 'View Model' });
    await expect.poll(() => view.getAttribute('href')).toBe(`${server.url}/viewer/?id=TWR-001-2024-05`);
    const [single] = await Promise.all([context.waitForEvent('page'), view.click()]);
    current = single;
    await expectRendered(single, 'hybrid');
    // hybrid: splat and mesh can be switched off one at a time
    await single.getByRole('button', { name: 'Splat' }).click();
    expect(await single.getByRole('button', { name: 'Splat' }).getAttribute('aria-pressed')).toBe('false');
    expect(await single.getByTestId('splat-count').textContent()).toMatch(/^[\d,]+$/);
    expect(await single.getByTestId('triangle-count').textContent()).toMatch(/^[\d,]+$/);
    await single.close();

    const other = page.getByTestId('project-model').filter({ hasText: 'TWR-001-2025-06' });
    const compare = other.getByRole('button', { name: 'Compare' });
    await expect.poll(() => compare.isEnabled()).toBe(true);
    const [compared] = await Promise.all([context.waitForEvent('page'), compare.click()]);
    current = compared;
    expect(compared.url()).toContain('/viewer/?compareMode=true&id=TWR-001-2025-06&referenceId=TWR-001-2024-05');
    await expectRendered(compared, 'compare');
    expect(await compared.getByTestId('viewport').count()).toBe(2);
    await compared.getByRole('button', { name: 'Swipe' }).click();
    await compared.getByRole('slider', { name: /Swipe between/ }).waitFor();
    await compared.screenshot({ path: join(RESULTS, 'viewer-compare-swipe.png') });
    await context.close();
  });

  it('renders a GLB-only model and the landing card demo; a missing reference says so', async () => {
    const { context, page } = await signedIn('user@demo.lab', 'demo-user-1');
    await page.goto(`${server.url}/viewer/?id=BRG-002-2025-04`);
    await expectRendered(page, 'glb');
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Try Demo' }).first().click();
    await page.waitForURL(/\/viewer\?demo=splat/);
    await expectRendered(page, 'demo-splat');
    await page.goto(`${server.url}/viewer/?compareMode=true&id=BRG-002-2025-04&referenceId=NO-SUCH-MODEL`);
    await page.getByText('Unable to load reference model information.').waitFor({ timeout: 60_000 });
    await context.close();
  });

  it('a hidden model is not found for a user and opens for an admin', async () => {
    const hidden = models.find((m) => m.visible === false);
    if (!hidden) throw new Error('the seed has no hidden model');
    const user = await signedIn('user@demo.lab', 'demo-user-1');
    await user.page.goto(`${server.url}/viewer/?id=${encodeURIComponent(hidden.publicId)}`);
    await user.page.getByRole('heading', { name: 'Model Not Found' }).waitFor();
    expect(await user.page.getByTestId('viewport').getAttribute('data-state')).toBe('error');
    await user.context.close();
    const admin = await signedIn('admin@demo.lab', 'demo-admin-1');
    await admin.page.goto(`${server.url}/viewer/?id=${encodeURIComponent(hidden.publicId)}`);
    await expectRendered(admin.page, 'hidden-as-admin');
    await admin.context.close();
  });

  it('a model whose file was deleted shows the error, not a blank canvas', async () => {
    const glbOnly = models.find((m) => m.publicId === 'BRG-002-2025-04')!;
    const projectId = (await execa('node', [CLI, 'projects', 'create', '--name', 'Broken Files', '--structure-id', 'BRK-001', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url } })).stdout.trim();
    const folder = mkdtempSync(join(tmpdir(), 'viewer-broken-'));
    const bytes = await (await fetch(await service.files.getDownloadUrl(glbOnly.files.glbPath!))).arrayBuffer();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(folder, 'model.glb'), new Uint8Array(bytes));
    const uploaded = await execa('node', [CLI, 'models', 'upload', folder, '--project', projectId, '--public-id', 'BRK-M', '--name', 'Broken', '--json', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url } });
    const model = (JSON.parse(uploaded.stdout) as { result: { model: Model } }).result.model;
    await service.files.delete(model.files.glbPath!);
    const { context, page } = await signedIn('user@demo.lab', 'demo-user-1');
    await page.goto(`${server.url}/viewer/?id=BRK-M`);
    const states = await settled(page);
    expect(states).toEqual(['error']);
    await page.getByRole('alert').filter({ hasText: 'Could not load model.glb' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'viewer-missing-file.png') });
    await context.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it.skipIf(!hasSamples)('renders the real samples: the 3DGS training PLY, a .splat and Duck.glb', { timeout: 240_000 }, async () => {
    const project = (await execa('node', [CLI, 'projects', 'create', '--name', 'Samples', '--structure-id', 'SMP-001', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url } })).stdout.trim();
    const upload = async (publicId: string, file: string, as: string): Promise<void> => {
      const folder = mkdtempSync(join(tmpdir(), 'viewer-sample-'));
      copyFileSync(samplePath(file), join(folder, as));
      const result = await execa('node', [CLI, 'models', 'upload', folder, '--project', project, '--public-id', publicId, '--name', publicId, '--json', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url }, reject: false });
      expect(result.exitCode, result.stdout + result.stderr).toBe(0);
      rmSync(folder, { recursive: true, force: true });
    };
    await upload('SMP-3DGS', '3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply', 'point_cloud.ply');
    await upload('SMP-SPLAT', 'splat/model.splat', 'model.splat');
    await upload('SMP-DUCK', 'glb/Duck.glb', 'Duck.glb');
    const { context, page } = await signedIn('user@demo.lab', 'demo-user-1');
    for (const publicId of ['SMP-3DGS', 'SMP-SPLAT', 'SMP-DUCK']) {
      await page.goto(`${server.url}/viewer/?id=${publicId}`);
      await expectRendered(page, publicId.toLowerCase());
    }
    expect(await page.getByTestId('triangle-count').textContent()).toBe('4,212');
    await context.close();
  });
});
