/**
 * Phones, tablets and desktops: every route of the portal's route table at 1400×900,
 * 768×1024 and 360×740 — signed out, as user and as admin on the seeded demo catalog — does not scroll
 * sideways (`document.documentElement.scrollWidth <= window.innerWidth` once the page's content
 * shows); at 390 px the navigation is a drawer, closed on arrival, opened by the top bar's menu
 * button and closed by Escape, a click on the backdrop and a navigation, with focus moved into it
 * and back to the menu button; at 1400 px it is the 256/64 px rail and its collapsed choice
 * survives a reload. Screenshots: test-results/responsive-{width}-{route}.png.
 *
 * The same walk is the accessibility scan (WCAG 2.1 AA): at 1400 and 360 px (desktop, and the
 * narrowest phone; not at 390 px as well, which would add minutes to `npm test` for little:
 * 360 px is the harder phone width for overflow, and the other a11y files scan their states at
 * 390 px) axe-core (tests/support/axe.ts: WCAG 2.0/2.1 A and AA plus best practices) runs on every
 * route for every role, and any violation fails the test; every screen but the landing page has a
 * title of its own ('… · Tower Models Catalog'). The states a route opens without navigating are
 * scanned where they are built: the drawer in a11y-shell, the dialogs in admin-a11y, the map
 * popups and long lists in browse-a11y, the viewer and its panels in viewer-a11y.
 *
 * Needs the built portal and /usr/bin/chromium (skips with a printed reason otherwise).
 */
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { axeViolations } from '../support/axe.js';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { adminRoutes, settle, signedOutRoutes, userRoutes, type RouteCheck } from '../support/routes.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import type { Model, Project } from '@shared/types.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';

const account = (role: 'user' | 'admin') => DEMO_ACCOUNTS.find((a) => a.role === role) as (typeof DEMO_ACCOUNTS)[number];
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };
/** The narrowest phone the portal supports, and a tablet at the drawer/rail boundary (the rail open beside the content). */
const SMALL_PHONE = { width: 360, height: 740 };
const TABLET = { width: 768, height: 1024 };
const TEST_TIMEOUT_MS = 240_000;
/**
 * Full-page screenshots of every route at every width (about 90) are for looking at, not asserted:
 * taken only with CATALOG_TEST_SCREENSHOTS=1 (a failing test gets its screenshot anyway), which
 * keeps them out of `npm test`'s 15 minutes.
 */
const ROUTE_SHOTS = process.env.CATALOG_TEST_SCREENSHOTS === '1';

/** The widths at which axe scans every route: desktop and phone. */
const AXE_WIDTHS = new Set([DESKTOP.width, SMALL_PHONE.width]);

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] responsive test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('every route at 360, 768 and 1400 px', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  let project: Project;
  let model: Model;
  let current: Page | null = null;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'responsive', portalDir: portalDist, seed: true });
    const projects = (await seeded.service.catalog.query('projects')) as Project[];
    const models = (await seeded.service.catalog.query('models')) as Model[];
    const withModels = projects.find((p) => models.some((m) => m.projectId === p.id && m.visible !== false));
    if (!withModels) throw new Error('the seed has no project with models');
    project = withModels;
    model = models.find((m) => m.projectId === project.id && m.visible !== false) as Model;
    browser = await launchChromium();
  }, 180_000);

  /** Screens axe scanned, for the count printed at the end. */
  let scanned = 0;

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await seeded?.stop();
    if (scanned > 0) console.info(`[e2e responsive] axe scanned ${scanned} screens`);
  });

  beforeEach(screenshotOnFailure('responsive-failure', () => current));

  async function open(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await offlineContext(browser, viewport);
    const page = await context.newPage();
    current = page;
    page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
    return { context, page };
  }

  async function signIn(page: Page, role: 'user' | 'admin'): Promise<void> {
    const who = account(role);
    await submitSignIn(page, seeded.url, who.email, who.password);
    await page.waitForURL(`${seeded.url}/projects`);
  }

  /** The page's horizontal overflow: scrollWidth, innerWidth and the elements reaching past the right edge. */
  function overflow(page: Page) {
    return page.evaluate(() => {
      const width = window.innerWidth;
      const offenders: string[] = [];
      for (const element of document.body.querySelectorAll('*')) {
        const box = element.getBoundingClientRect();
        if (box.right > width + 0.5 && box.width > 0) {
          const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${
            typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : ''
          }`;
          offenders.push(`${name} right=${Math.round(box.right)}`);
        }
      }
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, offenders: offenders.slice(0, 12) };
    });
  }

  /**
   * Visits `routes` at `width`: none scrolls sideways, each has a title of its own, and at the
   * {@link AXE_WIDTHS} axe finds nothing.
   */
  async function checkRoutes(page: Page, width: number, routes: RouteCheck[]): Promise<void> {
    const failures: string[] = [];
    const violations: string[] = [];
    const untitled: string[] = [];
    for (const route of routes) {
      await page.goto(`${seeded.url}${route.path}`);
      await settle(page, route);
      if (ROUTE_SHOTS) await page.screenshot({ path: join(RESULTS, `responsive-${width}-${route.name}.png`), fullPage: true });
      const found = await overflow(page);
      if (found.scrollWidth > found.innerWidth) {
        failures.push(`${route.path}: scrollWidth ${found.scrollWidth} > ${found.innerWidth}; ${found.offenders.join(', ')}`);
      }
      const title = await page.title();
      if (route.name !== 'landing' && !title.includes(' · ')) untitled.push(`${route.path}: '${title}'`);
      if (AXE_WIDTHS.has(width)) {
        violations.push(...(await axeViolations(page, `${width} ${route.name}`)));
        scanned += 1;
      }
    }
    expect(failures).toEqual([]);
    expect(untitled, 'screens without a title of their own (WCAG 2.4.2)').toEqual([]);
    expect(violations, 'axe-core: WCAG 2.1 A/AA violations').toEqual([]);
  }

  for (const viewport of [DESKTOP, SMALL_PHONE, TABLET]) {
    it(
      `signed out at ${viewport.width} px: landing, sign-in and a missing page do not scroll sideways`,
      async () => {
        const { context, page } = await open(viewport);
        await checkRoutes(page, viewport.width, signedOutRoutes);
        await context.close();
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `as user at ${viewport.width} px: catalog, project list (grid, table), map, project detail, models and the viewer's chrome`,
      async () => {
        const { context, page } = await open(viewport);
        await signIn(page, 'user');
        await checkRoutes(page, viewport.width, userRoutes(project.id));
        // The project table, reached through the list's own view switch too.
        await page.goto(`${seeded.url}/projects`);
        await page.getByText('Table View', { exact: true }).click();
        await page.getByTestId('project-row').first().waitFor();
        await page.screenshot({ path: join(RESULTS, `responsive-${viewport.width}-projects-table-switch.png`), fullPage: true });
        const table = await overflow(page);
        expect(table.scrollWidth, table.offenders.join(', ')).toBeLessThanOrEqual(table.innerWidth);
        // The viewer route (full window, outside the shell): without WebGL only its chrome renders.
        await page.goto(`${seeded.url}/viewer?id=${encodeURIComponent(model.publicId)}`);
        await page.locator('body *').first().waitFor();
        await page.waitForTimeout(1500);
        await page.screenshot({ path: join(RESULTS, `responsive-${viewport.width}-viewer.png`) });
        const viewer = await overflow(page);
        expect(viewer.scrollWidth, viewer.offenders.join(', ')).toBeLessThanOrEqual(viewer.innerWidth);
        await context.close();
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `as admin at ${viewport.width} px: every admin screen and the add-model pages`,
      async () => {
        const { context, page } = await open(viewport);
        await signIn(page, 'admin');
        await checkRoutes(page, viewport.width, adminRoutes(project.id));
        await context.close();
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    'at 390 px the navigation is a drawer: closed on arrival, opened by the menu button, closed by Escape, the backdrop and navigation',
    async () => {
      const { context, page } = await open(PHONE);
      await signIn(page, 'user');
      const nav = page.getByTestId('side-nav');
      const menu = page.getByRole('button', { name: 'Open navigation' });
      await page.getByTestId('project-card').first().waitFor();
      expect(await nav.count()).toBe(0);
      // content uses the full width
      const main = await page.locator('main.shell-main').boundingBox();
      expect(main?.x).toBe(0);
      expect(main?.width).toBe(PHONE.width);
      expect(await menu.getAttribute('aria-expanded')).toBe('false');

      await menu.click();
      await nav.waitFor();
      expect(await nav.getAttribute('role')).toBe('dialog');
      expect(await menu.getAttribute('aria-expanded')).toBe('true');
      expect(await page.evaluate(() => document.querySelector('[data-testid="side-nav"]')?.contains(document.activeElement))).toBe(true);
      await page.screenshot({ path: join(RESULTS, 'responsive-390-drawer.png') });
      // Escape closes it, focus back on the menu button
      await page.keyboard.press('Escape');
      await nav.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Open navigation');

      // the backdrop (right of the 256 px drawer) closes it
      await menu.click();
      await nav.waitFor();
      await page.mouse.click(PHONE.width - 20, PHONE.height / 2);
      await nav.waitFor({ state: 'detached' });

      // its close button closes it
      await menu.click();
      await page.getByRole('button', { name: 'Close navigation' }).click();
      await nav.waitFor({ state: 'detached' });

      // navigating closes it
      await menu.click();
      await nav.getByRole('link', { name: /Model List/ }).click();
      await page.waitForURL(`${seeded.url}/models`);
      await nav.waitFor({ state: 'detached' });
      await page.getByText(/models found/).waitFor();

      // the table-view entry opens the table view
      await menu.click();
      await nav.getByRole('link', { name: /Project List/ }).click();
      await page.waitForURL(`${seeded.url}/projects?view=table`);
      await nav.waitFor({ state: 'detached' });
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'at 1400 px the navigation is the 256/64 px rail and its collapsed choice survives a reload',
    async () => {
      const { context, page } = await open(DESKTOP);
      await signIn(page, 'user');
      const nav = page.getByTestId('side-nav');
      await nav.waitFor();
      expect(await page.getByRole('button', { name: 'Open navigation' }).count()).toBe(0);
      const width = () => page.evaluate(() => document.querySelector('[data-testid="side-nav"]')?.getBoundingClientRect().width);
      await expect.poll(width).toBe(256);
      await page.getByRole('button', { name: 'Collapse navigation' }).click();
      await expect.poll(width).toBe(64);
      await page.reload();
      await nav.waitFor();
      expect(await nav.getAttribute('data-collapsed')).toBe('true');
      await expect.poll(width).toBe(64);
      await page.getByRole('button', { name: 'Expand navigation' }).click();
      await page.reload();
      await nav.waitFor();
      await expect.poll(width).toBe(256);
      await context.close();
    },
    TEST_TIMEOUT_MS,
  );

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
