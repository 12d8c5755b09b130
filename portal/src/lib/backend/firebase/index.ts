/**
 * The portal's Firebase adapter: the backend ports over the Firebase web SDK v12
 * (Auth, Firestore, Storage). Chosen at build time by `VITE_BACKEND=firebase`
 * (`portal/src/lib/backend.ts`); `VITE_USE_EMULATORS=1` connects to the emulator ports of
 * firebase.json.
 */
import { deleteApp, initializeApp } from 'firebase/app';
import type { FirebaseOptions } from 'firebase/app';
import { browserLocalPersistence, connectAuthEmulator, getAuth, inMemoryPersistence, initializeAuth } from 'firebase/auth';
import { connectFirestoreEmulator, getFirestore, terminate } from 'firebase/firestore';
import { connectStorageEmulator, getStorage } from 'firebase/storage';
import type { Backend, BackendCapabilities, ConnectionPort, ConnectionState } from '@shared/ports/index.js';
import { assembleBackend, NO_SERVER_JOBS } from '@shared/adapters/common.js';
import { FirebaseCatalog } from './catalog.js';
import { FirebaseFiles } from './files.js';
import { FirebaseIdentity } from './identity.js';

export { FirebaseCatalog } from './catalog.js';
export { FirebaseFiles } from './files.js';
export { FirebaseIdentity } from './identity.js';
export { buildConstraints, fromFirestore, toFirestore } from './convert.js';
export { mapAuthError, mapFirestoreError, mapStorageError } from './errors.js';

/** host:port of each emulator (no Storage emulator: Cloud Storage calls go nowhere useful, e.g. in tests without one). */
export interface EmulatorHosts {
  auth: string;
  firestore: string;
  storage?: string;
}

/** Options of {@link createFirebaseBackend}. */
export interface FirebaseBackendOptions {
  /** Web app config (apiKey, authDomain, projectId, storageBucket, appId…). */
  config: FirebaseOptions;
  /** Connect to these emulators instead of the real services. */
  emulators?: Partial<EmulatorHosts> | null;
  /** Keep the session across reloads (browser local storage); default true in a browser. */
  persistSession?: boolean;
  /** App name, for several backends in one process (tests). */
  appName?: string;
  /** How often live project summaries poll the model count, ms (default `SUMMARY_POLL_MS`, 30 s; tests shorten it). */
  summaryPollMs?: number;
  /** How long one read of the live project summaries may take before it is tried again, ms (default `SUMMARY_READ_TIMEOUT_MS`, 60 s). */
  summaryReadTimeoutMs?: number;
}

function split(host: string): [string, number] {
  const at = host.lastIndexOf(':');
  return [host.slice(0, at), Number(host.slice(at + 1))];
}

/**
 * The Firebase adapter's connection capability: the web SDK keeps its own
 * channel and does not say when it is down, so this reports the browser's online/offline state
 * (`navigator.onLine` and the window's `online`/`offline` events); outside a browser always 'online'.
 */
export function browserConnection(): ConnectionPort {
  const current = (): ConnectionState => (typeof navigator !== 'undefined' && navigator.onLine === false ? 'offline' : 'online');
  return {
    get state() {
      return current();
    },
    subscribe(listener) {
      listener(current());
      if (typeof window === 'undefined') return () => undefined;
      const online = () => listener('online');
      const offline = () => listener('offline');
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
}

/**
 * Creates the Firebase backend.
 * @param options config, emulators, persistence
 * @returns a {@link Backend} (`kind: 'firebase'`, `connection` from {@link browserConnection}); `close()` deletes the app
 */
export function createFirebaseBackend(options: FirebaseBackendOptions): Backend {
  const app = initializeApp(options.config, options.appName);
  const persist = options.persistSession ?? typeof window !== 'undefined';
  const auth = persist ? getAuth(app) : initializeAuth(app, { persistence: inMemoryPersistence });
  if (persist) void auth.setPersistence(browserLocalPersistence).catch(() => undefined);
  const db = getFirestore(app);
  const storage = getStorage(app);
  const emulators = options.emulators ?? null;
  let authUrl: string | null = null;
  if (emulators?.auth) {
    authUrl = `http://${emulators.auth}`;
    connectAuthEmulator(auth, authUrl, { disableWarnings: true });
  }
  if (emulators?.firestore) connectFirestoreEmulator(db, ...split(emulators.firestore));
  if (emulators?.storage) connectStorageEmulator(storage, ...split(emulators.storage));
  let catalogRef: FirebaseCatalog | null = null;
  const identity = new FirebaseIdentity(auth, authUrl, () => catalogRef?.resetRoles());
  const catalog = new FirebaseCatalog(db, () => identity.currentUser(), {
    pollMs: options.summaryPollMs,
    readTimeoutMs: options.summaryReadTimeoutMs,
  });
  catalogRef = catalog;
  const files = new FirebaseFiles(storage);
  // Admin API look-ups are not available to a browser client.
  const capabilities: BackendCapabilities = { lookupUsers: false, atomicBatches: true, resumableUploads: false, fileStorage: true };
  // No server of this product computes anything by itself on Firebase (change maps: `catalog models changes`).
  const backend = assembleBackend('firebase', { identity, catalog, files, jobs: NO_SERVER_JOBS }, capabilities, async () => {
    await terminate(db).catch(() => undefined);
    await deleteApp(app).catch(() => undefined);
  });
  return { ...backend, connection: browserConnection() };
}
