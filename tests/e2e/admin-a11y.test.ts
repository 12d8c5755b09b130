/**
 * The admin dashboard and the add-model pages for keyboard and screen-reader users (WCAG 2.1 AA), in
 * headless Chromium against the seeded embedded server:
 *
 * - axe (WCAG 2.1 A/AA and best practice, tests/support/axe.ts) on every admin screen and both
 *   add-model pages at 1400×900 and 390×844, with each dialog and state open: a validation error,
 *   Quick Actions, the refused delete of a project with models, the typed-name delete of a
 *   project and of a model, both User Management tabs, an upload held in progress and then
 *   canceled, the model list's upload panel with a refusal.
 * - Keyboard only (`page.keyboard`, no mouse event, no `focus()` from the test): create a project
 *   (after a refused submit), edit it, add a model with a GLB chosen in the focused file input
 *   (`setInputFiles`: the operating system's file dialog is outside the page), delete it with the
 *   typed name, set a user as admin under Manage Roles, register a user — asserting at each step
 *   where the focus is.
 *
 * Needs the built portal (CATALOG_TEST_PORTAL_DIST or portal/dist) and /usr/bin/chromium; skips
 * with a printed reason otherwise.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { focused, mouseEventsSeen, tabTo, watchMouse } from '../support/keyboard.js';
import { join } from 'node:path';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure } from '../support/browser.js';
import { triangleGlb } from '../support/model-fixtures.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { UPLOADS_PATH } from '@shared/wire/routes.js';
import type { Model, Project } from '@shared/types.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const ADMIN = DEMO_ACCOUNTS.find((a) => a.role === 'admin') as (typeof DEMO_ACCOUNTS)[number];
const USER = DEMO_ACCOUNTS.find((a) => a.role === 'user') as (typeof DEMO_ACCOUNTS)[number];
const TOWER = 'North Ridge Telecom Tower';
/** A seeded project without models. */
const MAST = 'Harbour Light Mast';
const TOWER_MODEL = 'TWR-001-2024-05';
const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] admin accessibility test skipped: ${skipReason}`);

/** Selects the focused field's text and types `text` over it. */
async function retype(page: Page, text: string): Promise<void> {
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

describe.skipIf(skipReason !== null)('admin screens for keyboard and screen-reader users', () => {
  let server: EmbeddedServer;
  let browser: Browser;
  let page: Page | null = null;
  let tower: Project;
  let mast: Project;
  let towerModel: Model;

  beforeAll(async () => {
    server = await startEmbeddedServer({ prefix: 'e2e-admin-a11y', portalDir: portalDist, seed: true });
    browser = await launchChromium();
    const projects = (await server.service.catalog.query('projects')) as Project[];
    tower = projects.find((p) => p.name === TOWER) as Project;
    mast = projects.find((p) => p.name === MAST) as Project;
    const models = (await server.service.catalog.query('models', { where: [['publicId', '==', TOWER_MODEL]] })) as Model[];
    towerModel = models[0] as Model;
    expect([tower?.id, mast?.id, towerModel?.id].every(Boolean)).toBe(true);
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  beforeEach(screenshotOnFailure('failure-admin-a11y', () => page));

  it('axe finds nothing on the admin screens and the add-model pages, with every dialog and state open, at 1400×900 and 390×844', async () => {
    const found: string[] = [];
    const glb = Buffer.from(await triangleGlb('axe upload'));
    for (const viewport of [
      { width: 1400, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const context = await offlineContext(browser, viewport);
      const p = await context.newPage();
      page = p;
      const scan = async (screen: string) => found.push(...(await axeViolations(p, `${viewport.width} ${screen}`)));
      const shot = (name: string) => p.screenshot({ path: join(RESULTS, `admin-a11y-${viewport.width}-${name}.png`) });
      const go = async (path: string, heading: string) => {
        await p.goto(`${server.url}${path}`);
        await p.getByRole('heading', { name: heading, exact: true }).first().waitFor();
      };

      await p.goto(`${server.url}/login`);
      await p.getByLabel('Email').fill(ADMIN.email);
      await p.getByLabel('Password').fill(ADMIN.password);
      await p.getByRole('button', { name: 'Sign In' }).click();
      await p.waitForURL(`${server.url}/projects`);

      // Create Project; then with a validation error
      await go('/admin/projects', 'Create Project');
      await scan('/admin/projects');
      await p.getByRole('button', { name: 'Create Project', exact: true }).click();
      await p.getByRole('alert').filter({ hasText: 'Project name cannot be empty' }).waitFor();
      await scan('/admin/projects validation error');

      // Quick Actions open
      await p.getByRole('button', { name: 'Quick Actions' }).click();
      await p.getByRole('menuitem', { name: 'Model Catalog' }).waitFor();
      await scan('/admin/projects Quick Actions open');
      await shot('quick-actions');
      await p.keyboard.press('Escape');

      // Project Management: nothing selected, a project selected, its typed-name delete open
      await go('/admin/project-management', 'Project Management');
      await scan('/admin/project-management');
      await go(`/admin/project-management?projectId=${tower.id}`, `Project Management - ${TOWER}`);
      await scan('/admin/project-management selected');
      // the tower has models: Delete Project refuses at once
      await p.getByRole('region', { name: 'Project Models' }).getByText(TOWER_MODEL).waitFor();
      await p.getByRole('button', { name: 'Delete Project', exact: true }).click();
      await p.getByRole('alertdialog', { name: 'Delete Project' }).waitFor();
      await scan('/admin/project-management delete refused');
      await p.keyboard.press('Escape');
      await p.getByRole('alertdialog').waitFor({ state: 'detached' });
      // a project without models gets the typed-name delete
      await go(`/admin/project-management?projectId=${mast.id}`, `Project Management - ${MAST}`);
      await p.getByRole('region', { name: 'Project Models' }).getByText('No models in this project yet.').waitFor();
      await p.getByRole('button', { name: 'Delete Project', exact: true }).click();
      await p.getByRole('dialog', { name: 'Delete Project' }).waitFor();
      await scan('/admin/project-management delete dialog');
      await shot('project-delete-dialog');
      await p.keyboard.press('Escape');
      await p.getByRole('dialog').waitFor({ state: 'detached' });

      // Edit Project
      await go(`/admin/projects/${tower.id}`, 'Project Details');
      await scan('/admin/projects/:id');

      // Model Management: nothing selected, a model selected with its files, its typed-name delete open
      await go('/admin/model-management', 'Model Management');
      await scan('/admin/model-management');
      await go(`/admin/model-management?modelId=${towerModel.id}`, 'Model Information');
      await p.getByRole('region', { name: 'Current Files' }).waitFor();
      await scan('/admin/model-management selected');
      await p.getByRole('button', { name: 'Delete Model', exact: true }).click();
      await p.getByRole('dialog', { name: 'Delete Model' }).waitFor();
      await scan('/admin/model-management delete dialog');
      await p.keyboard.press('Escape');

      // User Management: Register User (with a validation error), Manage Roles with the accounts
      await go('/admin/users', 'User Management');
      await scan('/admin/users');
      await p.getByRole('button', { name: 'Register User', exact: true }).click();
      await p.getByRole('alert').filter({ hasText: 'Please enter both email and password.' }).waitFor();
      await scan('/admin/users validation error');
      await p.getByRole('tab', { name: 'Manage Roles' }).click();
      await p.getByTestId('user-row').first().waitFor();
      await scan('/admin/users Manage Roles');

      // Add Model in the admin frame, with a validation error
      await go(`/admin/models/add/${tower.id}`, 'Add Model to Project');
      await p.getByRole('button', { name: 'Upload Model' }).waitFor();
      await scan('/admin/models/add/:id');
      await p.getByRole('button', { name: 'Upload Model' }).click();
      await p.getByRole('alert').filter({ hasText: 'Required file types are missing' }).waitFor();
      await scan('/admin/models/add/:id validation error');

      // The model list's upload panel (admin), with a refused upload
      await go('/models', 'Upload Model');
      await p.locator('.upload-panel').getByRole('button', { name: 'Upload', exact: true }).click();
      await p.getByRole('alert').filter({ hasText: 'At least one file (splat or glb) is required.' }).waitFor();
      await scan('/models upload panel validation error');

      // Add Model from the project page: an upload held in progress, then canceled
      await go(`/projects/${tower.id}/add-model`, 'Add New Model');
      await scan('/projects/:id/add-model');
      const held: Route[] = [];
      // the upload's requests wait (small files go together to /v1/file-batch, one alone by PUT to /v1/files/…, a large one by tus to /v1/uploads)
      const hold = (route: Route) => void (route.request().method() === 'GET' ? route.continue() : held.push(route));
      await p.route(`**${UPLOADS_PATH}**`, hold);
      await p.route('**/v1/files/**', hold);
      await p.route('**/v1/file-batch**', hold);
      await p.getByLabel('Public ID').fill(`TWR-AXE-${viewport.width}`);
      await p.getByLabel('Model Name').fill('Axe upload');
      await p.getByRole('radio', { name: 'Mesh Only' }).check();
      await p.getByLabel('GLB File (.glb)').setInputFiles({ name: 'axe.glb', mimeType: 'model/gltf-binary', buffer: glb });
      await p.getByRole('button', { name: 'Upload Model' }).click();
      await p.locator('.stage-active').filter({ hasText: 'Uploading' }).waitFor();
      await expect.poll(() => p.getByTestId('upload-announcement').textContent()).toMatch(/^Uploading \(step 2 of 4\)/);
      await scan('/projects/:id/add-model upload in progress');
      await p.getByRole('progressbar').scrollIntoViewIfNeeded();
      await shot('upload-in-progress');
      await p.getByRole('button', { name: 'Cancel' }).click();
      await p.getByRole('alert').filter({ hasText: 'Upload canceled.' }).waitFor();
      for (const route of held) await route.abort().catch(() => undefined);
      await p.unroute(`**${UPLOADS_PATH}**`);
      await p.unroute('**/v1/files/**');
      await p.unroute('**/v1/file-batch**');
      await scan('/projects/:id/add-model upload canceled');
      await context.close();
      page = null;
    }
    expect(found).toEqual([]);
  }, 300_000);

  it('keyboard only: create a project, edit it, add a model with a chosen file, delete it with the typed name, set an admin, register a user', async () => {
    const context = await offlineContext(browser, { width: 1400, height: 900 });
    await watchMouse(context);
    const p = await context.newPage();
    page = p;
    const project = { name: 'Keyboard Test Span', structureId: 'BRG-KBD', description: 'Checked without a mouse' };
    const model = { publicId: 'BRG-KBD-01', name: 'Keyboard span capture' };

    async function signIn(): Promise<void> {
      await p.goto(`${server.url}/login`);
      await p.getByLabel('Email').waitFor();
      await tabTo(p, 'the Email field', (f) => f.tag === 'input' && f.name === 'Email');
      await p.keyboard.type(ADMIN.email);
      await p.keyboard.press('Tab');
      expect((await focused(p)).name).toBe('Password');
      await p.keyboard.type(ADMIN.password);
      await p.keyboard.press('Enter');
      await p.waitForURL(`${server.url}/projects`);
    }
    await signIn();

    // 1. Create a project: a refused submit focuses the field it is about.
    await p.goto(`${server.url}/admin/projects`);
    await p.getByRole('heading', { name: 'Create Project' }).waitFor();
    await tabTo(p, "'Create Project'", (f) => f.tag === 'button' && f.type === 'submit' && f.name === 'Create Project');
    await p.keyboard.press('Enter');
    await expect.poll(async () => (await focused(p)).name).toBe('Project Name');
    expect((await focused(p)).invalid).toBe('true');
    await p.keyboard.type(project.name);
    await p.keyboard.press('Tab');
    expect((await focused(p)).name).toBe('Structure ID');
    await p.keyboard.type(project.structureId);
    await tabTo(p, "'Create Project'", (f) => f.tag === 'button' && f.type === 'submit');
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/admin\/projects\/[A-Za-z0-9]{20}$/);
    const projectId = new URL(p.url()).pathname.split('/').pop() as string;
    await p.getByRole('status').filter({ hasText: 'Project created successfully!' }).waitFor();
    // the button went with the page: the focus is on the page's heading, not lost on <body>
    await expect.poll(async () => (await focused(p)).name).toBe('Admin Dashboard');
    expect((await focused(p)).tag).toBe('h1');

    // 2. Edit it: the description, 'Save Changes'; the focus stays on the button, the result is announced.
    await tabTo(p, 'Description', (f) => f.tag === 'textarea' && f.name === 'Description');
    await p.keyboard.type(project.description);
    await tabTo(p, "'Save Changes'", (f) => f.tag === 'button' && f.name === 'Save Changes');
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'Project updated successfully!' }).waitFor();
    expect((await focused(p)).name).toBe('Save Changes');
    expect((await server.service.catalog.get('projects', projectId))?.description).toBe(project.description);

    // 3. Add a model: 'Add Model' of the project, the form, a GLB in the focused file input.
    await tabTo(p, "'Add Model'", (f) => f.tag === 'a' && f.href === `/admin/models/add/${projectId}`);
    await p.keyboard.press('Enter');
    await p.waitForURL(`${server.url}/admin/models/add/${projectId}`);
    await p.getByRole('heading', { name: 'Add Model to Project' }).waitFor();
    await expect.poll(async () => (await focused(p)).name).toBe('Admin Dashboard');
    await tabTo(p, 'Public ID', (f) => f.tag === 'input' && f.name === 'Public ID');
    await p.keyboard.type(model.publicId);
    await p.keyboard.press('Tab');
    expect((await focused(p)).name).toBe('Model Name');
    await p.keyboard.type(model.name);
    await tabTo(p, 'the Model Type radios', (f) => f.type === 'radio');
    for (let i = 0; i < 3 && (await focused(p)).name !== 'Mesh Only'; i += 1) await p.keyboard.press('ArrowDown');
    expect((await focused(p)).name).toBe('Mesh Only');
    // Upload without a file: the GLB input is marked and focused.
    await tabTo(p, "'Upload Model'", (f) => f.tag === 'button' && f.name === 'Upload Model');
    await p.keyboard.press('Enter');
    await expect.poll(async () => (await focused(p)).name).toBe('GLB File (.glb)');
    expect(await focused(p)).toMatchObject({ type: 'file', invalid: 'true' });
    await p
      .locator(':focus')
      .setInputFiles({ name: 'span.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(await triangleGlb('keyboard')) });
    await tabTo(p, "'Upload Model'", (f) => f.tag === 'button' && f.name === 'Upload Model');
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'Model uploaded successfully!' }).waitFor({ timeout: 60_000 });
    await p.waitForURL(`${server.url}/admin/project-management?projectId=${projectId}`, { timeout: 30_000 });
    await expect.poll(async () => (await focused(p)).name).toBe('Admin Dashboard');
    const added = (await server.service.catalog.query('models', { where: [['publicId', '==', model.publicId]] })) as Model[];
    expect(added).toHaveLength(1);

    // 4. Delete it with the typed name: its link in Project Models, 'Delete Model', the dialog.
    await tabTo(p, `the ${model.publicId} link`, (f) => f.tag === 'a' && f.name === model.publicId);
    await p.keyboard.press('Enter');
    await p.waitForURL(/\/admin\/model-management\?modelId=/);
    await p.getByRole('heading', { name: 'Model Information' }).waitFor();
    await expect.poll(async () => (await focused(p)).name).toBe('Admin Dashboard');
    const opener = await tabTo(p, "'Delete Model'", (f) => f.tag === 'button' && f.name === 'Delete Model' && !f.inDialog);
    await p.keyboard.press('Enter');
    // focus into the dialog, onto the typed-name field; Tab and Shift+Tab stay inside; Escape closes
    await expect.poll(async () => (await focused(p)).inDialog).toBe(true);
    expect((await focused(p)).name).toBe(`Please type ${model.name} to confirm:`);
    for (const key of ['Tab', 'Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await p.keyboard.press(key);
      expect((await focused(p)).inDialog, `${key} left the dialog`).toBe(true);
    }
    await p.keyboard.press('Escape');
    await expect.poll(async () => (await focused(p)).inDialog).toBe(false);
    expect(await focused(p)).toMatchObject({ tag: 'button', name: opener.name });
    // again: a wrong name is refused (the field marked, the focus kept there), then the right one
    await p.keyboard.press('Enter');
    await expect.poll(async () => (await focused(p)).tag).toBe('input');
    await p.keyboard.type('Keyboard span');
    await p.keyboard.press('Enter');
    await p.getByRole('alert').filter({ hasText: "Model name doesn't match. Deletion canceled." }).waitFor();
    expect(await focused(p)).toMatchObject({ tag: 'input', invalid: 'true', inDialog: true });
    await retype(p, model.name);
    await tabTo(p, "the dialog's 'Delete Model'", (f) => f.tag === 'button' && f.inDialog && f.name === 'Delete Model');
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: model.name }).waitFor({ timeout: 30_000 });
    // the model's buttons went with it: the focus is on the screen's heading, not on <body>
    await expect.poll(async () => (await focused(p)).name).toBe('Admin Dashboard');
    expect(await server.service.catalog.query('models', { where: [['publicId', '==', model.publicId]] })).toEqual([]);

    // 5. Manage Roles: the tabs by arrow keys, a row's 'Set as Admin' named with its user.
    await p.goto(`${server.url}/admin/users`);
    await p.getByRole('heading', { name: 'User Management' }).waitFor();
    await tabTo(p, "the 'Register User' tab", (f) => f.role === 'tab' && f.name === 'Register User');
    await p.keyboard.press('ArrowRight');
    expect(await focused(p)).toMatchObject({ role: 'tab', name: 'Manage Roles' });
    await p.keyboard.press('Tab');
    expect((await focused(p)).name).toBe('User Email');
    await tabTo(p, `'Set as Admin' of ${USER.email}`, (f) => f.tag === 'button' && f.name === `Set as Admin for ${USER.email}`);
    await p.keyboard.press('Enter');
    await p
      .getByRole('status')
      .filter({ hasText: `User ${USER.email} has been set as admin` })
      .waitFor();
    // the button went (the user is an admin now): the list's heading has the focus
    await expect.poll(async () => (await focused(p)).name).toMatch(/^Accounts/);
    const [promoted] = await server.service.catalog.query('users', { where: [['email', '==', USER.email]] });
    expect(promoted?.role).toBe('admin');

    // 6. Register a user: a short password is refused (the field focused), then the result is announced.
    await tabTo(p, "the 'Manage Roles' tab", (f) => f.role === 'tab', { back: true });
    await p.keyboard.press('ArrowLeft');
    expect(await focused(p)).toMatchObject({ role: 'tab', name: 'Register User' });
    await p.keyboard.press('Tab');
    expect((await focused(p)).name).toBe('Email');
    await p.keyboard.type('kbd.inspector@demo.lab');
    await p.keyboard.press('Tab');
    await p.keyboard.type('123');
    await p.keyboard.press('Enter');
    await p.getByRole('alert').filter({ hasText: 'Password must be at least 6 characters long.' }).waitFor();
    expect(await focused(p)).toMatchObject({ name: 'Password', invalid: 'true' });
    await retype(p, 'keyboard-1');
    await p.keyboard.press('Enter');
    await p.getByRole('status').filter({ hasText: 'User kbd.inspector@demo.lab has been registered as user.' }).waitFor();
    await p.waitForURL(`${server.url}/login`, { timeout: 10_000 });
    const [registered] = await server.service.catalog.query('users', { where: [['email', '==', 'kbd.inspector@demo.lab']] });
    expect(registered?.role).toBe('user');

    expect(await mouseEventsSeen(p)).toEqual([]);
    await context.close();
    page = null;
  }, 300_000);
});
