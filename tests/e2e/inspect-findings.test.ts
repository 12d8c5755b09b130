/**
 * Findings in the built-in viewer, headless Chromium with software WebGL against a
 * real `catalog serve` with the demo accounts: an admin opens the 'Findings' panel, picks a point
 * on a GLB (the generated inspection box, tests/support/inspection-scene.ts), adds a finding
 * (title, category, severity, a photo that sees the point) and it is listed; after a reload it is
 * still there; the model's `metadata.annotationsCount` equals the number stored (read through the
 * service backend) and `catalog findings list MODEL --format json` lists it; a user adds a
 * finding of their own but is offered no Delete (and no Edit of the admin's); axe is clean with the
 * panel, the form and the delete confirmation open. Screenshot: test-results/inspect/findings-list.png.
 */
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Annotation, Model } from '@shared/types.js';
import { axeViolations } from '../support/axe.js';
import { browserSkipReason, screenshotOnFailure, viewerSettled, VIEWER_TEST_WINDOW } from '../support/browser.js';
import { runCli } from '../support/cli.js';
import { DEMO_ADMIN, DEMO_USER, INSPECT_SHOTS, startInspectionScene, type InspectionScene } from '../support/inspection-fixture.js';
import type { EmbeddedServer } from '../support/server.js';

const skipReason = browserSkipReason();
if (skipReason) console.info(`[e2e inspect-findings] skipping: ${skipReason}`);

const RENDER_TIMEOUT_MS = 60_000;

describe.skipIf(skipReason !== null)('findings in the viewer (software WebGL)', () => {
  let scene: InspectionScene | undefined;
  let seeded: EmbeddedServer;
  let model: Model;
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('inspect-findings-failure', () => current));

  beforeAll(async () => {
    scene = await startInspectionScene({
      prefix: 'inspect-findings',
      project: { name: 'Inspection Box', structureId: 'BOX-001' },
      models: [{ publicId: 'BOX-F', name: 'Inspection box', files: 'scene' }],
    });
    seeded = scene.server;
    model = scene.models[0]!;
  }, 120_000);

  afterAll(async () => {
    await scene?.stop();
    expect(scene?.pageErrors ?? []).toEqual([]);
  });

  /** Signs in as `who` and opens the viewer on the box with the Findings panel open and the model drawn. */
  async function openViewer(who: readonly [string, string]): Promise<Page> {
    const page = await scene!.signedInPage(who, VIEWER_TEST_WINDOW, (opened) => (current = opened));
    await page.goto(`${seeded.url}/viewer?id=BOX-F`);
    await showFindings(page);
    return page;
  }

  async function showFindings(page: Page): Promise<void> {
    expect(await viewerSettled(page, RENDER_TIMEOUT_MS)).toEqual(['ready']);
    const toggle = page.getByRole('button', { name: 'Findings', exact: true });
    await toggle.click();
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('findings-panel').waitFor();
    await expect.poll(() => page.getByTestId('findings-summary').textContent()).not.toContain('Loading');
  }

  /** Clicks the canvas at (fx, fy) of its size and waits for the pick; returns the picked model point. */
  async function pick(page: Page, fx = 0.5, fy = 0.5): Promise<{ x: number; y: number; z: number }> {
    const viewport = page.getByTestId('viewport');
    const before = await viewport.getAttribute('data-picked');
    const box = (await viewport.locator('canvas').boundingBox())!;
    await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    await expect.poll(() => viewport.getAttribute('data-picked')).not.toBe(before);
    return JSON.parse((await viewport.getAttribute('data-picked'))!) as { x: number; y: number; z: number };
  }

  async function stored(): Promise<{ annotations: Annotation[]; count: number | undefined }> {
    const annotations = (await seeded.service.catalog.query('annotations', { where: [['modelId', '==', model.id]] })) as Annotation[];
    const record = await seeded.service.catalog.get('models', model.id);
    return { annotations, count: record?.metadata?.annotationsCount };
  }

  it(
    'an admin adds a finding at a picked point; it stays after a reload, is counted and listed by the CLI',
    { timeout: 120_000 },
    async () => {
      const page = await openViewer(DEMO_ADMIN);
      const panel = page.getByTestId('findings-panel');
      expect(await panel.getByTestId('findings-summary').textContent()).toContain('No findings on this model yet.');
      const add = panel.getByRole('button', { name: 'Add finding' });
      expect(await add.isDisabled()).toBe(true);

      const point = await pick(page);
      // a point of the 2×1×1 box (x −1…1, y 0…1, z −0.5…0.5)
      expect(Math.abs(point.x)).toBeLessThanOrEqual(1.001);
      expect(point.y).toBeGreaterThanOrEqual(-0.001);
      expect(point.y).toBeLessThanOrEqual(1.001);
      expect(Math.abs(point.z)).toBeLessThanOrEqual(0.501);
      await add.click();
      const form = page.getByTestId('finding-form');
      await form.waitFor();
      // a refused save: the message is tied to the field, which takes the focus
      await form.getByRole('button', { name: 'Save' }).click();
      const title = form.getByLabel('Title');
      await expect.poll(() => title.getAttribute('aria-invalid')).toBe('true');
      expect(await form.getByRole('alert').textContent()).toBe('Finding title is required');
      expect(await title.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await axeViolations(page, 'viewer findings form')).toEqual([]);

      await title.fill('Corroded gusset plate');
      await form.getByLabel('Category').selectOption('corrosion');
      await form.getByLabel('Severity').selectOption('4');
      const photos = form.getByRole('checkbox');
      expect(await photos.count()).toBeGreaterThan(0);
      await photos.first().check();
      await form.getByRole('button', { name: 'Save' }).click();
      const item = panel.getByTestId('finding-item');
      await item.waitFor();
      expect(await item.textContent()).toContain('F-1');
      expect(await item.textContent()).toContain('Corroded gusset plate');
      expect(await item.textContent()).toContain('Corrosion · Severity 4 · High · Open');
      // the new finding is selected, its marker drawn
      expect(await item.getByRole('button', { name: /^F-1 / }).getAttribute('aria-pressed')).toBe('true');
      expect(await axeViolations(page, 'viewer findings list')).toEqual([]);
      await page.screenshot({ path: join(INSPECT_SHOTS, 'findings-list.png') });

      // the delete confirmation (admins only), cancelled
      await item.getByRole('button', { name: 'Delete finding F-1' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Delete finding F-1?' });
      await dialog.waitFor();
      expect(await axeViolations(page, 'viewer finding delete confirmation')).toEqual([]);
      await page.screenshot({ path: join(INSPECT_SHOTS, 'finding-delete.png') });
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);

      // stored, counted, listed by the CLI
      const after = await stored();
      expect(after.annotations).toHaveLength(1);
      expect(after.count).toBe(after.annotations.length);
      expect(after.annotations[0]).toMatchObject({
        id: `${model.id}_1`,
        title: 'Corroded gusset plate',
        category: 'corrosion',
        severity: 4,
        author_email: 'admin@demo.lab',
      });
      expect(after.annotations[0]!.points[0]!.x).toBeCloseTo(point.x, 6);
      expect(after.annotations[0]!.photos).toHaveLength(1);
      const cli = await runCli(['findings', 'list', model.id, '--format', 'json'], { env: scene!.env });
      expect(cli.exitCode, cli.stderr).toBe(0);
      const listed = JSON.parse(cli.stdout) as Annotation[];
      expect(listed.map((a) => [a.id, a.title])).toEqual([[`${model.id}_1`, 'Corroded gusset plate']]);

      // after a reload: still there; a click selects it and flies the view to it
      await page.reload();
      await showFindings(page);
      const again = page.getByTestId('finding-item');
      await again.waitFor();
      expect(await again.textContent()).toContain('Corroded gusset plate');
      const camera = await page.getByTestId('viewport').getAttribute('data-camera');
      await again.getByRole('button', { name: /^F-1 / }).click();
      expect(await again.getByRole('button', { name: /^F-1 / }).getAttribute('aria-pressed')).toBe('true');
      await expect.poll(() => page.getByTestId('viewport').getAttribute('data-camera'), { timeout: 20_000 }).not.toBe(camera);

      // the findings report's link (finding=1): the panel opens by itself on F-1, selected
      await page.goto(`${seeded.url}/viewer/?id=BOX-F&finding=1`);
      const linked = page.getByTestId('findings-panel').getByRole('button', { name: /^F-1 / });
      await expect.poll(() => linked.getAttribute('aria-pressed'), { timeout: 30_000 }).toBe('true');
      await page.context().close();
    },
  );

  it('a user adds a finding as its author and is offered no Delete, nor an Edit of the admin’s', { timeout: 120_000 }, async () => {
    const page = await openViewer(DEMO_USER);
    const panel = page.getByTestId('findings-panel');
    await panel.getByTestId('finding-item').waitFor();
    await pick(page, 0.5, 0.55);
    await panel.getByRole('button', { name: 'Add finding' }).click();
    const form = page.getByTestId('finding-form');
    await form.getByLabel('Title').fill('Hairline crack');
    await form.getByLabel('Severity').selectOption('2');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.getByTestId('finding-item').count()).toBe(2);
    const [admins, mine] = await panel.getByTestId('finding-item').all();
    expect(await mine!.textContent()).toContain('F-2');
    expect(await mine!.textContent()).toContain('Hairline crack');
    expect(await mine!.getByRole('button', { name: 'Edit finding F-2' }).count()).toBe(1);
    expect(await admins!.getByRole('button', { name: /Edit/ }).count()).toBe(0);
    expect(await panel.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    expect(await axeViolations(page, 'viewer findings as a user')).toEqual([]);
    const after = await stored();
    expect(after.annotations).toHaveLength(2);
    expect(after.count).toBe(2);
    expect(after.annotations.find((a) => a.seq === 2)).toMatchObject({
      title: 'Hairline crack',
      category: 'crack',
      author_email: 'user@demo.lab',
    });
    await page.context().close();
  });
});
