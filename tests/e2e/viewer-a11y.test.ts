/**
 * The built-in 3D viewer's accessibility (WCAG 2.1 AA) in headless Chromium with software WebGL,
 * against a real `catalog serve` with the seeded demo catalog: axe-core (WCAG 2.1 A/AA and best
 * practice) finds nothing on a splat, a GLB, compare mode (side by side and swipe), the camera panel
 * with a photo open and the signed-out viewer, at 1400×900 and 390×844; the keyboard alone (no
 * mouse event) orbits, pans, zooms and resets the view (the camera state the viewport exposes as
 * `data-camera`, and the canvas's pixels), toggles the cameras and opens and closes a photo with
 * focus where it should be; under `prefers-reduced-motion: reduce` a flight to a camera lands in
 * its first frame; the canvas's accessible name and description say the model's name, type and
 * splat or triangle count. Software rendering is slow: tests wait for rendered frames, never for time.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import {
  browserSkipReason,
  coveredControls,
  launchChromium,
  offlineContext,
  RESULTS,
  screenshotOnFailure,
  submitSignIn,
  viewerSettled,
  VIEWER_TEST_WINDOW,
} from '../support/browser.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { portalDist } from '../support/paths.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e viewer-a11y] skipping: ${skipReason}`);

const USER = ['user@demo.lab', 'demo-user-1'] as const;
/** The seeded models (cli/src/lib/demo-data/catalog.ts). */
const HYBRID = { id: 'TWR-001-2024-05', name: 'North Ridge Tower, May 2024 survey' };
const SPLAT = { id: 'TWR-001-2025-06', name: 'North Ridge Tower, June 2025 survey' };
const GLB = { id: 'BRG-002-2025-04', name: 'Grand River Footbridge, April 2025' };
const APP_TITLE = 'Tower Models Catalog';
/** The viewport background (portal/src/features/viewer/lib/engine.ts VIEWPORT_BACKGROUND). */
const BACKGROUND = [0x1b, 0x1f, 0x24] as const;
const RENDER_TIMEOUT_MS = 90_000;

describe.skipIf(skipReason !== null)('viewer accessibility (software WebGL)', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let current: Page | null = null;
  const pageErrors: string[] = [];
  beforeEach(screenshotOnFailure('viewer-a11y-failure', () => current));

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'viewer-a11y', portalDir: portalDist, seed: true });
    browser = await launchChromium({ webgl: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
    expect(pageErrors).toEqual([]);
  });

  /** An offline context of the given size (and motion preference), optionally signed in as the demo user. */
  async function open(
    size: { width: number; height: number },
    options: { signedIn?: boolean; reducedMotion?: 'reduce' | 'no-preference' } = {},
  ): Promise<{ context: BrowserContext; page: Page }> {
    const context = await offlineContext(browser, size, { reducedMotion: options.reducedMotion });
    const page = await context.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    current = page;
    if (options.signedIn !== false) {
      await submitSignIn(page, seeded.url, USER[0], USER[1]);
      await page.waitForURL(`${seeded.url}/projects`);
    }
    return { context, page };
  }

  const settled = (page: Page) => viewerSettled(page, RENDER_TIMEOUT_MS);

  /** Opens a viewer URL and waits for it to settle, every viewport ready. */
  async function view(page: Page, path: string): Promise<void> {
    await page.goto(`${seeded.url}${path}`);
    const states = await settled(page);
    expect(states.length).toBeGreaterThan(0);
    expect(states.every((s) => s === 'ready')).toBe(true);
  }

  /** The first viewport's camera state (`data-camera`: position | target). */
  const cameraOf = (page: Page): Promise<string | null> => page.getByTestId('viewport').first().getAttribute('data-camera');

  /** Waits for the first viewport's camera state to differ from `before`; returns it. */
  async function cameraChange(page: Page, before: string | null, message: string): Promise<string> {
    await expect.poll(() => cameraOf(page), { timeout: RENDER_TIMEOUT_MS, message }).not.toBe(before);
    return (await cameraOf(page))!;
  }

  /** What has keyboard focus: tag, role, accessible-name attributes and test ids. */
  function focused(page: Page) {
    return page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      return {
        tag: element?.tagName.toLowerCase() ?? null,
        role: element?.getAttribute('role') ?? null,
        label: element?.getAttribute('aria-label') ?? null,
        text: element?.textContent?.trim() ?? null,
        cameraIndex: element?.dataset.cameraIndex ?? null,
        pressed: element?.getAttribute('aria-pressed') ?? null,
      };
    });
  }

  /** Presses Tab (Shift+Tab when `back`) until `test` holds for the focused element (at most `max` presses). */
  async function tabTo(
    page: Page,
    test: (f: Awaited<ReturnType<typeof focused>>) => boolean,
    what: string,
    { back = false, max = 60 } = {},
  ): Promise<void> {
    for (let i = 0; i < max; i += 1) {
      await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
      if (test(await focused(page))) return;
    }
    throw new Error(`${what} is not reached with ${back ? 'Shift+Tab' : 'Tab'} (focus on ${JSON.stringify(await focused(page))})`);
  }

  /** The centre 40% of the first canvas as 24×24 grey levels (read back through a 2D copy). */
  function centreGrey(page: Page): Promise<number[]> {
    return page
      .getByTestId('viewport')
      .first()
      .locator('canvas')
      .evaluate((canvas: HTMLCanvasElement) => {
        const copy = document.createElement('canvas');
        copy.width = canvas.width;
        copy.height = canvas.height;
        const context = copy.getContext('2d')!;
        context.drawImage(canvas, 0, 0);
        const x = Math.floor(canvas.width * 0.3);
        const y = Math.floor(canvas.height * 0.3);
        const w = Math.floor(canvas.width * 0.4);
        const h = Math.floor(canvas.height * 0.4);
        const data = context.getImageData(x, y, w, h).data;
        const cells = 24;
        const grey = new Array<number>(cells * cells).fill(0);
        const counts = new Array<number>(cells * cells).fill(0);
        for (let i = 0; i < data.length; i += 4) {
          const p = i / 4;
          const cell =
            Math.min(cells - 1, Math.floor(((p % w) / w) * cells)) +
            Math.min(cells - 1, Math.floor((Math.floor(p / w) / h) * cells)) * cells;
          grey[cell] += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
          counts[cell] += 1;
        }
        return grey.map((v, i) => v / Math.max(1, counts[i]!));
      });
  }

  /** Share of the 24×24 cells whose grey level differs by more than 6 (of 255). */
  const changed = (a: number[], b: number[]) => a.filter((v, i) => Math.abs(v - b[i]!) > 6).length / a.length;

  /** Waits until the centre of the first canvas shows something other than the background. */
  async function modelPixels(page: Page): Promise<void> {
    await expect
      .poll(
        async () => (await centreGrey(page)).filter((g) => Math.abs(g - (BACKGROUND[0] + BACKGROUND[1] + BACKGROUND[2]) / 3) > 10).length,
        {
          timeout: RENDER_TIMEOUT_MS,
          message: 'the model is not drawn',
        },
      )
      .toBeGreaterThan(5);
  }

  /** The canvas's accessible name and description (aria-label; the texts aria-describedby names). */
  function canvasText(page: Page, index = 0): Promise<{ name: string | null; description: string; role: string | null }> {
    return page
      .getByTestId('viewport')
      .nth(index)
      .locator('canvas')
      .evaluate((canvas) => ({
        name: canvas.getAttribute('aria-label'),
        role: canvas.getAttribute('role'),
        description: (canvas.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent?.trim() ?? `(no element #${id})`)
          .join(' '),
      }));
  }

  /** The focused element is a camera entry of the list. */
  const onCameraEntry = (f: Awaited<ReturnType<typeof focused>>) => f.cameraIndex !== null;

  for (const size of [
    { width: 1400, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(
      `axe finds nothing at ${size.width}×${size.height}: splat, GLB, compare, swipe, camera panel with a photo, signed out`,
      { timeout: 600_000 },
      async () => {
        const found: string[] = [];
        const { context, page } = await open(size);
        const scan = async (name: string) => {
          found.push(...(await axeViolations(page, `${size.width} ${name}`)));
          await page.screenshot({ path: join(RESULTS, `viewer-a11y-${size.width}-${name.replace(/ /g, '-')}.png`) });
        };

        await view(page, `/viewer/?id=${SPLAT.id}`);
        expect(await page.title()).toBe(`${SPLAT.name} · ${APP_TITLE}`);
        expect(await page.locator('h1').allTextContents()).toEqual([SPLAT.name]);
        await scan('splat');

        await view(page, `/viewer/?id=${GLB.id}`);
        expect(await page.title()).toBe(`${GLB.name} · ${APP_TITLE}`);
        await scan('glb');

        await view(page, `/viewer/?compareMode=true&id=${SPLAT.id}&referenceId=${HYBRID.id}`);
        expect(await page.title()).toBe(`Compare ${SPLAT.name} with ${HYBRID.name} · ${APP_TITLE}`);
        expect(await page.locator('h1').count()).toBe(1);
        await scan('compare');
        await page.getByRole('button', { name: 'Swipe' }).press('Enter');
        await page.getByRole('slider', { name: /Swipe between/ }).waitFor();
        await settled(page);
        await scan('compare swipe');

        // The camera panel (open at the start of the single view; on a phone-width screen its
        // toggle opens it) with a camera's photo open.
        await view(page, `/viewer/?id=${HYBRID.id}`);
        const camerasToggle = page.getByRole('button', { name: 'Cameras', exact: true });
        expect(await camerasToggle.getAttribute('aria-pressed')).toBe(size.width < 768 ? 'false' : 'true');
        if (size.width < 768) await camerasToggle.click();
        const panel = page.getByRole('complementary', { name: `Cameras of ${HYBRID.id}` });
        await panel.locator('[data-camera-index="0"]').press('Enter');
        await expect
          .poll(() => panel.getByTestId('camera-photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
            timeout: 30_000,
          })
          .toBe(true);
        await settled(page);
        // Every control of the toolbar is on top (not covered by the camera panel), at every width.
        expect(await coveredControls(page, '.viewport-toolbar button')).toEqual([]);
        await scan('camera photo');
        await context.close();

        const signedOut = await open(size, { signedIn: false });
        await signedOut.page.goto(`${seeded.url}/viewer/?id=${HYBRID.id}`);
        await signedOut.page.getByRole('heading', { level: 1, name: 'Login Required' }).waitFor();
        expect(await signedOut.page.title()).toBe(`Login Required · ${APP_TITLE}`);
        found.push(...(await axeViolations(signedOut.page, `${size.width} signed out`)));
        await signedOut.context.close();

        expect(found).toEqual([]);
      },
    );
  }

  it('the keyboard alone orbits, pans, zooms and resets the view, with the keys and with named buttons', { timeout: 300_000 }, async () => {
    const { context, page } = await open(VIEWER_TEST_WINDOW);
    await view(page, `/viewer/?id=${GLB.id}`);
    await modelPixels(page);

    // Tab reaches the 3D view: a named application (the keys go to it), its keys shown while focused.
    await tabTo(page, (f) => f.tag === 'canvas', 'the 3D view');
    expect(await focused(page)).toMatchObject({ role: 'application', label: `3D view of ${GLB.name} (${GLB.id})` });
    const hint = page.locator('.viewport-keys');
    expect((await hint.boundingBox())!.width).toBeGreaterThan(100);
    expect(await hint.textContent()).toMatch(/^Arrow keys orbit, Shift\+arrow keys pan, \+ and − \(or Page Up and Page Down\) zoom/);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(RESULTS, 'viewer-a11y-keyboard-focus.png') });
    const home = (await cameraOf(page))!;
    // The focused canvas carries the same camera state as its viewport.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-camera'))).toBe(home);
    const homePixels = await centreGrey(page);

    // Arrows orbit: the position turns about the target, which stays.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    const orbited = await cameraChange(page, home, 'arrow keys do not orbit');
    expect(orbited.split('|')[1]).toBe(home.split('|')[1]);
    await expect.poll(async () => changed(homePixels, await centreGrey(page)), { timeout: RENDER_TIMEOUT_MS }).toBeGreaterThan(0.05);

    // Shift+arrows pan: the target moves.
    // (`orbited` may be the first arrow's frame, the second arrow's frame still to come: wait for
    // the target to move rather than for any change; keys are applied in order.)
    await page.keyboard.press('Shift+ArrowRight');
    const target = async () => (await cameraOf(page))?.split('|')[1];
    await expect.poll(target, { timeout: RENDER_TIMEOUT_MS, message: 'Shift+arrow does not pan' }).not.toBe(home.split('|')[1]);
    const panned = (await cameraOf(page))!;
    expect(panned).not.toBe(orbited);
    expect(panned.split('|')[1]).not.toBe(home.split('|')[1]);

    // Page Up and + zoom in: closer to the target; Page Down and − zoom out.
    const distance = (state: string) => {
      const [p, t] = state.split('|').map((v) => v.split(',').map(Number));
      return Math.hypot(p![0]! - t![0]!, p![1]! - t![1]!, p![2]! - t![2]!);
    };
    await page.keyboard.press('PageUp');
    const zoomed = await cameraChange(page, panned, 'Page Up does not zoom');
    expect(distance(zoomed)).toBeLessThan(distance(panned) * 0.9);
    await page.keyboard.press('+');
    const closer = await cameraChange(page, zoomed, '+ does not zoom');
    expect(distance(closer)).toBeLessThan(distance(zoomed));
    await page.keyboard.press('PageDown');
    expect(distance(await cameraChange(page, closer, 'Page Down does not zoom out'))).toBeGreaterThan(distance(closer));

    // Home resets to the first view: the same camera and the same pixels.
    await page.keyboard.press('Home');
    await expect.poll(() => cameraOf(page), { timeout: RENDER_TIMEOUT_MS }).toBe(home);
    await expect.poll(async () => changed(homePixels, await centreGrey(page)), { timeout: RENDER_TIMEOUT_MS }).toBeLessThan(0.02);
    await page.keyboard.press('ArrowUp');
    await cameraChange(page, home, 'ArrowUp does not orbit');
    await page.keyboard.press('r');
    await expect.poll(() => cameraOf(page), { timeout: RENDER_TIMEOUT_MS }).toBe(home);

    // The same by the toolbar's named buttons: Tab on to 'Zoom in', Enter; then 'Reset view'.
    await tabTo(page, (f) => f.label === 'Zoom in', "the 'Zoom in' button");
    await page.keyboard.press('Enter');
    const buttonZoom = await cameraChange(page, home, "'Zoom in' does not zoom");
    expect(distance(buttonZoom)).toBeLessThan(distance(home));
    await tabTo(page, (f) => f.label === 'Zoom out', "the 'Zoom out' button");
    await page.keyboard.press(' ');
    await cameraChange(page, buttonZoom, "'Zoom out' does not zoom");
    await page.keyboard.press('Shift+Tab');
    const zoomedOut = await cameraOf(page);
    await page.keyboard.press('Enter');
    await cameraChange(page, zoomedOut, "'Zoom in' again");
    await tabTo(page, (f) => f.text === 'Reset view', "the 'Reset view' button");
    await page.keyboard.press('Enter');
    await expect.poll(() => cameraOf(page), { timeout: RENDER_TIMEOUT_MS }).toBe(home);
    await context.close();
  });

  it(
    'compare by keyboard: the reference follows a keyboard orbit while linked, not when unlinked; the swipe slider moves',
    { timeout: 300_000 },
    async () => {
      const { context, page } = await open(VIEWER_TEST_WINDOW);
      await view(page, `/viewer/?compareMode=true&id=${GLB.id}&referenceId=${GLB.id}`);
      const [model, reference] = await page.getByTestId('viewport').all();
      const cameraOfSide = (side: typeof model) => side!.getAttribute('data-camera');
      await page.waitForTimeout(500);

      // Linked (the default): an orbit of the model's view turns the reference's view the same way.
      await tabTo(page, (f) => f.tag === 'canvas', "the model's 3D view");
      expect((await focused(page)).label).toBe(`3D view of ${GLB.name} (${GLB.id})`);
      let before = await cameraOfSide(reference);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => cameraOfSide(reference), { timeout: RENDER_TIMEOUT_MS }).not.toBe(before);
      await expect.poll(() => cameraOfSide(reference), { timeout: RENDER_TIMEOUT_MS }).toBe(await cameraOfSide(model));

      // 'Link cameras' (in the header, before the views): off; the reference stays while the model turns.
      await tabTo(page, (f) => f.text === 'Link cameras', "'Link cameras'", { back: true, max: 3 });
      expect((await focused(page)).pressed).toBe('true');
      await page.keyboard.press('Enter');
      expect((await focused(page)).pressed).toBe('false');
      await tabTo(page, (f) => f.tag === 'canvas', "the model's 3D view", { max: 3 });
      before = await cameraOfSide(reference);
      const modelBefore = await cameraOfSide(model);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => cameraOfSide(model), { timeout: RENDER_TIMEOUT_MS }).not.toBe(modelBefore);
      expect(await cameraOfSide(reference)).toBe(before);

      // 'Swipe', then the slider by arrow keys.
      await tabTo(page, (f) => f.text === 'Swipe', "'Swipe'", { back: true, max: 4 });
      await page.keyboard.press('Enter');
      await tabTo(page, (f) => f.tag === 'input', 'the swipe slider');
      const slider = page.getByRole('slider', { name: /Swipe between/ });
      for (let i = 0; i < 5; i += 1) await page.keyboard.press('ArrowRight');
      expect(await slider.inputValue()).toBe('55');
      expect(await slider.getAttribute('aria-valuetext')).toBe('55% model, 45% reference model');
      await context.close();
    },
  );

  it('the keyboard alone toggles the cameras, opens a photo and closes it, focus where it should be', { timeout: 300_000 }, async () => {
    const { context, page } = await open(VIEWER_TEST_WINDOW);
    await view(page, `/viewer/?id=${HYBRID.id}`);
    const panel = page.getByRole('complementary', { name: `Cameras of ${HYBRID.id}` });
    await panel.waitFor();

    // 'Cameras' is a toggle: off hides the panel, on brings it back; focus stays on the toggle.
    await tabTo(page, (f) => f.text === 'Cameras', "the 'Cameras' toggle");
    expect((await focused(page)).pressed).toBe('true');
    await page.keyboard.press('Enter');
    await expect.poll(() => panel.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ text: 'Cameras', pressed: 'false' });
    await page.keyboard.press('Space');
    await panel.waitFor();
    expect(await focused(page)).toMatchObject({ text: 'Cameras', pressed: 'true' });

    // On to the list of cameras (the keyboard equivalent of clicking a frustum); Enter opens the photo.
    await tabTo(page, onCameraEntry, 'a camera of the list');
    const entry = await focused(page);
    await page.keyboard.press('Enter');
    const selected = panel.getByTestId('camera-selected');
    await selected.waitFor();
    await expect
      .poll(() => selected.getByTestId('camera-photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await focused(page)).toMatchObject({ cameraIndex: entry.cameraIndex, pressed: 'true' });
    await page.screenshot({ path: join(RESULTS, 'viewer-a11y-camera-photo-keyboard.png') });
    expect(await panel.getByTestId('camera-status').textContent()).toMatch(/^Camera frame_\d+\.png, 1 of 20: photo \S+\.(png|jpg)\.$/);

    // Shift+Tab goes back into the photo's controls; 'Close photo' closes it and focus returns to the camera.
    await tabTo(page, (f) => f.text === 'Close photo', "'Close photo'", { back: true, max: 3 });
    await page.keyboard.press('Enter');
    await expect.poll(() => selected.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ cameraIndex: entry.cameraIndex, pressed: 'false' });

    // Again, then Escape from the photo's link: closed, focus back on the camera.
    await page.keyboard.press('Enter');
    await selected.getByRole('link').first().waitFor();
    await tabTo(page, (f) => f.tag === 'a', 'the photo link', { back: true, max: 8 });
    await page.keyboard.press('Escape');
    await expect.poll(() => selected.count()).toBe(0);
    expect(await focused(page)).toMatchObject({ cameraIndex: entry.cameraIndex });

    // 'Next camera' from the keyboard selects the following camera.
    await page.keyboard.press('Enter');
    await selected.waitFor();
    await tabTo(page, (f) => f.label === 'Next camera', "'Next camera'", { back: true, max: 3 });
    await page.keyboard.press('Enter');
    await expect
      .poll(() => selected.getByRole('heading').textContent())
      .toMatch(new RegExp(`— camera ${Number(entry.cameraIndex) + 2} of 20$`));
    await context.close();
  });

  it('prefers-reduced-motion: a flight to a camera lands in its first frame', { timeout: 300_000 }, async () => {
    const { context, page } = await open(VIEWER_TEST_WINDOW, { reducedMotion: 'reduce' });
    expect(await page.evaluate(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(true);
    await view(page, `/viewer/?id=${SPLAT.id}`);
    await page.waitForTimeout(500);
    const before = await cameraOf(page);
    // Every camera state the viewport draws from now on, with whether a flight was under way.
    await page.getByTestId('viewport').evaluate((viewport: HTMLElement) => {
      const seen: Array<{ camera: string; flight: string }> = [];
      (window as unknown as { seen: typeof seen }).seen = seen;
      new MutationObserver(() => {
        const camera = viewport.dataset.camera ?? '';
        const last = seen.at(-1);
        if (!last || last.camera !== camera || last.flight !== viewport.dataset.flight)
          seen.push({ camera, flight: viewport.dataset.flight ?? '' });
      }).observe(viewport, { attributes: true, attributeFilter: ['data-camera', 'data-flight', 'data-rendered-frames'] });
    });
    await tabTo(page, onCameraEntry, 'a camera of the list');
    await page.keyboard.press('Enter');
    await page.getByTestId('camera-selected').waitFor();
    const landed = await cameraChange(page, before, 'the view does not move to the camera');
    // A few more frames (the selection highlight, Spark's sort): the view stays where it landed.
    await page.waitForTimeout(1500);
    const seen = await page.evaluate(() => (window as unknown as { seen: Array<{ camera: string; flight: string }> }).seen);
    const moved = seen.filter((s) => s.camera !== before);
    expect(moved.length, JSON.stringify(seen)).toBeGreaterThan(0);
    expect(
      moved.every((s) => s.camera === landed && s.flight === 'off'),
      JSON.stringify(seen),
    ).toBe(true);
    await context.close();
  });

  it("the canvas's name and description: the model's name, its type and its splat or triangle count", { timeout: 300_000 }, async () => {
    const { context, page } = await open(VIEWER_TEST_WINDOW);
    const count = async (testId: string) => (await page.getByTestId(testId).textContent())!;

    await view(page, `/viewer/?id=${HYBRID.id}`);
    let text = await canvasText(page);
    expect(text.role).toBe('application');
    expect(text.name).toBe(`3D view of ${HYBRID.name} (${HYBRID.id})`);
    const splats = await count('splat-count');
    const triangles = await count('triangle-count');
    expect(splats).toMatch(/^[1-9][\d,]*$/);
    expect(text.description).toBe(
      `${HYBRID.name} (${HYBRID.id}), a hybrid model (Gaussian splat and GLB mesh) of ${splats} splats and ${triangles} triangles. ` +
        'Arrow keys orbit, Shift+arrow keys pan, + and − (or Page Up and Page Down) zoom, F fits the model, R or Home resets the view.',
    );
    expect(await page.getByTestId('viewport-status').textContent()).toBe(
      `Shown: ${HYBRID.name} (${HYBRID.id}), a hybrid model (Gaussian splat and GLB mesh) of ${splats} splats and ${triangles} triangles.`,
    );

    await view(page, `/viewer/?id=${SPLAT.id}`);
    text = await canvasText(page);
    expect(text.description).toMatch(
      new RegExp(
        `^North Ridge Tower, June 2025 survey \\(${SPLAT.id}\\), a Gaussian splat of ${await count('splat-count')} splats\\. Arrow keys`,
      ),
    );

    await view(page, `/viewer/?id=${GLB.id}`);
    text = await canvasText(page);
    expect(text.description).toMatch(
      new RegExp(
        `^Grand River Footbridge, April 2025 \\(${GLB.id}\\), a GLB mesh of ${await count('triangle-count')} triangles\\. Arrow keys`,
      ),
    );

    // Compare mode: each side names its own model.
    await view(page, `/viewer/?compareMode=true&id=${SPLAT.id}&referenceId=${HYBRID.id}`);
    expect((await canvasText(page, 0)).name).toBe(`3D view of ${SPLAT.name} (${SPLAT.id})`);
    expect((await canvasText(page, 1)).description).toMatch(/^North Ridge Tower, May 2024 survey \(TWR-001-2024-05\), a hybrid model/);
    await context.close();
  });
});
