// The Cloud Functions' web-sized copies (functions/src/web-copies.ts, steps of the content checks'
// triggers) on the emulators, set up as tests/firebase/functions-content-checks.test.ts is: Google's
// Firestore emulator with firestore.rules loaded, the Auth emulator and the Storage emulator (the
// last without its rules runtime, which cannot be downloaded here: the files are written with the
// Admin SDK, as a client the rules let upload anything would). Each trigger is the exported
// function itself, given the event Cloud Storage or Firestore would send, built from what the
// emulators hold: an object's metadata as stored (its generation included), a document's snapshots
// before and after a write. Users read through the portal's web-SDK adapter under firestore.rules.
//
// firebase-functions-test would wrap the triggers the same way (its wrapV2 builds the event and
// calls `run`); it is not installed: it declares jest as a required peer, which npm installs (about 250 more packages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteApp, getApps, initializeApp } from 'firebase-admin/app';
import type { App } from 'firebase-admin/app';
import { getFirestore } from 'firebase-admin/firestore';
import type { DocumentSnapshot, Firestore } from 'firebase-admin/firestore';
import { getStorage } from 'firebase-admin/storage';
import type { Bucket } from '@google-cloud/storage';
import type { ContractSetup } from '../contract/suite/index.js';
import { firebaseToolsUnavailable, startStorageEmulatorWithoutRules } from '../support/emulators.js';
import type { StorageEmulatorHandle } from '../support/emulators.js';
import { emulatorProjectId, externalStorageHost, setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';
import { gaussianPly, gaussianPlyHeader, gaussianPlyProperties, HTML_PAGE } from '../support/model-fixtures.js';

const skipReason = firebaseToolsUnavailable();

type Trigger = ((event: unknown) => Promise<unknown>) & { run(event: unknown): Promise<unknown> };

if (skipReason) {
  console.info(`[functions web copies] skipping: ${skipReason}`);
  describe.skip('Cloud Functions: web-sized copies of stored splats (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describe('Cloud Functions: web-sized copies of stored splats (emulators)', () => {
    const projectId = emulatorProjectId;
    const bucketName = `${projectId}.appspot.com`;
    let storage: StorageEmulatorHandle | null = null;
    let setup: ContractSetup;
    let app: App;
    let db: Firestore;
    let bucket: Bucket;
    let checkStoredModelFile: Trigger;
    let checkModelRecordFiles: Trigger;
    let recordId: (path: string) => string;
    const previousEnv: Record<string, string | undefined> = {};

    beforeAll(async () => {
      for (const name of ['FIREBASE_STORAGE_EMULATOR_HOST', 'FIREBASE_CONFIG']) previousEnv[name] = process.env[name];
      if (!externalStorageHost) {
        storage = await startStorageEmulatorWithoutRules({ projectId });
        process.env.FIREBASE_STORAGE_EMULATOR_HOST = storage.host;
      }
      // What Cloud Functions gives a function (and the deploy gives discovery): the project and its default bucket.
      process.env.FIREBASE_CONFIG = JSON.stringify({ projectId, storageBucket: bucketName });
      setup = await setupFirebaseWebOnEmulators('functions');
      app = initializeApp({ projectId, storageBucket: bucketName }, `functions-test-${Date.now()}`);
      db = getFirestore(app);
      bucket = getStorage(app).bucket();
      const functions = await import('../../functions/src/index.js');
      checkStoredModelFile = functions.checkStoredModelFile as unknown as Trigger;
      checkModelRecordFiles = functions.checkModelRecordFiles as unknown as Trigger;
      recordId = (await import('../../functions/src/firebase-stored-file-checks.js')).checkRecordId;
      // setupFirebaseWebOnEmulators clears the emulators' data: the models of this file are its own
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

    /** Stores bytes as a client would (nothing checks them on the way in); returns the object's metadata as stored. */
    async function store(path: string, bytes: Uint8Array): Promise<Record<string, unknown>> {
      const file = bucket.file(path);
      await file.save(Buffer.from(bytes), { resumable: false, metadata: { metadata: { firebaseStorageDownloadTokens: 'first-token' } } });
      const [metadata] = await file.getMetadata();
      return metadata as Record<string, unknown>;
    }

    /** Delivers the finalize event Cloud Storage sends for that object version. */
    function finalized(object: Record<string, unknown>): Promise<unknown> {
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
    }

    /** Runs `write`, then delivers the written event of `models/{id}` with the document before and after it. */
    async function written(id: string, write: () => Promise<unknown>): Promise<void> {
      const ref = db.collection('models').doc(id);
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
    }

    /** A model record as the portal's add-model writes it, by the signed-in admin under firestore.rules. */
    function createModel(uuid: string, files: Record<string, unknown>): Promise<void> {
      return setup.admin.catalog.set('models', uuid, {
        uuid,
        publicId: `M-${uuid.slice(0, 8)}`,
        name: 'Tower',
        projectId: 'p1',
        modelType: 'splat',
        visible: true,
        files,
      });
    }

    const modelSnapshot = (uuid: string): Promise<DocumentSnapshot> => db.collection('models').doc(uuid).get();
    const userSees = async (uuid: string): Promise<boolean> => (await setup.user.catalog.query('models')).some((m) => m.id === uuid);

    const spzPath = (uuid: string) => `models/${uuid}/model.spz`;
    const copyRecord = async (path: string) => (await db.collection('webCopies').doc(recordId(path)).get()).data();

    it('a good splat stored before its record gets its web-sized copy when the record is written; a second delivery makes nothing again', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      const object = await store(path, gaussianPly(50));
      // the portal's order: the files first (their events find no model yet), the record last
      await finalized(object);
      expect(await copyRecord(path)).toBeUndefined();
      await written(uuid, () => createModel(uuid, { splatPath: path, splatSize: Number(object.size) }));

      const [copy] = await bucket.file(spzPath(uuid)).getMetadata();
      const bytes = (await bucket.file(spzPath(uuid)).download())[0];
      expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]); // an SPZ is gzipped
      expect(copy.metadata?.firebaseStorageDownloadTokens).toEqual(expect.any(String));
      const model = await modelSnapshot(uuid);
      expect(model.get('files')).toMatchObject({
        splatPath: path,
        webSplatPath: spzPath(uuid),
        webSplatSize: Number(copy.size),
        webSplatPreviewPath: null,
        webSplatPreviewSize: null,
      });
      expect(await copyRecord(path)).toMatchObject({
        source: path,
        modelId: uuid,
        sourceGeneration: String(object.generation),
        copy: { path: spzPath(uuid), generation: String(copy.generation), size: Number(copy.size) },
        preview: null,
        problem: null,
      });
      expect(await userSees(uuid)).toBe(true);

      // the splat's event delivered again, and the record's: the copy and the model stay as they are
      const record = await db.collection('webCopies').doc(recordId(path)).get();
      await finalized(object);
      await written(uuid, async () => undefined);
      const [copyAgain] = await bucket.file(spzPath(uuid)).getMetadata();
      expect(copyAgain.generation).toBe(copy.generation);
      const again = await modelSnapshot(uuid);
      expect(again.updateTime?.isEqual(model.updateTime!)).toBe(true);
      const recordAgain = await db.collection('webCopies').doc(recordId(path)).get();
      expect(recordAgain.updateTime?.isEqual(record.updateTime!)).toBe(true);
    });

    it('a newer splat replaces the copy made from the older one', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      await createModel(uuid, { splatPath: path });
      await finalized(await store(path, gaussianPly(20)));
      const [first] = await bucket.file(spzPath(uuid)).getMetadata();
      const newer = await store(path, gaussianPly(400));
      await finalized(newer);
      const [second] = await bucket.file(spzPath(uuid)).getMetadata();
      expect(BigInt(String(second.generation))).toBeGreaterThan(BigInt(String(first.generation)));
      expect((await copyRecord(path))?.sourceGeneration).toBe(String(newer.generation));
      expect((await modelSnapshot(uuid)).get('files.webSplatSize')).toBe(Number(second.size));
    });

    it('an ASCII PLY (which passes its check, and which the copy maker does not read) is recorded as not copied, once', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      const row = gaussianPlyProperties(3)
        .map(() => '0')
        .join(' ');
      const ascii = `${gaussianPlyHeader(2).replace('binary_little_endian', 'ascii')}${row}\n${row}\n`;
      await createModel(uuid, { splatPath: path });
      const object = await store(path, new TextEncoder().encode(ascii));
      await finalized(object);
      expect((await modelSnapshot(uuid)).get('visible')).toBe(true);
      const record = await db.collection('webCopies').doc(recordId(path)).get();
      expect(record.data()).toMatchObject({
        sourceGeneration: String(object.generation),
        copy: null,
        problem: expect.stringContaining("is a 'ascii' PLY"),
      });
      await finalized(object);
      const again = await db.collection('webCopies').doc(recordId(path)).get();
      expect(again.updateTime?.isEqual(record.updateTime!)).toBe(true);
      expect((await bucket.file(spzPath(uuid)).exists())[0]).toBe(false);
      expect((await modelSnapshot(uuid)).get('files.webSplatPath')).toBeUndefined();
    });

    it('a refused model gets no copy', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      const photo = `models/${uuid}/images/IMG_0001.jpg`;
      await createModel(uuid, { splatPath: path, images: [photo] });
      await finalized(await store(photo, new TextEncoder().encode(HTML_PAGE)));
      expect((await modelSnapshot(uuid)).get('visible')).toBe(false);
      await finalized(await store(path, gaussianPly(20)));
      expect((await bucket.file(spzPath(uuid)).exists())[0]).toBe(false);
      expect(await copyRecord(path)).toBeUndefined();
      expect((await modelSnapshot(uuid)).get('files.webSplatPath')).toBeUndefined();
    });
  });
}
