/**
 * Build-time Firebase configuration of the portal: the web app config from `VITE_FIREBASE_*`
 * and, with `VITE_USE_EMULATORS=1`, the emulator hosts of firebase.json (or `VITE_*_EMULATOR_HOST`).
 */
import type { FirebaseOptions } from 'firebase/app';
import firebaseJson from '../../../../../firebase.json';
import type { EmulatorHosts } from './index.js';

/** The web app config from the VITE_FIREBASE_* variables (empty strings when unset). */
export function firebaseConfigFromEnv(env: Record<string, string | undefined> = import.meta.env): FirebaseOptions {
  const emulated = env.VITE_USE_EMULATORS === '1';
  const projectId = env.VITE_FIREBASE_PROJECT_ID || (emulated ? 'demo-catalog' : '');
  return {
    apiKey: env.VITE_FIREBASE_API_KEY || (emulated ? 'demo-api-key' : ''),
    authDomain: env.VITE_FIREBASE_AUTH_DOMAIN || undefined,
    projectId,
    storageBucket: env.VITE_FIREBASE_STORAGE_BUCKET || (emulated ? `${projectId}.appspot.com` : undefined),
    appId: env.VITE_FIREBASE_APP_ID || undefined,
    messagingSenderId: env.VITE_FIREBASE_MESSAGING_SENDER_ID || undefined,
  };
}

/**
 * The emulator hosts (`host:port` each) when `VITE_USE_EMULATORS=1`, else null: those of
 * firebase.json, each replaceable at build time by `VITE_FIREBASE_AUTH_EMULATOR_HOST`,
 * `VITE_FIRESTORE_EMULATOR_HOST` or `VITE_FIREBASE_STORAGE_EMULATOR_HOST` (emulators on other
 * ports, e.g. started by a test on free ports).
 * @param env the build-time variables (default `import.meta.env`)
 */
export function emulatorHostsFromEnv(env: Record<string, string | undefined> = import.meta.env): EmulatorHosts | null {
  if (env.VITE_USE_EMULATORS !== '1') return null;
  const e = firebaseJson.emulators;
  return {
    auth: env.VITE_FIREBASE_AUTH_EMULATOR_HOST || `${e.auth.host}:${e.auth.port}`,
    firestore: env.VITE_FIRESTORE_EMULATOR_HOST || `${e.firestore.host}:${e.firestore.port}`,
    storage: env.VITE_FIREBASE_STORAGE_EMULATOR_HOST || `${e.storage.host}:${e.storage.port}`,
  };
}
