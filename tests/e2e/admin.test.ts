/**
 * The admin dashboard in headless Chromium against `catalog serve` (the Admin dashboard and
 * Add model screens, their state changes, validation rules and messages): create a project, upload a model with a real GLB and splat (from
 * ../shared/samples when present, else generated ones that pass the same content checks) and
 * watch the four stages, make another model the reference, upload camera
 * metadata (good and bad), page and search the files table, delete a file, refuse and then
 * perform a project delete, register a user (signed out after 2 s) and grant admin; the admin
 * routes as a user redirect to /projects. Screenshots of each admin screen go to test-results/.
 *
 * Needs portal/dist (npm test builds it) and /usr/bin/chromium; skips with a printed reason otherwise.
 */
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist, samplePath, tempDir } from '../support/paths.js';
import { cameraEntry, jpegPhoto, splatFile, triangleGlb } from '../support/model-fixtures.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { projectHasModels } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';

/** The files the uploads pick: the samples when present (CI has none), else generated ones written in beforeAll. */
let SPLAT = samplePath('splat/model.splat');
let GLB = samplePath('glb/Duck.glb');
let BOX = samplePath('glb/Box.glb');
const USER = { email: 'user@demo.lab', password: 'demo-user-1' };
const ADMIN = { email: 'admin@demo.lab', password: 'demo-admin-1' };
const CAMERA = cameraEntry();

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] admin browser test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('admin dashboard in headless Chromium', () => {
  let work: string;
  let server: EmbeddedServer;
  let service: Backend;
  let browser: Browser;
  let page: Page;
  let project: Project;
  const dialogs: string[] = [];
  const browserErrors: string[] = [];

  beforeAll(async () => {
    work = tempDir('e2e-admin-files');
    if (![SPLAT, GLB, BOX].every((file) => existsSync(file))) {
      console.warn('[e2e] admin: ../shared/samples is absent, uploading generated model files instead');
      [SPLAT, GLB, BOX] = [join(work, 'model.splat'), join(work, 'Duck.glb'), join(work, 'Box.glb')];
      writeFileSync(SPLAT, splatFile(2000));
      writeFileSync(GLB, await triangleGlb('generated duck'));
      writeFileSync(BOX, await triangleGlb('generated box'));
    }
    server = await startEmbeddedServer({ prefix: 'e2e-admin', portalDir: portalDist, seed: true });
    service = server.service;
    browser = await launchChromium();
    const context = await offlineContext(browser);
    page = await context.newPage();
    page.on('pageerror', (error) => browserErrors.push(error.message));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
  });

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  beforeEach(screenshotOnFailure('failure-admin', () => page));

  async function signIn(email: string, password: string): Promise<void> {
    await submitSignIn(page, server.url, email, password);
    await page.waitForURL(`${server.url}/projects`);
  }

  const shot = (name: string) => page.screenshot({ path: join(RESULTS, `admin-${name}.png`), fullPage: true });
  const content = () => page.locator('.admin-content');

  it('redirects /admin to /admin/projects and creates a project (validation first)', async () => {
    await signIn(ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(`${server.url}/admin/projects`);
    await page.getByRole('heading', { name: 'Admin Dashboard' }).waitFor();
    await shot('create-project');
    await content().getByLabel('Project Name').fill('E2E Steel Bridge');
    expect(await content().getByLabel('URL Slug').inputValue()).toBe('e2e-steel-bridge');
    await content().getByLabel('Structure ID').fill('BRG-900');
    await content().getByLabel('Latitude').fill('north');
    await content().getByRole('button', { name: 'Create Project' }).click();
    await content().getByRole('alert').filter({ hasText: 'Latitude must be a number.' }).waitFor();
    await content().getByLabel('Latitude').fill('43.5');
    await content().getByLabel('Longitude').fill('-80.5');
    await content().getByRole('button', { name: 'Create Project' }).click();
    await page.waitForURL(/\/admin\/projects\/[A-Za-z0-9]{20}$/);
    const id = new URL(page.url()).pathname.split('/').pop() as string;
    project = (await service.catalog.get('projects', id)) as Project;
    expect(project).toMatchObject({ name: 'E2E Steel Bridge', slug: 'e2e-steel-bridge', location: { lat: 43.5, lng: -80.5 } });
    await page.getByRole('heading', { name: 'Edit Project' }).first().waitFor();
    // the creation's message shows on the page navigated to, and stays
    await content().getByRole('status').filter({ hasText: 'Project created successfully!' }).waitFor();
    await page.waitForTimeout(1500);
    expect(await content().getByText('Project created successfully!').isVisible()).toBe(true);
    await shot('edit-project');
  });

  it('uploads a hybrid model with the sample splat and GLB through the four stages', async () => {
    await page.goto(`${server.url}/projects/${project.id}/add-model`);
    await page.getByRole('heading', { name: 'Add New Model' }).waitFor();
    const reference = page.getByRole('checkbox', { name: 'Set as Reference Model' });
    expect(await reference.isChecked()).toBe(true);
    expect(await reference.isDisabled()).toBe(false);
    await page.getByRole('radio', { name: 'Splat Only' }).check();
    await page.getByLabel('GLB File (.glb)').setInputFiles(GLB);
    await page.getByRole('button', { name: 'Upload Model' }).click();
    await page.getByRole('alert').filter({ hasText: 'Required file types are missing based on the selected model type.' }).waitFor();
    await page.getByRole('radio', { name: 'Hybrid (Splat + Mesh)' }).check();
    await page.getByLabel('Splat File (.splat, .ply)').setInputFiles(SPLAT);
    await page.getByRole('button', { name: 'Upload Model' }).click();
    await page.getByRole('alert').filter({ hasText: 'Please enter Public ID and Model Name.' }).waitFor();
    await page.getByLabel('Public ID').fill('BRG-900-A');
    await page.getByLabel('Model Name').fill('Bridge survey A');
    await page.getByLabel('Capture Date').fill('2025-04-01');
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { __stages: string[] }).__stages = seen;
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.stage-active, .stage-done')) {
          const text = el.textContent ?? '';
          if (!seen.includes(text)) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.getByRole('button', { name: 'Upload Model' }).click();
    await page.getByText('✅ Model uploaded successfully!').waitFor();
    expect(await page.locator('.file-status-text').allTextContents()).toEqual(['Completed', 'Completed']);
    expect(await page.locator('.stage-done').count()).toBe(4);
    expect(await page.evaluate(() => (window as unknown as { __stages: string[] }).__stages)).toEqual([
      'Preparing',
      'Uploading',
      'Processing',
      'Finalizing',
    ]);
    await shot('add-model-done');
    await page.waitForURL(`${server.url}/projects/${project.id}`);
    const [model] = (await service.catalog.query('models', { where: [['projectId', '==', project.id]] })) as Model[];
    expect(model).toMatchObject({ publicId: 'BRG-900-A', isReference: true, modelType: 'hybrid' });
    expect((await service.catalog.get('projects', project.id))?.reference_model_id).toBe(model?.id);
  });

  it("alerts 'Project not found!' on the add-model page of a missing project and goes to /projects", async () => {
    await page.goto(`${server.url}/projects/no-such-project/add-model`);
    await page.waitForURL(`${server.url}/projects`);
    expect(dialogs).toContain('Project not found!');
  });

  it('adds a second model from /admin/models/add and makes it the reference', async () => {
    await page.goto(`${server.url}/admin/models/add/${project.id}`);
    await page.getByRole('heading', { name: 'Add Model to Project' }).waitFor();
    expect(await page.getByRole('checkbox', { name: 'Set as Reference Model' }).isDisabled()).toBe(true);
    await page.getByLabel('Public ID').fill('BRG-900-B');
    await page.getByLabel('Model Name').fill('Bridge survey B');
    await page.getByRole('radio', { name: 'Mesh Only' }).check();
    await page.getByLabel('GLB File (.glb)').setInputFiles(BOX);
    await page.getByRole('button', { name: 'Upload Model' }).click();
    await page.waitForURL(`${server.url}/admin/project-management?projectId=${project.id}`);
    await content().getByText('Project Information').waitFor();
    const row = content().locator('tr').filter({ hasText: 'BRG-900-B' });
    await row.getByRole('button', { name: 'Set as Reference' }).click();
    await content().getByText('Reference model has been updated successfully.').waitFor();
    await shot('project-management');
    const models = (await service.catalog.query('models', { where: [['projectId', '==', project.id]] })) as Model[];
    const b = models.find((m) => m.publicId === 'BRG-900-B');
    expect(models.filter((m) => m.isReference).map((m) => m.publicId)).toEqual(['BRG-900-B']);
    expect((await service.catalog.get('projects', project.id))?.reference_model_id).toBe(b?.id);
  });

  it('uploads camera metadata (good and bad) and 30 images, pages and searches the files table, deletes a file', async () => {
    const [b] = (await service.catalog.query('models', { where: [['publicId', '==', 'BRG-900-B']] })) as Model[];
    await page.goto(`${server.url}/admin/model-management?modelId=${b?.id}`);
    await content().getByText('Model Information').waitFor();
    const panel = content().getByRole('form', { name: 'Upload Additional Files' });
    await panel.getByRole('radio', { name: 'Camera Metadata' }).check();
    writeFileSync(join(work, 'cameras.json'), JSON.stringify([CAMERA, { ...CAMERA, id: 2 }]));
    writeFileSync(join(work, 'broken.json'), JSON.stringify([CAMERA, { ...CAMERA, img_name: 7 }]));
    await panel.getByLabel('Files').setInputFiles(join(work, 'broken.json'));
    await panel.getByRole('button', { name: 'Upload Files' }).click();
    await panel
      .getByRole('alert')
      .filter({ hasText: /^JSON format error: Camera 2: / })
      .waitFor();
    await panel.getByLabel('Files').setInputFiles(join(work, 'cameras.json'));
    await panel.getByRole('button', { name: 'Upload Files' }).click();
    await panel.getByText('Camera metadata uploaded successfully. 2 camera position information saved.').waitFor();

    // Real JPEGs (the content checks refuse anything else).
    const photo = await jpegPhoto();
    const images = Array.from({ length: 30 }, (_, i) => {
      const file = join(work, `img-${String(i + 1).padStart(2, '0')}.jpg`);
      writeFileSync(file, photo);
      return file;
    });
    await panel.getByRole('radio', { name: 'Images' }).check();
    await panel.getByLabel('Files').setInputFiles(images);
    await panel.getByRole('button', { name: 'Upload Files' }).click();
    await panel.getByText('Successfully uploaded 30 files to images.').waitFor();
    const table = content().getByRole('region', { name: 'Current Files' });
    // 30 photos, the camera metadata, model.glb and the thumbnail made from the first photo.
    await table.getByRole('heading', { name: 'Current Files (33)' }).waitFor();
    expect(await table.locator('tbody tr').count()).toBe(25);
    await table.getByRole('button', { name: '2', exact: true }).click();
    expect(await table.locator('tbody tr').count()).toBe(8);
    await shot('model-management');
    await table.getByLabel('Search files').fill('img-07');
    expect(await table.locator('tbody tr').count()).toBe(1);
    await table.getByRole('button', { name: 'Delete img-07.jpg' }).click();
    await table.getByText('File deleted successfully.').waitFor();
    await table.getByRole('heading', { name: 'Current Files (32)' }).waitFor();
    await table.getByLabel('Search files').fill('model.glb');
    await table.getByRole('button', { name: 'Delete model.glb' }).click();
    await table.getByText('Cannot delete main model files. Delete the entire model instead.').waitFor();
    const model = (await service.catalog.get('models', b?.id as string)) as Model;
    expect(model.files.images).toHaveLength(29);
    expect(model.files.thumbnails).toEqual([`models/${model.uuid}/images_thumbnails/thumbnail.jpg`]);
    expect(model.files.cameraMetadata).toMatch(/camera-metadata\.json$/);
    expect(dialogs).toContain('Are you sure you want to delete img-07.jpg?');
  });

  /**
   * Every button, input, select, textarea and link-button of the admin content, scrolled into view
   * as a user scrolling down would bring it (block 'nearest' from the top of the page): the
   * element at its centre is the control itself (the floating buttons once covered 'Add
   * Model' and 'Set as Reference'). Returns the controls hit by something else.
   */
  async function coveredControls(): Promise<string[]> {
    return page.evaluate(async () => {
      const covered: string[] = [];
      const controls = [
        ...document.querySelectorAll<HTMLElement>(
          '.admin-page button, .admin-page input, .admin-page select, .admin-page textarea, .admin-page a.button',
        ),
      ]
        .filter((el) => !el.closest('.admin-fab') && !el.closest('.quick-menu-items'))
        .filter((el) => el.getClientRects().length > 0 && el.offsetWidth > 0 && el.offsetHeight > 0);
      for (const el of controls) {
        window.scrollTo(0, 0);
        el.scrollIntoView({ block: 'nearest', inline: 'nearest' });
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const box = el.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (hit === null || !(hit === el || el.contains(hit) || (el instanceof HTMLInputElement && hit === el.labels?.[0]))) {
          const name = el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.getAttribute('placeholder') ?? el.tagName;
          covered.push(`${el.tagName} '${name}' at ${Math.round(box.top)} covered by ${hit?.tagName}.${String(hit?.className)}`);
        }
      }
      window.scrollTo(0, 0);
      return covered;
    });
  }

  it('the floating buttons and the top bar never cover a control of the admin screens, at 1400×1000 and 390×844', async () => {
    const [b] = (await service.catalog.query('models', { where: [['publicId', '==', 'BRG-900-B']] })) as Model[];
    const screens: Array<[string, () => Promise<void>]> = [
      ['/admin/projects', () => content().getByRole('button', { name: 'Create Project' }).waitFor()],
      [`/admin/projects/${project.id}`, () => content().getByRole('button', { name: 'Save Changes' }).waitFor()],
      [`/admin/project-management?projectId=${project.id}`, () => content().getByRole('link', { name: 'Add Model' }).waitFor()],
      [
        `/admin/model-management?modelId=${b?.id}`,
        () =>
          content()
            .getByRole('heading', { name: /Current Files/ })
            .waitFor(),
      ],
      ['/admin/users', () => content().getByRole('form', { name: 'Register User' }).waitFor()],
    ];
    const found: string[] = [];
    for (const viewport of [
      { width: 1400, height: 1000 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      for (const [path, ready] of screens) {
        await page.goto(`${server.url}${path}`);
        await ready();
        found.push(...(await coveredControls()).map((c) => `${viewport.width}px ${path}: ${c}`));
      }
      await content().getByRole('tab', { name: 'Manage Roles' }).click();
      await content().getByRole('region', { name: 'Accounts' }).getByTestId('user-row').first().waitFor();
      found.push(...(await coveredControls()).map((c) => `${viewport.width}px /admin/users (Manage Roles): ${c}`));
      await page.goto(`${server.url}/admin/project-management?projectId=${project.id}`);
      const add = content().getByRole('link', { name: 'Add Model' });
      await add.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(RESULTS, `admin-fab-${viewport.width}.png`) });
    }
    await page.setViewportSize({ width: 1400, height: 1000 });
    expect(found).toEqual([]);
  });

  it("the reference picker marks a hidden model and refuses it: 'A hidden model cannot be the reference model. Unhide it first.'", async () => {
    const [a] = (await service.catalog.query('models', { where: [['publicId', '==', 'BRG-900-A']] })) as Model[];
    await service.catalog.update('models', a!.id, { visible: false });
    try {
      await page.goto(`${server.url}/admin/project-management?projectId=${project.id}`);
      const row = content().locator('tr').filter({ hasText: 'BRG-900-A' });
      await row.getByText('Hidden', { exact: true }).waitFor();
      await row.getByRole('button', { name: 'Set as Reference' }).click();
      await content().getByRole('alert').filter({ hasText: 'A hidden model cannot be the reference model. Unhide it first.' }).waitFor();
      await shot('reference-hidden-refused');
      const models = (await service.catalog.query('models', { where: [['projectId', '==', project.id]] })) as Model[];
      expect(models.filter((m) => m.isReference).map((m) => m.publicId)).toEqual(['BRG-900-B']);
    } finally {
      await service.catalog.update('models', a!.id, { visible: true });
    }
  });

  it('refuses to delete a project with models, deletes its models (typed name), then deletes the project', async () => {
    await page.goto(`${server.url}/admin/project-management?projectId=${project.id}`);
    await content().getByRole('region', { name: 'Project Models' }).getByText('BRG-900-A', { exact: true }).waitFor();
    await content().getByRole('button', { name: 'Delete Project', exact: true }).click();
    // said before any typing: the refusal, and no name to type
    const refusal = content().getByRole('alertdialog', { name: 'Delete Project' });
    await refusal.getByText(projectHasModels(2)).waitFor();
    expect(await content().getByPlaceholder('Type project name here...').count()).toBe(0);
    await shot('project-delete-refused');
    await refusal.getByRole('button', { name: 'Close' }).click();
    await refusal.waitFor({ state: 'detached' });

    // Delete both models (typed name; record, reference and files go together), then the project.
    for (const publicId of ['BRG-900-A', 'BRG-900-B']) {
      const [model] = (await service.catalog.query('models', { where: [['publicId', '==', publicId]] })) as Model[];
      await page.goto(`${server.url}/admin/model-management?modelId=${model?.id}`);
      await content().getByRole('button', { name: 'Delete Model', exact: true }).click();
      const box = content().getByRole('dialog', { name: 'Delete Model' });
      await box.getByPlaceholder('Type model name here...').fill('wrong name');
      await box.getByRole('button', { name: 'Delete Model', exact: true }).click();
      await box.getByText("Model name doesn't match. Deletion canceled.").waitFor();
      await box.getByPlaceholder('Type model name here...').fill(model?.name as string);
      await box.getByRole('button', { name: 'Delete Model', exact: true }).click();
      await content().getByText(`Model "${model?.name}" has been deleted successfully.`).waitFor();
      expect(await service.catalog.get('models', model?.id as string)).toBeNull();
      expect((await service.files.list(`models/${model?.uuid}`)).items).toEqual([]);
    }
    expect((await service.catalog.get('projects', project.id))?.reference_model_id).toBeNull();

    await page.goto(`${server.url}/admin/project-management?projectId=${project.id}`);
    await content().getByRole('button', { name: 'Delete Project', exact: true }).click();
    await content().getByPlaceholder('Type project name here...').fill('E2E Steel Bridge');
    await content().getByRole('button', { name: 'Delete Permanently' }).click();
    await content().getByText('Project "E2E Steel Bridge" has been deleted successfully.').waitFor();
    await content().getByText('No Project Selected').waitFor();
    await shot('project-deleted');
    expect(await service.catalog.get('projects', project.id)).toBeNull();
  });

  it('registers a user (admin signed out after 2 seconds) and grants admin by UID', async () => {
    await page.goto(`${server.url}/admin/users`);
    const register = content().getByRole('form', { name: 'Register User' });
    await register.getByLabel('Email').fill('new.inspector@demo.lab');
    await register.getByLabel('Password').fill('12345');
    await register.getByRole('button', { name: 'Register User' }).click();
    await register.getByText('Password must be at least 6 characters long.').waitFor();
    await shot('users');
    await register.getByLabel('Password').fill('inspect-1');
    await register.getByRole('button', { name: 'Register User' }).click();
    await register.getByText(/has been registered/).waitFor();
    const registeredAt = Date.now();
    await page.waitForURL(`${server.url}/login`, { timeout: 10_000 });
    expect(Date.now() - registeredAt).toBeGreaterThanOrEqual(1500);
    const [record] = await service.catalog.query('users', { where: [['email', '==', 'new.inspector@demo.lab']] });
    expect(record?.role).toBe('user');

    await signIn(ADMIN.email, ADMIN.password);
    await page.goto(`${server.url}/admin/users`);
    await content().getByRole('tab', { name: 'Manage Roles' }).click();
    const roles = content().getByRole('form', { name: 'Manage Roles' });
    await roles.getByLabel('User Email').fill('new.inspector@demo.lab');
    await roles.getByRole('button', { name: 'Set as Admin' }).click();
    await roles.getByText(/Find the user's UID in the identity provider's console/).waitFor();
    await roles.getByLabel('User ID (UID)').fill(record?.uid as string);
    await roles.getByRole('button', { name: 'Set as Admin' }).click();
    await roles.getByText(/has been set as admin/).waitFor();
    await shot('manage-roles');
    expect((await service.catalog.get('users', record?.uid as string))?.role).toBe('admin');

    // a UID without an account is refused (the spec's prefix, then the reason), nothing written
    await roles.getByLabel('User Email').fill('');
    await roles.getByLabel('User ID (UID)').fill('no-such-uid');
    await roles.getByRole('button', { name: 'Set as Admin' }).click();
    await roles.getByRole('alert').getByText('Error setting admin role: No account with UID no-such-uid.', { exact: true }).waitFor();
    expect(await service.catalog.get('users', 'no-such-uid')).toBeNull();

    // the accounts, with their UID, role and admin flag, and a search box
    const accounts = content().getByRole('region', { name: 'Accounts' });
    const rows = accounts.getByTestId('user-row');
    await rows.filter({ hasText: 'new.inspector@demo.lab' }).waitFor();
    const all = (await service.catalog.query('users')).length;
    expect(await rows.count()).toBe(all);
    const inspector = rows.filter({ hasText: 'new.inspector@demo.lab' });
    expect(await inspector.locator('td').allTextContents()).toEqual(['new.inspector@demo.lab', record?.uid, 'admin', 'Yes', '']);
    await accounts.getByLabel('Search users').fill('USER@demo');
    expect((await rows.allTextContents()).map((t) => t.split('@')[0])).toEqual(['user']);
    await accounts.getByLabel('Search users').fill(record?.uid as string);
    expect(await rows.count()).toBe(1);
    await shot('user-list');
  });

  it("never deletes a project with its models: no 'Delete Project and Models', and Delete Project refuses before any typing", async () => {
    const { addModel, createProject } = await import('@shared/workflows/index.js');
    const { readFileSync } = await import('node:fs');
    const id = await createProject(service.catalog, { name: 'E2E Old Mast', structure_id: 'MST-901' });
    for (const publicId of ['MST-901-A', 'MST-901-B']) {
      await addModel(
        service,
        {
          projectId: id,
          publicId,
          name: `Mast ${publicId}`,
          modelType: 'mesh',
          setAsReference: publicId.endsWith('A'),
          files: { glb: { source: new Blob([readFileSync(BOX)]), name: 'Box.glb' } },
        },
        { confirmReplaceReference: async () => true },
      );
    }
    await page.goto(`${server.url}/admin/project-management?projectId=${id}`);
    await content().getByRole('region', { name: 'Project Models' }).getByRole('link', { name: 'MST-901-B' }).waitFor();
    expect(
      await content()
        .getByRole('button', { name: /Delete Project and/ })
        .count(),
    ).toBe(0);
    await content().getByRole('button', { name: 'Delete Project', exact: true }).click();
    const refusal = content().getByRole('alertdialog', { name: 'Delete Project' });
    await refusal.getByText(projectHasModels(2), { exact: true }).waitFor();
    expect(await page.getByPlaceholder('Type project name here...').count()).toBe(0);
    await refusal.getByRole('button', { name: 'Close' }).click();
    await refusal.waitFor({ state: 'detached' });
    expect(await service.catalog.get('projects', id)).not.toBeNull();
    expect(await service.catalog.count('models', { where: [['projectId', '==', id]] })).toBe(2);
  });

  it('redirects a user from every admin route to /projects', async () => {
    await page.context().clearCookies();
    await page.evaluate(() => window.localStorage.clear());
    await signIn(USER.email, USER.password);
    for (const path of [
      '/admin',
      '/admin/users',
      '/admin/model-management',
      `/projects/${project.id}/add-model`,
      `/admin/models/add/${project.id}`,
    ]) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(`${server.url}/projects`);
    }
    expect(browserErrors).toEqual([]);
  });
});
