/**
 * Build-time Firebase configuration of the portal: the web app config from `VITE_FIREBASE_*`
 * and, with `VITE_USE_EMULATORS=1`, the emulator hosts of firebase.json.
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

/** The emulator hosts of firebase.json when `VITE_USE_EMULATORS=1`, else null. */
export function emulatorHostsFromEnv(env: Record<string, string | undefined> = import.meta.env): EmulatorHosts | null {
  if (env.VITE_USE_EMULATORS !== '1') return null;
  const e = firebaseJson.emulators;
  return { auth: `${e.auth.host}:${e.auth.port}`, firestore: `${e.firestore.host}:${e.firestore.port}`, storage: `${e.storage.host}:${e.storage.port}` };
}
