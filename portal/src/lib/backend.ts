/**
 * The portal's backend, created once OUTSIDE React (reactfire style) and handed to the tree by
 * `BackendProvider`. The embedded backend serves the portal, so its API is on the same origin;
 * the session persists in localStorage.
 */
import { createLocalBackend } from '../../../shared/adapters/local/index.js';
import type { Backend } from '../../../shared/ports/index.js';

let instance: Backend | null = null;

/** The app-wide backend (created on first use). */
export function getBackend(): Backend {
  if (instance === null) instance = createLocalBackend({ baseUrl: window.location.origin, storage: window.localStorage });
  return instance;
}
