/**
 * The keyboard alone (every task can be done without a mouse): an admin signs in, opens a project, opens a model
 * in the built-in viewer and moves its camera, toggles the drone cameras and opens a photo,
 * compares two captures, adds a model and deletes it with the typed name — with `page.keyboard`
 * only (no mouse event, no click, no `focus()` from the test). Every step asserts where focus is.
 * The one thing outside the page, choosing a file in the operating system's file dialog, is
 * done with `setInputFiles` on the file input the keyboard focused.
 *
 * Needs the built portal and /usr/bin/chromium (skips with a printed reason otherwise); the
 * viewer renders in software WebGL.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browserSkipReason, launchChromium, offlineContext, screenshotOnFailure } from '../support/browser.js';
import { focused, mouseEventsSeen, tabTo, watchMouse } from '../support/keyboard.js';
import { triangleGlb } from '../support/model-fixtures.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import type { Model, Project } from '@shared/types.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const ADMIN = DEMO_ACCOUNTS.find((a) => a.role === 'admin') as (typeof DEMO_ACCOUNTS)[number];
/** The demo's hybrid reference model with drone cameras and photos, and a later capture of it. */
const CAMERA_MODEL = 'TWR-001-2024-05';
const COMPARED_MODEL = 'TWR-001-2025-06';
const NEW_MODEL = { publicId: 'TWR-001-KBD', name: 'Keyboard walk capture' };
const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] keyboard walk skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('keyboard only: sign-in → project → viewer → compare → add model → delete', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let tower: Project;
  let current: Page | null = null;
  beforeEach(screenshotOnFailure('keyboard-failure', () => current));

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'keyboard', portalDir: portalDist, seed: true });
    const [found] = (await seeded.service.catalog.query('projects', { where: [['structure_id', '==', 'TWR-001']] })) as Project[];
    if (!found) throw new Error('the seed has no TWR-001');
    tower = found;
    browser = await launchChromium({ webgl: true });
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
  });

  it('walks the whole flow without a mouse, focus where it should be at every step', { timeout: 600_000 }, async () => {
    const context = await offlineContext(browser, { width: 1400, height: 900 });
    const page = await context.newPage();
    current = page;
    // A mouse event would mean the walk is not keyboard-only: fail on any.
    await watchMouse(context);

    // 1. Sign in: the skip link or the form comes first; Email, Password, Enter.
    await page.goto(`${seeded.url}/login`);
    await page.getByLabel('Email').waitFor();
    await tabTo(page, 'the Email field', (f) => f.tag === 'input' && f.name === 'Email');
    await page.keyboard.type(ADMIN.email);
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Password');
    await page.keyboard.type(ADMIN.password);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${seeded.url}/projects`);
    // Focus moves to the new page's heading.
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');

    // 2. The project: Tab to its card's link, Enter.
    await page.getByTestId('project-card').first().waitFor();
    await tabTo(page, `the link to ${tower.name}`, (f) => f.tag === 'a' && f.href === `/projects/${tower.id}`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${seeded.url}/projects/${tower.id}`);
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    expect((await focused(page)).name).toContain(tower.name);

    // 3. The viewer, from the model card's 'View Model' (a new tab).
    await page.getByText(/^3D Models \(\d+\)$/).waitFor();
    await expect.poll(() => page.getByRole('link', { name: /View Model/ }).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await tabTo(
      page,
      `'View Model' of ${CAMERA_MODEL}`,
      (f) => f.tag === 'a' && /View Model/.test(f.name) && f.context.includes(CAMERA_MODEL),
    );
    const [viewer] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
    current = viewer;
    const viewerRoot = viewer.locator('[data-state="ready"]').first();
    await viewerRoot.waitFor({ timeout: 120_000 });
    const frames = async (): Promise<number> => Number(await viewerRoot.getAttribute('data-rendered-frames'));
    // The viewport takes focus from the keyboard; arrows orbit, + zooms, Home/R resets.
    const viewport = await tabTo(viewer, 'the 3D viewport', (f) => f.testid === 'viewport' || f.role === 'application' || f.role === 'img');
    expect(viewport.name).toContain(CAMERA_MODEL);
    const cameraState = () => viewer.evaluate(() => document.activeElement?.getAttribute('data-camera') ?? null);
    // The home view as drawn: data-camera follows drawn frames, so right after 'ready' it may still
    // show the camera from before the model was framed; Home draws a frame of the home view.
    const framesBefore = await frames();
    await viewer.keyboard.press('Home');
    await expect.poll(frames, { timeout: 30_000 }).toBeGreaterThan(framesBefore);
    const start = await cameraState();
    await viewer.keyboard.press('ArrowLeft');
    await viewer.keyboard.press('ArrowLeft');
    await expect.poll(cameraState).not.toBe(start);
    await viewer.keyboard.press('Home');
    await expect.poll(cameraState).toBe(start);
    // The drone cameras: the 'Cameras' toggle (pressed), then a camera of the list opens its photo.
    const toggle = await tabTo(viewer, "the 'Cameras' toggle", (f) => f.tag === 'button' && f.name === 'Cameras');
    expect(toggle.pressed).toBe('true');
    await tabTo(viewer, 'a camera of the list', (f) => f.tag === 'button' && /^frame_\d+/.test(f.name));
    await viewer.keyboard.press('Enter');
    await viewer.getByTestId('camera-selected').waitFor();
    expect((await focused(viewer)).pressed).toBe('true');
    await expect
      .poll(() => viewer.getByTestId('camera-photo').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), {
        timeout: 30_000,
      })
      .toBe(true);
    expect(await mouseEventsSeen(viewer)).toEqual([]);
    await viewer.close();
    current = page;

    // 4. Compare a later capture with the reference: 'Compare' on its card opens both side by side.
    await tabTo(
      page,
      `'Compare' of ${COMPARED_MODEL}`,
      (f) => f.tag === 'button' && /Compare/.test(f.name) && f.context.includes(COMPARED_MODEL),
    );
    const [compared] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
    current = compared;
    await expect.poll(() => compared.locator('canvas').count(), { timeout: 60_000 }).toBe(2);
    const link = await tabTo(compared, "the 'Link cameras' toggle", (f) => f.tag === 'button' && f.name === 'Link cameras');
    expect(link.pressed).toBe('true');
    await compared.keyboard.press('Space');
    await expect.poll(async () => (await focused(compared)).pressed).toBe('false');
    expect(await mouseEventsSeen(compared)).toEqual([]);
    await compared.close();
    current = page;

    // 5. Add a model: 'Add Model' on the project page, the form by keyboard, the GLB file chosen.
    await tabTo(page, "'Add Model'", (f) => f.tag === 'a' && f.href === `/projects/${tower.id}/add-model`);
    await page.keyboard.press('Enter');
    await page.waitForURL(`${seeded.url}/projects/${tower.id}/add-model`);
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    await tabTo(page, 'Public ID', (f) => f.tag === 'input' && f.name === 'Public ID');
    await page.keyboard.type(NEW_MODEL.publicId);
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Model Name');
    await page.keyboard.type(NEW_MODEL.name);
    await page.keyboard.press('Tab');
    expect((await focused(page)).name).toBe('Capture Date');
    await page.keyboard.type('06152025'); // mm dd yyyy in Chromium's en-US date field
    // Model Type: the radio group, 'Mesh Only' chosen with the arrow keys.
    await tabTo(page, 'the Model Type radios', (f) => f.type === 'radio');
    for (let i = 0; i < 4 && (await focused(page)).name !== 'Mesh Only'; i += 1) await page.keyboard.press('ArrowDown');
    expect((await focused(page)).name).toBe('Mesh Only');
    await tabTo(page, 'the GLB file input', (f) => f.type === 'file' && /GLB/.test(f.name));
    await page
      .locator(':focus')
      .setInputFiles({ name: 'walk.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(await triangleGlb()) });
    await tabTo(page, "'Upload Model'", (f) => f.tag === 'button' && f.name === 'Upload Model');
    await page.keyboard.press('Enter');
    // Back on the project page with the success message announced, focus on its heading.
    await page.waitForURL(`${seeded.url}/projects/${tower.id}`, { timeout: 60_000 });
    await page.getByRole('status').filter({ hasText: 'Model uploaded successfully!' }).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    const added = (await seeded.service.catalog.query('models', { where: [['publicId', '==', NEW_MODEL.publicId]] })) as Model[];
    expect(added).toHaveLength(1);

    // 6. Delete it with the typed name: 'Manage' on its card, 'Delete Model', the dialog.
    await tabTo(
      page,
      `'Manage' of ${NEW_MODEL.publicId}`,
      (f) => f.tag === 'a' && f.name.startsWith('Manage') && f.context.includes(NEW_MODEL.publicId),
    );
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/admin\/model-management/);
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    const opener = await tabTo(page, "'Delete Model'", (f) => f.tag === 'button' && f.name === 'Delete Model' && !f.inDialog);
    await page.keyboard.press('Enter');
    // Focus moves into the dialog, onto the typed-name field; Tab stays inside; Escape closes.
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    expect((await focused(page)).tag).toBe('input');
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog, 'Tab left the dialog').toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await focused(page)).inDialog).toBe(false);
    expect((await focused(page)).name).toBe(opener.name);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await focused(page)).inDialog).toBe(true);
    await tabTo(page, 'the typed-name field', (f) => f.tag === 'input' && f.inDialog);
    await page.keyboard.type(NEW_MODEL.name);
    await tabTo(page, "the dialog's 'Delete Model'", (f) => f.tag === 'button' && f.inDialog && f.name === 'Delete Model');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: NEW_MODEL.name }).waitFor({ timeout: 30_000 });
    // The deleted model's controls are gone: focus is on the screen's heading, not lost on <body>.
    await expect.poll(async () => (await focused(page)).tag).toBe('h1');
    expect(await seeded.service.catalog.query('models', { where: [['publicId', '==', NEW_MODEL.publicId]] })).toEqual([]);
    expect(await mouseEventsSeen(page)).toEqual([]);
    await context.close();
  });
});
