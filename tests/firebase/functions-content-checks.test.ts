// The Cloud Functions' content checks (functions/src/content-checks.ts) on the emulators, through the harness of tests/support/functions-emulators.ts
// (the triggers given the events Cloud Storage and Firestore would send; users under firestore.rules).
import { describe, expect, it } from 'vitest';
import type { Model } from '@shared/types.js';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { functionsOnEmulators } from '../support/functions-emulators.js';
import { HTML_PAGE, jpegPhoto, triangleGlb } from '../support/model-fixtures.js';

const skipReason = firebaseToolsUnavailable();
const HTML_GLB_MESSAGE = 'This .glb is an HTML page, not a GLB file (model.glb).';

if (skipReason) {
  console.info(`[functions content checks] skipping: ${skipReason}`);
  describe.skip('Cloud Functions: content checks of stored files (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describe('Cloud Functions: content checks of stored files (emulators)', () => {
    const h = functionsOnEmulators({ prefix: 'functions', modelType: 'mesh' });
    const { store, finalized, written, createModel, modelSnapshot, userSees, recordId } = h;

    it('records the passed check of a good model’s file with the generation it read', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.glb`;
      const object = await store(path, await triangleGlb());
      await createModel(uuid, { glbPath: path, glbSize: Number(object.size) });
      await finalized(object);
      const record = await h.db.collection('fileChecks').doc(recordId(path)).get();
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
      expect(await h.setup.user.catalog.get('models', uuid)).toBeNull();
      const [metadata] = await h.bucket.file(path).getMetadata();
      expect(metadata.metadata?.firebaseStorageDownloadTokens).not.toBe('first-token');
      // firestore.rules: an admin's client can neither show it nor clear the refusal
      await expect(h.setup.admin.catalog.update('models', uuid, { visible: true })).rejects.toMatchObject({ code: 'permission-denied' });
      await expect(h.setup.admin.catalog.update('models', uuid, { contentRefusal: null })).rejects.toMatchObject({
        code: 'permission-denied',
      });
      await h.setup.admin.catalog.update('models', uuid, { name: 'Tower (bad file)' });
      const named = await modelSnapshot(uuid);

      // the same event again: nothing is written (the update times stay)
      const record = await h.db.collection('fileChecks').doc(recordId(path)).get();
      await finalized(object);
      const again = await modelSnapshot(uuid);
      expect(again.updateTime?.isEqual(named.updateTime!)).toBe(true);
      expect(again.data()).toEqual(named.data());
      const recordAgain = await h.db.collection('fileChecks').doc(recordId(path)).get();
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
      const record = await h.db.collection('fileChecks').doc(recordId(path)).get();
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
          await h.db
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
