/**
 * Faults (the portal rides out a server restart): the embedded server stops in the middle of a session and comes back on the
 * same port and data folder. The shell shows the connection banner (role=status) while the
 * live-update stream is down and clears it by itself on reconnect; a live page gets fresh data
 * after the restart without a reload; a sidebar entry whose code was not loaded yet shows the
 * friendly 'Cannot reach the catalog server' screen with 'Retry' inside the shell (never React
 * Router's developer page), Retry does nothing harmful while the server is still down, and after
 * the restart Retry loads the page. Screenshots: test-results/faults-*.png.
 *
 * Needs the built portal and /usr/bin/chromium (skips with a printed reason otherwise).
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RESULTS, browserSkipReason, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { portalDist } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { createProject } from '@shared/workflows/index.js';
import { DEMO_ACCOUNTS } from '../../cli/src/lib/demo-data/index.js';
import { startServer, type RunningServer } from '../../cli/src/server/index.js';

const USER = DEMO_ACCOUNTS.find((a) => a.role === 'user') as (typeof DEMO_ACCOUNTS)[number];
/** The stream reconnects with back-off (1 s, 2 s, 4 s…): the banner may take a few seconds to clear. */
const RECONNECT_TIMEOUT_MS = 40_000;

const skipReason = browserSkipReason();
if (skipReason !== null) console.warn(`[e2e] faults test skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)('the server stops mid-session and comes back', () => {
  let seeded: EmbeddedServer;
  let browser: Browser;
  /** The server now running on the seeded port (the first one, or a restarted one). */
  let running: RunningServer | null = null;
  let current: Page | null = null;

  beforeAll(async () => {
    seeded = await startEmbeddedServer({ prefix: 'faults', portalDir: portalDist, seed: true });
    running = seeded.server;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await running?.close().catch(() => undefined);
    await seeded?.stop();
  });

  beforeEach(screenshotOnFailure('faults-failure', () => current));

  async function stop(): Promise<void> {
    await running?.close();
    running = null;
  }

  /** Starts the server again on the same port and data folder (the portal it serves included). */
  async function restart(): Promise<void> {
    running = await startServer({ dataDir: seeded.dataDir, port: seeded.server.port, portalDir: portalDist });
    expect(running.url).toBe(seeded.url);
  }

  it('shows the banner and the friendly error with Retry while the server is down, and recovers after a restart', async () => {
    const context = await offlineContext(browser);
    const page = await context.newPage();
    current = page;
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    const banner = page.getByTestId('connection-banner');

    await submitSignIn(page, seeded.url, USER.email, USER.password);
    await page.waitForURL(`${seeded.url}/projects`);
    await page.goto(`${seeded.url}/catalog`);
    await page.getByRole('heading', { name: 'Browse All Projects' }).waitFor();
    expect(await banner.count()).toBe(0);

    // 1. The server stops: the banner shows; it comes back: the banner goes by itself and the live page gets fresh data.
    await stop();
    await banner.waitFor();
    // in the live region that was there before it (a live region added with its text is not announced)
    expect(await page.getByTestId('connection-status').getAttribute('role')).toBe('status');
    expect(await page.getByTestId('connection-status').getByTestId('connection-banner').count()).toBe(1);
    expect(await banner.textContent()).toContain('Connection to the catalog server lost');
    await page.screenshot({ path: join(RESULTS, 'faults-banner.png') });
    await restart();
    await banner.waitFor({ state: 'detached', timeout: RECONNECT_TIMEOUT_MS });
    await createProject(seeded.service.catalog, {
      name: 'Written After The Restart',
      structure_id: 'RST-001',
      description: 'Created once the server was back.',
    });
    await page.getByText('Written After The Restart').first().waitFor();

    // The project list's code is loaded while the server is up.
    await page
      .getByTestId('side-nav')
      .getByRole('link', { name: /Project List/ })
      .click();
    await page.getByText('RST-001').first().waitFor();
    await page
      .getByTestId('side-nav')
      .getByRole('link', { name: /Catalog Home/ })
      .click();
    await page.getByRole('heading', { name: 'Browse All Projects' }).waitFor();

    // 2. Down again: a page whose code is loaded waits for the server (no error screen) ...
    await stop();
    await banner.waitFor();
    await page
      .getByTestId('side-nav')
      .getByRole('link', { name: /Project List/ })
      .click();
    await page.waitForURL(`${seeded.url}/projects?view=table`);
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('route-error').count()).toBe(0);
    await page.screenshot({ path: join(RESULTS, 'faults-loaded-page-while-down.png') });
    // ... a sidebar entry whose code was not loaded shows the friendly error inside the shell.
    await page
      .getByTestId('side-nav')
      .getByRole('link', { name: /Model List/ })
      .click();
    const error = page.getByTestId('route-error');
    await error.waitFor();
    expect(await error.getByRole('heading').textContent()).toBe('Cannot reach the catalog server');
    expect(await error.textContent()).toContain('The catalog server does not answer. Check your network connection, then press Retry.');
    expect(await page.getByText('Unexpected Application Error').count()).toBe(0);
    expect(await page.getByText('Hey developer').count()).toBe(0);
    // the shell stays around the message
    expect(await page.getByTestId('side-nav').count()).toBe(1);
    expect(await banner.count()).toBe(1);
    await page.screenshot({ path: join(RESULTS, 'faults-route-error.png') });
    // Retry while still down: the same message, the page stays
    await error.getByRole('button', { name: 'Retry' }).click();
    await error.getByRole('button', { name: 'Retry' }).and(page.locator(':enabled')).waitFor();
    expect(await error.getByRole('heading').textContent()).toBe('Cannot reach the catalog server');
    expect(page.url()).toBe(`${seeded.url}/models`);

    // 3. Back: the banner clears by itself; Retry loads the page.
    await restart();
    await banner.waitFor({ state: 'detached', timeout: RECONNECT_TIMEOUT_MS });
    await error.getByRole('button', { name: 'Retry' }).click();
    await page.getByText(/\d+ models found/).waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('route-error').count()).toBe(0);
    expect(page.url()).toBe(`${seeded.url}/models`);
    await page.screenshot({ path: join(RESULTS, 'faults-recovered.png') });
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
