/**
 * The admin screens on a phone and a desktop, and errors that say what happened, in headless
 * Chromium against the seeded embedded server, at 1400×900 and 390×844:
 *
 * - Nothing covers a control: every button, field and link of the admin screens (Create Project,
 *   Edit Project, Project Management, Model Management with its files, User Management's two
 *   tabs, Add Model to Project), scrolled into view at the top, the middle and the bottom of the
 *   window, and wherever it shows while the page scrolls down, is the element
 *   `document.elementFromPoint` finds at its centre (or holds it).
 * - No table cell is wider than its card: the files table, the accounts table, Project
 *   Management's models table, Edit Project's and the Project List's table view.
 * - Forced failures say what happened: the project list answering 500 on Catalog Home ('Failed to
 *   load projects list.', no '0 Total Projects', no 'No Projects Yet'), the model list answering
 *   500 ('Failed to load models list.', not 'No Models Available'), hiding the reference model
 *   (the workflow refuses: 'Failed to update visibility: The reference model cannot be hidden. Set
 *   another model as the reference first.'), and Delete Project on a project with models (the
 *   refusal before any typing).
 * - The smaller things: '1 model found'; a hybrid reads 'Hybrid' in the model list as on its
 *   project page; a model without a 3D file says 'No 3D file' instead of a lasting
 *   'Preparing...'; Edit Project at 1400 px keeps each public ID on one line; the map's marker
 *   labels stay inside the map at 390 px; Add Model to Project's Cancel goes where its Back goes;
 *   sign-in links back to the landing page; the 'Admin Dashboard' heading that takes the focus
 *   after a navigation draws no ring.
 *
 * Screenshots: test-results/phone-admin-{width}-{screen}.png.
 *
 * Needs the built portal (CATALOG_TEST_PORTAL_DIST or portal/dist) and /usr/bin/chromium; skips
 * with a printed reason otherwise.
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { ModelMessages, ProjectMessages, projectHasModels } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const ADMIN = DEMO_ACCOUNTS.find((a) => a.role === 'admin') as (typeof DEMO_ACCOUNTS)[number];
const DESKTOP = { width: 1400, height: 900 };
const PHONE = { width: 390, height: 844 };
const TEST_TIMEOUT_MS = 240_000;
/** The seeded project with three models (one of them hybrid, the reference) and one without any. */
const TOWER = 'TWR-001';
const MAST = 'MST-003';
/** A model added to the mast with photos but no 3D file. */
const NO_FILE = 'MST-003-PHOTOS';

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] phone-admin test skipped: ${skipReason}`);

/**
 * Every visible control of the admin page, scrolled into view at the window's top, middle and
 * bottom (`scrollIntoView`, which keeps the page's scroll padding clear of the fixed bars): those
 * whose centre is another element, with what covers them. The floating buttons themselves and
 * the closed Quick Actions menu are left out.
 */
function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const covered: string[] = [];
    const controls = [...document.querySelectorAll<HTMLElement>('.admin-page :is(button, input, select, textarea, a[href])')]
      .filter((el) => !el.closest('.admin-fab'))
      .filter((el) => el.getClientRects().length > 0 && el.offsetWidth > 1 && el.offsetHeight > 1);
    for (const el of controls) {
      for (const block of ['start', 'center', 'end'] as const) {
        el.scrollIntoView({ block, inline: 'nearest' });
        await new Promise((resolve) => requestAnimationFrame(resolve));
        // a link wrapped over two lines: the centre of its first line
        const box = el.getClientRects()[0] as DOMRect;
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        const label = el instanceof HTMLInputElement ? el.labels?.[0] : null;
        if (hit === null || !(hit === el || el.contains(hit) || hit === label)) {
          const name = el.getAttribute('aria-label') ?? (el.textContent?.trim() || el.getAttribute('placeholder') || el.tagName);
          const by = hit ? `${hit.tagName.toLowerCase()}.${String(hit.className).trim().split(/\s+/).join('.')}` : 'nothing';
          covered.push(`${el.tagName.toLowerCase()} '${name.slice(0, 40)}' (${block}) covered by ${by}`);
          break;
        }
      }
    }
    window.scrollTo(0, 0);
    return covered;
  });
}

/**
 * The same controls while the page is scrolled down half a window at a time, as a user scrolls:
 * at each position, a control whose centre shows in the window — below the top bar, and above
 * the floating buttons' bar where that bar spans the content column (what scrolls under an opaque
 * bar is out of sight, as under the top bar; loose floating buttons over the content count as
 * covering) — is the element at its centre.
 */
function coveredWhileScrolling(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const covered = new Set<string>();
    const controls = [...document.querySelectorAll<HTMLElement>('.admin-page :is(button, input, select, textarea, a[href])')]
      .filter((el) => !el.closest('.admin-fab'))
      .filter((el) => el.getClientRects().length > 0 && el.offsetWidth > 1 && el.offsetHeight > 1);
    const main = document.querySelector('main') as HTMLElement;
    for (let y = 0; ; y += Math.round(window.innerHeight / 2)) {
      window.scrollTo(0, y);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const top = document.querySelector('.top-bar')?.getBoundingClientRect().bottom ?? 0;
      const fab = document.querySelector('.admin-fab')?.getBoundingClientRect();
      const column = main.getBoundingClientRect();
      const barSpansColumn = fab !== undefined && getComputedStyle(document.querySelector('.admin-fab') as Element).position === 'fixed';
      const bottom = barSpansColumn && fab.left <= column.left + 32 && fab.right >= column.right - 1 ? fab.top : window.innerHeight;
      for (const el of controls) {
        // a link wrapped over two lines: the centre of its first line
        const box = el.getClientRects()[0] as DOMRect;
        const x = box.left + box.width / 2;
        const cy = box.top + box.height / 2;
        if (cy <= top || cy >= bottom || x < 0 || x > window.innerWidth) continue;
        const hit = document.elementFromPoint(x, cy);
        const label = el instanceof HTMLInputElement ? el.labels?.[0] : null;
        // no element at the point (it left the window meanwhile): nothing covers it there
        if (hit !== null && !(hit === el || el.contains(hit) || hit === label)) {
          const name = el.getAttribute('aria-label') ?? (el.textContent?.trim() || el.getAttribute('placeholder') || el.tagName);
          const by = `${hit.tagName.toLowerCase()}.${String(hit.className).trim().split(/\s+/).join('.')}`;
          covered.add(`${el.tagName.toLowerCase()} '${name.slice(0, 40)}' covered by ${by}`);
        }
      }
      if (y + window.innerHeight >= document.documentElement.scrollHeight) break;
    }
    window.scrollTo(0, 0);
    return [...covered];
  });
}

/**
 * The table cells (headers shown, data cells) that reach past the card around their table: the
 * nearest panel or card, else the box the table sits in. A table scrolling sideways inside its
 * card has cells beyond the card's edge; a stacked one has none.
 */
function cellsOutsideCards(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const outside: string[] = [];
    for (const table of document.querySelectorAll<HTMLTableElement>('main table')) {
      const card = table.closest<HTMLElement>('.panel, .card') ?? table.closest('.stack-table-box')?.parentElement ?? table.parentElement;
      if (card === null) continue;
      const edge = card.getBoundingClientRect();
      for (const cell of table.querySelectorAll<HTMLElement>('td, th')) {
        const box = cell.getBoundingClientRect();
        if (box.width <= 1 || box.height <= 1) continue;
        if (box.left < edge.left - 0.5 || box.right > edge.right + 0.5) {
          const text = (cell.textContent ?? '').trim().slice(0, 30);
          outside.push(
            `${table.getAttribute('aria-label') ?? table.caption?.textContent ?? 'table'}: '${text}' ${Math.round(box.left)}–${Math.round(box.right)} outside ${Math.round(edge.left)}–${Math.round(edge.right)}`,
          );
        }
      }
    }
    return outside;
  });
}

describe.skipIf(skipReason !== null)(
  'admin screens at 1400 and 390 px: nothing covered, tables inside their cards, errors that say what happened',
  () => {
    let seeded: EmbeddedServer;
    let browser: Browser;
    let tower: Project;
    let mast: Project;
    let reference: Model;
    let withFiles: Model;
    let current: Page | null = null;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      seeded = await startEmbeddedServer({ prefix: 'phone-admin', portalDir: portalDist, seed: true });
      const projects = (await seeded.service.catalog.query('projects')) as Project[];
      tower = projects.find((p) => p.structure_id === TOWER) as Project;
      mast = projects.find((p) => p.structure_id === MAST) as Project;
      const models = (await seeded.service.catalog.query('models')) as Model[];
      reference = models.find((m) => m.id === tower.reference_model_id) as Model;
      withFiles = models.find((m) => m.projectId === tower.id && (m.files?.images?.length ?? 0) > 0) as Model;
      expect([tower, mast, reference, withFiles].every(Boolean)).toBe(true);
      // photos, no splat and no GLB: nothing the viewer could open
      await seeded.service.catalog.add('models', {
        uuid: 'phone-admin-photos',
        publicId: NO_FILE,
        name: 'Harbour Light Mast, photos only',
        projectId: mast.id,
        files: { images: ['models/phone-admin-photos/images/a.jpg'] },
        metadata: { captureDate: '2025-03-01', displayOrder: 0, annotationsCount: 0 },
      });
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close().catch(() => undefined);
      await seeded?.stop();
    });

    beforeEach(screenshotOnFailure('phone-admin-failure', () => current));

    async function signedIn(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
      const context = await offlineContext(browser, viewport);
      const page = await context.newPage();
      current = page;
      page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
      await submitSignIn(page, seeded.url, ADMIN.email, ADMIN.password);
      await page.waitForURL(`${seeded.url}/projects`);
      return { context, page };
    }

    /** Waits until no spinner is left (links may still resolve: they are not waited for). */
    async function noSpinner(page: Page): Promise<void> {
      await page.waitForFunction(() => document.querySelectorAll('.spinner-wrap').length === 0, null, { timeout: 15_000 });
    }

    for (const viewport of [DESKTOP, PHONE]) {
      const w = viewport.width;

      it(
        `at ${w} px no control of the admin screens is covered when scrolled into view, and no table cell is wider than its card`,
        async () => {
          const { context, page } = await signedIn(viewport);
          const content = page.locator('.admin-content');
          const screens: Array<{ name: string; path: string; ready: () => Promise<void> }> = [
            {
              name: 'create-project',
              path: '/admin/projects',
              ready: () => content.getByRole('button', { name: 'Create Project' }).waitFor(),
            },
            {
              name: 'edit-project',
              path: `/admin/projects/${tower.id}`,
              ready: () => content.getByRole('region', { name: 'Project Models' }).getByText(reference.publicId).waitFor(),
            },
            {
              name: 'project-management',
              path: `/admin/project-management?projectId=${tower.id}`,
              ready: () => content.getByRole('region', { name: 'Project Models' }).getByText(reference.publicId).waitFor(),
            },
            {
              name: 'model-management',
              path: `/admin/model-management?modelId=${withFiles.id}`,
              ready: () => content.getByRole('region', { name: 'Current Files' }).locator('tbody tr').first().waitFor(),
            },
            { name: 'register-user', path: '/admin/users', ready: () => content.getByRole('form', { name: 'Register User' }).waitFor() },
            {
              name: 'add-model',
              path: `/admin/models/add/${tower.id}`,
              ready: () => content.getByRole('button', { name: 'Upload Model' }).waitFor(),
            },
          ];
          const covered: string[] = [];
          const outside: string[] = [];
          for (const screen of screens) {
            await page.goto(`${seeded.url}${screen.path}`);
            await screen.ready();
            await noSpinner(page);
            await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-${screen.name}.png`), fullPage: true });
            if (screen.name === 'model-management') {
              await content
                .getByRole('region', { name: 'Current Files' })
                .screenshot({ path: join(RESULTS, `phone-admin-${w}-files-table.png`) });
            }
            covered.push(...(await coveredControls(page)).map((c) => `${screen.name}: ${c}`));
            covered.push(...(await coveredWhileScrolling(page)).map((c) => `${screen.name} scrolling: ${c}`));
            outside.push(...(await cellsOutsideCards(page)).map((c) => `${screen.name}: ${c}`));
          }
          // Manage Roles: the accounts table
          await page.goto(`${seeded.url}/admin/users`);
          await content.getByRole('tab', { name: 'Manage Roles' }).click();
          await content.getByRole('region', { name: 'Accounts' }).getByTestId('user-row').first().waitFor();
          await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-manage-roles.png`), fullPage: true });
          covered.push(...(await coveredControls(page)).map((c) => `manage-roles: ${c}`));
          covered.push(...(await coveredWhileScrolling(page)).map((c) => `manage-roles scrolling: ${c}`));
          outside.push(...(await cellsOutsideCards(page)).map((c) => `manage-roles: ${c}`));
          // the Project List's table view (no floating buttons there; the table is the point)
          await page.goto(`${seeded.url}/projects?view=table`);
          await page.getByTestId('project-row').first().waitFor();
          await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-project-list-table.png`), fullPage: true });
          outside.push(...(await cellsOutsideCards(page)).map((c) => `project-list-table: ${c}`));

          expect(covered, 'controls covered by another element').toEqual([]);
          expect(outside, 'table cells wider than their card').toEqual([]);
          await context.close();
        },
        TEST_TIMEOUT_MS,
      );

      it(
        `at ${w} px forced failures say what happened: the project list, the model list, hiding the reference, deleting a project with models`,
        async () => {
          const { context, page } = await signedIn(viewport);

          // Catalog Home: the projects answer 500
          await page.route('**/v1/query/projects', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
          await page.goto(`${seeded.url}/catalog`);
          await page.getByRole('alert').filter({ hasText: ModelMessages.loadProjectsFailed }).waitFor();
          expect(await page.getByText('Total Projects').count()).toBe(0);
          expect(await page.getByText('No Projects Yet').count()).toBe(0);
          await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-catalog-failed.png`) });
          await page.unroute('**/v1/query/projects');

          // Model List: the models answer 500
          await page.route('**/v1/query/models', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
          await page.goto(`${seeded.url}/models`);
          await page.getByText(ModelMessages.loadModelsFailed).waitFor();
          expect(await page.getByText('No Models Available').count()).toBe(0);
          expect(await page.getByText(/models? found/).count()).toBe(0);
          await page.unroute('**/v1/query/models');

          // Hide the reference model: the workflow refuses, and the message says why
          await page.goto(`${seeded.url}/models`);
          await page.getByLabel('Search models').fill(reference.publicId);
          await page.getByTestId('model-count').getByText('1 model found', { exact: true }).waitFor();
          const row = page.getByTestId('model-row').filter({ hasText: reference.publicId });
          await row.getByRole('button', { name: 'Hide' }).click();
          await page
            .getByRole('alert')
            .getByText(`${ModelMessages.visibilityFailed}: ${ProjectMessages.hideReferenceRefused}`, { exact: true })
            .waitFor();
          await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-hide-reference-refused.png`) });
          expect((await seeded.service.catalog.get('models', reference.id))?.visible).not.toBe(false);

          // Delete Project on a project with models: refused before anything is typed
          const models = (await seeded.service.catalog.query('models', { where: [['projectId', '==', tower.id]] })).length;
          await page.goto(`${seeded.url}/admin/project-management?projectId=${tower.id}`);
          const content = page.locator('.admin-content');
          await content.getByRole('region', { name: 'Project Models' }).getByText(reference.publicId).waitFor();
          await content.getByRole('button', { name: 'Delete Project', exact: true }).click();
          const refusal = content.getByRole('alertdialog', { name: 'Delete Project' });
          await refusal.getByText(projectHasModels(models), { exact: true }).waitFor();
          expect(await page.getByPlaceholder('Type project name here...').count()).toBe(0);
          await page.screenshot({ path: join(RESULTS, `phone-admin-${w}-delete-refused.png`) });
          await refusal.getByRole('button', { name: 'Close' }).click();
          await refusal.waitFor({ state: 'detached' });
          expect(await seeded.service.catalog.get('projects', tower.id)).not.toBeNull();
          await context.close();
        },
        TEST_TIMEOUT_MS,
      );
    }

    it(
      "at 1400 px: a hybrid is 'Hybrid' in the model list and on its project page, a model without a 3D file says so, public IDs stay on one line, Cancel goes where Back goes",
      async () => {
        const { context, page } = await signedIn(DESKTOP);

        // the reference is the seeded hybrid: the same name on both screens
        await page.goto(`${seeded.url}/models`);
        await page.getByLabel('Search models').fill(reference.publicId);
        await page
          .getByTestId('model-row')
          .filter({ hasText: reference.publicId })
          .getByText('3D Gaussian Splat · Hybrid', { exact: true })
          .waitFor();
        await page.goto(`${seeded.url}/projects/${tower.id}`);
        const card = page.getByTestId('project-model').filter({ hasText: reference.publicId });
        expect(await card.getByTestId('model-type').textContent()).toBe('Hybrid');

        // no 3D file: said on the button, once the other links are ready (no lasting 'Preparing...')
        await page.goto(`${seeded.url}/models`);
        await page.getByLabel('Filter by project').selectOption(mast.id);
        const photos = page.getByTestId('model-row').filter({ hasText: NO_FILE });
        await photos.getByText('No 3D file', { exact: true }).first().waitFor();
        const button = photos.getByRole('button', { name: 'No 3D file' });
        expect(await button.isDisabled()).toBe(true);
        expect(await photos.getByText('Preparing...').count()).toBe(0);
        await page.goto(`${seeded.url}/projects/${mast.id}`);
        const mastCard = page.getByTestId('project-model').filter({ hasText: NO_FILE });
        expect(await mastCard.getByRole('button', { name: 'No 3D file' }).isDisabled()).toBe(true);

        // Edit Project: every public ID on one line
        await page.goto(`${seeded.url}/admin/projects/${tower.id}`);
        const models = page.getByRole('region', { name: 'Project Models' });
        await models.getByText(reference.publicId).waitFor();
        const lines = await models.locator('td a').evaluateAll((links) => links.map((a) => [a.textContent, a.getClientRects().length]));
        expect(lines.length).toBeGreaterThan(0);
        for (const [id, count] of lines) expect(count, `${id} wraps`).toBe(1);

        // Add Model to Project: Cancel goes where Back goes
        await page.goto(`${seeded.url}/admin/models/add/${tower.id}`);
        const content = page.locator('.admin-content');
        const back = await content.getByRole('link', { name: 'Back', exact: true }).getAttribute('href');
        await content.getByRole('button', { name: 'Cancel' }).click();
        await page.waitForURL((url) => `${url.pathname}${url.search}` === back);
        expect(back).toBe(`/admin/project-management?projectId=${tower.id}`);
        await context.close();
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "at 390 px: the map's marker labels stay inside the map; sign-in links back to the landing page; the focused 'Admin Dashboard' heading draws no ring",
      async () => {
        const context = await offlineContext(browser, PHONE);
        const page = await context.newPage();
        current = page;

        // sign-in → landing
        await page.goto(`${seeded.url}/login`);
        await page.getByRole('link', { name: '← Back to the home page' }).click();
        await page.waitForURL(`${seeded.url}/`);
        await page.getByText('Getting Started').first().waitFor();

        // sign in by keyboard (the focus ring follows keyboard use), then go to /admin by keyboard
        await page.goto(`${seeded.url}/login`);
        await page.getByLabel('Email').fill(ADMIN.email);
        await page.getByLabel('Password').fill(ADMIN.password);
        await page.getByLabel('Password').press('Enter');
        await page.waitForURL(`${seeded.url}/projects`);

        // the map: every label inside the map's box
        await page.goto(`${seeded.url}/projects/map`);
        const map = page.getByTestId('keyless-map');
        await map.locator('.map-marker-label').first().waitFor();
        const labels = await map.evaluate((element) => {
          const edge = element.getBoundingClientRect();
          return [...element.querySelectorAll<HTMLElement>('.map-marker-label')].map((label) => {
            const box = label.getBoundingClientRect();
            return { text: label.textContent, inside: box.left >= edge.left && box.right <= edge.right };
          });
        });
        await page.screenshot({ path: join(RESULTS, 'phone-admin-390-map.png') });
        expect(labels.length).toBeGreaterThan(0);
        expect(labels.filter((l) => !l.inside)).toEqual([]);

        // /admin by keyboard from the drawer: the redirect lands on Create Project, the heading has the focus, no ring
        await page.getByRole('button', { name: 'Open navigation' }).press('Enter');
        const admin = page.getByRole('dialog', { name: 'Navigation' }).getByRole('link', { name: /Admin/ });
        await admin.focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(`${seeded.url}/admin/projects`);
        await page.waitForFunction(() => document.activeElement?.textContent === 'Admin Dashboard');
        const ring = await page.evaluate(() => {
          const heading = document.activeElement as HTMLElement;
          return { tag: heading.tagName, outline: getComputedStyle(heading).outlineStyle };
        });
        expect(ring).toEqual({ tag: 'H1', outline: 'none' });
        await page.screenshot({ path: join(RESULTS, 'phone-admin-390-admin-heading.png') });
        await context.close();
      },
      TEST_TIMEOUT_MS,
    );

    it('raised no page errors', () => {
      expect(pageErrors).toEqual([]);
    });
  },
);
