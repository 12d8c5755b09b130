// The backend contract against the CLI's firebase-admin adapter: Firestore on
// `@firestore-emulator/server` (a Node Firestore emulator) and Cloud Storage on the Storage
// emulator of firebase-tools (a Node server, started here without its Java rules runtime), both
// on free ports. The Admin SDK acts as the service principal and bypasses security rules, and
// the stand-ins lack a few behaviours; those parts are skipped with the reason printed and run
// against the real emulators in .github/workflows/firebase.yml (tests/firebase/emulator-contract,
// tests/rules); identity runs against the Auth emulator in tests/firebase/auth-emulator.test.ts.
// Assertions: this file only binds a backend to the shared contract; every test and its
// expect() calls live in tests/contract/suite.ts (describeBackendContract).
import { FirestoreServer } from '@firestore-emulator/server';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import { firebaseToolsUnavailable, freePort, startStorageEmulatorWithoutRules } from '../firebase/emulators.js';
import { describeBackendContract } from './suite.js';

describeBackendContract(
  'firebase-admin (Firestore on @firestore-emulator/server)',
  async () => {
    const port = await freePort();
    const server = new FirestoreServer();
    await server.start(port);
    const storage = await startStorageEmulatorWithoutRules();
    const previous = { firestore: process.env.FIRESTORE_EMULATOR_HOST, storage: process.env.FIREBASE_STORAGE_EMULATOR_HOST };
    process.env.FIRESTORE_EMULATOR_HOST = `127.0.0.1:${port}`;
    process.env.FIREBASE_STORAGE_EMULATOR_HOST = storage.host;
    const backend = createFirebaseAdminBackend({ projectId: 'demo-catalog' });
    return {
      admin: backend,
      user: backend,
      anon: backend,
      service: backend,
      async teardown() {
        await backend.close();
        await server.stop();
        await storage.stop();
        for (const [name, value] of [['FIRESTORE_EMULATOR_HOST', previous.firestore], ['FIREBASE_STORAGE_EMULATOR_HOST', previous.storage]] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      },
    };
  },
  {
    skipAll: firebaseToolsUnavailable(),
    skip: {
      roles: 'the Admin SDK acts as the service principal and bypasses security rules; the rules are tested in tests/rules (Firestore emulator, Java 21, GitHub Actions)',
      selfRegistration: 'needs security rules and a signed-in end user; tested in tests/rules',
      identity: 'password sign-in is not an Admin SDK call; identity runs against the Auth emulator in tests/firebase/auth-emulator.test.ts',
      downloadLinks:
        "the Storage emulator runs here without its rules runtime (a Java program it cannot download or run), and it refuses every Firebase-API request (download links) without a ruleset; runs in the CI workflow",
      replaceOnSet: '@firestore-emulator/server 0.3.15 merges on set() without merge instead of replacing; runs against the Firestore emulator in tests/firebase/emulator-contract.test.ts (CI workflow)',
      nestedFieldQueries: '@firestore-emulator/server 0.3.15 answers "Not implemented" to filters and orderings on dotted field paths; runs against the Firestore emulator in the CI workflow',
      batchRollback: '@firestore-emulator/server 0.3.15 keeps the earlier writes of a batch whose later write fails; runs against the Firestore emulator in the CI workflow',
    },
  },
);
