// Issue 18's findings workflows (tests/support/findings-contract.ts) through the portal's web-SDK
// adapter held to firestore.rules on Google's Firestore emulator (started here from the machine
// image's jar, the rules loaded as deployed) and the Auth emulator of firebase-tools, with the
// CLI's firebase-admin adapter as the service principal: the user rule (a user's finding with
// its count batch passes; delete, someone else's finding, alignments and hidden models are
// refused or withheld) runs here against the real rules. deleteModel needs file storage, whose
// emulator cannot run here (its rules runtime is downloaded from Google at start): that case skips
// unless FIREBASE_STORAGE_EMULATOR_HOST is set (.github/workflows/firebase.yml).
import { describe, it } from 'vitest';
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import { createFirebaseBackend } from '../../portal/src/lib/backend/firebase/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { contractClients, createContractAccounts } from '../support/contract-clients.js';
import { firebaseToolsUnavailable, loadFirestoreRules, startAuthEmulator, startFirestoreEmulator } from '../support/emulators.js';
import { describeFindingsWorkflows } from '../support/findings-contract.js';

const skipReason = firebaseToolsUnavailable();
const projectId = process.env.GCLOUD_PROJECT || 'demo-catalog';
const storageHost = process.env.FIREBASE_STORAGE_EMULATOR_HOST ?? null;

/** The web-SDK clients under firestore.rules and the firebase-admin service principal, on the emulators. */
async function setupFirebaseEmulators(): Promise<ContractSetup> {
  const firestore = await startFirestoreEmulator();
  const auth = process.env.FIREBASE_AUTH_EMULATOR_HOST ? null : await startAuthEmulator({ projectId });
  const previous = { firestore: process.env.FIRESTORE_EMULATOR_HOST, auth: process.env.FIREBASE_AUTH_EMULATOR_HOST };
  process.env.FIRESTORE_EMULATOR_HOST = firestore.host;
  if (auth) process.env.FIREBASE_AUTH_EMULATOR_HOST = auth.host;
  await loadFirestoreRules(firestore.host, projectId);
  const service = createFirebaseAdminBackend({ projectId, storageBucket: `${projectId}.appspot.com` });
  const web = (name: string): Backend =>
    createFirebaseBackend({
      config: { apiKey: 'demo-api-key', projectId, storageBucket: `${projectId}.appspot.com` },
      emulators: {
        auth: process.env.FIREBASE_AUTH_EMULATOR_HOST!,
        firestore: process.env.FIRESTORE_EMULATOR_HOST!,
        ...(storageHost ? { storage: storageHost } : {}),
      },
      persistSession: false,
      appName: `findings-${name}-${Date.now()}`,
    });
  await createContractAccounts(service);
  return contractClients(web, service, {
    async stop() {
      await firestore.stop();
      await auth?.stop();
      for (const [name, value] of [
        ['FIRESTORE_EMULATOR_HOST', previous.firestore],
        ['FIREBASE_AUTH_EMULATOR_HOST', previous.auth],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  });
}

if (skipReason) {
  console.info(`[findings firebase emulators] skipping: ${skipReason}`);
  describe.skip('findings workflows: firebase (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describeFindingsWorkflows({
    name: 'firebase (web SDK under firestore.rules + firebase-admin, on the emulators)',
    setup: setupFirebaseEmulators,
    skipAll: null,
    noRules: null,
    noFiles: storageHost
      ? null
      : 'no Storage emulator here (its rules runtime is downloaded from Google at start); deleteModel lists and deletes files: runs in .github/workflows/firebase.yml',
  });
}
