// The web-sized copies of stored splats (shared/workflows/stored-web-copies.ts: what the Cloud
// Functions run on Firebase after a splat's content check) on the in-memory ports: the bucket and
// checks' records of the in-memory stored-file checks, the memory backend's catalog as the service
// principal, and a copy maker that stands in for the SPZ worker (its output is the input reversed,
// with a preview for splats of two Gaussians or more).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createMemoryBackend,
  createMemoryStore,
  createMemoryStoredFileChecks,
  createMemoryStoredWebCopies,
} from '@shared/adapters/memory/index.js';
import type { MemoryStoredFileChecks, MemoryStoredWebCopies } from '@shared/adapters/memory/index.js';
import type { StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model } from '@shared/types.js';
import { checkStoredFile } from '@shared/workflows/stored-file-checks.js';
import { makeStoredWebSplat, WEB_COPY_MAKER, webSplatForRecord } from '@shared/workflows/stored-web-copies.js';
import { gaussianPly, HTML_PAGE, jpegPhoto } from '../support/model-fixtures.js';

const NOW = '2026-11-27T10:00:00.000Z';
const options = { now: () => NOW };
const PREVIEW_FROM_BYTES = gaussianPly(2).byteLength;

interface Setup {
  service: Backend;
  bucket: MemoryStoredFileChecks;
  port: MemoryStoredWebCopies;
  uuid: string;
  splatPath: string;
  /** Writes the model record naming the splat (and `extra` fields), as the portal's add-model does. */
  createModel(extra?: Record<string, unknown>): Promise<void>;
  model(): Promise<Model>;
  /** Stores bytes at the splat's path and records its content check, as the finalize event's check does. */
  storeChecked(bytes: Uint8Array): Promise<StoredObjectVersion>;
}

function setup(hooks: { beforeStore?: (source: StoredObjectVersion) => void; unreadable?: boolean } = {}): Setup {
  const store = createMemoryStore();
  const service = createMemoryBackend({ store, service: true });
  const bucket = createMemoryStoredFileChecks(service.catalog);
  const port = createMemoryStoredWebCopies(
    bucket,
    service.catalog,
    async (splat) => {
      if (hooks.unreadable) throw new AppError(ErrorCode.InvalidArgument, 'The web-sized copy could not be made: model.ply lacks f_dc_0');
      return { copy: splat.slice().reverse(), preview: splat.byteLength >= PREVIEW_FROM_BYTES ? splat.slice(0, 10) : null };
    },
    { beforeStore: hooks.beforeStore },
  );
  const uuid = randomUUID();
  const splatPath = `models/${uuid}/model.ply`;
  return {
    service,
    bucket,
    port,
    uuid,
    splatPath,
    async createModel(extra = {}) {
      await service.catalog.set('models', uuid, {
        uuid,
        publicId: 'T-1',
        name: 'Tower',
        projectId: 'p1',
        modelType: 'splat',
        visible: true,
        files: { splatPath, splatSize: 1 },
        ...extra,
      });
    },
    async model() {
      return (await service.catalog.get('models', uuid)) as Model;
    },
    async storeChecked(bytes) {
      const object = bucket.store(splatPath, bytes);
      await checkStoredFile(bucket, object, options);
      return object;
    },
  };
}

describe('makeStoredWebSplat (after a splat’s content check)', () => {
  it('makes the copy of a checked splat, stores it beside it and records it on the model', async () => {
    const s = setup();
    await s.createModel();
    const object = await s.storeChecked(gaussianPly(2));
    const outcome = await makeStoredWebSplat(s.port, object, options);
    expect(outcome.outcome).toBe('made');
    const copy = await s.bucket.stat(`models/${s.uuid}/model.spz`);
    expect(copy).not.toBeNull();
    expect(s.port.records.get(s.splatPath)).toEqual({
      source: s.splatPath,
      modelId: s.uuid,
      sourceGeneration: object.generation,
      copy,
      preview: await s.bucket.stat(`models/${s.uuid}/model.preview.spz`),
      problem: null,
      madeAt: NOW,
      maker: WEB_COPY_MAKER,
    });
    const files = (await s.model()).files!;
    expect(files).toMatchObject({
      webSplatPath: `models/${s.uuid}/model.spz`,
      webSplatSize: object.size,
      webSplatPreviewPath: `models/${s.uuid}/model.preview.spz`,
      webSplatPreviewSize: 10,
    });
  });

  it('a second delivery makes nothing again and writes nothing', async () => {
    const s = setup();
    await s.createModel();
    const object = await s.storeChecked(gaussianPly(2));
    await makeStoredWebSplat(s.port, object, options);
    const copy = await s.bucket.stat(`models/${s.uuid}/model.spz`);
    const again = await makeStoredWebSplat(s.port, object, options);
    expect(again).toMatchObject({ outcome: 'already-made', update: null });
    expect(s.port.made).toEqual([`${s.splatPath}@${object.generation}`]);
    expect(await s.bucket.stat(`models/${s.uuid}/model.spz`)).toEqual(copy);
  });

  it('a second delivery after a failed model write names the copy', async () => {
    const s = setup();
    await s.createModel();
    const object = await s.storeChecked(gaussianPly(2));
    await makeStoredWebSplat(s.port, object, options);
    await s.service.catalog.update('models', s.uuid, { 'files.webSplatPath': null, 'files.webSplatSize': null });
    const again = await makeStoredWebSplat(s.port, object, options);
    expect(again.outcome).toBe('already-made');
    expect((await s.model()).files?.webSplatPath).toBe(`models/${s.uuid}/model.spz`);
    expect(s.port.made).toHaveLength(1);
  });

  it('a newer generation of the splat replaces the copy; the older one’s late event makes nothing', async () => {
    const s = setup();
    await s.createModel();
    const first = await s.storeChecked(gaussianPly(2));
    await makeStoredWebSplat(s.port, first, options);
    const second = await s.storeChecked(gaussianPly(1));
    expect((await makeStoredWebSplat(s.port, second, options)).outcome).toBe('made');
    expect(s.port.records.get(s.splatPath)?.sourceGeneration).toBe(second.generation);
    // a small capture: no preview, the old one deleted and unnamed
    expect(await s.bucket.stat(`models/${s.uuid}/model.preview.spz`)).toBeNull();
    expect((await s.model()).files).toMatchObject({ webSplatSize: second.size, webSplatPreviewPath: null, webSplatPreviewSize: null });
    expect(await makeStoredWebSplat(s.port, first, options)).toEqual({ outcome: 'superseded' });
    expect(s.port.made).toHaveLength(2);
  });

  it('stores nothing when the splat is replaced while its copy is made', async () => {
    let bucket: MemoryStoredFileChecks | null = null;
    const s = setup({ beforeStore: (source) => void bucket!.store(source.path, gaussianPly(3)) });
    bucket = s.bucket;
    await s.createModel();
    const object = await s.storeChecked(gaussianPly(2));
    expect(await makeStoredWebSplat(s.port, object, options)).toEqual({ outcome: 'superseded' });
    expect(await s.bucket.stat(`models/${s.uuid}/model.spz`)).toBeNull();
    expect(s.port.records.size).toBe(0);
  });

  it('a refused model gets no copy', async () => {
    const s = setup();
    await s.createModel({ files: { splatPath: s.splatPath, images: [`models/${s.uuid}/images/a.jpg`] } });
    const photo = s.bucket.store(`models/${s.uuid}/images/a.jpg`, new TextEncoder().encode(HTML_PAGE));
    await checkStoredFile(s.bucket, photo, options);
    expect((await s.model()).contentRefusal).toBeTruthy();
    const object = await s.storeChecked(gaussianPly(2));
    expect(await makeStoredWebSplat(s.port, object, options)).toEqual({ outcome: 'refused' });
    expect(s.port.made).toEqual([]);
    expect((await s.model()).files?.webSplatPath).toBeUndefined();
  });

  it('a splat that failed its check, or is not checked at this generation, gets no copy', async () => {
    const s = setup();
    await s.createModel();
    const bad = await s.storeChecked(await jpegPhoto());
    expect(await makeStoredWebSplat(s.port, bad, options)).toEqual({ outcome: 'refused' });
    expect(s.port.made).toEqual([]);
    const t = setup();
    await t.createModel();
    const unchecked = t.bucket.store(t.splatPath, gaussianPly(2));
    expect(await makeStoredWebSplat(t.port, unchecked, options)).toEqual({ outcome: 'not-checked' });
    expect(t.port.made).toEqual([]);
  });

  it('a splat no model names yet, and a file that is not a model’s splat, get none', async () => {
    const s = setup();
    const object = await s.storeChecked(gaussianPly(2));
    expect(await makeStoredWebSplat(s.port, object, options)).toEqual({ outcome: 'not-named' });
    const spz = s.bucket.store(`models/${s.uuid}/model.spz`, new Uint8Array(4));
    expect(await makeStoredWebSplat(s.port, spz, options)).toEqual({ outcome: 'not-copied' });
    expect(s.port.made).toEqual([]);
  });

  it('records a splat the copy maker cannot read, with its problem, and does not try it again', async () => {
    const s = setup({ unreadable: true });
    await s.createModel();
    const object = await s.storeChecked(gaussianPly(2));
    const outcome = await makeStoredWebSplat(s.port, object, options);
    expect(outcome).toMatchObject({ outcome: 'made', update: null, record: { copy: null, problem: expect.stringContaining('f_dc_0') } });
    expect(await makeStoredWebSplat(s.port, object, options)).toMatchObject({ outcome: 'already-made', update: null });
    expect((await s.model()).files?.webSplatPath).toBeUndefined();
  });
});

describe('webSplatForRecord (a model record written)', () => {
  it('copies a splat stored before the record that names it', async () => {
    const s = setup();
    const object = await s.storeChecked(gaussianPly(2));
    await s.createModel();
    const outcome = await webSplatForRecord(s.port, null, await s.model(), options);
    expect(outcome?.outcome).toBe('made');
    expect(s.port.made).toEqual([`${s.splatPath}@${object.generation}`]);
    expect((await s.model()).files?.webSplatPath).toBe(`models/${s.uuid}/model.spz`);
  });

  it('costs nothing on a write that does not newly name the splat, and leaves a client’s own copy alone', async () => {
    const s = setup();
    await s.storeChecked(gaussianPly(2));
    await s.createModel({ files: { splatPath: s.splatPath, webSplatPath: `models/${s.uuid}/model.spz` } });
    const model = await s.model();
    expect(await webSplatForRecord(s.port, null, model, options)).toBeNull();
    expect(await webSplatForRecord(s.port, model, { ...model, name: 'Renamed' } as Model, options)).toBeNull();
    expect(s.port.made).toEqual([]);
  });

  it('copies the splat when the model’s refusal is cleared', async () => {
    const s = setup();
    await s.storeChecked(gaussianPly(2));
    await s.createModel();
    const model = await s.model();
    const refused = { ...model, contentRefusal: { files: [], visibleBefore: true, refusedAt: NOW } } as Model;
    expect(await webSplatForRecord(s.port, model, refused, options)).toBeNull();
    expect((await webSplatForRecord(s.port, refused, model, options))?.outcome).toBe('made');
  });
});
