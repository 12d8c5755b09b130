// The whole backend contract against the Firebase emulators of firebase-tools (Auth, Firestore,
// Storage with firestore.rules and storage.rules): the portal's web-SDK adapter for the admin,
// user and signed-out clients, the CLI's firebase-admin adapter as the service principal. The
// Firestore and Storage emulators need Java 21, so this runs in .github/workflows/firebase.yml
// under `firebase emulators:exec`; elsewhere it is skipped with the reason printed.
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite.ts (describeBackendContract).
import { describe, it } from 'vitest';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import type { AdminIdentity } from '../../cli/src/adapters/firebase-admin/index.js';
import { createFirebaseBackend } from '../../portal/src/lib/backend/firebase/index.js';
import { SERVER_TIMESTAMP } from '../../shared/ports/index.js';
import type { Backend } from '../../shared/ports/index.js';
import { describeBackendContract } from '../contract/suite.js';
import type { ContractSetup } from '../contract/suite.js';
import { javaEmulatorsUnavailable } from './emulators.js';

const skipReason = javaEmulatorsUnavailable();
const projectId = process.env.GCLOUD_PROJECT || 'demo-catalog';

async function setupFirebaseEmulators(): Promise<ContractSetup> {
  const service = createFirebaseAdminBackend({ projectId, storageBucket: `${projectId}.appspot.com` });
  const web = (name: string): Backend =>
    createFirebaseBackend({
      config: { apiKey: 'demo-api-key', projectId, storageBucket: `${projectId}.appspot.com` },
      emulators: {
        auth: process.env.FIREBASE_AUTH_EMULATOR_HOST!,
        firestore: process.env.FIRESTORE_EMULATOR_HOST!,
        storage: process.env.FIREBASE_STORAGE_EMULATOR_HOST!,
      },
      persistSession: false,
      appName: `contract-${name}-${Date.now()}`,
    });
  const accounts = { admin: ['admin@contract.test', 'admin-pass-1'], user: ['user@contract.test', 'user-pass-1'] } as const;
  for (const [role, [email, password]] of Object.entries(accounts)) {
    const existing = await service.identity.findAccountByEmail!(email);
    const account = existing ?? (await service.identity.createAccount(email, password));
    await service.catalog.set('users', account.uid, { uid: account.uid, email, role: role as 'admin' | 'user', created_at: SERVER_TIMESTAMP, created_by: 'contract' });
  }
  const admin = web('admin');
  await admin.identity.signIn(...accounts.admin);
  const user = web('user');
  await user.identity.signIn(...accounts.user);
  const anon = web('anon');
  return {
    admin,
    user,
    anon,
    service,
    async disableAccount(email) {
      const account = await service.identity.findAccountByEmail!(email);
      if (!account) throw new Error(`no account ${email}`);
      await (service.identity as AdminIdentity).setDisabled(account.uid, true);
    },
    async teardown() {
      await Promise.all([admin, user, anon, service].map((backend) => backend.close()));
    },
  };
}

if (skipReason) {
  console.info(`[contract firebase emulators] skipping: ${skipReason}`);
  // A visible skipped entry in the report (it has no body to run).
  describe.skip('backend contract: firebase (emulators)', () => {
    it.todo('runs under firebase emulators:exec with Java 21');
  });
} else {
  describeBackendContract('firebase (web SDK + firebase-admin on the emulators)', setupFirebaseEmulators, {
    skip: {
      nodeStreams: 'the portal adapter uploads browser Blobs; Node streams belong to the CLI adapter',
      restrictedSignUp: 'Firebase Auth lets any client create an account (a project setting); roles come only from users/{uid}, which the rules guard',
    },
  });
}
