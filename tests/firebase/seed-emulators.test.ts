// `catalog seed` as CI would run it against the Firebase emulators: Google's Firestore emulator
// (the image's jar, firestore.rules loaded) and the Auth emulator of firebase-tools, both on free
// ports; the real CLI (node cli/bin/catalog.js) picks the firebase-admin adapter from the emulator
// variables. Then the portal built for the emulators (VITE_BACKEND=firebase, VITE_USE_EMULATORS=1,
// the hosts of this run) signs a seeded user in, in headless Chromium, and lists the seeded
// projects. There is no Storage emulator here (its rules runtime is downloaded from Google at
// start), so the seed writes the models as records without files and says so.
import { existsSync, rmSync } from 'node:fs';
import { preview } from 'vite';
import type { PreviewServer } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import { NO_FILE_STORAGE_MESSAGE } from '../../cli/src/lib/seed.js';
import type { SeedResult } from '../../cli/src/lib/seed.js';
import type { Backend } from '@shared/ports/index.js';
import { parseJson, runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { CHROMIUM, buildPortal, launchChromium, offlineContext, screenshotOnFailure, submitSignIn } from '../support/browser.js';
import { firebaseToolsUnavailable, loadFirestoreRules, startAuthEmulator, startFirestoreEmulator } from '../support/emulators.js';
import { freePort } from '../support/net.js';
import type { AuthEmulatorHandle, FirestoreEmulatorHandle } from '../support/emulators.js';

// Its own project id: under `firebase emulators:exec` (CI) the Firestore emulator is shared with
// the other test files, and data is kept per project.
const projectId = 'demo-seed';
const skipReason =
  firebaseToolsUnavailable() ?? (existsSync(CHROMIUM) ? null : `${CHROMIUM} is missing; run \`apt-get install -y chromium\``);
if (skipReason) console.info(`[firebase seed] skipping: ${skipReason}`);

let firestore: FirestoreEmulatorHandle | undefined;
let auth: AuthEmulatorHandle | undefined;
let admin: Backend | undefined;
let portalDir: string | undefined;
let portal: PreviewServer | undefined;
let browser: Browser | undefined;
let env: Record<string, string>;
const dataDir = tempDir('seed-emulators');
const previous = { firestore: process.env.FIRESTORE_EMULATOR_HOST, auth: process.env.FIREBASE_AUTH_EMULATOR_HOST };

beforeAll(async () => {
  if (skipReason) return;
  [firestore, auth] = await Promise.all([startFirestoreEmulator(), startAuthEmulator({ projectId })]);
  await loadFirestoreRules(firestore.host, projectId);
  // No service key and no data folder content: the Firebase path must need neither. No Storage
  // emulator, even under `firebase emulators:exec` (its seed step covers files).
  env = {
    FIRESTORE_EMULATOR_HOST: firestore.host,
    FIREBASE_AUTH_EMULATOR_HOST: auth.host,
    FIREBASE_STORAGE_EMULATOR_HOST: '',
    STORAGE_EMULATOR_HOST: '',
    FIREBASE_PROJECT_ID: projectId,
    CATALOG_DATA_DIR: dataDir,
  };
  // the Admin SDK of this process reads the hosts from the environment
  process.env.FIRESTORE_EMULATOR_HOST = firestore.host;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = auth.host;
  admin = createFirebaseAdminBackend({ projectId, appName: 'seed-emulators-check' });
});

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await portal?.close().catch(() => undefined);
  await admin?.close();
  await firestore?.stop();
  await auth?.stop();
  for (const [name, value] of [
    ['FIRESTORE_EMULATOR_HOST', previous.firestore],
    ['FIREBASE_AUTH_EMULATOR_HOST', previous.auth],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (portalDir) rmSync(portalDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

describe.skipIf(skipReason !== null)('catalog seed against the Firebase emulators (Auth + Firestore)', () => {
  let page: Page | undefined;
  beforeEach(screenshotOnFailure('seed-emulators', () => page));

  it('seeds accounts, projects and model records, and says that files need storage', async () => {
    const started = Date.now();
    const seeded = await runCli(['seed', '--json'], { env });
    expect(seeded.exitCode, seeded.stderr).toBe(0);
    console.info(`[firebase seed] catalog seed on the emulators took ${Date.now() - started} ms`);
    const out = parseJson<SeedResult>(seeded.stdout);
    if (out.status !== 'ok') throw new Error(`seed failed: ${JSON.stringify(out)}`);
    expect(out.result.filesSkipped).toBe(NO_FILE_STORAGE_MESSAGE);
    expect(seeded.stderr).toContain(NO_FILE_STORAGE_MESSAGE);
    const kinds = (kind: string) => out.result.items.filter((i) => i.kind === kind && i.created).length;
    console.info(`[firebase seed] created ${kinds('account')} accounts, ${kinds('project')} projects, ${kinds('model')} models`);

    // what the emulators hold, read with firebase-admin
    const users = await admin!.catalog.query('users', { orderBy: [['email', 'asc']] });
    expect(users.map((u) => [u.email, u.role])).toEqual([
      ['admin@demo.lab', 'admin'],
      ['user@demo.lab', 'user'],
    ]);
    for (const u of users) expect(await admin!.identity.findAccountByEmail!(u.email!)).toMatchObject({ uid: u.id });
    const projects = await admin!.catalog.query('projects', { orderBy: [['structure_id', 'asc']] });
    expect(projects.map((p) => p.structure_id)).toEqual(['BRG-002', 'MST-003', 'TWR-001']);
    const models = await admin!.catalog.query('models', { orderBy: [['publicId', 'asc']] });
    expect(models.length).toBe(kinds('model'));
    expect(models.filter((m) => m.visible === false).map((m) => m.publicId)).toEqual(['TWR-001-DRAFT']);
    for (const m of models) expect([m.files?.splatPath ?? null, m.files?.glbPath ?? null, m.files?.images ?? []]).toEqual([null, null, []]);
    const tower = projects.find((p) => p.structure_id === 'TWR-001')!;
    expect(models.find((m) => m.id === tower.reference_model_id)?.isReference).toBe(true);

    // a second run creates nothing
    const again = parseJson<SeedResult>((await runCli(['seed', '--json'], { env })).stdout);
    expect(again.status === 'ok' && again.result.created).toBe(0);
  });

  it('the portal built for the emulators signs the seeded user in and lists the seeded projects', async () => {
    const started = Date.now();
    portalDir = await buildPortal({
      VITE_BACKEND: 'firebase',
      VITE_USE_EMULATORS: '1',
      VITE_FIREBASE_PROJECT_ID: projectId,
      VITE_FIREBASE_AUTH_EMULATOR_HOST: auth!.host,
      VITE_FIRESTORE_EMULATOR_HOST: firestore!.host,
    });
    portal = await preview({
      configFile: false,
      root: portalDir,
      logLevel: 'error',
      build: { outDir: portalDir },
      preview: { host: '127.0.0.1', port: await freePort(), strictPort: true },
    });
    const url = portal.resolvedUrls!.local[0]!.replace(/\/$/, '');
    browser = await launchChromium();
    const context = await offlineContext(browser);
    page = await context.newPage();
    await submitSignIn(page, url, 'user@demo.lab', 'demo-user-1');
    await page.waitForURL(`${url}/projects`);
    await page.getByTestId('role-badge').filter({ hasText: 'USER' }).waitFor();
    for (const name of ['North Ridge Telecom Tower', 'Grand River Footbridge', 'Harbour Light Mast'])
      await page.getByText(name).first().waitFor();
    console.info(`[firebase seed] portal build, sign-in and project list took ${Date.now() - started} ms`);
  });
});
