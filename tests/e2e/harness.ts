// What the browser tests share: where things are, why they would skip, a headless Chromium,
// an offline browser context, a screenshot when a test fails, and filling in the sign-in form.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend } from '@shared/ports/index.js';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const PORTAL_DIST = join(ROOT, 'portal/dist');
export const CHROMIUM = '/usr/bin/chromium';
export const CLI = join(ROOT, 'cli/bin/catalog.js');
export const RESULTS = join(ROOT, 'test-results');

/** Why the browser tests cannot run here (no portal build, no Chromium), or null. */
export function browserSkipReason(): string | null {
  if (!existsSync(join(PORTAL_DIST, 'index.html'))) return 'portal/dist is missing; run `npm run build` first (npm test does)';
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing; run \`apt-get install -y chromium\``;
  return null;
}

/** Headless Chromium with the flags these machines need; also creates test-results/. */
export async function launchChromium(): Promise<Browser> {
  mkdirSync(RESULTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * A 1400×1000 browser context that reaches only the embedded backend on 127.0.0.1: there is
 * no internet here (maps embeds, external viewer links are aborted).
 */
export async function offlineContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.abort());
  return context;
}

/**
 * For `beforeEach`: when the test fails, saves a full-page screenshot of the current page as
 * test-results/{prefix}-{test name}.png and prints where.
 */
export function screenshotOnFailure(prefix: string, currentPage: () => Page | null | undefined) {
  return ({ task, onTestFailed }: { task: { name: string }; onTestFailed: (fn: () => Promise<void>) => void }): void => {
    onTestFailed(async () => {
      const page = currentPage();
      const file = join(RESULTS, `${prefix}-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page?.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      console.log(`[e2e] failed at ${page?.url()}; screenshot ${file}`);
    });
  };
}

/** Opens /login on `baseUrl`, fills email and password and presses 'Sign In' (does not wait). */
export async function submitSignIn(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** A `catalog serve` with the built portal and the demo catalog of `catalog seed`. */
export interface SeededServer {
  server: RunningServer;
  dataDir: string;
  /** A backend signed in with the service key (reads hidden models too). */
  service: Backend;
  /** Closes the service backend and the server and removes the data folder. */
  stop(): Promise<void>;
}

/**
 * Starts an embedded backend serving portal/dist on a free port in a fresh data folder and
 * seeds it with `catalog seed` (the demo catalog `npm start` shows).
 * @param prefix name prefix of the temporary data folder
 */
export async function startSeededServer(prefix: string): Promise<SeededServer> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server = await startServer({ dataDir, port: 0, portalDir: PORTAL_DIST });
  const key = (JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string }).key;
  const service = createLocalBackend({ baseUrl: server.url, serviceKey: key });
  await execa('node', [CLI, 'seed', '--data-dir', dataDir], { cwd: ROOT, env: { CATALOG_URL: server.url } });
  return {
    server,
    dataDir,
    service,
    async stop() {
      await service.close().catch(() => undefined);
      await server.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds the portal into a fresh temporary folder (portal/dist is left alone) with the given
 * build-time variables (`VITE_BACKEND`, `VITE_FIREBASE_*`…); none of the parent's `VITE*`
 * variables leak in (VITEST ones would make portal/vite.config.ts drop its build root).
 * @param viteEnv the build-time variables
 * @returns the output folder (remove it when done)
 * @throws Error with vite's output when the build fails
 */
export async function buildPortal(viteEnv: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), 'portal-build-'));
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined && !key.startsWith('VITE')) env[key] = value;
  const result = await execa('node', ['node_modules/vite/bin/vite.js', 'build', '--config', 'portal/vite.config.ts', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT,
    env: { ...env, ...viteEnv },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  if (result.exitCode !== 0) throw new Error(`the portal build failed (exit ${result.exitCode}):\n${String(result.stderr)}`);
  return outDir;
}
