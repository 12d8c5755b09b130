// The two Firebase setups the contract suites bind to (written once here instead of out
// in each test file): the CLI's firebase-admin adapter on the Firestore and Storage emulators
// (the Admin SDK acts as the service principal for every client and bypasses security rules),
// and the portal's web-SDK adapter held to firestore.rules on the Firestore and Auth emulators,
// with firebase-admin as the service principal. Each restores the emulator environment variables
// it set when torn down.
import { createFirebaseAdminBackend } from '../../cli/src/adapters/firebase-admin/index.js';
import type { AdminIdentity } from '../../cli/src/adapters/firebase-admin/index.js';
import { createFirebaseBackend } from '../../portal/src/lib/backend/firebase/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { contractClients, createContractAccounts } from './contract-clients.js';
import { loadFirestoreRules, startAuthEmulator, startFirestoreEmulator, startStorageEmulatorWithoutRules } from './emulators.js';

/** The project id of the emulator runs (`GCLOUD_PROJECT` when set, as `firebase emulators:exec` sets it). */
export const emulatorProjectId = process.env.GCLOUD_PROJECT || 'demo-catalog';

/** A Storage emulator started outside the tests (`firebase emulators:exec` in CI), or null when there is none. */
export const externalStorageHost = process.env.FIREBASE_STORAGE_EMULATOR_HOST ?? null;

/** Sets environment variables and returns a function that puts back what they were. */
function setEnv(values: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(values).map((name) => [name, process.env[name]]));
  Object.assign(process.env, values);
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/**
 * The firebase-admin adapter on a fresh Firestore emulator and a Storage emulator without its
 * rules runtime, as every client (admin, user, signed out, service).
 */
export async function setupFirebaseAdminOnEmulators(): Promise<ContractSetup> {
  const firestore = await startFirestoreEmulator();
  const storage = await startStorageEmulatorWithoutRules();
  const restore = setEnv({ FIRESTORE_EMULATOR_HOST: firestore.host, FIREBASE_STORAGE_EMULATOR_HOST: storage.host });
  // live project summaries poll the model count every 500 ms here (30 s by default), so the suite sees a deletion soon
  const backend = createFirebaseAdminBackend({ projectId: 'demo-catalog', summaryPollMs: 500, summaryReadTimeoutMs: 10_000 });
  return {
    admin: backend,
    user: backend,
    anon: backend,
    service: backend,
    async teardown() {
      await backend.close();
      await firestore.stop();
      await storage.stop();
      restore();
    },
  };
}

/**
 * The portal's web-SDK adapter for the admin, user and signed-out clients, held to
 * firestore.rules (loaded as deployed) on a fresh Firestore emulator and the Auth emulator (one
 * started here unless FIREBASE_AUTH_EMULATOR_HOST is set), with firebase-admin as the service
 * principal; file storage only when {@link externalStorageHost} is set.
 * @param appPrefix names the web-SDK apps (`{prefix}-{client}-{time}`)
 */
export async function setupFirebaseWebOnEmulators(appPrefix: string): Promise<ContractSetup> {
  const projectId = emulatorProjectId;
  const firestore = await startFirestoreEmulator();
  const auth = process.env.FIREBASE_AUTH_EMULATOR_HOST ? null : await startAuthEmulator({ projectId });
  const restore = setEnv({ FIRESTORE_EMULATOR_HOST: firestore.host, ...(auth ? { FIREBASE_AUTH_EMULATOR_HOST: auth.host } : {}) });
  // firestore.rules, as deployed: the web-SDK clients are held to it (the Admin SDK bypasses rules).
  await loadFirestoreRules(firestore.host, projectId);
  const service = createFirebaseAdminBackend({ projectId, storageBucket: `${projectId}.appspot.com` });
  const web = (name: string): Backend =>
    createFirebaseBackend({
      config: { apiKey: 'demo-api-key', projectId, storageBucket: `${projectId}.appspot.com` },
      emulators: {
        auth: process.env.FIREBASE_AUTH_EMULATOR_HOST!,
        firestore: process.env.FIRESTORE_EMULATOR_HOST!,
        ...(externalStorageHost ? { storage: externalStorageHost } : {}),
      },
      persistSession: false,
      appName: `${appPrefix}-${name}-${Date.now()}`,
      // live project summaries poll the model count every 500 ms here (30 s by default), so the suite sees a hidden model soon
      summaryPollMs: 500,
      // a read the emulator leaves unanswered is given up and tried again after 10 s
      summaryReadTimeoutMs: 10_000,
    });
  await createContractAccounts(service);
  return contractClients(web, service, {
    async disableAccount(email) {
      const account = await service.identity.findAccountByEmail!(email);
      if (!account) throw new Error(`no account ${email}`);
      await (service.identity as AdminIdentity).setDisabled(account.uid, true);
    },
    async stop() {
      await firestore.stop();
      await auth?.stop();
      restore();
    },
  });
}
