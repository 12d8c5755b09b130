// The browser harness: why the browser tests would skip, a headless Chromium (with or without
// software WebGL), an offline browser context, a screenshot when a test fails, filling in the
// sign-in form, a portal build of its own for the Firebase builds, the viewer settled, and which
// controls something else covers.
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { portalDist, repoRoot } from './paths.js';

export const CHROMIUM = '/usr/bin/chromium';
/** Where screenshots go (`test-results/`, created by {@link launchChromium}). */
export const RESULTS = join(repoRoot, 'test-results');

/** Why the browser tests cannot run here (no portal build, no Chromium), or null. */
export function browserSkipReason(): string | null {
  if (!existsSync(join(portalDist, 'index.html'))) return 'portal/dist is missing; run `npm run build` first (npm test does)';
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing; run \`apt-get install -y chromium\``;
  return null;
}

/**
 * Headless Chromium with the flags these machines need; also creates test-results/.
 * @param options.webgl WebGL in software (SwiftShader) instead of no GPU at all, for the viewer (these machines have no GPU)
 */
export async function launchChromium(options: { webgl?: boolean } = {}): Promise<Browser> {
  mkdirSync(RESULTS, { recursive: true });
  const gpu = options.webgl ? ['--use-angle=swiftshader', '--enable-unsafe-swiftshader'] : ['--disable-gpu'];
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', ...gpu, '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** How long a Playwright action (click, screenshot…) may wait for its element or the page: a screenshot of software-rendered WebGL on a loaded machine takes tens of seconds. */
export const ACTION_TIMEOUT_MS = 120_000;

/**
 * The window of browser tests about the 3D viewer's behaviour (not its layout): software WebGL
 * draws every pixel on the CPU, so a test's cost grows with the canvas. At 800×600 the camera-pose
 * test took 58 CPU-s against 113 at 1200×800. Layout and accessibility checks at device sizes
 * keep their own.
 */
export const VIEWER_TEST_WINDOW = { width: 800, height: 600 } as const;

/**
 * A browser context (1400×1000 unless `viewport` says otherwise) that reaches only the embedded
 * backend on 127.0.0.1: there is no internet here (maps embeds, external viewer links are aborted).
 * Actions wait up to {@link ACTION_TIMEOUT_MS}.
 * @param options.reducedMotion the media feature `prefers-reduced-motion` (default 'no-preference')
 */
export async function offlineContext(
  browser: Browser,
  viewport = { width: 1400, height: 1000 },
  options: { reducedMotion?: 'reduce' | 'no-preference' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport, reducedMotion: options.reducedMotion ?? 'no-preference' });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
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
  const args = [
    'node_modules/vite/bin/vite.js',
    'build',
    '--config',
    'portal/vite.config.ts',
    '--outDir',
    outDir,
    '--emptyOutDir',
    '--logLevel',
    'error',
  ];
  const result = await execa('node', args, {
    cwd: repoRoot,
    env: { ...env, ...viteEnv },
    extendEnv: false,
    reject: false,
    timeout: 120_000,
  });
  if (result.exitCode !== 0) throw new Error(`the portal build failed (exit ${result.exitCode}):\n${String(result.stderr)}`);
  return outDir;
}

/**
 * Waits until no viewport of the built-in viewer on `page` is loading and every ready one has
 * drawn a frame (each viewport's `data-state` and `data-rendered-frames`: model-viewport.tsx and
 * its hooks/use-viewer-engine.ts).
 * Software rendering is slow: `timeoutMs` is generous, the test never asserts on time.
 * @returns each viewport's state, 'ready' or 'error', in page order
 */
export async function viewerSettled(page: Page, timeoutMs: number): Promise<string[]> {
  await page.waitForFunction(
    () => {
      const viewports = [...document.querySelectorAll<HTMLElement>('[data-testid=viewport]')];
      return (
        viewports.length > 0 &&
        viewports.every((v) => v.dataset.state === 'error' || (v.dataset.state === 'ready' && Number(v.dataset.renderedFrames) > 0))
      );
    },
    null,
    { timeout: timeoutMs },
  );
  return page.$$eval('[data-testid=viewport]', (viewports) => viewports.map((v) => (v as HTMLElement).dataset.state ?? ''));
}

/**
 * The controls matching `selector` that something else covers: at the middle of each one's width,
 * 3 px below its top, at its middle and 3 px above its bottom, the topmost element
 * (`document.elementFromPoint`) must be the control or inside it.
 * @param page the page, laid out
 * @param selector a CSS selector of the controls (e.g. '.viewport-toolbar button')
 * @returns the text of each covered control, in page order (empty: none covered)
 */
export async function coveredControls(page: Page, selector: string): Promise<Array<string | null>> {
  return page.locator(selector).evaluateAll((controls) =>
    controls
      .filter((control) => {
        const box = control.getBoundingClientRect();
        const x = box.left + box.width / 2;
        return [box.top + 3, box.top + box.height / 2, box.bottom - 3].some((y) => !control.contains(document.elementFromPoint(x, y)));
      })
      .map((control) => control.textContent),
  );
}
