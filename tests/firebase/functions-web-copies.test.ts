// The Cloud Functions' web-sized copies (functions/src/web-copies.ts, steps of the content checks'
// triggers) on the emulators, through the harness of tests/support/functions-emulators.ts
// (the triggers given the events Cloud Storage and Firestore would send; users under firestore.rules).
import { describe, expect, it } from 'vitest';
import { firebaseToolsUnavailable } from '../support/emulators.js';
import { functionsOnEmulators } from '../support/functions-emulators.js';
import { gaussianPly, gaussianPlyHeader, gaussianPlyProperties, HTML_PAGE } from '../support/model-fixtures.js';

const skipReason = firebaseToolsUnavailable();

if (skipReason) {
  console.info(`[functions web copies] skipping: ${skipReason}`);
  describe.skip('Cloud Functions: web-sized copies of stored splats (emulators)', () => {
    it.todo('runs with firebase-tools installed (npm ci --prefix tools/firebase)');
  });
} else {
  describe('Cloud Functions: web-sized copies of stored splats (emulators)', () => {
    const h = functionsOnEmulators({ prefix: 'functions', modelType: 'splat' });
    const { store, finalized, written, createModel, modelSnapshot, userSees, recordId } = h;

    const spzPath = (uuid: string) => `models/${uuid}/model.spz`;
    const copyRecord = async (path: string) => (await h.db.collection('webCopies').doc(recordId(path)).get()).data();

    it('a good splat stored before its record gets its web-sized copy when the record is written; a second delivery makes nothing again', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      const object = await store(path, gaussianPly(50));
      // the portal's order: the files first (their events find no model yet), the record last
      await finalized(object);
      expect(await copyRecord(path)).toBeUndefined();
      await written(uuid, () => createModel(uuid, { splatPath: path, splatSize: Number(object.size) }));

      const [copy] = await h.bucket.file(spzPath(uuid)).getMetadata();
      const bytes = (await h.bucket.file(spzPath(uuid)).download())[0];
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
      const record = await h.db.collection('webCopies').doc(recordId(path)).get();
      await finalized(object);
      await written(uuid, async () => undefined);
      const [copyAgain] = await h.bucket.file(spzPath(uuid)).getMetadata();
      expect(copyAgain.generation).toBe(copy.generation);
      const again = await modelSnapshot(uuid);
      expect(again.updateTime?.isEqual(model.updateTime!)).toBe(true);
      const recordAgain = await h.db.collection('webCopies').doc(recordId(path)).get();
      expect(recordAgain.updateTime?.isEqual(record.updateTime!)).toBe(true);
    });

    it('a newer splat replaces the copy made from the older one', async () => {
      const uuid = crypto.randomUUID();
      const path = `models/${uuid}/model.ply`;
      await createModel(uuid, { splatPath: path });
      await finalized(await store(path, gaussianPly(20)));
      const [first] = await h.bucket.file(spzPath(uuid)).getMetadata();
      const newer = await store(path, gaussianPly(400));
      await finalized(newer);
      const [second] = await h.bucket.file(spzPath(uuid)).getMetadata();
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
      const record = await h.db.collection('webCopies').doc(recordId(path)).get();
      expect(record.data()).toMatchObject({
        sourceGeneration: String(object.generation),
        copy: null,
        problem: expect.stringContaining("is a 'ascii' PLY"),
      });
      await finalized(object);
      const again = await h.db.collection('webCopies').doc(recordId(path)).get();
      expect(again.updateTime?.isEqual(record.updateTime!)).toBe(true);
      expect((await h.bucket.file(spzPath(uuid)).exists())[0]).toBe(false);
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
      expect((await h.bucket.file(spzPath(uuid)).exists())[0]).toBe(false);
      expect(await copyRecord(path)).toBeUndefined();
      expect((await modelSnapshot(uuid)).get('files.webSplatPath')).toBeUndefined();
    });
  });
}
