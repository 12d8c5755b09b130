// The build-time backend switch (portal/src/lib/backend.ts): `VITE_BACKEND=firebase` bundles the
// Firebase web SDK and no local-backend code path; `VITE_BACKEND=local` no Firebase SDK. Builds
// into temporary folders (portal/dist is left alone) and looks for each adapter's fingerprints.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPortal } from '../support/browser.js';

const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Builds the portal with `VITE_BACKEND=backend`; returns the text of every JS asset. */
async function build(backend: 'firebase' | 'local'): Promise<string> {
  const outDir = await buildPortal({
    VITE_BACKEND: backend,
    ...(backend === 'firebase' ? { VITE_FIREBASE_API_KEY: 'demo-api-key', VITE_FIREBASE_PROJECT_ID: 'demo-catalog' } : {}),
  });
  dirs.push(outDir);
  const assets = join(outDir, 'assets');
  return readdirSync(assets)
    .filter((name) => name.endsWith('.js'))
    .map((name) => readFileSync(join(assets, name), 'utf8'))
    .join('\n');
}

// Fingerprints: the Auth REST host of the Firebase SDK; the embedded backend's document API path.
const FIREBASE_SDK = 'identitytoolkit.googleapis.com';
const LOCAL_ADAPTER = '/v1/docs/';

describe('build-time backend switch', () => {
  it('VITE_BACKEND=firebase bundles the Firebase SDK and no local backend', async () => {
    const js = await build('firebase');
    expect(js).toContain(FIREBASE_SDK);
    expect(js).not.toContain(LOCAL_ADAPTER);
  });

  it('VITE_BACKEND=local bundles no Firebase SDK', async () => {
    const js = await build('local');
    expect(js).toContain(LOCAL_ADAPTER);
    expect(js).not.toContain(FIREBASE_SDK);
    expect(js).not.toContain('firestore.googleapis.com');
  });
});
