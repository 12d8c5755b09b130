/**
 * The firebase-admin adapter: the backend ports for the CLI against a real
 * Firebase project (credentials from `GOOGLE_APPLICATION_CREDENTIALS`) or against the emulators
 * (`FIREBASE_AUTH_EMULATOR_HOST`, `FIRESTORE_EMULATOR_HOST`, `FIREBASE_STORAGE_EMULATOR_HOST`,
 * read by the Admin SDK itself). It acts as the service principal: admin rights, no rules.
 */
import { readFileSync } from 'node:fs';
import { deleteApp, initializeApp, applicationDefault } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend, BackendCapabilities } from '@shared/ports/index.js';
import { assembleBackend, NO_SERVER_JOBS } from '@shared/adapters/common.js';
import { AdminCatalog } from './catalog.js';
import { AdminFiles } from './files.js';
import { AdminIdentity } from './identity.js';

export { AdminCatalog } from './catalog.js';
export { AdminFiles, storageOrigin } from './files.js';
export { AdminIdentity } from './identity.js';
export { buildAdminQuery, fromFirestore, toFirestore } from './convert.js';
export { authError, firestoreError, storageError } from './errors.js';

/** The demo project id used with the emulators when none is configured. */
export const DEMO_PROJECT_ID = 'demo-catalog';

/** Options of {@link createFirebaseAdminBackend}. */
export interface FirebaseAdminOptions {
  /** Firebase project id; default from the environment (see {@link resolveFirebaseProject}). */
  projectId?: string;
  /** Storage bucket name; default env `FIREBASE_STORAGE_BUCKET`, else `<projectId>.appspot.com`. */
  storageBucket?: string;
  /** Name of the Admin SDK app (several backends in one process need distinct names). */
  appName?: string;
  /** How often live project summaries poll the model count, ms (default `SUMMARY_POLL_MS`, 30 s). */
  summaryPollMs?: number;
  /** How long one read of the live project summaries may take before it is tried again, ms (default `SUMMARY_READ_TIMEOUT_MS`, 60 s). */
  summaryReadTimeoutMs?: number;
}

/**
 * The Firebase project id: env `FIREBASE_PROJECT_ID`, `GCLOUD_PROJECT` or `GOOGLE_CLOUD_PROJECT`,
 * else the `project_id` of the credentials file, else (emulators only) 'demo-catalog'.
 * @param env the environment (default `process.env`)
 * @returns the project id, or null when none can be found
 */
export function resolveFirebaseProject(env: NodeJS.ProcessEnv = process.env): string | null {
  const fromEnv = env.FIREBASE_PROJECT_ID || env.GCLOUD_PROJECT || env.GOOGLE_CLOUD_PROJECT;
  if (fromEnv) return fromEnv;
  if (env.GOOGLE_APPLICATION_CREDENTIALS) {
    try {
      const parsed = JSON.parse(readFileSync(env.GOOGLE_APPLICATION_CREDENTIALS, 'utf8')) as { project_id?: unknown };
      if (typeof parsed.project_id === 'string' && parsed.project_id) return parsed.project_id;
    } catch {
      return null;
    }
  }
  return env.FIRESTORE_EMULATOR_HOST || env.FIREBASE_AUTH_EMULATOR_HOST ? DEMO_PROJECT_ID : null;
}

let appCounter = 0;

/**
 * Creates the firebase-admin backend.
 * @param options project, bucket and app name
 * @returns a {@link Backend} (`kind: 'firebase'`) acting as the service principal; call `close()`
 * @throws AppError `unauthenticated` when no project id can be resolved
 */
export function createFirebaseAdminBackend(options: FirebaseAdminOptions = {}): Backend {
  const projectId = options.projectId ?? resolveFirebaseProject();
  if (!projectId) {
    throw new AppError(
      ErrorCode.Unauthenticated,
      'No Firebase project id: set FIREBASE_PROJECT_ID, or GOOGLE_APPLICATION_CREDENTIALS to a service-account key file.',
    );
  }
  const storageBucket = options.storageBucket ?? process.env.FIREBASE_STORAGE_BUCKET ?? `${projectId}.appspot.com`;
  const emulated = !process.env.GOOGLE_APPLICATION_CREDENTIALS;
  // Against the emulators there are no credentials to discover: keep google-auth-library from
  // probing the cloud metadata server (a network call off this machine).
  if (emulated) process.env.METADATA_SERVER_DETECTION ??= 'none';
  appCounter += 1;
  const app: App = initializeApp(
    emulated ? { projectId, storageBucket } : { projectId, storageBucket, credential: applicationDefault() },
    options.appName ?? `catalog-cli-${process.pid}-${appCounter}`,
  );
  const db = getFirestore(app);
  const catalog = new AdminCatalog(db, { pollMs: options.summaryPollMs, readTimeoutMs: options.summaryReadTimeoutMs });
  const identity = new AdminIdentity(getAuth(app));
  const files = new AdminFiles(getStorage(app).bucket());
  // Large uploads use resumable sessions, but a session is not yet resumed by a later process.
  // On the emulators, files need the Storage emulator (FIREBASE_STORAGE_EMULATOR_HOST): without
  // it the Admin SDK would send them to Google's real Cloud Storage.
  const fileStorage = !emulated || Boolean(process.env.FIREBASE_STORAGE_EMULATOR_HOST || process.env.STORAGE_EMULATOR_HOST);
  const capabilities: BackendCapabilities = { lookupUsers: true, atomicBatches: true, resumableUploads: false, fileStorage };
  // No server of this product computes anything by itself on Firebase (change maps: `catalog models changes`).
  return assembleBackend('firebase', { identity, catalog, files, jobs: NO_SERVER_JOBS }, capabilities, async () => {
    catalog.close();
    await db.terminate().catch(() => undefined);
    await deleteApp(app).catch(() => undefined);
  });
}
