// The content checks of stored files (shared/workflows/stored-file-checks.ts: what the Cloud
// Functions run on Firebase, where Cloud Storage stores any bytes) on the in-memory ports: a bucket
// that stores anything, each write a new generation, and the memory backend's catalog as the
// service principal.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryStore, createMemoryStoredFileChecks } from '@shared/adapters/memory/index.js';
import type { MemoryStoredFileChecks } from '@shared/adapters/memory/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model } from '@shared/types.js';
import {
  checkedPathsOf,
  checkModelRecordFiles,
  checkStoredFile,
  compareGenerations,
  STORED_CHECKER,
} from '@shared/workflows/stored-file-checks.js';
import { setModelVisibility } from '@shared/workflows/visibility.js';
import { HTML_PAGE, jpegPhoto, triangleGlb } from '../support/model-fixtures.js';

const NOW = '2026-11-27T10:00:00.000Z';
const options = { now: () => NOW };
const HTML_GLB_MESSAGE = 'This .glb is an HTML page, not a GLB file (model.glb).';
const html = new TextEncoder().encode(HTML_PAGE);

interface Setup {
  service: Backend;
  port: MemoryStoredFileChecks;
  uuid: string;
  glbPath: string;
  /** Writes the model record naming the GLB (and `extra` fields), as the portal's add-model does. */
  createModel(extra?: Record<string, unknown>): Promise<void>;
  model(): Promise<Model>;
}

function setup(): Setup {
  const store = createMemoryStore();
  const service = createMemoryBackend({ store, service: true });
  const port = createMemoryStoredFileChecks(service.catalog);
  const uuid = randomUUID();
  const glbPath = `models/${uuid}/model.glb`;
  return {
    service,
    port,
    uuid,
    glbPath,
    async createModel(extra = {}) {
      await service.catalog.set('models', uuid, {
        uuid,
        publicId: 'T-1',
        name: 'Tower',
        projectId: 'p1',
        modelType: 'mesh',
        visible: true,
        files: { glbPath, glbSize: 1 },
        ...extra,
      });
    },
    async model() {
      return (await service.catalog.get('models', uuid)) as Model;
    },
  };
}

describe('checkStoredFile (an object finalized in the bucket)', () => {
  it('records a passing check with the generation it read, and leaves the model alone', async () => {
    const s = setup();
    await s.createModel();
    const before = await s.model();
    const object = s.port.store(s.glbPath, await triangleGlb());
    const outcome = await checkStoredFile(s.port, object, options);
    expect(outcome).toMatchObject({ outcome: 'checked', write: null, refused: false });
    expect(s.port.records.get(s.glbPath)).toEqual({
      path: s.glbPath,
      modelId: s.uuid,
      generation: object.generation,
      size: object.size,
      kind: 'glb',
      verdict: 'ok',
      problem: null,
      checkedAt: NOW,
      checker: STORED_CHECKER,
    });
    expect(await s.model()).toEqual(before);
    expect(s.port.revoked).toEqual([]);
  });

  it('refuses and hides the model for an HTML page named .glb, with the check’s message, and revokes its links', async () => {
    const s = setup();
    await s.createModel();
    const object = s.port.store(s.glbPath, html);
    const outcome = await checkStoredFile(s.port, object, options);
    expect(outcome).toMatchObject({ outcome: 'checked', refused: true, check: { verdict: 'refused', problem: HTML_GLB_MESSAGE } });
    const model = await s.model();
    expect(model.visible).toBe(false);
    expect(model.contentRefusal).toEqual({
      files: [{ path: s.glbPath, generation: object.generation, problem: HTML_GLB_MESSAGE }],
      visibleBefore: true,
      refusedAt: NOW,
    });
    expect(s.port.revoked).toEqual([`models/${s.uuid}/`]);
  });

  it('a second delivery of the same event checks nothing again and changes nothing', async () => {
    const s = setup();
    await s.createModel();
    const object = s.port.store(s.glbPath, html);
    await checkStoredFile(s.port, object, options);
    const model = await s.model();
    const record = s.port.records.get(s.glbPath);
    const again = await checkStoredFile(s.port, object, { now: () => '2030-01-01T00:00:00.000Z' });
    expect(again).toMatchObject({ outcome: 'already-checked', write: null, refused: true });
    expect(await s.model()).toEqual(model);
    expect(s.port.records.get(s.glbPath)).toEqual(record);
    // a second delivery may follow a revocation that failed: the links are revoked again
    expect(s.port.revoked).toEqual([`models/${s.uuid}/`, `models/${s.uuid}/`]);
  });

  it('lists each further refused file of a hidden model without revoking its links again', async () => {
    const s = setup();
    const photos = [1, 2, 3].map((n) => `models/${s.uuid}/images/IMG_${n}.jpg`);
    await s.createModel({ files: { glbPath: s.glbPath, images: photos } });
    for (const photo of photos) await checkStoredFile(s.port, s.port.store(photo, html), options);
    expect((await s.model()).contentRefusal?.files.map((f) => f.path)).toEqual(photos);
    expect(s.port.revoked).toEqual([`models/${s.uuid}/`]);
  });

  it('a new generation that passes clears the refusal and shows the model again; the old event delivered late does nothing', async () => {
    const s = setup();
    await s.createModel();
    const bad = s.port.store(s.glbPath, html);
    await checkStoredFile(s.port, bad, options);
    const good = s.port.store(s.glbPath, await triangleGlb());
    expect(compareGenerations(good.generation, bad.generation)).toBeGreaterThan(0);
    expect(await checkStoredFile(s.port, good, options)).toMatchObject({ outcome: 'checked', refused: false });
    let model = await s.model();
    expect(model.visible).toBe(true);
    expect(model.contentRefusal).toBeNull();
    expect(await checkStoredFile(s.port, bad, options)).toEqual({ outcome: 'superseded' });
    model = await s.model();
    expect([model.visible, model.contentRefusal]).toEqual([true, null]);
    expect(s.port.records.get(s.glbPath)?.generation).toBe(good.generation);
  });

  it('an admin cannot show a refused model (the visibility workflow names the file); showing works again once it is fixed', async () => {
    const s = setup();
    await s.createModel();
    await checkStoredFile(s.port, s.port.store(s.glbPath, html), options);
    await expect(setModelVisibility(s.service.catalog, s.uuid, true)).rejects.toMatchObject({
      code: 'failed-precondition',
      message: `This model stays hidden: a file failed its content check. ${HTML_GLB_MESSAGE} Replace or delete the file first.`,
      context: { modelId: s.uuid, files: [s.glbPath] },
    });
    expect((await s.model()).visible).toBe(false);
    await checkStoredFile(s.port, s.port.store(s.glbPath, await triangleGlb()), options);
    await setModelVisibility(s.service.catalog, s.uuid, false);
    await setModelVisibility(s.service.catalog, s.uuid, true);
    expect((await s.model()).visible).toBe(true);
  });

  it('a model an admin had hidden stays hidden after its refused file is fixed', async () => {
    const s = setup();
    await s.createModel({ visible: false });
    await checkStoredFile(s.port, s.port.store(s.glbPath, html), options);
    expect((await s.model()).contentRefusal?.visibleBefore).toBe(false);
    await checkStoredFile(s.port, s.port.store(s.glbPath, await triangleGlb()), options);
    const model = await s.model();
    expect([model.visible, model.contentRefusal]).toEqual([false, null]);
  });

  it('a generation replaced before its check is left to the event of what replaced it', async () => {
    const s = setup();
    await s.createModel();
    const first = s.port.store(s.glbPath, html);
    s.port.store(s.glbPath, await triangleGlb());
    expect(await checkStoredFile(s.port, first, options)).toEqual({ outcome: 'superseded' });
    expect(s.port.records.size).toBe(0);
    expect((await s.model()).visible).toBe(true);
  });

  it('checks nothing for assets and paths outside a model folder', async () => {
    const s = setup();
    await s.createModel();
    expect(await checkStoredFile(s.port, s.port.store(`models/${s.uuid}/assets/report.pdf`, html), options)).toEqual({
      outcome: 'not-checked',
    });
    expect(await checkStoredFile(s.port, s.port.store('exports/model.glb', html), options)).toEqual({ outcome: 'not-checked' });
    expect(s.port.records.size).toBe(0);
  });

  it('records a file the model does not name yet without touching the model', async () => {
    const s = setup();
    await s.createModel();
    const photo = `models/${s.uuid}/images/IMG_1.jpg`;
    const outcome = await checkStoredFile(s.port, s.port.store(photo, html), options);
    expect(outcome).toMatchObject({ outcome: 'checked', write: null, refused: false, check: { verdict: 'refused', kind: 'image' } });
    expect((await s.model()).visible).toBe(true);
  });

  it('records the check of a file whose model is not written yet', async () => {
    const s = setup();
    const outcome = await checkStoredFile(s.port, s.port.store(s.glbPath, html), options);
    expect(outcome).toMatchObject({ outcome: 'checked', write: null, refused: false });
    expect(s.port.records.get(s.glbPath)?.verdict).toBe('refused');
  });
});

describe('checkModelRecordFiles (a model record written)', () => {
  it('applies the recorded check of a file uploaded before the record that names it, without reading it again', async () => {
    const s = setup();
    const object = s.port.store(s.glbPath, html);
    await checkStoredFile(s.port, object, options);
    await s.createModel();
    const after = await s.model();
    const outcome = await checkModelRecordFiles(s.port, s.uuid, null, after, options);
    expect(outcome).toMatchObject({ checked: [], notStored: [], refused: [s.glbPath] });
    const model = await s.model();
    expect(model.visible).toBe(false);
    expect(model.contentRefusal?.files).toEqual([{ path: s.glbPath, generation: object.generation, problem: HTML_GLB_MESSAGE }]);
  });

  it('checks the named files whose current generation has no record (their event was lost), and leaves unstored ones to their event', async () => {
    const s = setup();
    const photo = `models/${s.uuid}/images/IMG_1.jpg`;
    const photoObject = s.port.store(photo, await jpegPhoto());
    const glb = s.port.store(s.glbPath, await triangleGlb());
    await s.createModel({ files: { glbPath: s.glbPath, images: [photo, `models/${s.uuid}/images/IMG_2.jpg`] } });
    const outcome = await checkModelRecordFiles(s.port, s.uuid, null, await s.model(), options);
    expect(outcome.checked.map((c) => [c.path, c.generation, c.verdict]).sort()).toEqual(
      [
        [s.glbPath, glb.generation, 'ok'],
        [photo, photoObject.generation, 'ok'],
      ].sort(),
    );
    expect(outcome.notStored).toEqual([`models/${s.uuid}/images/IMG_2.jpg`]);
    expect(outcome.write).toBeNull();
    expect((await s.model()).visible).toBe(true);
  });

  it('a stale record (an older generation) is not trusted: the current one is checked', async () => {
    const s = setup();
    await checkStoredFile(s.port, s.port.store(s.glbPath, html), options);
    const fixed = s.port.store(s.glbPath, await triangleGlb());
    await s.createModel();
    const outcome = await checkModelRecordFiles(s.port, s.uuid, null, await s.model(), options);
    expect(outcome.checked.map((c) => [c.generation, c.verdict])).toEqual([[fixed.generation, 'ok']]);
    expect((await s.model()).visible).toBe(true);
  });

  it('a write that no longer names the refused file clears the refusal and shows the model again', async () => {
    const s = setup();
    const photo = `models/${s.uuid}/images/page.jpg`;
    await s.createModel({ files: { glbPath: s.glbPath, images: [photo] } });
    s.port.store(s.glbPath, await triangleGlb());
    await checkStoredFile(s.port, s.port.store(photo, html), options);
    const refused = await s.model();
    expect(refused.contentRefusal?.files.map((f) => f.path)).toEqual([photo]);
    expect(refused.contentRefusal?.files[0]?.problem).toMatch(/^This \.jpg is an HTML page/);
    // the admin deletes the photo: the record stops naming it
    await s.service.catalog.update('models', s.uuid, { 'files.images': [] });
    s.port.remove(photo);
    const outcome = await checkModelRecordFiles(s.port, s.uuid, refused, await s.model(), options);
    expect(outcome.write?.update).toMatchObject({ contentRefusal: null, visible: true });
    const model = await s.model();
    expect([model.visible, model.contentRefusal]).toEqual([true, null]);
  });

  it('a write that names no new file reads nothing (the checks’ own writes included)', async () => {
    const s = setup();
    await s.createModel();
    await checkStoredFile(s.port, s.port.store(s.glbPath, html), options);
    const before = await s.model();
    await s.service.catalog.update('models', s.uuid, { name: 'Tower 2' });
    const reads: string[] = [];
    const spy = new Proxy(s.port, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          reads.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    expect(await checkModelRecordFiles(spy, s.uuid, before, await s.model(), options)).toEqual({
      checked: [],
      notStored: [],
      write: null,
      refused: [],
    });
    expect(reads).toEqual([]);
  });

  it('a deleted model needs nothing', async () => {
    const s = setup();
    expect(await checkModelRecordFiles(s.port, s.uuid, { uuid: s.uuid, publicId: 'x', name: 'x', files: {} }, null, options)).toEqual({
      checked: [],
      notStored: [],
      write: null,
      refused: [],
    });
  });
});

describe('checkedPathsOf', () => {
  it('names the checked files a record names and its web-sized copies, once each; not its assets', () => {
    const u = 'models/u1';
    expect(
      checkedPathsOf({
        files: {
          splatPath: `${u}/model.ply`,
          glbPath: `${u}/model.glb`,
          cameraMetadata: `${u}/camera-metadata.json`,
          images: [`${u}/images/a.jpg`, `${u}/images/a.jpg`],
          thumbnails: [`${u}/images_thumbnails/thumbnail.jpg`],
          assets: [`${u}/assets/report.pdf`],
          webSplatPath: `${u}/model.spz`,
          webSplatPreviewPath: `${u}/model.preview.spz`,
          webGlbPath: `${u}/model.web.glb`,
        },
      }),
    ).toEqual([
      `${u}/model.ply`,
      `${u}/model.glb`,
      `${u}/camera-metadata.json`,
      `${u}/images/a.jpg`,
      `${u}/images_thumbnails/thumbnail.jpg`,
      `${u}/model.spz`,
      `${u}/model.preview.spz`,
      `${u}/model.web.glb`,
    ]);
  });

  it('orders generations as whole numbers, beyond a double’s precision', () => {
    expect(compareGenerations('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareGenerations('10', '9')).toBe(1);
    expect(compareGenerations('5', '5')).toBe(0);
  });
});
