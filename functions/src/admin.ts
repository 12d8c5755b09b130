/**
 * The functions' firebase-admin app: the default app, created on first use (in Cloud Functions
 * `initializeApp()` reads the project, its default bucket and the service account from the
 * environment; under tests, from FIREBASE_CONFIG and the emulator variables), so that loading the
 * bundle (the deploy's discovery of the triggers) connects to nothing.
 */
import { getApps, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import type { Firestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import type { Bucket } from '@google-cloud/storage';

/** The default app (created once). */
export function adminApp(): App {
  return getApps().find((app) => app.name === '[DEFAULT]') ?? initializeApp();
}

/** The app's Firestore. */
export function adminFirestore(): Firestore {
  return getFirestore(adminApp());
}

/**
 * A bucket of the app's project.
 * @param name the bucket's name (a storage event's); default the project's default bucket
 */
export function adminBucket(name?: string): Bucket {
  return getStorage(adminApp()).bucket(name);
}
