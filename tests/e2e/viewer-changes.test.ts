/**
 * The viewer's 'Changes' mode in headless Chromium with software WebGL, against a real
 * `catalog serve`: the generated changed pair of the demo tower (30,000 Gaussians; a bent brace, a
 * removed antenna, an added cabinet) uploaded as a project's reference and a later capture, its
 * change map computed with `catalog models changes`, and the capture opened in the viewer as the
 * demo user. The reference has no 'Changes' button; the capture has. On, the panel lists the
 * change regions and the unchanged tower turns grey; flying to the cabinet's region shows it in
 * the change scale's colour of its sign (red outside the reference surface, blue inside: the sign
 * is the change map's, read from its region) where the capture's own colours have none; off, the
 * capture's own colours come back. Real pixels are read from the canvas; one scene, a screenshot of each state
 * (test-results/viewer-changes-on.png and -off.png).
 * The panel: its legend and histogram show, moving the threshold slider by the keyboard repaints
 * the capture (the panel's `data-changed-gaussians`, counted from the colours applied); at 390×844
 * it lies under the 3D view, covering none of the toolbar, and axe finds nothing with it open
 * (nor at 1400×900); a region's 'Create finding' opens the findings form prefilled, and the saved
 * finding is listed naming its region, in the viewer and in the project's findings report
 * (screenshots test-results/viewer-changes-panel-1400.png and -390.png).
 * Compare mode, with the seeded demo pair (TWR-001-2025-09 against its reference TWR-001-2024-05,
 * whose change map the seed computed), in the viewer tests' small window: 'Changes' colours the
 * capture's viewport only (the panel's `data-changed-gaussians`, grey pixels in its canvas), a
 * region's 'Fly to' moves the capture's camera and the linked reference follows, and axe finds
 * nothing with the panel open beside the stage.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeRegion } from '@shared/change-map/types.js';
import type { Model } from '@shared/types.js';
import { encodeChangedPair, makeChangedPair } from '../../cli/src/lib/demo-data/index.js';
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
import { axeViolations } from '../support/axe.js';
import { jsonCli } from '../support/cli.js';
import { portalDist, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e viewer-changes] skipping: ${skipReason}`);

const USER = ['user@demo.lab', 'demo-user-1'] as const;
/** Software rendering of a splat takes seconds a frame: generous waits, never timed. */
const RENDER_TIMEOUT_MS = 90_000;

/** Pixels of the canvas by kind: the change scale's strong red or blue, and neutral grey (the unchanged colour, lit or not). */
interface PixelCounts {
  /** Strong red (r well above g and b) in the central third of the canvas. */
  centreRed: number;
  /** Strong blue (b well above r and g) in the central third of the canvas. */
  centreBlue: number;
  /** Neutral grey (r, g and b within a few levels, brighter than the background) anywhere. */
  grey: number;
}

/** Counts the pixels of the first viewport's canvas by kind (the canvas keeps its drawing buffer: engine.ts). */
async function countPixels(page: Page): Promise<PixelCounts> {
  return page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid=viewport] canvas')!;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d')!;
    context.drawImage(canvas, 0, 0);
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    let centreRed = 0;
    let centreBlue = 0;
    let grey = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b] = [data[i]!, data[i + 1]!, data[i + 2]!];
      const p = i / 4;
      const [x, y] = [p % width, Math.floor(p / width)];
      const central = x > width / 3 && x < (2 * width) / 3 && y > height / 3 && y < (2 * height) / 3;
      if (central && r > 150 && r - Math.max(g, b) > 90) centreRed += 1;
      if (central && b > 150 && b - Math.max(r, g) > 90) centreBlue += 1;
      if (r > 70 && Math.max(r, g, b) - Math.min(r, g, b) < 12) grey += 1;
    }
    return { centreRed, centreBlue, grey };
  });
}

/**
 * The pixel counts of the first viewport (compare mode: the capture's) once the view has settled:
 * no camera flight, and (the engine draws only while something changes) no new frame and the same
 * counts across two reads a couple of seconds apart.
 */
async function settledPixels(page: Page): Promise<PixelCounts> {
  const viewport = page.getByTestId('viewport').first();
  await expect.poll(() => viewport.getAttribute('data-flight'), { timeout: RENDER_TIMEOUT_MS }).toBe('off');
  let last: { frames: string | null; counts: PixelCounts } | null = null;
  for (let tries = 0; tries < 40; tries += 1) {
    const now = { frames: await viewport.getAttribute('data-rendered-frames'), counts: await countPixels(page) };
    if (last && last.frames === now.frames && JSON.stringify(last.counts) === JSON.stringify(now.counts)) return now.counts;
    last = now;
    await page.waitForTimeout(2_000);
  }
  return last!.counts;
}

describe.skipIf(skipReason !== null)("viewer 'Changes' (software WebGL)", () => {
  let server: EmbeddedServer;
  let browser: Browser;
  let page: Page | null = null;
  let env: Record<string, string>;
  let capture: Model;
  let reference: Model;
  let regions: ChangeRegion[];
  const work = tempDir('viewer-changes-models');
  const pageErrors: string[] = [];
  const { ok } = jsonCli(() => env);
  beforeEach(screenshotOnFailure('viewer-changes-failure', () => page));

  beforeAll(async () => {
    server = await startEmbeddedServer({ prefix: 'viewer-changes', portalDir: portalDist, seed: true });
    env = { ...server.env, CATALOG_URL: server.url };
    await ok(['projects', 'create', '--name', 'Changed Tower', '--structure-id', 'CHG-001']);
    const files = encodeChangedPair(makeChangedPair({ count: 30_000 }));
    const upload = async (name: string, bytes: Uint8Array, extra: string[] = []) => {
      const dir = join(work, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'point_cloud.ply'), bytes);
      return (await ok<{ model: Model }>(['models', 'upload', dir, '--project', 'CHG-001', '--public-id', name, '--name', name, ...extra]))
        .model;
    };
    reference = await upload('CHG-2025', files.reference, ['--reference']);
    capture = await upload('CHG-2026', files.capture);
    ({ regions } = await ok<{ regions: ChangeRegion[] }>(['models', 'changes', 'CHG-2026', '--project', 'CHG-001']));
    browser = await launchChromium({ webgl: true });
    mkdirSync(RESULTS, { recursive: true });
  }, 300_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  async function open(publicId: string): Promise<Page> {
    if (!page) {
      const context = await offlineContext(browser);
      page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await submitSignIn(page, server.url, USER[0], USER[1]);
      await page.waitForURL(`${server.url}/projects`);
    }
    await page.goto(`${server.url}/viewer?id=${publicId}`);
    expect(await viewerSettled(page, RENDER_TIMEOUT_MS)).toEqual(['ready']);
    return page;
  }

  it('colours the capture by its change map: the added cabinet in colour, the rest grey; off restores its colours', async () => {
    // The reference has no change map of its own: no button.
    const shown = await open(reference.publicId);
    await expect.poll(() => shown.getByRole('heading', { level: 1 }).textContent()).toBe(reference.name);
    expect(await shown.getByRole('button', { name: 'Changes' }).count()).toBe(0);

    await open(capture.publicId);
    const own = await settledPixels(shown);
    const toggle = shown.getByRole('button', { name: 'Changes' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const panel = shown.getByRole('region', { name: 'Changes' });
    await expect.poll(() => panel.getAttribute('data-colouring'), { timeout: RENDER_TIMEOUT_MS }).toBe('shown');
    expect(await panel.getByTestId('change-region').count()).toBe(regions.length);
    // The generated capture has no scale: model units.
    expect(await panel.getByTestId('changes-legend').textContent()).toContain('model units');
    // The whole capture: its red and white bands turn grey (unchanged).
    const whole = await settledPixels(shown);
    expect(whole.grey).toBeGreaterThan(own.grey * 1.2);

    // The cabinet: the capture-side region of the largest distance (1.6 m tall).
    const cabinet = regions.filter((r) => r.side === 'capture').sort((a, b) => Math.abs(b.maxDistance) - Math.abs(a.maxDistance))[0]!;
    await panel.getByRole('button', { name: `Fly to region ${cabinet.id}`, exact: true }).click();
    const on = await settledPixels(shown);
    await shown.screenshot({ path: join(RESULTS, 'viewer-changes-on.png') });

    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    const off = await settledPixels(shown);
    await shown.screenshot({ path: join(RESULTS, 'viewer-changes-off.png') });
    console.info(
      `[e2e viewer-changes] whole view: own ${JSON.stringify(own)}, changes ${JSON.stringify(whole)}; at the cabinet: changes ${JSON.stringify(on)}, own ${JSON.stringify(off)}`,
    );

    // The cabinet's colour (its distance's sign) where it stands, only in the change colours.
    const colourOf = (counts: PixelCounts) => (cabinet.maxDistance > 0 ? counts.centreRed : counts.centreBlue);
    expect(colourOf(on)).toBeGreaterThan(200);
    expect(colourOf(on)).toBeGreaterThan(colourOf(off) * 3);
    expect(pageErrors).toEqual([]);
  }, 600_000);

  it("the panel: legend, histogram and threshold; phone layout and axe; a region's 'Create finding' names it", async () => {
    // (the page of the test above, the capture shown with the mode off)
    const shown = page ?? (await open(capture.publicId));
    const toggle = shown.getByRole('button', { name: 'Changes' });
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    const panel = shown.getByRole('region', { name: 'Changes' });
    await expect.poll(() => panel.getAttribute('data-colouring'), { timeout: RENDER_TIMEOUT_MS }).toBe('shown');
    expect(await panel.getByTestId('changes-legend').isVisible()).toBe(true);
    expect(await panel.getByTestId('changes-histogram').isVisible()).toBe(true);
    expect(await panel.getByTestId('changes-histogram-text').textContent()).toMatch(
      /Gaussians within ±[\d.]+ model units, (about )?[\d,]+ beyond/,
    );

    // At the level of detection: 1400×900, then a phone's 390×844.
    await shown.setViewportSize({ width: 1400, height: 900 });
    await settledPixels(shown);
    await shown.screenshot({ path: join(RESULTS, 'viewer-changes-panel-1400.png') });
    const found = await axeViolations(shown, '1400 changes panel');

    // Phones: the panel is a row under the 3D view, covering none of its toolbar.
    await shown.setViewportSize({ width: 390, height: 844 });
    const viewport = shown.getByTestId('viewport');
    await expect
      .poll(async () => {
        const [view, box] = [await viewport.boundingBox(), await panel.boundingBox()];
        return view && box ? box.y - (view.y + view.height) : null;
      })
      .toBeGreaterThanOrEqual(-1);
    expect(await coveredControls(shown, '.viewport-toolbar button')).toEqual([]);
    await settledPixels(shown);
    await shown.screenshot({ path: join(RESULTS, 'viewer-changes-panel-390.png') });
    found.push(...(await axeViolations(shown, '390 changes panel')));
    expect(found).toEqual([]);

    await shown.setViewportSize({ width: 1400, height: 900 });

    // A region's 'Create finding': the findings form, prefilled and naming the region; saved, the finding is listed naming it.
    const region = regions.find((r) => r.side === 'capture')!;
    await panel.getByRole('button', { name: `Create finding from change region ${region.id}`, exact: true }).click();
    const form = shown.getByTestId('finding-form');
    const title = form.getByLabel('Title');
    await expect.poll(() => title.inputValue()).toBe(`Change region ${region.id}: added or moved`);
    expect(await title.evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await form.getByTestId('finding-change-region').textContent()).toMatch(
      new RegExp(`^Change region ${region.id} against ${reference.name}: max [+−][\\d.]+ model units$`),
    );
    await form.getByRole('button', { name: 'Save' }).click();
    const item = shown.getByTestId('finding-item').filter({ hasText: `Change region ${region.id}: added or moved` });
    await expect.poll(() => item.count()).toBe(1);
    expect(await item.getByTestId('finding-change-region').textContent()).toMatch(new RegExp(`^Change region ${region.id}: max `));
    await settledPixels(shown);
    await shown.screenshot({ path: join(RESULTS, 'viewer-changes-finding-1400.png') });

    // The threshold by the keyboard: from the level of detection to 0 (every measured Gaussian in colour), then to the scale's end.
    const changed = async () => Number(await panel.getAttribute('data-changed-gaussians'));
    await expect.poll(changed).toBeGreaterThan(0);
    const atLevel = await changed();
    const slider = panel.getByRole('slider', { name: /^Threshold: / });
    await slider.focus();
    await slider.press('Home');
    await expect.poll(() => panel.getAttribute('data-applied-threshold')).toBe('0');
    expect(await changed()).toBeGreaterThan(atLevel * 2);
    expect(await slider.getAttribute('aria-valuetext')).toBe('0 model units');
    await slider.press('End');
    await expect.poll(changed).toBeLessThan(atLevel);

    // The project's findings report names it with its reference.
    await shown.goto(`${server.url}/projects/${capture.projectId}/findings`);
    const row = shown.getByTestId('finding-row').filter({ hasText: `Change region ${region.id}: added or moved` });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator('td').last().textContent()).toMatch(new RegExp(`^Change region ${region.id} against ${reference.name}: max `));
    expect(pageErrors).toEqual([]);
  }, 600_000);

  it("compare mode: 'Changes' colours the seeded capture against its reference, a region flies both linked views; axe-clean", async () => {
    const context = await offlineContext(browser, VIEWER_TEST_WINDOW);
    const compared = await context.newPage();
    const errors: string[] = [];
    compared.on('pageerror', (error) => errors.push(error.message));
    page = compared;
    await submitSignIn(compared, server.url, USER[0], USER[1]);
    await compared.waitForURL(`${server.url}/projects`);
    await compared.goto(`${server.url}/viewer?compareMode=true&id=TWR-001-2025-09&referenceId=TWR-001-2024-05`);
    expect(await viewerSettled(compared, RENDER_TIMEOUT_MS)).toEqual(['ready', 'ready']);
    const [capture, reference] = [compared.locator('.compare-model'), compared.locator('.compare-reference')];
    const own = await settledPixels(compared);

    const toggle = compared.getByRole('button', { name: 'Changes' });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    const panel = compared.getByTestId('compare-side').getByRole('region', { name: 'Changes' });
    await expect.poll(() => panel.getAttribute('data-colouring'), { timeout: RENDER_TIMEOUT_MS }).toBe('shown');
    expect(Number(await panel.getAttribute('data-changed-gaussians'))).toBeGreaterThan(0);
    // The capture's red and white bands turn grey (unchanged).
    const coloured = await settledPixels(compared);
    console.info(`[e2e viewer-changes] compare, the capture's canvas: own ${JSON.stringify(own)}, changes ${JSON.stringify(coloured)}`);
    expect(coloured.grey).toBeGreaterThan(own.grey * 1.2);

    // A region: the capture's camera flies to it, the linked reference's camera follows.
    expect(await panel.getByTestId('change-region').count()).toBeGreaterThan(0);
    const [captureCamera, referenceCamera] = [await capture.getAttribute('data-camera'), await reference.getAttribute('data-camera')];
    await panel
      .getByRole('button', { name: /^Fly to region / })
      .first()
      .click();
    await expect.poll(() => capture.getAttribute('data-camera'), { timeout: RENDER_TIMEOUT_MS }).not.toBe(captureCamera);
    await expect.poll(() => capture.getAttribute('data-flight'), { timeout: RENDER_TIMEOUT_MS }).toBe('off');
    await expect
      .poll(() => reference.getAttribute('data-camera'), { timeout: RENDER_TIMEOUT_MS })
      .toBe(await capture.getAttribute('data-camera'));
    expect(referenceCamera).not.toBe(await reference.getAttribute('data-camera'));

    expect(await axeViolations(compared, 'compare changes panel')).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
    page = null;
  }, 600_000);
});
