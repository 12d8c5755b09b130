/**
 * The Cloud Functions' test harness on the emulators (tests/firebase/functions-*.test.ts): Google's
 * Firestore emulator with firestore.rules loaded, the Auth emulator and the Storage emulator (the
 * last without its rules runtime, which cannot be downloaded here: the files are written with the
 * Admin SDK, as a client the rules let upload anything would). Each trigger is the exported
 * function itself, given the event Cloud Storage or Firestore would send, built from what the
 * emulators hold: an object's metadata as stored (its generation included), a document's snapshots
 * before and after a write. Users read through the portal's web-SDK adapter under firestore.rules.
 *
 * firebase-functions-test would wrap the triggers the same way (its wrapV2 builds the event and
 * calls `run`); it is not installed: it declares jest as a required peer, which npm installs
 * (about 250 more packages).
 */
import { afterAll, beforeAll } from 'vitest';
import { deleteApp, getApps, initializeApp } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import type { DocumentSnapshot, Firestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import type { Bucket } from '@google-cloud/storage';
import type { ContractSetup } from '../contract/suite/index.js';
import { startStorageEmulatorWithoutRules } from './emulators.js';
import type { StorageEmulatorHandle } from './emulators.js';
import { emulatorProjectId, externalStorageHost, setupFirebaseWebOnEmulators } from './firebase-setups.js';

/** A trigger as firebase-functions exports it: callable with a CloudEvent, and its handler as `run`. */
type Trigger = ((event: unknown) => Promise<unknown>) & { run(event: unknown): Promise<unknown> };

/** What a functions test file works with, ready from its `beforeAll` on. */
export interface FunctionsEmulators {
  /** The web-SDK clients (an admin and a user, signed in) and the emulators' teardown. */
  readonly setup: ContractSetup;
  /** The Admin SDK's Firestore and default bucket, as the functions see them. */
  readonly db: Firestore;
  readonly bucket: Bucket;
  /** The `fileChecks` document id of a storage path. */
  recordId(path: string): string;
  /** Stores bytes as a client would (nothing checks them on the way in); returns the object's metadata as stored. */
  store(path: string, bytes: Uint8Array): Promise<Record<string, unknown>>;
  /** Delivers the finalize event Cloud Storage sends for that object version. */
  finalized(object: Record<string, unknown>): Promise<unknown>;
  /** Runs `write`, then delivers the written event of `models/{id}` with the document before and after it. */
  written(id: string, write: () => Promise<unknown>): Promise<void>;
  /** A model record as the portal's add-model writes it, by the signed-in admin under firestore.rules. */
  createModel(uuid: string, files: Record<string, unknown>): Promise<void>;
  modelSnapshot(uuid: string): Promise<DocumentSnapshot>;
  /** Whether the signed-in user's model query returns the model. */
  userSees(uuid: string): Promise<boolean>;
}

/**
 * Starts the emulators and loads the functions for the enclosing `describe` (its `beforeAll` and
 * `afterAll`); the emulators' data is cleared at the start, so a file's models are its own.
 * @param options.prefix names the web-SDK apps of this file
 * @param options.modelType the `modelType` of the records `createModel` writes
 * @returns the harness; its members work from the `beforeAll` on
 */
export function functionsOnEmulators(options: { prefix: string; modelType: 'mesh' | 'splat' }): FunctionsEmulators {
  const projectId = emulatorProjectId;
  const bucketName = `${projectId}.appspot.com`;
  let storage: StorageEmulatorHandle | null = null;
  let setup: ContractSetup | null = null;
  let db: Firestore | null = null;
  let bucket: Bucket | null = null;
  let checkStoredModelFile: Trigger;
  let checkModelRecordFiles: Trigger;
  let checkRecordId: (path: string) => string;
  const previousEnv: Record<string, string | undefined> = {};
  const ready = <T>(value: T | null): T => {
    if (value === null) throw new Error('the functions harness is used before its beforeAll');
    return value;
  };

  beforeAll(async () => {
    for (const name of ['FIREBASE_STORAGE_EMULATOR_HOST', 'FIREBASE_CONFIG']) previousEnv[name] = process.env[name];
    if (!externalStorageHost) {
      storage = await startStorageEmulatorWithoutRules({ projectId });
      process.env.FIREBASE_STORAGE_EMULATOR_HOST = storage.host;
    }
    // What Cloud Functions gives a function (and the deploy gives discovery): the project and its default bucket.
    process.env.FIREBASE_CONFIG = JSON.stringify({ projectId, storageBucket: bucketName });
    setup = await setupFirebaseWebOnEmulators(options.prefix);
    const app = initializeApp({ projectId, storageBucket: bucketName }, `functions-test-${Date.now()}`);
    db = getFirestore(app);
    bucket = getStorage(app).bucket();
    const functions = await import('../../functions/src/index.js');
    checkStoredModelFile = functions.checkStoredModelFile as unknown as Trigger;
    checkModelRecordFiles = functions.checkModelRecordFiles as unknown as Trigger;
    checkRecordId = (await import('../../functions/src/firebase-stored-file-checks.js')).checkRecordId;
  });

  afterAll(async () => {
    await setup?.teardown();
    // the functions' own default app, then this file's
    await Promise.all(getApps().map((a) => deleteApp(a).catch(() => undefined)));
    await storage?.stop();
    for (const [name, value] of Object.entries(previousEnv)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  return {
    get setup() {
      return ready(setup);
    },
    get db() {
      return ready(db);
    },
    get bucket() {
      return ready(bucket);
    },
    recordId: (path) => checkRecordId(path),
    async store(path, bytes) {
      const file = ready(bucket).file(path);
      await file.save(Buffer.from(bytes), { resumable: false, metadata: { metadata: { firebaseStorageDownloadTokens: 'first-token' } } });
      const [metadata] = await file.getMetadata();
      return metadata as Record<string, unknown>;
    },
    finalized(object) {
      return checkStoredModelFile({
        specversion: '1.0',
        id: `finalize-${String(object.name)}-${String(object.generation)}`,
        source: `//storage.googleapis.com/projects/_/buckets/${bucketName}`,
        type: 'google.cloud.storage.object.v1.finalized',
        time: new Date().toISOString(),
        subject: `objects/${String(object.name)}`,
        bucket: bucketName,
        data: object,
      });
    },
    async written(id, write) {
      const ref = ready(db).collection('models').doc(id);
      const before = await ref.get();
      await write();
      const after = await ref.get();
      await checkModelRecordFiles.run({
        specversion: '1.0',
        id: `written-${id}-${Date.now()}`,
        source: `//firestore.googleapis.com/projects/${projectId}/databases/(default)`,
        type: 'google.cloud.firestore.document.v1.written',
        time: new Date().toISOString(),
        location: 'nam5',
        project: projectId,
        database: '(default)',
        namespace: '(default)',
        document: `models/${id}`,
        params: { modelId: id },
        data: { before, after },
      });
    },
    createModel(uuid, files) {
      return ready(setup).admin.catalog.set('models', uuid, {
        uuid,
        publicId: `M-${uuid.slice(0, 8)}`,
        name: 'Tower',
        projectId: 'p1',
        modelType: options.modelType,
        visible: true,
        files,
      });
    },
    modelSnapshot: (uuid) => ready(db).collection('models').doc(uuid).get(),
    userSees: async (uuid) => (await ready(setup).user.catalog.query('models')).some((m) => m.id === uuid),
  };
}
