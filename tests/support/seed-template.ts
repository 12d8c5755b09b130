// Global setup of the browser tests: the demo catalog (`catalog seed`) is made once per run in a
// template data folder, and each test file's server starts on a copy of it (startEmbeddedServer
// with `seed: true`). Seeding draws photos, writes splats and GLBs and has the server compute the
// demo captures' change maps: about 15 s of CPU (seed and server) per file, the same bytes every time.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startServer } from '../../cli/src/server/index.js';
import { runCliOk } from './cli.js';
import { tempDir } from './paths.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A stopped server's data folder holding the seeded demo catalog (copy it, never serve it). */
    seededDataDir: string;
  }
}

/**
 * Gaussians of each demo tower capture in the browser tests' catalog: `npm start` seeds 50,000 (enough
 * for every region of the demo's change map), and software WebGL spends its time on them (a compare
 * test took 74 CPU-seconds at 50,000, 33 at 15,000). No browser test asserts the demo's change regions
 * (tests/e2e/viewer-changes.test.ts uploads its own pair; tests/cli/admin.test.ts seeds the full demo).
 */
export const TEST_TOWER_GAUSSIANS = 15_000;

/** The `catalog seed` arguments of the browser tests' demo catalog in `dataDir`. */
export const testSeedArgs = (dataDir: string): string[] => [
  'seed',
  '--data-dir',
  dataDir,
  '--tower-gaussians',
  String(TEST_TOWER_GAUSSIANS),
];

/** Seeds a template data folder and provides its path; the returned teardown removes it. */
export default async function setup(project: TestProject): Promise<() => void> {
  const dataDir = tempDir('seed-template');
  // no background change maps: the seed computes the changed capture's map itself
  const server = await startServer({ dataDir, port: 0, portalDir: null, mapTilesUrl: null, changeMaps: false });
  try {
    await runCliOk(testSeedArgs(dataDir), { env: { CATALOG_URL: server.url }, timeout: 120_000 });
  } finally {
    // The seed's requests are answered once everything they make is stored: nothing is left
    // running in the server when it returns.
    await server.close();
  }
  project.provide('seededDataDir', dataDir);
  return () => rmSync(dataDir, { recursive: true, force: true });
}
