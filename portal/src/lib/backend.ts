/**
 * The portal's backend, created once OUTSIDE React (reactfire style) and handed to the tree by
 * `BackendProvider`. The embedded backend serves the portal, so its API is on the same origin;
 * the session persists in localStorage.
 */
import type { Backend } from '@shared/ports/index.js';

/**
 * The adapter factory, chosen at build time: `VITE_BACKEND=firebase` uses the Firebase web SDK
 * (config from `VITE_FIREBASE_*`); anything else the embedded backend. Vite replaces
 * `import.meta.env.VITE_BACKEND` by a constant, so the other branch and its dynamic import are
 * dropped: a local build carries no Firebase SDK and a Firebase build no local adapter.
 */
const createBackend: () => Backend =
  import.meta.env.VITE_BACKEND === 'firebase'
    ? (await import('./backend/firebase/portal.js')).createPortalFirebaseBackend
    : await import('@shared/adapters/local/index.js').then(
        ({ createLocalBackend }) =>
          () =>
            createLocalBackend({ baseUrl: window.location.origin, storage: window.localStorage }),
      );

let instance: Backend | null = null;

/** The app-wide backend (created on first use). */
export function getBackend(): Backend {
  if (instance === null) instance = createBackend();
  return instance;
}
