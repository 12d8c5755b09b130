// What the viewer's inspection browser tests (tests/e2e/inspect-*.test.ts) start before their
// cases: an embedded server with the demo catalog and the built portal, a project made with the
// CLI, models of the generated inspection box (tests/support/inspection-scene.ts) uploaded with
// the CLI, and a headless Chromium with software WebGL. Kept apart from inspection-scene.ts so
// that the scene's own unit test does not load the server or the browser.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { Model } from '@shared/types.js';
import { RESULTS, launchChromium, offlineContext, submitSignIn } from './browser.js';
import { createProjectWithCli, runCli } from './cli.js';
import { inspectionBoxGlb, writeInspectionScene } from './inspection-scene.js';
import { portalDist, tempDir } from './paths.js';
import { startEmbeddedServer, type EmbeddedServer } from './server.js';

/** Where the inspection tests' screenshots go (test-results/inspect/); created by {@link startInspectionScene}. */
export const INSPECT_SHOTS = join(RESULTS, 'inspect');

/** The demo admin's email and password (`catalog seed`). */
export const DEMO_ADMIN = ['admin@demo.lab', 'demo-admin-1'] as const;
/** The demo user's email and password (`catalog seed`). */
export const DEMO_USER = ['user@demo.lab', 'demo-user-1'] as const;

/** A model to upload with `catalog models upload` before the tests. */
export interface InspectionModelSpec {
  publicId: string;
  name: string;
  /**
   * 'scene': the whole scene folder (`box.glb`, `cameras.json`, the six photos under `images/`);
   * 'glb': the box GLB alone, as `model.glb`.
   */
  files: 'scene' | 'glb';
  /** `--capture-date`, 'YYYY-MM-DD'; none when absent. */
  captureDate?: string;
}

/** What {@link startInspectionScene} starts and uploads. */
export interface InspectionSceneOptions {
  /** Prefix of the server's data folder and of the model folders' temporary folder. */
  prefix: string;
  /** The project the models go to, created with `catalog projects create`. */
  project: { name: string; structureId: string };
  /** The models, uploaded in this order; none when absent. */
  models?: InspectionModelSpec[];
}

/** A started inspection scene: the server, the browser, the ids, and `stop()`. */
export interface InspectionScene {
  server: EmbeddedServer;
  browser: Browser;
  /** The environment with which the CLI reaches the server: `CATALOG_DATA_DIR` and `CATALOG_URL`. */
  env: Record<string, string>;
  /** The project's id. */
  projectId: string;
  /** The uploaded models as `catalog models upload --json` returned them, in the order asked. */
  models: Model[];
  /** The message of every uncaught page error of the pages {@link InspectionScene.signedInPage} opened. */
  pageErrors: string[];
  /**
   * Opens a page in a new offline browser context of `viewport` (CSS px), records its uncaught
   * errors in `pageErrors`, hands it to `onOpen` (e.g. to screenshot it on a failure) before
   * anything is loaded, and signs in as `who` (email, password) until /projects is shown.
   */
  signedInPage(who: readonly [string, string], viewport: { width: number; height: number }, onOpen?: (page: Page) => void): Promise<Page>;
  /** Closes the browser, stops the server and removes the model folders; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the embedded server (seeded, serving the built portal), creates the project, uploads the
 * models with the CLI (each must exit 0), launches Chromium with software WebGL and creates
 * {@link INSPECT_SHOTS}. On a failure part way everything started is stopped again.
 * @param options what to create
 * @returns the scene; call `stop()` in afterAll
 */
export async function startInspectionScene(options: InspectionSceneOptions): Promise<InspectionScene> {
  const server = await startEmbeddedServer({ prefix: options.prefix, portalDir: portalDist, seed: true });
  const folder = tempDir(`${options.prefix}-models`);
  let browser: Browser | undefined;
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await browser?.close().catch(() => undefined);
    await server.stop();
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    const env = { CATALOG_DATA_DIR: server.dataDir, CATALOG_URL: server.url };
    const projectId = await createProjectWithCli(options.project.name, options.project.structureId, { env });
    const models: Model[] = [];
    for (const spec of options.models ?? []) {
      const dir = join(folder, spec.publicId);
      if (spec.files === 'scene') await writeInspectionScene(dir);
      else {
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'model.glb'), await inspectionBoxGlb());
      }
      const args = ['models', 'upload', dir, '--project', projectId, '--public-id', spec.publicId, '--name', spec.name, '--json'];
      const result = await runCli(spec.captureDate ? [...args, '--capture-date', spec.captureDate] : args, { env });
      expect(result.exitCode, result.stdout + result.stderr).toBe(0);
      models.push((JSON.parse(result.stdout) as { result: { model: Model } }).result.model);
    }
    browser = await launchChromium({ webgl: true });
    mkdirSync(INSPECT_SHOTS, { recursive: true });
    const pageErrors: string[] = [];
    const opened = browser;
    return {
      server,
      browser: opened,
      env,
      projectId,
      models,
      pageErrors,
      signedInPage: async (who, viewport, onOpen) => {
        const context = await offlineContext(opened, viewport);
        const page = await context.newPage();
        page.on('pageerror', (error) => pageErrors.push(error.message));
        onOpen?.(page);
        await submitSignIn(page, server.url, who[0], who[1]);
        await page.waitForURL(`${server.url}/projects`);
        return page;
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
