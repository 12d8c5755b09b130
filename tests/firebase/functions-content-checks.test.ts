// The Cloud Functions' content checks (functions/src/content-checks.ts) on the emulators: Google's
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
import type { Model } from '@shared/types.js';
import { firebaseToolsUnavailable, startStorageEmulatorWithoutRules } from '../support/emulators.js';
import type { StorageEmulatorHandle } from '../support/emulators.js';
import { emulatorProjectId, externalStorageHost, setupFirebaseWebOnEmulators } from '../support/firebase-setups.js';
import { HTML_PAGE, jpegPhoto, triangleGlb } from '../support/model-fixtures.js';

const skipReason = firebaseToolsUnavailable();
const HTML_GLB_MESSAGE = 'This .glb is an HTML page, not a GLB file (model.glb).';

type Trigger = ((event: unknown) => Promise<unknown>) & { run(event: unknown): Promise<unknown> };

if (skipReason) {
  console.info(`[functions content checks] skipping: ${skipReason}`);
  describe.skip('Cloud Functions: content checks of stored files (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describe('Cloud Functions: content checks of stored files (emulators)', () => {
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
        modelType: 'mesh',
        visible: true,
        files,
      });
    }

    const modelSnapshot = (uuid: string): Promise<DocumentSnapshot> => db.collection('models').doc(uuid).get();
    const userSees = async (uuid: string): Promise<boolean> => (await setup.user.catalog.query('models')).some((m) => m.id === uuid);

    it('records the passed check of a good model’s file with the generation it read', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.glb`;
      const object = await store(path, await triangleGlb());
      await createModel(uuid, { glbPath: path, glbSize: Number(object.size) });
      await finalized(object);
      const record = await db.collection('fileChecks').doc(recordId(path)).get();
      expect(record.data()).toMatchObject({
        path,
        modelId: uuid,
        generation: String(object.generation),
        size: Number(object.size),
        kind: 'glb',
        verdict: 'ok',
        problem: null,
        checker: 'catalog content checks 1',
      });
      const model = (await modelSnapshot(uuid)).data() as Model;
      expect([model.visible, model.contentRefusal]).toEqual([true, undefined]);
      expect(await userSees(uuid)).toBe(true);
    });

    it('an HTML page named .glb refuses the model: hidden from a signed-in user’s query, its links revoked, no client can show it; a second delivery changes nothing', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.glb`;
      await createModel(uuid, { glbPath: path, glbSize: HTML_PAGE.length });
      expect(await userSees(uuid)).toBe(true);
      const object = await store(path, new TextEncoder().encode(HTML_PAGE));
      await finalized(object);

      const refused = await modelSnapshot(uuid);
      expect(refused.get('visible')).toBe(false);
      expect(refused.get('contentRefusal')).toMatchObject({
        files: [{ path, generation: String(object.generation), problem: HTML_GLB_MESSAGE }],
        visibleBefore: true,
      });
      expect(await userSees(uuid)).toBe(false);
      expect(await setup.user.catalog.get('models', uuid)).toBeNull();
      const [metadata] = await bucket.file(path).getMetadata();
      expect(metadata.metadata?.firebaseStorageDownloadTokens).not.toBe('first-token');
      // firestore.rules: an admin's client can neither show it nor clear the refusal
      await expect(setup.admin.catalog.update('models', uuid, { visible: true })).rejects.toMatchObject({ code: 'permission-denied' });
      await expect(setup.admin.catalog.update('models', uuid, { contentRefusal: null })).rejects.toMatchObject({
        code: 'permission-denied',
      });
      await setup.admin.catalog.update('models', uuid, { name: 'Tower (bad file)' });
      const named = await modelSnapshot(uuid);

      // the same event again: nothing is written (the update times stay)
      const record = await db.collection('fileChecks').doc(recordId(path)).get();
      await finalized(object);
      const again = await modelSnapshot(uuid);
      expect(again.updateTime?.isEqual(named.updateTime!)).toBe(true);
      expect(again.data()).toEqual(named.data());
      const recordAgain = await db.collection('fileChecks').doc(recordId(path)).get();
      expect(recordAgain.updateTime?.isEqual(record.updateTime!)).toBe(true);
    });

    it('a good GLB uploaded over the refused one shows the model again', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.glb`;
      await createModel(uuid, { glbPath: path });
      await finalized(await store(path, new TextEncoder().encode(HTML_PAGE)));
      expect(await userSees(uuid)).toBe(false);
      const fixed = await store(path, await triangleGlb());
      await finalized(fixed);
      const model = await modelSnapshot(uuid);
      expect([model.get('visible'), model.get('contentRefusal')]).toEqual([true, null]);
      expect(await userSees(uuid)).toBe(true);
      const record = await db.collection('fileChecks').doc(recordId(path)).get();
      expect([record.get('generation'), record.get('verdict')]).toEqual([String(fixed.generation), 'ok']);
    });

    it('a file stored before the record that names it refuses the model when the record is written', async () => {
      const uuid = crypto.randomUUID();
      const glb = `models/${uuid}/model.glb`;
      const photo = `models/${uuid}/images/IMG_0001.jpg`;
      await finalized(await store(glb, await triangleGlb()));
      const page = await store(photo, new TextEncoder().encode(HTML_PAGE));
      await finalized(page);
      await store(`models/${uuid}/images/IMG_0002.jpg`, await jpegPhoto());
      // IMG_0002's event never came: the record's write checks it
      await written(uuid, () => createModel(uuid, { glbPath: glb, images: [photo, `models/${uuid}/images/IMG_0002.jpg`] }));
      const model = await modelSnapshot(uuid);
      expect(model.get('visible')).toBe(false);
      expect(model.get('contentRefusal.files')).toEqual([
        { path: photo, generation: String(page.generation), problem: expect.stringMatching(/^This \.jpg is an HTML page/) },
      ]);
      expect(
        (
          await db
            .collection('fileChecks')
            .doc(recordId(`models/${uuid}/images/IMG_0002.jpg`))
            .get()
        ).get('verdict'),
      ).toBe('ok');
      expect(await userSees(uuid)).toBe(false);
    });

    it('no client reads or writes the checks’ records but an admin’s read', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.glb`;
      await finalized(await store(path, await triangleGlb()));
      const { getFirestore: webFirestore, doc, getDoc, setDoc } = await import('firebase/firestore');
      const { getApps: webApps } = await import('firebase/app');
      const clientOf = (prefix: string) => webFirestore(webApps().find((a) => a.name.startsWith(`functions-${prefix}-`))!);
      const ref = (prefix: string) => doc(clientOf(prefix), 'fileChecks', recordId(path));
      expect((await getDoc(ref('admin'))).get('verdict')).toBe('ok');
      await expect(getDoc(ref('user'))).rejects.toMatchObject({ code: 'permission-denied' });
      await expect(setDoc(ref('admin'), { verdict: 'ok' })).rejects.toMatchObject({ code: 'permission-denied' });
    });
  });
}
