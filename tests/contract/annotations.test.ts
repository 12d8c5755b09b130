// Issue 18's findings workflows (tests/support/findings-contract.ts) through the ports of each
// backend the contract suite runs: the in-memory backend, the local adapter against a real
// embedded backend (`catalog serve`), and the CLI's firebase-admin adapter on the Firestore and
// Storage emulators (the Admin SDK is the service principal and bypasses rules: there the user
// rule's cases skip with that reason; they run on firestore.rules through the portal's web SDK in
// tests/firebase/annotations-emulator.test.ts, and row by row in tests/rules/role-table.test.ts).
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import { firebaseToolsUnavailable, startFirestoreEmulator, startStorageEmulatorWithoutRules } from '../support/emulators.js';
import { describeFindingsWorkflows } from '../support/findings-contract.js';
import { setupLocalBackend } from '../support/local-backend.js';
import { setupMemoryBackend } from '../support/memory-backend.js';
import type { ContractSetup } from './suite/index.js';

/** The firebase-admin adapter on the emulators (as tests/contract/firebase-admin.test.ts sets it up). */
async function setupFirebaseAdmin(): Promise<ContractSetup> {
  const firestore = await startFirestoreEmulator();
  const storage = await startStorageEmulatorWithoutRules();
  const previous = { firestore: process.env.FIRESTORE_EMULATOR_HOST, storage: process.env.FIREBASE_STORAGE_EMULATOR_HOST };
  process.env.FIRESTORE_EMULATOR_HOST = firestore.host;
  process.env.FIREBASE_STORAGE_EMULATOR_HOST = storage.host;
  const backend = createFirebaseAdminBackend({ projectId: 'demo-catalog' });
  return {
    admin: backend,
    user: backend,
    anon: backend,
    service: backend,
    async teardown() {
      await backend.close();
      await firestore.stop();
      await storage.stop();
      for (const [name, value] of [
        ['FIRESTORE_EMULATOR_HOST', previous.firestore],
        ['FIREBASE_STORAGE_EMULATOR_HOST', previous.storage],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
}

describeFindingsWorkflows({ name: 'memory', setup: setupMemoryBackend, skipAll: null, noRules: null, liveFollowsVisibility: true });
describeFindingsWorkflows({ name: 'local', setup: setupLocalBackend, skipAll: null, noRules: null, liveFollowsVisibility: true });
describeFindingsWorkflows({
  name: 'firebase-admin (Firestore and Storage emulators)',
  setup: setupFirebaseAdmin,
  skipAll: firebaseToolsUnavailable(),
  noRules:
    'the Admin SDK acts as the service principal and bypasses security rules; the user rule runs on firestore.rules in tests/firebase/annotations-emulator.test.ts and tests/rules/role-table.test.ts',
});
