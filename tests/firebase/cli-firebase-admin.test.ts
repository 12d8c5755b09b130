// The real CLI (node cli/bin/catalog.js) switched to the firebase-admin adapter by the emulator
// variables: Firestore on `Google's Firestore emulator (the image's jar)` and the Auth emulator of firebase-tools,
// both started here on free ports. Storage needs the Java-based emulator (CI workflow), so the
// commands here are those that touch documents and accounts only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import type { Backend } from '@shared/ports/index.js';
import { parseJson, runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { firebaseToolsUnavailable, startAuthEmulator, startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';

const skipReason = firebaseToolsUnavailable();
if (skipReason) console.info(`[firebase] skipping the Auth emulator tests: ${skipReason}`);
import type { AuthEmulatorHandle } from '../support/emulators.js';

let firestore: FirestoreEmulatorHandle;
let auth: AuthEmulatorHandle;
let backend: Backend;
let env: Record<string, string>;

beforeAll(async () => {
  if (skipReason) return;
  firestore = await startFirestoreEmulator();
  auth = await startAuthEmulator();
  env = {
    FIRESTORE_EMULATOR_HOST: firestore.host,
    FIREBASE_AUTH_EMULATOR_HOST: auth.host,
    FIREBASE_PROJECT_ID: 'demo-catalog',
    // no service key here: the Firebase path must not need one
    CATALOG_DATA_DIR: tempDir('firebase-cli'),
  };
  process.env.FIRESTORE_EMULATOR_HOST = env.FIRESTORE_EMULATOR_HOST;
  process.env.FIREBASE_AUTH_EMULATOR_HOST = env.FIREBASE_AUTH_EMULATOR_HOST;
  backend = createFirebaseAdminBackend({ projectId: 'demo-catalog' });
});

afterAll(async () => {
  await backend?.close();
  await firestore?.stop();
  await auth?.stop();
});

describe.skipIf(skipReason !== null)('catalog CLI on the firebase-admin adapter (emulators)', () => {
  it('registers a user through the Admin Auth API and promotes them to admin', async () => {
    const registered = await runCli(['users', 'register', 'inspector@lab.example', '--password', 's3cret-pass', '--json'], { env });
    expect(registered.exitCode, registered.stderr).toBe(0);
    const account = await backend.identity.findAccountByEmail!('inspector@lab.example');
    expect(account).not.toBeNull();
    expect((await backend.catalog.get('users', account!.uid))?.role).toBe('user');

    const duplicate = await runCli(['users', 'register', 'inspector@lab.example', '--password', 's3cret-pass', '--json'], { env });
    expect(duplicate.exitCode).not.toBe(0);
    const dupOut = parseJson(duplicate.stdout);
    // the register workflow finds the users record first ('already-exists'); the Admin API answers auth/email-already-in-use
    expect(['already-exists', 'auth/email-already-in-use']).toContain(dupOut.status === 'error' && dupOut.error.code);

    const promoted = await runCli(['users', 'promote', 'inspector@lab.example', '--json'], { env });
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    expect((await backend.catalog.get('users', account!.uid))?.role).toBe('admin');
  });

  it('creates and lists projects in Firestore', async () => {
    const created = await runCli(['projects', 'create', '--name', 'Harbour Light Mast', '--structure-id', 'MST-003', '--json'], { env });
    expect(created.exitCode, created.stderr).toBe(0);
    const stored = await backend.catalog.query('projects', { where: [['structure_id', '==', 'MST-003']] });
    expect(stored.map((p) => p.name)).toEqual(['Harbour Light Mast']);
    expect(Date.parse(stored[0]!.created_at!)).not.toBeNaN();

    const listed = await runCli(['projects', 'list', '--json'], { env });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('MST-003');
  });
});
