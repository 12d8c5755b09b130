/**
 * Files you can trust, in headless Chromium against `catalog serve`: in Add Model and
 * in the model list's upload panel, an HTML page named `.glb`, a Git LFS pointer saved as
 * `point_cloud.ply`, a JPEG picked as the GLB and a truncated 3DGS PLY are each refused with
 * their message — at once under the input, and again by the upload — and a file and record count
 * (through the service backend) shows nothing written; the Public ID 'BAD PUB/ID <b>x</b>' and a
 * Public ID the project already has are refused in both forms; a good upload with photos gets a
 * thumbnail and its 'File checks' panel shows the report's numbers; with
 * ../shared/samples/3dgs-konstruct the panel shows 9,080 Gaussians, SH degree 3, 304 cameras and
 * 5 with a photo. Screenshots go to test-results/file-trust-*.png.
 *
 * Needs portal/dist (npm test builds it) and /usr/bin/chromium; the sample-based cases skip when
 * ../shared/samples is absent.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { bytesSource, checkGlb, checkSplat } from '@shared/content-check/index.js';
import { addModelUploadError, ValidationMessages } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import { publicIdInUse } from '@shared/validation/models.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { cameraMetadataText, gaussianPly, HTML_PAGE, jpegPhoto, LFS_POINTER } from '../support/model-fixtures.js';
import { portalDist, samplePath, samplesPresent } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

const ADMIN = { email: 'admin@demo.lab', password: 'demo-admin-1' };
const BAD_PUBLIC_ID = 'BAD PUB/ID <b>x</b>';
const KONSTRUCT = samplePath('3dgs-konstruct');
const BAD_SAMPLES = { html: samplePath('bad/html-named.glb'), lfs: samplePath('bad/lfs-pointer-point_cloud.ply') };

/** A file as Playwright's setInputFiles takes it. */
interface PickedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A bad file, the input it is picked in, and the check's message. */
interface BadFile {
  label: string;
  input: 'splat' | 'glb';
  file: PickedFile;
  message: string;
}

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] file-trust browser test skipped: ${skipReason}`);
// prints once why the cases with the real samples (bad files, the 3DGS training output) skip, when they do
samplesPresent();

/** The shared check's problem for a bad file (the portal must show exactly this). */
async function problemOf(input: 'splat' | 'glb', file: PickedFile): Promise<string> {
  const source = bytesSource(new Uint8Array(file.buffer), file.name);
  const check = input === 'glb' ? await checkGlb(source) : await checkSplat(source);
  if (check.verdict !== 'refused' || check.problem === null) throw new Error(`${file.name} was not refused by the shared check`);
  return check.problem;
}

/** The four bad files (an HTML page as .glb, a Git LFS pointer as .ply, a JPEG as the GLB, a truncated PLY), made here (no samples needed). */
async function badFiles(): Promise<BadFile[]> {
  const truncated = gaussianPly(100);
  const files: Array<Omit<BadFile, 'message'>> = [
    {
      label: 'an HTML page named .glb',
      input: 'glb',
      file: { name: 'html-named.glb', mimeType: 'model/gltf-binary', buffer: Buffer.from(HTML_PAGE) },
    },
    {
      label: 'a Git LFS pointer saved as point_cloud.ply',
      input: 'splat',
      file: { name: 'point_cloud.ply', mimeType: 'application/octet-stream', buffer: Buffer.from(LFS_POINTER) },
    },
    { label: 'a JPEG picked as the GLB', input: 'glb', file: { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: await jpegPhoto() } },
    {
      label: 'a truncated 3DGS PLY',
      input: 'splat',
      file: {
        name: 'truncated.ply',
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(truncated.subarray(0, truncated.length - 500)),
      },
    },
  ];
  return Promise.all(files.map(async (f) => ({ ...f, message: await problemOf(f.input, f.file) })));
}

describe.skipIf(skipReason !== null)('files you can trust in headless Chromium: bad model files are refused with their message', () => {
  let server: EmbeddedServer;
  let service: Backend;
  let browser: Browser;
  let page: Page;
  let project: Project;
  /** A model of `project` whose Public ID the tests try again. */
  let existing: Model;
  let bad: BadFile[];
  const browserErrors: string[] = [];

  beforeAll(async () => {
    server = await startEmbeddedServer({ prefix: 'e2e-trust', portalDir: portalDist, seed: true });
    service = server.service;
    const models = (await service.catalog.query('models')) as Model[];
    const projects = (await service.catalog.query('projects')) as Project[];
    const withModel = projects.find((p) => models.some((m) => m.projectId === p.id));
    if (!withModel) throw new Error('the seed has no project with models');
    project = withModel;
    existing = models.find((m) => m.projectId === project.id) as Model;
    bad = await badFiles();
    browser = await launchChromium();
    const context = await offlineContext(browser);
    page = await context.newPage();
    page.on('pageerror', (error) => browserErrors.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    await submitSignIn(page, server.url, ADMIN.email, ADMIN.password);
    await page.waitForURL(`${server.url}/projects`);
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
  });

  beforeEach(screenshotOnFailure('failure-file-trust', () => page));

  const shot = (name: string) => page.screenshot({ path: join(RESULTS, `file-trust-${name}.png`), fullPage: true });

  /** Every stored file under `folder`, recursively. */
  async function countFiles(folder: string): Promise<number> {
    const listing = await service.files.list(folder);
    let n = listing.items.length;
    for (const prefix of listing.prefixes) n += await countFiles(prefix);
    return n;
  }

  /** Stored model files and model records. */
  async function counts(): Promise<{ files: number; models: number }> {
    return { files: await countFiles('models/'), models: await service.catalog.count('models') };
  }

  /**
   * The immediate check's problem shown under an input: the text of the alert its
   * `aria-describedby` names, once there is one.
   */
  async function shownProblem(input: Locator): Promise<string | null> {
    await expect.poll(() => input.getAttribute('aria-describedby'), { timeout: 15_000 }).toBeTruthy();
    const alert = page.locator(`[id="${await input.getAttribute('aria-describedby')}"]`);
    expect(await alert.getAttribute('role')).toBe('alert');
    return alert.textContent();
  }

  async function openAddModel(): Promise<void> {
    await page.goto(`${server.url}/projects/${project.id}/add-model`);
    await page.getByRole('heading', { name: 'Add New Model' }).waitFor();
  }

  const addModelInput = (kind: 'splat' | 'glb') => page.getByLabel(kind === 'glb' ? 'GLB File (.glb)' : 'Splat File (.splat, .ply)');

  async function openModelList(): Promise<Locator> {
    await page.goto(`${server.url}/models`);
    const panel = page.locator('.upload-panel');
    await panel.getByRole('heading', { name: 'Upload Model' }).waitFor();
    await panel.getByLabel('Project').selectOption(project.id);
    return panel;
  }

  const panelInput = (panel: Locator, kind: 'splat' | 'glb') =>
    panel.getByLabel(kind === 'glb' ? 'GLB file (.glb)' : 'Splat file (.splat, .ply)');

  it('Add Model refuses each bad file with its message, under the input and on upload, writing nothing', async () => {
    for (const [i, item] of bad.entries()) {
      const before = await counts();
      await openAddModel();
      await page.getByLabel('Public ID').fill(`TRUST-ADD-${i}`);
      await page.getByLabel('Model Name').fill(item.label);
      const input = addModelInput(item.input);
      await input.setInputFiles(item.file);
      expect(await shownProblem(input), item.label).toBe(item.message);
      if (i === 0) await shot('add-model-refused');
      await page.getByRole('button', { name: 'Upload Model' }).click();
      await page
        .locator('.alert-error')
        .filter({ hasText: addModelUploadError(item.message) })
        .waitFor();
      expect(await page.locator('.alert-error').textContent(), item.label).toBe(addModelUploadError(item.message));
      expect(await counts(), item.label).toEqual(before);
    }
  });

  it('the model-list upload panel refuses each bad file with its message, writing nothing', async () => {
    for (const [i, item] of bad.entries()) {
      const before = await counts();
      const panel = await openModelList();
      await panel.getByLabel('publicId').fill(`TRUST-LIST-${i}`);
      await panel.getByLabel('Name').fill(item.label);
      const input = panelInput(panel, item.input);
      await input.setInputFiles(item.file);
      expect(await shownProblem(input), item.label).toBe(item.message);
      if (i === 0) await shot('upload-panel-refused');
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.locator('.alert-error').filter({ hasText: item.message }).waitFor();
      expect(await panel.locator('.alert-error').textContent(), item.label).toBe(item.message);
      expect(await panel.getByText('Model uploaded successfully!').count()).toBe(0);
      expect(await counts(), item.label).toEqual(before);
    }
  });

  it.skipIf(!existsSync(BAD_SAMPLES.html) || !existsSync(BAD_SAMPLES.lfs))(
    'the real bad samples (../shared/samples/bad) are refused in both forms, writing nothing',
    async () => {
      const samples: Array<{ input: 'splat' | 'glb'; file: PickedFile }> = [
        { input: 'glb', file: { name: 'html-named.glb', mimeType: 'model/gltf-binary', buffer: readFileSync(BAD_SAMPLES.html) } },
        { input: 'splat', file: { name: 'point_cloud.ply', mimeType: 'application/octet-stream', buffer: readFileSync(BAD_SAMPLES.lfs) } },
      ];
      for (const sample of samples) {
        const message = await problemOf(sample.input, sample.file);
        const before = await counts();
        await openAddModel();
        await page.getByLabel('Public ID').fill('TRUST-SAMPLE');
        await page.getByLabel('Model Name').fill('Sample');
        await addModelInput(sample.input).setInputFiles(sample.file);
        expect(await shownProblem(addModelInput(sample.input))).toBe(message);
        await page.getByRole('button', { name: 'Upload Model' }).click();
        await page
          .locator('.alert-error')
          .filter({ hasText: addModelUploadError(message) })
          .waitFor();
        const panel = await openModelList();
        await panel.getByLabel('publicId').fill('TRUST-SAMPLE');
        await panel.getByLabel('Name').fill('Sample');
        await panelInput(panel, sample.input).setInputFiles(sample.file);
        expect(await shownProblem(panelInput(panel, sample.input))).toBe(message);
        await panel.getByRole('button', { name: 'Upload' }).click();
        await panel.locator('.alert-error').filter({ hasText: message }).waitFor();
        expect(await counts(), sample.file.name).toEqual(before);
      }
    },
  );

  it("refuses the Public ID 'BAD PUB/ID <b>x</b>' and one the project already has, in both forms", async () => {
    const good: PickedFile = { name: 'point_cloud.ply', mimeType: 'application/octet-stream', buffer: Buffer.from(gaussianPly(50)) };
    const cases = [
      { publicId: BAD_PUBLIC_ID, message: ValidationMessages.publicIdPattern },
      { publicId: existing.publicId, message: publicIdInUse(existing.publicId) },
    ];
    for (const { publicId, message } of cases) {
      const before = await counts();
      await openAddModel();
      await page.getByLabel('Public ID').fill(publicId);
      await page.getByLabel('Model Name').fill('Public ID check');
      await addModelInput('splat').setInputFiles(good);
      await page.getByRole('button', { name: 'Upload Model' }).click();
      const alert = page.locator('.alert-error').filter({ hasText: message });
      await alert.waitFor();
      expect([message, addModelUploadError(message)]).toContain(await alert.textContent());
      expect(await counts(), `Add Model ${publicId}`).toEqual(before);

      const panel = await openModelList();
      await panel.getByLabel('publicId').fill(publicId);
      await panel.getByLabel('Name').fill('Public ID check');
      await panelInput(panel, 'splat').setInputFiles(good);
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.locator('.alert-error').filter({ hasText: message }).waitFor();
      expect(await panel.locator('.alert-error').textContent()).toBe(message);
      expect(await counts(), `upload panel ${publicId}`).toEqual(before);
    }
    const models = (await service.catalog.query('models', { where: [['projectId', '==', project.id]] })) as Model[];
    expect(models.filter((m) => m.publicId === existing.publicId)).toHaveLength(1);
    expect(models.some((m) => m.publicId === BAD_PUBLIC_ID)).toBe(false);
  });

  /** Uploads camera metadata, then photos, in Model Management's additional-files panel. */
  async function uploadCamerasAndPhotos(model: Model, cameras: PickedFile, photos: PickedFile[]): Promise<void> {
    await page.goto(`${server.url}/admin/model-management?modelId=${model.id}`);
    const content = page.locator('.admin-content');
    await content.getByText('Model Information').waitFor();
    const panel = content.getByRole('form', { name: 'Upload Additional Files' });
    await panel.getByRole('radio', { name: 'Camera Metadata' }).check();
    await panel.getByLabel('Files').setInputFiles(cameras);
    await panel.getByRole('button', { name: 'Upload Files' }).click();
    await panel.getByText(/^Camera metadata uploaded successfully\./).waitFor();
    await panel.getByRole('radio', { name: 'Images' }).check();
    await panel.getByLabel('Files').setInputFiles(photos);
    await panel.getByRole('button', { name: 'Upload Files' }).click();
    await panel.getByText(`Successfully uploaded ${photos.length} files to images.`).waitFor({ timeout: 30_000 });
  }

  /** The File checks panel of Model Management for a model. */
  async function modelManagementChecks(model: Model): Promise<Locator> {
    await page.goto(`${server.url}/admin/model-management?modelId=${model.id}`);
    const checks = page.locator('.admin-content').getByRole('region', { name: 'File checks' });
    await checks.waitFor();
    return checks;
  }

  it('a good upload with photos gets a thumbnail and its File checks panel shows the report', async () => {
    const panel = await openModelList();
    await panel.getByLabel('publicId').fill('AAA-TRUST');
    await panel.getByLabel('Name').fill('Trusted upload');
    const ply: PickedFile = { name: 'point_cloud.ply', mimeType: 'application/octet-stream', buffer: Buffer.from(gaussianPly(1234)) };
    await panelInput(panel, 'splat').setInputFiles(ply);
    await page.waitForTimeout(300);
    expect(await panelInput(panel, 'splat').getAttribute('aria-describedby')).toBeNull();
    await panel.getByRole('button', { name: 'Upload' }).click();
    await panel.getByText('Model uploaded successfully!').waitFor({ timeout: 30_000 });
    const [model] = (await service.catalog.query('models', { where: [['publicId', '==', 'AAA-TRUST']] })) as Model[];
    expect(model?.validation?.splat).toMatchObject({ verdict: 'ok', gaussians: 1234, shDegree: 3 });

    const names = ['a.jpg', 'b.jpg', 'c.jpg'];
    const photos = await Promise.all(
      names.map(async (name) => ({ name, mimeType: 'image/jpeg', buffer: await jpegPhoto(96, 64) }) satisfies PickedFile),
    );
    const cameras: PickedFile = { name: 'cameras.json', mimeType: 'application/json', buffer: Buffer.from(cameraMetadataText(names)) };
    await uploadCamerasAndPhotos(model as Model, cameras, photos);

    const stored = (await service.catalog.get('models', (model as Model).id)) as Model;
    expect(stored.files.thumbnails?.[0]).toMatch(/images_thumbnails\/thumbnail\.jpg$/);
    expect(stored.validation?.photos).toMatchObject({ count: 3, dimensions: [{ width: 96, height: 64, count: 3 }] });
    expect(stored.validation?.cameraMetadata).toMatchObject({ cameras: 3, withPhoto: 3 });

    const checks = await modelManagementChecks(stored);
    const splat = checks.getByTestId('file-check-splat');
    expect(await splat.getByText('1,234', { exact: true }).count()).toBe(1);
    expect(await checks.getByTestId('file-check-cameras').textContent()).toContain('3 cameras, 3 with a photo');
    expect(await checks.getByTestId('file-check-photos').textContent()).toContain('3 photos, 96 × 64');
    await shot('model-management-checks');

    await page.goto(`${server.url}/models`);
    const row = page.getByTestId('model-row').filter({ hasText: 'AAA-TRUST' });
    await row.locator('img').waitFor();
    await expect.poll(() => row.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

    await page.goto(`${server.url}/projects/${project.id}`);
    const card = page.getByTestId('project-model').filter({ hasText: 'AAA-TRUST' });
    await card.getByText('File checks').click();
    await card.getByText('3 cameras, 3 with a photo').waitFor();
    await shot('project-detail-checks');
    expect(browserErrors).toEqual([]);
  });

  it.skipIf(!existsSync(join(KONSTRUCT, 'cameras.json')))(
    'the 3dgs-konstruct sample: 9,080 Gaussians, SH degree 3, 304 cameras, 5 with a photo',
    async () => {
      const plyPath = join(KONSTRUCT, 'point_cloud', 'iteration_7000', 'point_cloud.ply');
      const panel = await openModelList();
      await panel.getByLabel('publicId').fill('AAA-KONSTRUCT');
      await panel.getByLabel('Name').fill('Konstruct sample');
      await panelInput(panel, 'splat').setInputFiles(plyPath);
      await panel.getByRole('button', { name: 'Upload' }).click();
      await panel.getByText('Model uploaded successfully!').waitFor({ timeout: 60_000 });
      const [model] = (await service.catalog.query('models', { where: [['publicId', '==', 'AAA-KONSTRUCT']] })) as Model[];
      const photoNames = readdirSync(join(KONSTRUCT, 'images')).sort();
      const photos = photoNames.map((name) => ({ name, mimeType: 'image/png', buffer: readFileSync(join(KONSTRUCT, 'images', name)) }));
      const cameras = { name: 'cameras.json', mimeType: 'application/json', buffer: readFileSync(join(KONSTRUCT, 'cameras.json')) };
      await uploadCamerasAndPhotos(model as Model, cameras, photos);

      const checks = await modelManagementChecks(model as Model);
      const splat = checks.getByTestId('file-check-splat');
      await splat.getByText('9,080', { exact: true }).waitFor();
      expect(await splat.locator('dd').nth(1).textContent()).toBe('3');
      await checks.getByText('304 cameras, 5 with a photo').waitFor();
      expect(await checks.getByTestId('file-check-photos').textContent()).toContain('5 photos, 531 × 946');
      await shot('konstruct-checks');
      const stored = (await service.catalog.get('models', (model as Model).id)) as Model;
      expect(stored.files.thumbnails?.[0]).toMatch(/thumbnail\.jpg$/);

      // At 390 px the side navigation is a drawer, closed: the content has the full width.
      await page.setViewportSize({ width: 390, height: 844 });
      await modelManagementChecks(model as Model);
      expect(await page.getByTestId('side-nav').count()).toBe(0);
      await checks.getByText('304 cameras, 5 with a photo').waitFor();
      await shot('konstruct-checks-390');
      await page.goto(`${server.url}/projects/${project.id}`);
      await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      expect(await page.getByTestId('side-nav').count()).toBe(0);
      const card = page.getByTestId('project-model').filter({ hasText: 'AAA-KONSTRUCT' });
      await card.getByText('File checks').click();
      await card.getByText('304 cameras, 5 with a photo').waitFor();
      await shot('konstruct-project-390');
      await page.setViewportSize({ width: 1400, height: 1000 });
    },
  );
});
