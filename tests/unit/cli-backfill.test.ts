// The CLI's content platform (cli/src/lib/content-platform.ts) and `catalog doctor`'s backfill of
// models stored before the content checks (cli/src/lib/backfill.ts, doctor.ts), on the in-memory
// backend: it has no `makeWebSplat`, so the web-sized copy is made on this machine, as on Firebase.
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { bytesSource, readAll } from '@shared/content-check/byte-source.js';
import type { ContentPlatform } from '@shared/content-check/platform.js';
import { WEB_GLB_MIN_BYTES, webGlbPath, webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import { addModel, listModelFiles } from '@shared/workflows/index.js';
import { diagnose, problemCount, repair } from '../../cli/src/lib/doctor.js';
import { nodeContentPlatform } from '../../cli/src/lib/content-platform.js';
import { localFileSource } from '../../cli/src/lib/local-file.js';
import { formatValidationReport } from '../../cli/src/lib/report.js';
import { missingBackfill } from '../../cli/src/lib/backfill.js';
import { compressSplatFile } from '../../cli/src/lib/web-splat.js';
import { gaussianPly, HTML_PAGE, LFS_POINTER, pngPhoto, texturedGlb, triangleGlb } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';

const work = tempDir('cli-backfill');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A textured GLB over 8 MiB (one 2048² PNG texture), made once for the tests that need it. */
let textured: ReturnType<typeof texturedGlb> | undefined;
const largeTexturedGlb = () => (textured ??= texturedGlb({ triangles: 4000, textureEdge: 2048 }));

/** gzip's magic: an SPZ file is a gzip stream. */
const isGzip = (bytes: Uint8Array) => bytes[0] === 0x1f && bytes[1] === 0x8b;

describe('nodeContentPlatform', () => {
  it('opens a local upload source by its path, and nothing else', async () => {
    const path = join(work, 'a.ply');
    const ply = gaussianPly(3);
    writeFileSync(path, ply);
    const source = nodeContentPlatform.open?.(localFileSource(path, ply.length), 'scan.ply');
    expect(source).toMatchObject({ name: 'scan.ply', size: ply.length });
    expect(await readAll(source!)).toEqual(ply);
    expect(nodeContentPlatform.open?.({ size: 3, input: null }, 'x.ply')).toBeNull();
  });

  it('makes a 512 px JPEG thumbnail and decodes photos', async () => {
    const photo = bytesSource(await pngPhoto(2000, 1000), 'p.png');
    const thumbnail = await nodeContentPlatform.makeThumbnail!(photo);
    expect(thumbnail.type).toBe('image/jpeg');
    const meta = await sharp(new Uint8Array(await thumbnail.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 512, 256]);
    expect(await nodeContentPlatform.decodeImage!(photo, 'image/png')).toEqual({ width: 2000, height: 1000 });
  });

  it('compresses a training PLY to SPZ from a local file and from bytes alike', async () => {
    const ply = gaussianPly(500);
    const path = join(work, 'b.ply');
    writeFileSync(path, ply);
    const fromFile = await nodeContentPlatform.compressSplat!(nodeContentPlatform.open!(localFileSource(path, ply.length), 'b.ply')!);
    const fromBytes = await nodeContentPlatform.compressSplat!(bytesSource(ply, 'b.ply'));
    const spz = new Uint8Array(await fromFile.copy.arrayBuffer());
    expect(isGzip(spz)).toBe(true);
    expect(spz.length).toBeLessThan(ply.length / 4);
    expect(fromBytes.copy.size).toBe(fromFile.copy.size);
    // 500 Gaussians: no preview (one is made for a capture of more than 400,000)
    expect(fromFile.preview).toBeNull();
  });
});

describe('splat previews made on this machine', () => {
  it("add-model on a store without makeWebSplat uploads the platform's preview beside the copy and records it; a small capture gets none", async () => {
    const store = createMemoryStore({ documents: { projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }] } });
    const backend = createMemoryBackend({ store, service: true });
    expect(backend.files.makeWebSplat).toBeUndefined();
    // the platform as it answers for a capture above the preview threshold (lowered here: 2,000 Gaussians)
    const previewing = {
      ...nodeContentPlatform,
      compressSplat: async (ply: ByteSource) => {
        const input = join(work, 'previewed.ply');
        writeFileSync(input, await readAll(ply));
        const [copy, preview] = [join(work, 'previewed.spz'), join(work, 'previewed.preview.spz')];
        const made = await compressSplatFile(input, copy, 'model.ply', {
          preview: { output: preview, gaussians: 100 },
          previewAboveGaussians: 1000,
        });
        expect(made.preview).toMatchObject({ gaussians: 100 });
        return { copy: new Blob([readFileSync(copy)]), preview: new Blob([readFileSync(preview)]) };
      },
    };
    const add = (publicId: string, content: ContentPlatform) =>
      addModel(
        backend,
        {
          projectId: 'p1',
          publicId,
          name: publicId,
          modelType: 'splat',
          setAsReference: false,
          files: { splat: { source: new Blob([gaussianPly(2000, 0)]), name: 'scan.ply' } },
        },
        { content },
      );

    const { model } = await add('SPLAT-1', previewing);
    expect(model.files.webSplatPath).toBe(webSplatPath(model.uuid));
    expect(model.files.webSplatPreviewPath).toBe(webSplatPreviewPath(model.uuid));
    const stored = await backend.files.getMetadata(webSplatPreviewPath(model.uuid));
    expect(model.files.webSplatPreviewSize).toBe(stored.size);
    expect(model.files.webSplatPreviewSize).toBeLessThan(model.files.webSplatSize!);
    const listed = await listModelFiles(backend, model.id);
    expect(listed.map((entry) => entry.path)).toContain(webSplatPreviewPath(model.uuid));

    const plain = (await add('SPLAT-2', nodeContentPlatform)).model;
    expect(plain.files.webSplatPath).toBe(webSplatPath(plain.uuid));
    expect(plain.files.webSplatPreviewPath).toBeUndefined();
    await expect(backend.files.getMetadata(webSplatPreviewPath(plain.uuid))).rejects.toMatchObject({ code: 'storage/object-not-found' });
  });
});

// Textured meshes of 8 MB and more, compressed for real: seconds of CPU, more on a loaded machine.
describe('web-sized GLBs made on this machine', { timeout: 60_000 }, () => {
  it('the platform makes a copy at least 2× smaller of a large textured GLB, and keeps none of a small one', async () => {
    const { glb } = await largeTexturedGlb();
    const made = await nodeContentPlatform.compressGlb!(bytesSource(glb, 'scan.glb'));
    expect(made.skipped).toBeNull();
    expect(made.copy!.type).toBe('model/gltf-binary');
    expect(made.copy!.size * 2).toBeLessThanOrEqual(glb.length);
    const small = await nodeContentPlatform.compressGlb!(bytesSource(await triangleGlb(), 'small.glb'));
    expect(small).toEqual({ copy: null, skipped: expect.stringMatching(/not 2× smaller$/) });
  });

  it('add-model on a store without makeWebGlb: the platform makes the copy and it is uploaded; one not kept is recorded as null with a note', async () => {
    // a dense mesh with a small texture: over 8 MiB, mostly geometry
    const { glb } = await texturedGlb({ triangles: 320_000, textureEdge: 64 });
    expect(glb.length).toBeGreaterThanOrEqual(WEB_GLB_MIN_BYTES);
    const store = createMemoryStore({ documents: { projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }] } });
    const backend = createMemoryBackend({ store, service: true });
    const add = (publicId: string, bytes: Uint8Array<ArrayBuffer>, content = nodeContentPlatform) =>
      addModel(
        backend,
        {
          projectId: 'p1',
          publicId,
          name: publicId,
          modelType: 'mesh',
          setAsReference: false,
          files: { glb: { source: new Blob([bytes]), name: 'mesh.glb' } },
        },
        { content },
      );

    const { model } = await add('MESH-1', glb);
    expect(model.files.webGlbPath).toBe(webGlbPath(model.uuid));
    expect(model.files.webGlbSize).toBe((await backend.files.getMetadata(webGlbPath(model.uuid))).size);
    expect(model.files.webGlbSize! * 2).toBeLessThanOrEqual(glb.length);

    const refusing = {
      ...nodeContentPlatform,
      compressGlb: async () => ({ copy: null, skipped: 'the copy would be 6.8 MB of 10.7 MB, not 2× smaller' }),
    };
    const notKept = (await add('MESH-2', glb, refusing)).model;
    expect([notKept.files.webGlbPath, notKept.files.webGlbSize]).toEqual([null, null]);
    expect(notKept.validation?.notes).toContain(
      'No web-sized copy of model.glb was kept: the copy would be 6.8 MB of 10.7 MB, not 2× smaller.',
    );
    expect((await backend.files.list(`models/${notKept.uuid}/`)).items.map((item) => item.path)).toEqual([
      `models/${notKept.uuid}/model.glb`,
    ]);

    const small = (await add('MESH-3', await triangleGlb())).model;
    expect(small.files.webGlbPath).toBeUndefined();
    expect(small.validation?.notes.join(' ')).not.toContain('web-sized');
  });

  it('doctor --fix makes the copy of a GLB of 8 MiB or more, never of a small one, and never again once none was kept', async () => {
    const { glb } = await largeTexturedGlb();
    const small = await triangleGlb();
    const big = randomUUID();
    const little = randomUUID();
    const model = (uuid: string, publicId: string, bytes: Uint8Array) => ({
      id: uuid,
      uuid,
      publicId,
      name: publicId,
      projectId: 'p1',
      modelType: 'mesh',
      visible: true,
      files: { glbPath: `models/${uuid}/model.glb`, glbSize: bytes.length },
    });
    const store = createMemoryStore({
      files: { [`models/${big}/model.glb`]: { data: glb }, [`models/${little}/model.glb`]: { data: small } },
      documents: {
        projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }],
        models: [model(big, 'BIG-1', glb), model(little, 'SMALL-1', small)],
      },
    });
    const backend = createMemoryBackend({ store, service: true });
    expect(backend.files.makeWebGlb).toBeUndefined();

    const found = await diagnose(backend);
    const byPublicId = <T extends { publicId: string }>(list: T[]) => [...list].sort((a, b) => a.publicId.localeCompare(b.publicId));
    expect(byPublicId(found.modelsToBackfill)).toEqual([
      { modelId: big, publicId: 'BIG-1', missing: ['report', 'webGlb'] },
      { modelId: little, publicId: 'SMALL-1', missing: ['report'] },
    ]);
    const lines: string[] = [];
    expect(await repair(backend, found, undefined, { log: (line) => lines.push(line) })).toBe(2);
    expect(lines.sort()).toEqual(['backfilled model BIG-1: report, web-sized GLB', 'backfilled model SMALL-1: report']);
    const stored = await backend.catalog.get('models', big);
    expect(stored?.files.webGlbPath).toBe(`models/${big}/model.web.glb`);
    expect(stored?.files.webGlbSize).toBe((await backend.files.getMetadata(`models/${big}/model.web.glb`)).size);
    expect(stored!.files.webGlbSize! * 2).toBeLessThanOrEqual(glb.length);
    expect((await backend.catalog.get('models', little))?.files.webGlbPath).toBeUndefined();
    expect(problemCount(await diagnose(backend))).toBe(0);

    // a copy made and not kept is recorded as null: not tried again
    const files = { glbPath: `models/${big}/model.glb`, glbSize: glb.length };
    expect(missingBackfill({ files })).toEqual(['report', 'webGlb']);
    expect(missingBackfill({ files: { ...files, webGlbPath: null, webGlbSize: null } })).toEqual(['report']);
  });
});

describe('doctor --fix backfill (memory backend: the web-sized copy is made here)', () => {
  it('writes the report (a stored bad file keeps its refused verdict), a thumbnail and the web-sized copy', async () => {
    const uuid = randomUUID();
    const folder = `models/${uuid}`;
    const store = createMemoryStore({
      files: {
        [`${folder}/model.ply`]: { data: gaussianPly(300) },
        // stored before the checks existed: an HTML page named .glb
        [`${folder}/model.glb`]: { data: HTML_PAGE },
        [`${folder}/images/a.png`]: { data: await pngPhoto(800, 600) },
      },
      documents: {
        projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }],
        models: [
          {
            id: uuid,
            uuid,
            publicId: 'OLD-1',
            name: 'Old',
            projectId: 'p1',
            modelType: 'hybrid',
            visible: true,
            files: { splatPath: `${folder}/model.ply`, glbPath: `${folder}/model.glb`, images: [`${folder}/images/a.png`], thumbnails: [] },
          },
        ],
      },
    });
    const backend = createMemoryBackend({ store, service: true });
    expect(backend.files.makeWebSplat).toBeUndefined();

    const found = await diagnose(backend);
    expect(found.modelsToBackfill).toEqual([{ modelId: uuid, publicId: 'OLD-1', missing: ['report', 'thumbnail', 'webSplat'] }]);
    const lines: string[] = [];
    expect(await repair(backend, found, undefined, { log: (line) => lines.push(line) })).toBe(1);
    expect(lines).toEqual(['backfilled model OLD-1: report, thumbnail, web-sized copy']);

    const model = await backend.catalog.get('models', uuid);
    expect(model?.validation?.splat).toMatchObject({ verdict: 'ok', gaussians: 300, shDegree: 3 });
    expect(model?.validation?.glb).toMatchObject({ verdict: 'refused', problem: 'This .glb is an HTML page, not a GLB file (model.glb).' });
    expect(model?.validation?.photos).toMatchObject({ count: 1, dimensions: [{ width: 800, height: 600, count: 1 }] });
    expect(model?.validation?.notes.join(' ')).toContain('catalog doctor --fix');
    // the bad file is reported, not deleted
    expect((await backend.files.getMetadata(`${folder}/model.glb`)).size).toBe(HTML_PAGE.length);
    expect(model?.files.thumbnails).toEqual([`${folder}/images_thumbnails/thumbnail.jpg`]);
    expect(model?.files.webSplatPath).toBe(`${folder}/model.spz`);
    const spz = await backend.files.getMetadata(`${folder}/model.spz`);
    expect(model?.files.webSplatSize).toBe(spz.size);
    // 300 Gaussians: no preview (only a capture of more than 400,000 gets one), recorded as none
    expect([model?.files.webSplatPreviewPath, model?.files.webSplatPreviewSize]).toEqual([null, null]);

    const text = formatValidationReport(model!.validation!);
    expect(text).toMatch(
      /splat\s+ok\s+model\.ply .*: 300 Gaussians, SH degree 3, PLY binary_little_endian, bounding box \(0, 0, -299\) to \(299, 598, 0\)/,
    );
    expect(text).toMatch(/GLB\s+REFUSED\s+model\.glb/);
    expect(text).toContain('✖ This .glb is an HTML page, not a GLB file (model.glb).');
    expect(text).toMatch(/photos\s+ok\s+1 photo .*: 800×600/);

    // nothing left to backfill; a second run has nothing to do
    expect(problemCount(await diagnose(backend))).toBe(0);
  });

  it('a stored PLY the checks refuse gets its refused report, no web-sized copy, and is not reported again', async () => {
    const uuid = randomUUID();
    const store = createMemoryStore({
      files: { [`models/${uuid}/model.ply`]: { data: LFS_POINTER } },
      documents: {
        projects: [{ id: 'p1', name: 'Tower', structure_id: 'TWR-001' }],
        models: [
          {
            id: uuid,
            uuid,
            publicId: 'LFS-1',
            name: 'Pointer',
            projectId: 'p1',
            visible: true,
            files: { splatPath: `models/${uuid}/model.ply` },
          },
        ],
      },
    });
    const backend = createMemoryBackend({ store, service: true });
    const found = await diagnose(backend);
    expect(found.modelsToBackfill).toEqual([{ modelId: uuid, publicId: 'LFS-1', missing: ['report', 'webSplat'] }]);
    const lines: string[] = [];
    expect(await repair(backend, found, undefined, { log: (line) => lines.push(line) })).toBe(0);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^could not backfill model LFS-1: report written; no web-sized copy: the stored splat is refused \(This \.ply is a Git LFS pointer/,
    );
    const model = await backend.catalog.get('models', uuid);
    expect(model?.validation?.splat?.verdict).toBe('refused');
    expect(model?.files.webSplatPath ?? null).toBeNull();
    expect((await backend.files.getMetadata(`models/${uuid}/model.ply`)).size).toBe(LFS_POINTER.length);
    expect((await diagnose(backend)).modelsToBackfill).toEqual([]);
  });
});
