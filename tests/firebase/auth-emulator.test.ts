// The portal's Firebase identity adapter (web SDK v12, run in Node) against the Auth emulator of
// firebase-tools, started here in-process on a free port: sign-in, sign-out, the product's error messages,
// registration, and role resolution through `users` and `admins` (the shared resolveRole
// workflow; its Firestore reads go to Google's Firestore emulator, started from the image's jar,
// through the CLI's firebase-admin adapter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import type { AdminIdentity } from '../../cli/src/adapters/firebase-admin/index.js';
import { createFirebaseBackend } from '../../portal/src/lib/backend/firebase/index.js';
import { AppError } from '@shared/errors.js';
import { registrationErrorMessage, signInErrorMessage } from '@shared/messages.js';
import type { AuthUser, Backend } from '@shared/ports/index.js';
import { resolveRole } from '@shared/workflows/resolve-role.js';
import { firebaseToolsUnavailable, startAuthEmulator, startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';

const skipReason = firebaseToolsUnavailable();
if (skipReason) console.info(`[firebase] skipping the Auth emulator tests: ${skipReason}`);
import type { AuthEmulatorHandle } from '../support/emulators.js';

let auth: AuthEmulatorHandle;
let firestore: FirestoreEmulatorHandle;
let admin: Backend;
let web: Backend;

async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  if (skipReason) return;
  auth = await startAuthEmulator();
  firestore = await startFirestoreEmulator();
  process.env.FIREBASE_AUTH_EMULATOR_HOST = auth.host;
  process.env.FIRESTORE_EMULATOR_HOST = firestore.host;
  admin = createFirebaseAdminBackend({ projectId: auth.projectId });
  web = createFirebaseBackend({
    config: { apiKey: 'demo-api-key', projectId: auth.projectId, storageBucket: `${auth.projectId}.appspot.com` },
    emulators: { auth: auth.host },
    persistSession: false,
    appName: 'auth-emulator-test',
  });
});

afterAll(async () => {
  await web?.close();
  await admin?.close();
  await firestore?.stop();
  await auth?.stop();
});

describe.skipIf(skipReason !== null)('portal Firebase identity against the Auth emulator', () => {
  it('registers accounts and maps registration errors to the registration messages', async () => {
    const created = await web.identity.createAccount('new.user@lab.example', 'secret-pass-1');
    expect(created.uid).toMatch(/^\w+$/);
    expect(created.email).toBe('new.user@lab.example');
    // registration does not sign the registering client in
    expect(web.identity.currentUser()).toBeNull();
    expect(await admin.identity.findAccountByEmail!('new.user@lab.example')).toMatchObject({ uid: created.uid });

    const duplicate = await caught(web.identity.createAccount('new.user@lab.example', 'secret-pass-1'));
    expect(duplicate.code).toBe('auth/email-already-in-use');
    expect(registrationErrorMessage(duplicate)).toBe('This email is already in use.');
    const weak = await caught(web.identity.createAccount('weak@lab.example', '123'));
    expect(registrationErrorMessage(weak)).toBe('The password is too weak.');
    const invalid = await caught(web.identity.createAccount('not-an-email', 'secret-pass-1'));
    expect(registrationErrorMessage(invalid)).toBe('Invalid email format.');
  });

  it('signs in and out, telling auth-state observers', async () => {
    await admin.identity.createAccount('inspector@lab.example', 'right-pass-1');
    const states: (AuthUser | null)[] = [];
    const stop = web.identity.onAuthStateChanged((user) => states.push(user));
    try {
      const user = await web.identity.signIn('inspector@lab.example', 'right-pass-1');
      expect(user.email).toBe('inspector@lab.example');
      expect(web.identity.currentUser()).toEqual(user);
      await web.identity.signOut();
      expect(web.identity.currentUser()).toBeNull();
      await expect.poll(() => states.map((s) => s?.email ?? null)).toEqual([null, 'inspector@lab.example', null]);
    } finally {
      stop();
    }
  });

  it('maps wrong password, unknown user, invalid email and disabled account to the sign-in messages', async () => {
    await admin.identity.createAccount('known@lab.example', 'right-pass-1');
    const wrong = await caught(web.identity.signIn('known@lab.example', 'wrong-pass-1'));
    expect(signInErrorMessage(wrong)).toBe('Incorrect password.');
    const unknown = await caught(web.identity.signIn('nobody@lab.example', 'whatever-1'));
    expect(signInErrorMessage(unknown)).toBe('User not registered.');
    const invalid = await caught(web.identity.signIn('not-an-email', 'whatever-1'));
    expect(signInErrorMessage(invalid)).toBe('Invalid email format.');

    const disabled = await admin.identity.createAccount('disabled@lab.example', 'right-pass-1');
    await (admin.identity as AdminIdentity).setDisabled(disabled.uid, true);
    const error = await caught(web.identity.signIn('disabled@lab.example', 'right-pass-1'));
    expect(error.code).toBe('auth/user-disabled');
    expect(signInErrorMessage(error)).toBe('The account has been disabled.');
    expect(web.identity.currentUser()).toBeNull();
  });

  it('resolves roles through users and admins for signed-in accounts', async () => {
    await admin.identity.createAccount('boss@lab.example', 'right-pass-1');
    await admin.identity.createAccount('worker@lab.example', 'right-pass-1');
    await admin.catalog.set('admins', 'boss@lab.example', { email: 'boss@lab.example' });

    const boss = await web.identity.signIn('boss@lab.example', 'right-pass-1');
    expect(await resolveRole(admin.catalog, boss)).toBe('admin');
    expect((await admin.catalog.get('users', boss.uid))?.role).toBe('admin');
    await web.identity.signOut();

    const worker = await web.identity.signIn('Worker@lab.example', 'right-pass-1');
    expect(await resolveRole(admin.catalog, worker)).toBe('user');
    expect((await admin.catalog.get('users', worker.uid))?.role).toBe('user');
    // an existing record wins over the allowlist
    await admin.catalog.set('admins', 'worker@lab.example', { email: 'worker@lab.example' });
    expect(await resolveRole(admin.catalog, worker)).toBe('user');
    await web.identity.signOut();
    expect(await resolveRole(admin.catalog, null)).toBeNull();
  });
});
