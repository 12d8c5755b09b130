/**
 * The built-in 3D viewer in headless Chromium with software WebGL (SwiftShader), against a real
 * `catalog serve` with the seeded demo catalog: it opens through the portal's own 'View Model' and
 * 'Compare' links and the landing page's demo card, and each case checks real pixels (the centre
 * of the canvas differs from the empty background), not just a <canvas>. Also: keyboard
 * navigation and the up-axis flip (remembered in the URL), linked and unlinked compare cameras and
 * the swipe slider, the real samples of ../shared/samples (3DGS PLY, .splat, Duck.glb) uploaded
 * with the CLI, a model whose file was deleted or is unreadable (an error panel, not a blank
 * canvas), a large textured GLB shown from its web-sized copy (meshopt geometry, WebP textures),
 * a large capture's preview drawn first and its full copy swapped in without moving the camera,
 * a hidden model refused to a user, signed-out visitors, the Draco decoder served by the
 * portal itself, and no Content-Security-Policy violation anywhere. Rendering is slow in
 * software: tests wait for a rendered frame, they never assert on time (first-frame times are
 * printed for information).
 */
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../cli/src/server/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import {
  browserSkipReason,
  launchChromium,
  offlineContext,
  RESULTS,
  screenshotOnFailure,
  submitSignIn,
  viewerSettled,
  VIEWER_TEST_WINDOW,
} from '../support/browser.js';
import { createProjectWithCli, runCli } from '../support/cli.js';
import { texturedGlb, writeGaussianPlyFile } from '../support/model-fixtures.js';
import { compressSplatFile } from '../../cli/src/lib/web-splat.js';
import { webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import { LARGE_CAPTURE_GAUSSIANS } from '@shared/constants.js';
import { portalDist, samplePath, samplesPresent, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e viewer] skipping: ${skipReason}`);
const hasSamples = samplesPresent();
if (!hasSamples) console.info('[e2e viewer] skipping the real-sample cases: ../shared/samples is not beside this checkout');

/** The viewport background (portal/src/features/viewer/lib/engine.ts VIEWPORT_BACKGROUND). */
const BACKGROUND = [0x1b, 0x1f, 0x24] as const;
const USER = ['user@demo.lab', 'demo-user-1'] as const;
const ADMIN = ['admin@demo.lab', 'demo-admin-1'] as const;
/** Software rendering of a splat takes seconds a frame: generous waits, never timed. */
const RENDER_TIMEOUT_MS = 60_000;

/** What each test page gets from an init script (see newContext). */
interface CanvasReader {
  /** RGBA bytes of the `w`×`h` rectangle at (`x`, `y`) of `canvas`, in canvas pixels. */
  canvasPixels(canvas: HTMLCanvasElement, x: number, y: number, w: number, h: number): Uint8ClampedArray;
}

// A test may take as long as a few of its waits for a frame: compare mode draws two captures of the
// demo tower (15,000 Gaussians each in the tests' catalog) in software.
describe.skipIf(skipReason !== null)('built-in 3D viewer (software WebGL)', { timeout: 3 * RENDER_TIMEOUT_MS }, () => {
  let seeded: EmbeddedServer;
  let dataDir: string;
  let server: RunningServer;
  let service: Backend;
  let browser: Browser;
  let tower: Project;
  let models: Model[];
  const cspViolations: string[] = [];
  const pageErrors: string[] = [];
  const firstFrames: string[] = [];
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('viewer-failure', () => current));

  /** How the CLI reaches the seeded server: its data folder (service key) and URL. */
  const cliEnv = () => ({ CATALOG_DATA_DIR: dataDir, CATALOG_URL: server.url });

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'viewer', portalDir: portalDist, seed: true });
    ({ server, dataDir, service } = seeded);
    const [found] = await service.catalog.query('projects', { where: [['structure_id', '==', 'TWR-001']] });
    if (!found) throw new Error('the seed has no TWR-001');
    tower = found as Project;
    models = (await service.catalog.query('models')) as Model[];
    // WebGL in software (SwiftShader) instead of the other browser tests' --disable-gpu (the viewer needs WebGL; there is no GPU here)
    browser = await launchChromium({ webgl: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
    if (firstFrames.length > 0)
      console.info(
        `[e2e viewer] first frame showing the model, from navigation (software WebGL, for information):\n  ${firstFrames.join('\n  ')}`,
      );
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  async function newContext(): Promise<BrowserContext> {
    const context = await offlineContext(browser, VIEWER_TEST_WINDOW);
    context.on('page', (page) => watch(page));
    // In every page, for centre() and pixelsOf(): a rectangle of a WebGL canvas's pixels, read
    // back through a 2D copy (the WebGL canvas keeps its drawing buffer).
    await context.addInitScript(() => {
      (window as unknown as CanvasReader).canvasPixels = (canvas, x, y, w, h) => {
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const context = copy.getContext('2d')!;
        context.drawImage(canvas, 0, 0);
        return context.getImageData(x, y, w, h).data;
      };
    });
    return context;
  }

  function watch(page: Page): Page {
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    return page;
  }

  async function signedIn([email, password]: readonly [string, string]): Promise<{ context: BrowserContext; page: Page }> {
    const context = await newContext();
    const page = await context.newPage();
    current = page;
    await submitSignIn(page, server.url, email, password);
    await page.waitForURL(`${server.url}/projects`);
    return { context, page };
  }

  /** Signs in as `who` and opens the page of project `projectId`; returns the card of its model `publicId` there. */
  async function modelCard(
    who: readonly [string, string],
    projectId: string,
    publicId: string,
  ): Promise<{ context: BrowserContext; card: Locator }> {
    const { context, page } = await signedIn(who);
    await page.goto(`${server.url}/projects/${projectId}`);
    return { context, card: page.getByTestId('project-model').filter({ hasText: publicId }) };
  }

  /** Clicks `trigger`, which opens a new tab (the viewer); that tab is screenshotted on a failure from now on. */
  async function openTab(context: BrowserContext, trigger: Locator): Promise<{ tab: Page; started: number }> {
    const started = Date.now();
    const [tab] = await Promise.all([context.waitForEvent('page'), trigger.click()]);
    current = tab;
    return { tab, started };
  }

  const settled = (page: Page) => viewerSettled(page, RENDER_TIMEOUT_MS);

  /**
   * The centre 40% of a viewport's canvas, read back through a 2D canvas (the WebGL canvas keeps
   * its drawing buffer), as 24×24 grey levels, and the share of its pixels that differ from the
   * background.
   */
  async function centre(viewport: Locator): Promise<{ coverage: number; grey: number[] }> {
    return viewport.locator('canvas').evaluate((canvas: HTMLCanvasElement, background: readonly number[]) => {
      const x = Math.floor(canvas.width * 0.3);
      const y = Math.floor(canvas.height * 0.3);
      const w = Math.floor(canvas.width * 0.4);
      const h = Math.floor(canvas.height * 0.4);
      const data = (window as unknown as CanvasReader).canvasPixels(canvas, x, y, w, h);
      let differing = 0;
      const cells = 24;
      const grey = new Array<number>(cells * cells).fill(0);
      const counts = new Array<number>(cells * cells).fill(0);
      for (let i = 0; i < data.length; i += 4) {
        const r = data[i]!;
        const g = data[i + 1]!;
        const b = data[i + 2]!;
        if (Math.abs(r - background[0]!) + Math.abs(g - background[1]!) + Math.abs(b - background[2]!) > 30) differing += 1;
        const p = i / 4;
        const cell =
          Math.min(cells - 1, Math.floor(((p % w) / w) * cells)) + Math.min(cells - 1, Math.floor((Math.floor(p / w) / h) * cells)) * cells;
        grey[cell] += (r + g + b) / 3;
        counts[cell] += 1;
      }
      return { coverage: differing / (data.length / 4), grey: grey.map((v, i) => v / Math.max(1, counts[i]!)) };
    }, BACKGROUND);
  }

  /** Share of the 24×24 cells whose grey level changed by more than 6 (of 255). */
  function changed(a: number[], b: number[]): number {
    return a.filter((v, i) => Math.abs(v - b[i]!) > 6).length / a.length;
  }

  /** Waits for every viewport to be ready with pixels of a model in its centre; saves a screenshot. */
  async function expectRendered(page: Page, name: string, started?: number): Promise<void> {
    const states = await settled(page);
    expect(
      states.every((s) => s === 'ready'),
      `viewport states ${states.join(', ')}`,
    ).toBe(true);
    // Spark draws the sorted splats a few frames after loading (seconds in software): wait for pixels.
    for (const viewport of await page.getByTestId('viewport').all()) {
      await expect
        .poll(async () => (await centre(viewport)).coverage, {
          timeout: RENDER_TIMEOUT_MS,
          interval: 250,
          message: `${name}: the centre of the canvas stays empty`,
        })
        .toBeGreaterThan(0.01);
    }
    if (started !== undefined) firstFrames.push(`${name}: ${Date.now() - started} ms`);
    await page.screenshot({ path: join(RESULTS, `viewer-${name}.png`) });
  }

  /** Opens a viewer URL and waits for the model's pixels, recording the time to the first frame that shows it. */
  async function open(page: Page, path: string, name: string): Promise<void> {
    const started = Date.now();
    await page.goto(`${server.url}${path}`);
    await expectRendered(page, name, started);
  }

  /** Drags across the middle of a canvas (an orbit with OrbitControls' left button). */
  async function drag(page: Page, canvas: Locator, dx: number): Promise<void> {
    const box = (await canvas.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + dx, y + dx / 4, { steps: 6 });
    await page.mouse.up();
  }

  /** Uploads one file as a new model with the CLI (a folder holding only it); returns the model record. */
  async function upload(projectId: string, publicId: string, source: string, as: string): Promise<Model> {
    const folder = tempDir('viewer-upload');
    try {
      copyFileSync(source, join(folder, as));
      return await uploadFolder(projectId, publicId, folder);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  /** Uploads a model folder with the CLI (its layout read as the CLI reads it); returns the model record. */
  async function uploadFolder(projectId: string, publicId: string, folder: string): Promise<Model> {
    const args = ['models', 'upload', folder, '--project', projectId, '--public-id', publicId, '--name', publicId, '--json'];
    const result = await runCli(args, { env: cliEnv() });
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as { result: { model: Model } }).result.model;
  }

  /**
   * Canvas points (CSS pixels from the page's top-left) whose colour is `rgb` within a tolerance
   * and where the canvas itself is on top (not under a panel or a button).
   */
  async function pixelsOf(viewport: Locator, rgb: readonly [number, number, number]): Promise<{ x: number; y: number }[]> {
    return viewport.locator('canvas').evaluate((canvas: HTMLCanvasElement, colour: readonly number[]) => {
      const data = (window as unknown as CanvasReader).canvasPixels(canvas, 0, 0, canvas.width, canvas.height);
      const rect = canvas.getBoundingClientRect();
      const scale = rect.width / canvas.width;
      const found: { x: number; y: number }[] = [];
      for (let i = 0; i < data.length; i += 4) {
        if (Math.abs(data[i]! - colour[0]!) + Math.abs(data[i + 1]! - colour[1]!) + Math.abs(data[i + 2]! - colour[2]!) > 45) continue;
        const p = i / 4;
        const x = rect.left + ((p % canvas.width) + 0.5) * scale;
        const y = rect.top + (Math.floor(p / canvas.width) + 0.5) * scale;
        if (document.elementFromPoint(x, y) === canvas) found.push({ x, y });
      }
      return found;
    }, rgb);
  }

  /** A stored file's bytes on the embedded backend's disk. */
  const storedFile = (path: string): string => join(dataDir, 'storage', path);

  it('signed out: the viewer asks to sign in, with a link to the sign-in page', async () => {
    const context = await newContext();
    const page = await context.newPage();
    current = page;
    await page.goto(`${server.url}/viewer/?id=TWR-001-2024-05`);
    await page.getByRole('heading', { name: 'Login Required' }).waitFor();
    await page.getByText('Please sign in to view 3D models.').waitFor();
    expect(await page.getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/login');
    expect(await page.locator('canvas').count()).toBe(0);
    await context.close();
  });

  it("a hybrid opens from project detail's 'View Model': splat/mesh toggles, keyboard orbit, the up-axis flip kept in the URL", async () => {
    const { context, card } = await modelCard(USER, tower.id, 'TWR-001-2024-05');
    const view = card.getByRole('link', { name: 'View Model' });
    await expect.poll(() => view.getAttribute('href')).toBe(`${server.url}/viewer/?id=TWR-001-2024-05`);
    const { tab: single, started } = await openTab(context, view);
    await expectRendered(single, 'hybrid', started);
    const viewport = single.getByTestId('viewport');
    expect(await single.getByTestId('splat-count').textContent()).toMatch(/^[1-9][\d,]*$/);
    expect(await single.getByTestId('triangle-count').textContent()).toMatch(/^[1-9][\d,]*$/);
    await single.getByRole('button', { name: 'Splat' }).click();
    expect(await single.getByRole('button', { name: 'Splat' }).getAttribute('aria-pressed')).toBe('false');
    await single.getByRole('button', { name: 'Splat' }).click();

    // Keyboard: the canvas takes focus (named after the model); arrows orbit.
    const canvas = single.locator('canvas[aria-label^="3D view of North Ridge Tower"]');
    await canvas.focus();
    const before = await centre(viewport);
    await single.keyboard.press('ArrowLeft');
    await single.keyboard.press('ArrowLeft');
    await expect
      .poll(async () => changed(before.grey, (await centre(viewport)).grey), {
        timeout: RENDER_TIMEOUT_MS,
        message: 'arrow keys do not orbit',
      })
      .toBeGreaterThan(0.05);

    // Its drone cameras: clicking a frustum opens that camera's photo (rendered from that pose by the seed).
    const amber = await pixelsOf(viewport, [0xff, 0xc2, 0x33]);
    expect(amber.length, 'no camera frustum drawn').toBeGreaterThan(0);
    const hit = amber[Math.floor(amber.length / 3)]!;
    await single.mouse.click(hit.x, hit.y);
    const selected = single.getByTestId('camera-selected');
    await selected.waitFor();
    expect(await selected.getByRole('heading').textContent()).toMatch(/^frame_000\d\d\.png — camera \d+ of 20$/);
    await expect
      .poll(() => selected.getByTestId('camera-photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 30_000,
      })
      .toBe(true);
    await single.getByRole('button', { name: 'Reset view' }).click();

    // 'Flip up axis': on for a splat; off writes up=y-up into the URL, which a reload keeps.
    const flip = single.getByRole('button', { name: 'Flip up axis' });
    expect(await flip.getAttribute('aria-pressed')).toBe('true');
    await flip.click();
    await single.waitForURL(/[?&]up=y-up/);
    expect(await flip.getAttribute('aria-pressed')).toBe('false');
    await single.reload();
    await settled(single);
    expect(await single.getByRole('button', { name: 'Flip up axis' }).getAttribute('aria-pressed')).toBe('false');
    await context.close();
  });

  it("compare mode from the 'Compare' button: both viewports render, linked and unlinked cameras, the swipe slider", async () => {
    const { context, card } = await modelCard(USER, tower.id, 'TWR-001-2025-06');
    const compare = card.getByRole('button', { name: 'Compare' });
    await expect.poll(() => compare.isEnabled()).toBe(true);
    const { tab: compared, started } = await openTab(context, compare);
    expect(compared.url()).toContain('/viewer/?compareMode=true&id=TWR-001-2025-06&referenceId=TWR-001-2024-05');
    await expectRendered(compared, 'compare', started);
    const [model, reference] = await compared.getByTestId('viewport').all();
    expect(await model!.getAttribute('data-public-id')).toBe('TWR-001-2025-06');
    expect(await reference!.getAttribute('data-public-id')).toBe('TWR-001-2024-05');
    await expect.poll(() => model!.locator('.viewport-label').textContent()).toBe('TWR-001-2025-06Jun 2, 2025');

    // Linked (the default): orbiting the model turns the reference model too.
    expect(await compared.getByRole('button', { name: 'Link cameras' }).getAttribute('aria-pressed')).toBe('true');
    let before = await centre(reference!);
    await drag(compared, model!.locator('canvas'), 160);
    await expect
      .poll(async () => changed(before.grey, (await centre(reference!)).grey), {
        timeout: RENDER_TIMEOUT_MS,
        message: 'the reference camera does not follow',
      })
      .toBeGreaterThan(0.05);

    // Unlinked: the reference model stays where it is.
    await compared.getByRole('button', { name: 'Link cameras' }).click();
    await compared.waitForTimeout(1500);
    before = await centre(reference!);
    const modelBefore = await centre(model!);
    await drag(compared, model!.locator('canvas'), -160);
    await expect
      .poll(async () => changed(modelBefore.grey, (await centre(model!)).grey), { timeout: RENDER_TIMEOUT_MS })
      .toBeGreaterThan(0.05);
    await compared.waitForTimeout(1000);
    expect(changed(before.grey, (await centre(reference!)).grey)).toBeLessThan(0.02);

    // Swipe: one box, the reference model on top clipped at the slider, which the keyboard moves.
    await compared.getByRole('button', { name: 'Swipe' }).click();
    const slider = compared.getByRole('slider', { name: /Swipe between/ });
    await slider.focus();
    for (let i = 0; i < 20; i += 1) await compared.keyboard.press('ArrowLeft');
    expect(await slider.inputValue()).toBe('30');
    expect(await reference!.evaluate((element) => getComputedStyle(element).clipPath)).toBe('inset(0px 0px 0px 30%)');
    expect(await compared.getByRole('button', { name: 'Link cameras' }).getAttribute('aria-pressed')).toBe('true');
    await expectRendered(compared, 'compare-swipe');
    await context.close();
  });

  it('renders a GLB-only model and the landing card demo; a missing reference model says so', async () => {
    const { context, page } = await signedIn(USER);
    await open(page, '/viewer/?id=BRG-002-2025-04', 'glb');
    expect(await page.getByRole('button', { name: 'Flip up axis' }).getAttribute('aria-pressed')).toBe('false');
    expect(await page.getByRole('button', { name: 'Splat' }).count()).toBe(0);
    // the landing card's demo opens in a new tab (the demo scene shipped with the portal)
    await page.goto(`${server.url}/`);
    const [demo] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Try Demo' }).first().click()]);
    await demo.waitForURL(/\/viewer\?demo=splat/);
    await expectRendered(demo, 'demo-splat');
    await demo.close();
    await page.goto(`${server.url}/viewer?compareMode=true&id=BRG-002-2025-04&referenceId=NO-SUCH-MODEL`);
    const states = await settled(page);
    expect(states).toEqual(['ready', 'error']);
    await page.getByTestId('viewport').nth(1).getByText('Unable to load reference model information.', { exact: true }).waitFor();
    await context.close();
  });

  it('a large textured GLB is shown from its web-sized copy (model.web.glb, meshopt and WebP), not the original', async () => {
    const projectId = await createProjectWithCli('Web GLB', 'WGL-001', { env: cliEnv() });
    const folder = tempDir('viewer-web-glb');
    let model: Model;
    try {
      writeFileSync(join(folder, 'model.glb'), (await texturedGlb({ triangles: 4000, textureEdge: 2048 })).glb);
      model = await upload(projectId, 'WGL-1', join(folder, 'model.glb'), 'model.glb');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    expect(model.files.webGlbPath, 'the server makes a web-sized copy of a large GLB').toMatch(/\/model\.web\.glb$/);
    const { context, page } = await signedIn(USER);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(decodeURIComponent(request.url())));
    await open(page, '/viewer/?id=WGL-1', 'web-glb');
    expect(requested.filter((url) => url.includes('/model.web.glb'))).not.toEqual([]);
    expect(requested.filter((url) => url.includes('/model.glb'))).toEqual([]);
    await context.close();
  });

  it("a large capture's preview is drawn first, then its full copy replaces it without moving the camera", async () => {
    const projectId = await createProjectWithCli('Splat Preview', 'PRV-001', { env: cliEnv() });
    const folder = tempDir('viewer-preview');
    let model: Model;
    let copy: Uint8Array<ArrayBuffer>;
    let preview: Uint8Array<ArrayBuffer>;
    try {
      // a small capture made to have a preview (the threshold is lowered for the test): 4,000 Gaussians, preview of 1,000
      const ply = join(folder, 'model.ply');
      await writeGaussianPlyFile(ply, 4000, 0);
      const made = await compressSplatFile(ply, join(folder, 'model.spz'), 'model.ply', {
        preview: { output: join(folder, 'model.preview.spz'), gaussians: 1000 },
        previewAboveGaussians: 2000,
      });
      expect(made.preview).toMatchObject({ gaussians: 1000 });
      [copy, preview] = [
        new Uint8Array(readFileSync(join(folder, 'model.spz'))),
        new Uint8Array(readFileSync(join(folder, 'model.preview.spz'))),
      ];
      model = await upload(projectId, 'PRV-1', ply, 'model.ply');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    const contentType = 'application/octet-stream';
    const storedCopy = await service.files.upload(webSplatPath(model.uuid), new Blob([copy]), { contentType });
    const storedPreview = await service.files.upload(webSplatPreviewPath(model.uuid), new Blob([preview]), { contentType });
    await service.catalog.update('models', model.id, {
      'files.webSplatPath': storedCopy.path,
      'files.webSplatSize': storedCopy.size,
      'files.webSplatPreviewPath': storedPreview.path,
      'files.webSplatPreviewSize': storedPreview.size,
    });

    const { context, page } = await signedIn(USER);
    const isCopy = (url: string) => decodeURIComponent(url).includes(`${model.uuid}/model.spz`);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let copyRequested = false;
    let copyFinished = false;
    await page.route(
      (url) => isCopy(url.toString()),
      async (route) => {
        copyRequested = true;
        await released;
        await route.continue();
      },
    );
    page.on('requestfinished', (request) => {
      if (isCopy(request.url())) copyFinished = true;
    });
    await page.goto(`${server.url}/viewer/?id=PRV-1`);
    const viewport = page.getByTestId('viewport');
    const status = page.getByTestId('viewport-status');
    // the first frame, from the preview alone: ready, framed, drawn, and the status says it is a preview
    await expectRendered(page, 'splat-preview');
    expect(await status.textContent()).toBe('Shown: PRV-1 (PRV-1), a Gaussian splat of 1,000 splats. (preview; full detail loading)');
    expect(await viewport.getAttribute('data-refining')).toBe('on');
    expect(await page.getByTestId('splat-count').textContent()).toBe('1,000');
    // the full copy is asked for in the background once the preview has been drawn
    await expect.poll(() => copyRequested, { timeout: RENDER_TIMEOUT_MS }).toBe(true);
    expect(copyFinished, 'the full copy is still held').toBe(false);
    const camera = await viewport.getAttribute('data-camera');

    release();
    await expect
      .poll(() => status.textContent(), { timeout: RENDER_TIMEOUT_MS })
      .toBe('Shown: PRV-1 (PRV-1), a Gaussian splat of 4,000 splats.');
    expect(copyFinished).toBe(true);
    expect(await viewport.getAttribute('data-refining')).toBe('off');
    expect(await page.getByTestId('splat-count').textContent()).toBe('4,000');
    expect(await viewport.getAttribute('data-state')).toBe('ready');
    expect(await viewport.getAttribute('data-camera'), 'the swap leaves the view where it was').toBe(camera);
    expect((await centre(viewport)).coverage).toBeGreaterThan(0.01);
    await page.screenshot({ path: join(RESULTS, 'viewer-splat-refined.png') });
    await context.close();
  });

  it(
    'a capture above the level-of-detail threshold: preview first, then the full copy drawn through its LoD tree; count, framing, orbit and picking work',
    { timeout: 6 * RENDER_TIMEOUT_MS },
    async () => {
      const projectId = await createProjectWithCli('Splat LoD', 'LOD-001', { env: cliEnv() });
      const folder = tempDir('viewer-lod');
      // a large capture: the web copy gets a preview and the viewer a level-of-detail tree
      const gaussians = LARGE_CAPTURE_GAUSSIANS + 20_000;
      let model: Model;
      try {
        const ply = join(folder, 'model.ply');
        await writeGaussianPlyFile(ply, gaussians, 0);
        model = await upload(projectId, 'LOD-1', ply, 'model.ply');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
      // the upload made the web copy and, above the preview threshold, the preview
      await expect
        .poll(async () => (await service.catalog.get('models', model.id))?.files, { timeout: RENDER_TIMEOUT_MS })
        .toMatchObject({ webSplatPath: webSplatPath(model.uuid), webSplatPreviewPath: webSplatPreviewPath(model.uuid) });

      const { context, page } = await signedIn(USER);
      await page.goto(`${server.url}/viewer/?id=LOD-1`);
      const viewport = page.getByTestId('viewport');
      const status = page.getByTestId('viewport-status');
      await expectRendered(page, 'splat-lod-preview');
      const full = `Shown: LOD-1 (LOD-1), a Gaussian splat of ${gaussians.toLocaleString('en-US')} splats.`;
      await expect.poll(() => status.textContent(), { timeout: 3 * RENDER_TIMEOUT_MS }).toBe(full);
      // the count is the file's, not the tree's; the view is framed on the model and drawn
      expect(await page.getByTestId('splat-count').textContent()).toBe(gaussians.toLocaleString('en-US'));
      await expect.poll(() => viewport.getAttribute('data-lod'), { timeout: RENDER_TIMEOUT_MS }).toBe('on');
      await expect.poll(async () => (await centre(viewport)).coverage, { timeout: RENDER_TIMEOUT_MS, interval: 250 }).toBeGreaterThan(0.01);
      await page.screenshot({ path: join(RESULTS, 'viewer-splat-lod.png') });

      // an orbit moves the camera and the new view is drawn from the tree (one keyboard step: each
      // software frame of the tree costs seconds, and a drag is several; drags are tested above)
      const camera = await viewport.getAttribute('data-camera');
      const frames = Number(await viewport.getAttribute('data-rendered-frames'));
      await page.getByRole('application').focus();
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => viewport.getAttribute('data-camera'), { timeout: RENDER_TIMEOUT_MS }).not.toBe(camera);
      await expect
        .poll(async () => Number(await viewport.getAttribute('data-rendered-frames')), { timeout: RENDER_TIMEOUT_MS })
        .toBeGreaterThan(frames);
      await expect.poll(async () => (await centre(viewport)).coverage, { timeout: RENDER_TIMEOUT_MS, interval: 250 }).toBeGreaterThan(0.01);

      // picking at the centre of the view hits the splat
      const measure = page.getByRole('button', { name: 'Measure', exact: true });
      await measure.click();
      await page.getByTestId('measure-tool').getByRole('button', { name: 'Pick point', exact: true }).click();
      await page.getByRole('application').focus();
      await page.keyboard.press('p');
      await expect
        .poll(() => page.getByTestId('pick-readout').textContent(), { timeout: RENDER_TIMEOUT_MS })
        .toMatch(/^Picked \(.+\) on the splat \(model units\)$/);
      await context.close();
    },
  );

  it('a hidden model is not found for a user and opens for an admin', async () => {
    const hidden = models.find((m) => m.visible === false);
    if (!hidden) throw new Error('the seed has no hidden model');
    const user = await signedIn(USER);
    await user.page.goto(`${server.url}/viewer/?id=${encodeURIComponent(hidden.publicId)}`);
    await user.page.getByRole('heading', { name: 'Model Not Found' }).waitFor();
    await user.page.getByText(`No model with public ID ${hidden.publicId}.`).waitFor();
    expect(await user.page.getByTestId('viewport').getAttribute('data-state')).toBe('error');
    await user.context.close();
    const admin = await signedIn(ADMIN);
    await open(admin.page, `/viewer/?id=${encodeURIComponent(hidden.publicId)}`, 'hidden-as-admin');
    await admin.context.close();
  });

  it('a deleted file and unreadable GLB and splat files show an error panel naming the file, not a blank canvas', async () => {
    const projectId = await createProjectWithCli('Broken Files', 'BRK-001', { env: cliEnv() });
    const bridge = models.find((m) => m.publicId === 'BRG-002-2025-04')!;
    const towerModel = models.find((m) => m.publicId === 'TWR-001-2025-06')!;
    const deleted = await upload(projectId, 'BRK-DELETED', storedFile(bridge.files.glbPath!), 'model.glb');
    await service.files.delete(deleted.files.glbPath!);
    const badGlb = await upload(projectId, 'BRK-GLB', storedFile(bridge.files.glbPath!), 'model.glb');
    writeFileSync(storedFile(badGlb.files.glbPath!), '<!doctype html><p>not a GLB</p>');
    const badSplat = await upload(projectId, 'BRK-PLY', storedFile(towerModel.files.splatPath!), 'point_cloud.ply');
    writeFileSync(storedFile(badSplat.files.splatPath!), 'ply\nformat ascii 1.0\nelement vertex 3\nend_header\nnot numbers\n');
    // The viewer loads a PLY's web-sized copy when there is one: without it (a model
    // stored before copies existed) the broken original is what it loads.
    if (badSplat.files.webSplatPath) {
      await service.files.delete(badSplat.files.webSplatPath);
      await service.catalog.update('models', badSplat.id, { 'files.webSplatPath': null, 'files.webSplatSize': null });
    }
    const badCopy = await upload(projectId, 'BRK-SPZ', storedFile(towerModel.files.splatPath!), 'point_cloud.ply');
    expect(badCopy.files.webSplatPath, 'the server makes a web-sized copy of a PLY').toMatch(/\/model\.spz$/);
    writeFileSync(storedFile(badCopy.files.webSplatPath!), 'not an SPZ file');

    const { context, page } = await signedIn(USER);
    const cases = [
      ['BRK-DELETED', /^Could not load model\.glb: /],
      ['BRK-GLB', /^Could not load model\.glb: not a readable GLB file/],
      ['BRK-PLY', /^Could not load model\.ply: not a readable splat file/],
      ['BRK-SPZ', /^Could not load model\.spz: not a readable splat file/],
    ] as const;
    for (const [publicId, message] of cases) {
      await page.goto(`${server.url}/viewer/?id=${publicId}`);
      expect(await settled(page)).toEqual(['error']);
      const panel = page.getByTestId('viewport').getByRole('alert');
      await panel.getByRole('heading', { name: 'The model could not be shown' }).waitFor();
      expect(await panel.locator('p').textContent()).toMatch(message);
      await page.screenshot({ path: join(RESULTS, `viewer-error-${publicId.toLowerCase()}.png`) });
    }
    await context.close();
  });

  it('ships the Draco decoder with the build: the viewer chunk names same-origin assets, served by the portal', async () => {
    const assets = readdirSync(join(portalDist, 'assets'));
    const chunk = assets.find((name) => /^viewer-.*\.js$/.test(name));
    expect(chunk).toBeDefined();
    const code = readFileSync(join(portalDist, 'assets', chunk!), 'utf8');
    expect(code).not.toMatch(/gstatic\.com|unpkg\.com|jsdelivr/);
    const decoders = assets.filter((name) => /^draco_(wasm_wrapper|decoder)-.*\.(js|wasm)$/.test(name) && code.includes(name));
    expect(decoders.some((name) => name.endsWith('.wasm'))).toBe(true);
    for (const name of decoders) expect((await fetch(`${server.url}/assets/${name}`)).status).toBe(200);
  });

  it.skipIf(!hasSamples)("the 3DGS sample's camera poses: clicking a camera frustum shows its photo", { timeout: 240_000 }, async () => {
    const project = await createProjectWithCli('Konstruct Atrium', 'SMP-CAM', { env: cliEnv() });
    // The training output folder as it is: point_cloud/iteration_7000/point_cloud.ply, cameras.json
    // (304 cameras, img_name frame_0000N.jpg) and the render script's ground-truth photos images/0000N.png.
    const model = await uploadFolder(project, 'SMP-CAMS', samplePath('3dgs-konstruct'));
    expect(model.files.images).toHaveLength(5);
    const { context, card } = await modelCard(USER, project, 'SMP-CAMS');
    const { tab: viewer } = await openTab(context, card.getByRole('link', { name: 'View Model' }));
    await expectRendered(viewer, 'cameras');
    const viewport = viewer.getByTestId('viewport');
    const panel = viewer.getByRole('complementary', { name: 'Cameras of SMP-CAMS' });
    await panel.getByText('304 cameras, 5 with a photo. Click a frustum or pick one below.').waitFor();
    expect(await viewer.getByRole('button', { name: 'Cameras', exact: true }).getAttribute('aria-pressed')).toBe('true');

    // Frame the cameras too, then click a pixel of a frustum drawn in the with-a-photo colour.
    await panel.getByRole('button', { name: 'Show all cameras' }).click();
    let amber: { x: number; y: number }[] = [];
    await expect
      .poll(async () => (amber = await pixelsOf(viewport, [0xff, 0xc2, 0x33])).length, {
        timeout: RENDER_TIMEOUT_MS,
        message: 'no camera frustum with a photo is drawn',
      })
      .toBeGreaterThan(0);
    await viewer.screenshot({ path: join(RESULTS, 'viewer-cameras-all.png') });
    const target = amber[Math.floor(amber.length / 2)]!;
    await viewer.mouse.click(target.x, target.y);

    // The camera is selected: its photo in the side panel, its frustum highlighted, the view at its pose.
    const selected = panel.getByTestId('camera-selected');
    await selected.waitFor();
    expect(await selected.getByRole('heading').textContent()).toMatch(
      /^frame_00(001|002|003|101|151)\.jpg — camera (1|2|3|101|151) of 304$/,
    );
    const photo = selected.getByTestId('camera-photo');
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), { timeout: 30_000 }).toBe(531);
    expect(await photo.getAttribute('alt')).toMatch(/^Photo 00(000|001|002|100|150)\.png taken from camera frame_00\d{3}\.jpg$/);
    await expect
      .poll(async () => (await pixelsOf(viewport, [0xff, 0x4d, 0x2e])).length, {
        timeout: RENDER_TIMEOUT_MS,
        message: 'the selected frustum is not highlighted',
      })
      .toBeGreaterThan(0);
    // The side panel with the photo, for looking at (a screenshot of the whole page would wait for a
    // software-WebGL frame seen from inside the capture: tens of seconds).
    await panel.screenshot({ path: join(RESULTS, 'viewer-camera-photo.png') });

    // A camera without a photo says so; the keyboard reaches every camera through the list.
    await panel.getByRole('button', { name: 'frame_00004.jpg (no photo)' }).focus();
    await viewer.keyboard.press('Enter');
    await panel.getByTestId('camera-no-photo').getByText('frame_00004.jpg').waitFor();
    await viewer.keyboard.press('Escape');
    await expect.poll(() => panel.getByTestId('camera-selected').count()).toBe(0);
    await context.close();
  });

  it.skipIf(!hasSamples)('renders the real samples: the 3DGS training PLY, a .splat and Duck.glb', { timeout: 240_000 }, async () => {
    const project = await createProjectWithCli('Samples', 'SMP-001', { env: cliEnv() });
    await upload(project, 'SMP-3DGS', samplePath('3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply'), 'point_cloud.ply');
    await upload(project, 'SMP-SPLAT', samplePath('splat/model.splat'), 'model.splat');
    await upload(project, 'SMP-DUCK', samplePath('glb/Duck.glb'), 'Duck.glb');
    const { context, page } = await signedIn(USER);
    for (const publicId of ['SMP-3DGS', 'SMP-SPLAT', 'SMP-DUCK']) await open(page, `/viewer/?id=${publicId}`, publicId.toLowerCase());
    expect(await page.getByTestId('triangle-count').textContent()).toBe('4,212');
    // The training PLY is viewed from its web-sized SPZ copy, every Gaussian kept.
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(decodeURIComponent(new URL(request.url()).pathname)));
    await page.goto(`${server.url}/viewer/?id=SMP-3DGS`);
    await settled(page);
    expect(await page.getByTestId('splat-count').textContent()).toBe('9,080');
    expect(fetched.some((path) => path.endsWith('/model.spz'))).toBe(true);
    expect(fetched.some((path) => path.endsWith('/model.ply'))).toBe(false);
    await context.close();
  });
});
