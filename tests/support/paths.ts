// Where things are for every test harness: the repository, the CLI's entry point, the built
// portal, the samples beside the repository, and temporary folders.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (absolute, with a trailing separator). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
/** `cli/bin/catalog.js`, the CLI as users run it. */
export const cliBin = join(repoRoot, 'cli/bin/catalog.js');
/**
 * The built portal (`npm run build`), which the browser tests serve; `CATALOG_TEST_PORTAL_DIST`
 * points them at another build (a developer's own `vite build --outDir …`, so that two people
 * working in one checkout do not rebuild portal/dist under each other's tests).
 */
export const portalDist = process.env.CATALOG_TEST_PORTAL_DIST || join(repoRoot, 'portal/dist');
/** `../shared/samples` beside the repository (never copied into the project). */
export const samplesDir = resolve(repoRoot, '..', 'shared', 'samples');

let warned = false;
/** True when the real samples are present; prints the reason once when they are not. */
export function samplesPresent(): boolean {
  const present = existsSync(join(samplesDir, 'SOURCES.md'));
  if (!present && !warned) {
    warned = true;
    console.warn(`[tests] skipping sample-based tests: ${samplesDir} is absent`);
  }
  return present;
}

/** Absolute path of a sample file or folder (`relative` to ../shared/samples). */
export function samplePath(relative: string): string {
  return join(samplesDir, relative);
}

/** A fresh temporary folder `catalog-<prefix>-XXXXXX`; the caller removes it. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `catalog-${prefix}-`));
}
