/**
 * The portal's Firebase backend from the build-time environment (`VITE_FIREBASE_*`,
 * `VITE_USE_EMULATORS`), with the session kept in the browser.
 */
import type { Backend } from '@shared/ports/index.js';
import { emulatorHostsFromEnv, firebaseConfigFromEnv } from './config.js';
import { createFirebaseBackend } from './index.js';

/** Creates the app-wide Firebase backend (called once by `getBackend`). */
export function createPortalFirebaseBackend(): Backend {
  return createFirebaseBackend({ config: firebaseConfigFromEnv(), emulators: emulatorHostsFromEnv(), persistSession: true });
}
