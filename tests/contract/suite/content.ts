/**
 * Backend contract, part: what the backend itself holds every write to, whichever client sends
 * it: the content checks on every stored model file (one-shot, resumable and batch
 * uploads; nothing stored when a file is refused), the Public ID rule on raw catalog writes
 * (format, and unique within the project, batches included), the web-sized splat a backend
 * with `makeWebSplat` makes from a stored PLY, and the web-sized GLB one with `makeWebGlb` makes
 * from a large stored GLB.
 */
import { randomUUID } from 'node:crypto';
import { Document, NodeIO } from '@gltf-transform/core';
import { describe, expect, it } from 'vitest';
import { bytesSource, checkContent, contentKindOfPath } from '@shared/content-check/index.js';
import { ValidationMessages } from '@shared/messages.js';
import { fileNameOf, webGlbPath, webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import { addModel, createProject, listModelFiles } from '@shared/workflows/index.js';
import { publicIdInUse } from '@shared/validation/models.js';
import {
  cameraMetadataText,
  gaussianCountForBytes,
  gaussianPly,
  HTML_PAGE,
  jpegPhoto,
  LFS_POINTER,
  pngPhoto,
  splatFile,
  texturedGlb,
  triangleGlb,
} from '../../support/model-fixtures.js';
import type { ContractContext } from './context.js';
import { expectCode, rejection } from './context.js';

/** The message the HTML page stored as `model.glb` is refused with. */
export const HTML_GLB_MESSAGE = 'This .glb is an HTML page, not a GLB file (model.glb).';

/** An HTML page padded to at least `bytes` bytes (an HTML comment), so it goes through a resumable upload. */
export function paddedHtmlPage(bytes: number): Uint8Array<ArrayBuffer> {
  const padding = Math.max(0, bytes - HTML_PAGE.length);
  return new TextEncoder().encode(HTML_PAGE.replace('</body>', `<!--${'x'.repeat(padding)}--></body>`)) as Uint8Array<ArrayBuffer>;
}

/**
 * A valid GLB (glTF 2.0) of at least `minBytes` bytes: a triangle list with enough vertices
 * (written with @gltf-transform/core), for uploads that must go the resumable way.
 */
export async function largeGlb(minBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const triangles = Math.ceil(minBytes / 36) + 1;
  const positions = new Float32Array(triangles * 9);
  for (let t = 0; t < triangles; t += 1) positions.set([t, 0, 0, t + 1, 0, 0, t, 1, 0], t * 9);
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'catalog tests';
  const buffer = doc.createBuffer();
  const position = doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute('POSITION', position).setMaterial(doc.createMaterial('grey'));
  doc.createScene('scene').addChild(doc.createNode('node').setMesh(doc.createMesh('strip').addPrimitive(prim)));
  return new Uint8Array(await new NodeIO().writeBinary(doc));
}

/** A 3DGS PLY of about `bytes` bytes with its last 100 bytes cut off (its header declares more Gaussians than it holds). */
export function truncatedPly(bytes: number): Uint8Array<ArrayBuffer> {
  const full = gaussianPly(gaussianCountForBytes(bytes) + 1);
  return full.slice(0, full.length - 100);
}

/** What the content check of `path` says of `data` (the message a backend must answer with). */
async function problemOf(path: string, data: Uint8Array): Promise<string> {
  const kind = contentKindOfPath(path);
  if (kind === null) throw new Error(`${path} is not checked`);
  const check = await checkContent(kind, bytesSource(data, fileNameOf(path)));
  expect(check.verdict, `${path} should be refused`).toBe('refused');
  return check.problem!;
}

/** A model record of `projectId` with `publicId`. */
const modelData = (id: string, projectId: string, publicId: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  uuid: id,
  publicId,
  name: `model ${id}`,
  projectId,
  visible: true,
  files: {},
  ...extra,
});

/** Declares this part of the contract for the backend of `ctx`. */
export function contentContract(ctx: ContractContext): void {
  const { env, skip, tag } = ctx;

  describe.skipIf(Boolean(skip.files || skip.storedContentChecks))('content checks of stored files', () => {
    /** Everything stored under a model folder: each file's path and size, every level. */
    async function snapshot(folder: string): Promise<Array<[string, number]>> {
      const out: Array<[string, number]> = [];
      const walk = async (prefix: string): Promise<void> => {
        const listing = await env.admin.files.list(prefix);
        for (const item of listing.items) out.push([item.path, item.size]);
        for (const sub of listing.prefixes) await walk(sub);
      };
      await walk(`${folder}/`);
      return out.sort(([a], [b]) => (a < b ? -1 : 1));
    }

    /** Uploads `data` at `path`, expects invalid-argument with the check's message, and that nothing changed in the folder. */
    async function expectRefused(path: string, data: Uint8Array<ArrayBuffer>, message?: string): Promise<void> {
      const folder = path.split('/').slice(0, 2).join('/');
      const before = await snapshot(folder);
      const error = await rejection(env.admin.files.upload(path, new Blob([data])));
      expect(error.code, error.message).toBe('invalid-argument');
      expect(error.message).toBe(message ?? (await problemOf(path, data)));
      await expectCode(env.admin.files.getMetadata(path), 'storage/object-not-found');
      expect(await snapshot(folder)).toEqual(before);
    }

    it('refuses bad model files in a one-shot upload with the check’s message, storing nothing', async () => {
      const folder = `models/${randomUUID()}`;
      // an accepted file first, so the "before" listing is not empty
      const glb = await triangleGlb();
      await env.admin.files.upload(`${folder}/images/ok.jpg`, new Blob([await jpegPhoto()]), { contentType: 'image/jpeg' });
      await expectRefused(`${folder}/model.glb`, new TextEncoder().encode(HTML_PAGE) as Uint8Array<ArrayBuffer>, HTML_GLB_MESSAGE);
      const lfs = await rejection(env.admin.files.upload(`${folder}/model.ply`, new Blob([LFS_POINTER])));
      expect(lfs.code).toBe('invalid-argument');
      expect(lfs.message).toMatch(/^This \.ply is a Git LFS pointer/);
      await expectRefused(`${folder}/model.ply`, new TextEncoder().encode(LFS_POINTER) as Uint8Array<ArrayBuffer>);
      await expectRefused(`${folder}/model.ply`, truncatedPly(100 * 1024));
      await expectRefused(`${folder}/model.glb`, await jpegPhoto());
      await expectRefused(`${folder}/images/x.jpg`, new TextEncoder().encode(HTML_PAGE) as Uint8Array<ArrayBuffer>);
      await expectRefused(`${folder}/images_thumbnails/t.png`, await jpegPhoto());
      await expectRefused(`${folder}/camera-metadata.json`, new TextEncoder().encode('[{"id":1}]') as Uint8Array<ArrayBuffer>);
      // the same paths take real content; assets are not checked
      expect((await env.admin.files.upload(`${folder}/model.glb`, new Blob([glb]))).size).toBe(glb.length);
      expect((await env.admin.files.upload(`${folder}/assets/page.html`, new Blob([HTML_PAGE]))).size).toBe(HTML_PAGE.length);
    });

    it('refuses bad model files in a resumable upload (above 256 KB), storing nothing', async () => {
      const folder = `models/${randomUUID()}`;
      await env.admin.files.upload(`${folder}/camera-metadata.json`, new Blob([cameraMetadataText(['a.jpg'])]));
      const truncated = truncatedPly(400 * 1024);
      expect(truncated.length).toBeGreaterThan(256 * 1024);
      await expectRefused(`${folder}/model.ply`, truncated);
      const html = paddedHtmlPage(300 * 1024);
      expect(html.length).toBeGreaterThan(256 * 1024);
      await expectRefused(`${folder}/model.glb`, html, HTML_GLB_MESSAGE);
      const ply = gaussianPly(gaussianCountForBytes(300 * 1024));
      expect((await env.admin.files.upload(`${folder}/model.ply`, new Blob([ply]))).size).toBe(ply.length);
    });

    it('refuses a batch with one bad model file: nothing of the batch is stored', async (context) => {
      const { uploadBatch } = env.admin.files;
      if (!uploadBatch) {
        console.warn('[contract] skipping the batch content check: this backend has no uploadBatch (files go one by one)');
        context.skip();
        return;
      }
      const folder = `models/${randomUUID()}`;
      await env.admin.files.upload(`${folder}/images/a.jpg`, new Blob([await jpegPhoto()]));
      const cases: Array<{ path: string; data: Uint8Array<ArrayBuffer>; message?: string }> = [
        { path: `${folder}/images/x.jpg`, data: new TextEncoder().encode(HTML_PAGE) as Uint8Array<ArrayBuffer> },
        { path: `${folder}/model.glb`, data: new TextEncoder().encode(HTML_PAGE) as Uint8Array<ArrayBuffer>, message: HTML_GLB_MESSAGE },
        { path: `${folder}/model.ply`, data: new TextEncoder().encode(LFS_POINTER) as Uint8Array<ArrayBuffer> },
        { path: `${folder}/model.ply`, data: truncatedPly(100 * 1024) },
      ];
      const before = await snapshot(folder);
      for (const bad of cases) {
        const error = await rejection(
          uploadBatch.call(env.admin.files, [
            { path: `${folder}/images/b.png`, source: new Blob([await pngPhoto()]) },
            { path: bad.path, source: new Blob([bad.data]) },
            { path: `${folder}/assets/notes.txt`, source: new Blob(['notes']) },
          ]),
        );
        expect(error.code, error.message).toBe('invalid-argument');
        expect(error.message).toBe(bad.message ?? (await problemOf(bad.path, bad.data)));
        expect(await snapshot(folder)).toEqual(before);
      }
      const stored = await uploadBatch.call(env.admin.files, [
        { path: `${folder}/images/b.png`, source: new Blob([await pngPhoto()]) },
        { path: `${folder}/camera-metadata.json`, source: new Blob([cameraMetadataText(['a.jpg', 'b.png'])]) },
      ]);
      expect(stored.map((f) => f.path)).toEqual([`${folder}/images/b.png`, `${folder}/camera-metadata.json`]);
    });
  });

  // The reason for skipping the part above, checked where it is skipped but files can be stored.
  // declared only where the part above is skipped (not a skip on the backends that check content)
  if (skip.storedContentChecks && !skip.files)
    describe('a file store that does not check content', () => {
      it('stores a model file whatever its bytes: the clients check before they upload', async () => {
        const path = `models/${randomUUID()}/model.glb`;
        expect((await env.admin.files.upload(path, new Blob([HTML_PAGE]))).size).toBe(HTML_PAGE.length);
        await env.admin.files.delete(path);
      });
    });

  describe.skipIf(Boolean(skip.files))('web-sized splats made by the backend', () => {
    it('makeWebSplat stores a smaller SPZ beside the PLY (no preview of a small capture); a non-admin is refused', async (context) => {
      const { makeWebSplat } = env.admin.files;
      if (!makeWebSplat) {
        console.warn(
          `[contract] skipping makeWebSplat: this backend has no server of its own to make web-sized copies (the workflow uses the platform's compressSplat instead, or notes that none was made)`,
        );
        context.skip();
        return;
      }
      const uuid = randomUUID();
      const ply = gaussianPly(2000);
      await env.admin.files.upload(`models/${uuid}/model.ply`, new Blob([ply]));
      const { file: stored, preview } = await makeWebSplat.call(env.admin.files, `models/${uuid}/model.ply`);
      expect(stored.path).toBe(webSplatPath(uuid));
      expect(stored.size).toBeGreaterThan(0);
      expect(stored.size).toBeLessThan(ply.length);
      expect((await env.admin.files.getMetadata(webSplatPath(uuid))).size).toBe(stored.size);
      // 2,000 Gaussians is no large capture (a preview is made above 400,000): none, and no file
      expect(preview).toBeNull();
      await expectCode(env.admin.files.getMetadata(webSplatPreviewPath(uuid)), 'storage/object-not-found');
      if (!skip.roles && env.user.files.makeWebSplat) {
        await expectCode(env.user.files.makeWebSplat(`models/${uuid}/model.ply`), 'storage/unauthorized');
      }
      await expectCode(makeWebSplat.call(env.admin.files, `models/${randomUUID()}/model.ply`), 'storage/object-not-found');
      await expectCode(makeWebSplat.call(env.admin.files, `models/${uuid}/model.glb`), 'invalid-argument');
    });

    it('every splat the checks accept gets its copy: PLY of SH degree 0 to 2 and .splat too', async (context) => {
      const { makeWebSplat } = env.admin.files;
      if (!makeWebSplat) {
        console.warn(`[contract] skipping the web-sized copy of every splat kind: this backend has no server of its own to make them`);
        context.skip();
        return;
      }
      const inputs: [string, Uint8Array<ArrayBuffer>][] = [
        ['model.ply', gaussianPly(500, 0)],
        ['model.ply', gaussianPly(500, 1)],
        ['model.ply', gaussianPly(500, 2)],
        ['model.splat', splatFile(500)],
      ];
      for (const [name, bytes] of inputs) {
        const uuid = randomUUID();
        await env.admin.files.upload(`models/${uuid}/${name}`, new Blob([bytes]));
        const { file: stored } = await makeWebSplat.call(env.admin.files, `models/${uuid}/${name}`);
        expect(stored.path).toBe(webSplatPath(uuid));
        expect(stored.size).toBeGreaterThan(0);
        expect(stored.size).toBeLessThan(bytes.length);
      }
    });
  });

  describe.skipIf(Boolean(skip.files))('web-sized GLBs made by the backend', () => {
    it('adding a model with a large textured GLB stores a copy at least 2× smaller, listed with its files; a small one gets none', async (context) => {
      const { makeWebGlb } = env.admin.files;
      if (!makeWebGlb) {
        console.warn(
          `[contract] skipping makeWebGlb: this backend has no server of its own to make web-sized copies (the workflow uses the platform's compressGlb instead, or notes that none was made)`,
        );
        context.skip();
        return;
      }
      const { glb, triangles } = await texturedGlb({ triangles: 4000, textureEdge: 2048 });
      const projectId = await createProject(env.admin.catalog, { name: `Web GLB ${tag}`, structure_id: `${tag}-WEBGLB` });
      const { model } = await addModel(env.admin, {
        projectId,
        publicId: 'WEBGLB-1',
        name: 'Textured mesh',
        modelType: 'mesh',
        setAsReference: false,
        files: { glb: { source: new Blob([glb]), name: 'tower.glb' } },
      });
      const path = webGlbPath(model.uuid);
      expect(model.files?.webGlbPath).toBe(path);
      const stored = await env.admin.files.getMetadata(path);
      expect(model.files?.webGlbSize).toBe(stored.size);
      expect(stored.size * 2).toBeLessThanOrEqual(glb.length);
      expect(stored.contentType).toBe('model/gltf-binary');
      // the server checked the copy as a GLB, as every stored model file
      const copy = new Uint8Array(await (await fetch(await env.admin.files.getDownloadUrl(path))).arrayBuffer());
      const check = await checkContent('glb', bytesSource(copy, 'model.web.glb'));
      expect(check).toMatchObject({ verdict: expect.stringMatching(/^(ok|warnings)$/), triangles });
      expect((await listModelFiles(env.admin, model.id)).map((entry) => [fileNameOf(entry.path), entry.type])).toEqual([
        ['model.glb', 'glb'],
        ['model.web.glb', 'glb'],
      ]);

      // a GLB that does not gain 2× gets none; a non-admin, another path and a missing GLB are refused
      const uuid = randomUUID();
      await env.admin.files.upload(`models/${uuid}/model.glb`, new Blob([await triangleGlb()]));
      expect(await makeWebGlb.call(env.admin.files, `models/${uuid}/model.glb`)).toEqual({
        file: null,
        skipped: expect.stringMatching(/not 2× smaller$/),
      });
      await expectCode(env.admin.files.getMetadata(webGlbPath(uuid)), 'storage/object-not-found');
      if (!skip.roles && env.user.files.makeWebGlb) {
        await expectCode(env.user.files.makeWebGlb(`models/${uuid}/model.glb`), 'storage/unauthorized');
      }
      await expectCode(makeWebGlb.call(env.admin.files, `models/${randomUUID()}/model.glb`), 'storage/object-not-found');
      await expectCode(makeWebGlb.call(env.admin.files, `models/${uuid}/model.ply`), 'invalid-argument');
    });
  });

  describe.skipIf(Boolean(skip.publicIdRule))('the Public ID rule on raw catalog writes', () => {
    const project = `pid-${tag}`;
    const other = `pid-${tag}-other`;

    /**
     * Expects a write refused for its Public ID's format: invalid-argument with the product's
     * message, or, where security rules refuse it (they carry no message), permission-denied.
     */
    const expectMalformed = async (write: Promise<unknown>): Promise<void> => {
      const error = await rejection(write);
      if (skip.publicIdMessage) {
        expect(error.code).toBe('permission-denied');
        return;
      }
      expect(error.code).toBe('invalid-argument');
      expect(error.message).toBe(ValidationMessages.publicIdPattern);
    };

    it('a malformed Public ID is refused on create, set and update, writing nothing', async () => {
      for (const bad of ['BAD PUB/ID <b>x</b>', 'has space', '', 'é-1']) {
        const id = `pid-bad-${tag}-${randomUUID().slice(0, 8)}`;
        await expectMalformed(env.admin.catalog.batch([{ op: 'create', collection: 'models', id, data: modelData(id, project, bad) }]));
        await expectMalformed(env.admin.catalog.set('models', id, modelData(id, project, bad)));
        expect(await env.admin.catalog.get('models', id)).toBeNull();
      }
      const id = `pid-good-${tag}`;
      await env.admin.catalog.set('models', id, modelData(id, project, 'GOOD-1_a'));
      await expectMalformed(env.admin.catalog.update('models', id, { publicId: 'not ok' }));
      await expectMalformed(env.admin.catalog.batch([{ op: 'update', collection: 'models', id, data: { publicId: 'a/b' } }]));
      expect((await env.admin.catalog.get('models', id))?.publicId).toBe('GOOD-1_a');
      // other fields change freely
      await env.admin.catalog.update('models', id, { name: 'renamed' });
      expect((await env.admin.catalog.get('models', id))?.name).toBe('renamed');
    });

    it.skipIf(Boolean(skip.publicIdUniqueness))(
      'a Public ID is unique within its project on create, set, update and batches (hidden models count); other projects may reuse it',
      async () => {
        const a = `pid-a-${tag}`;
        const hidden = `pid-h-${tag}`;
        await env.admin.catalog.batch([
          { op: 'create', collection: 'models', id: a, data: modelData(a, project, 'DUP-1') },
          { op: 'create', collection: 'models', id: hidden, data: modelData(hidden, project, 'HID-1', { visible: false }) },
        ]);
        const b = `pid-b-${tag}`;
        for (const taken of ['DUP-1', 'HID-1']) {
          const created = await rejection(
            env.admin.catalog.batch([{ op: 'create', collection: 'models', id: b, data: modelData(b, project, taken) }]),
          );
          expect(created.code).toBe('already-exists');
          expect(created.message).toBe(publicIdInUse(taken));
          const set = await rejection(env.admin.catalog.set('models', b, modelData(b, project, taken)));
          expect(set.code).toBe('already-exists');
          expect(set.message).toBe(publicIdInUse(taken));
        }
        expect(await env.admin.catalog.get('models', b)).toBeNull();
        // another project may reuse it; moving there, or renaming to a taken one, is refused
        await env.admin.catalog.set('models', b, modelData(b, other, 'DUP-1'));
        const moved = await rejection(env.admin.catalog.update('models', b, { projectId: project }));
        expect(moved.code).toBe('already-exists');
        expect(moved.message).toBe(publicIdInUse('DUP-1'));
        await env.admin.catalog.update('models', b, { publicId: 'B-2' });
        const renamed = await rejection(env.admin.catalog.update('models', b, { publicId: 'HID-1', projectId: project }));
        expect(renamed.code).toBe('already-exists');
        expect(await env.admin.catalog.get('models', b)).toMatchObject({ publicId: 'B-2', projectId: other });
        // a model keeps its own Public ID when it is set again or updated
        await env.admin.catalog.set('models', a, modelData(a, project, 'DUP-1', { name: 'again' }));
        await env.admin.catalog.update('models', a, { publicId: 'DUP-1', name: 'again 2' });
        // two creates with one Public ID in one batch: neither is written
        const [c, d] = [`pid-c-${tag}`, `pid-d-${tag}`];
        const twice = await rejection(
          env.admin.catalog.batch([
            { op: 'create', collection: 'models', id: c, data: modelData(c, project, 'NEW-1') },
            { op: 'create', collection: 'models', id: d, data: modelData(d, project, 'NEW-1') },
          ]),
        );
        expect(twice.code).toBe('already-exists');
        expect(twice.message).toBe(publicIdInUse('NEW-1'));
        expect(await env.admin.catalog.get('models', c)).toBeNull();
        expect(await env.admin.catalog.get('models', d)).toBeNull();
        // a batch that frees a Public ID may reuse it
        await env.admin.catalog.batch([
          { op: 'delete', collection: 'models', id: a },
          { op: 'create', collection: 'models', id: c, data: modelData(c, project, 'DUP-1') },
        ]);
        expect((await env.admin.catalog.get('models', c))?.publicId).toBe('DUP-1');
      },
    );
  });

  // The reasons for skipping the rules above, checked where they are skipped.
  if (skip.publicIdRule)
    describe('raw catalog writes that bypass the Public ID format rule', () => {
      it('store a malformed Public ID: only the shared workflows check it on this path', async () => {
        const id = `pid-raw-${tag}`;
        await env.admin.catalog.set('models', id, modelData(id, `pid-${tag}-raw`, 'BAD PUB/ID'));
        expect((await env.admin.catalog.get('models', id))?.publicId).toBe('BAD PUB/ID');
        await env.admin.catalog.delete('models', id);
      });
    });

  if (skip.publicIdUniqueness)
    describe('raw catalog writes without a uniqueness check', () => {
      it('store a second model with a Public ID its project already has: only the shared workflows check it', async () => {
        const [a, b] = [`pid-twin-a-${tag}`, `pid-twin-b-${tag}`];
        const projectId = `pid-${tag}-twins`;
        await env.admin.catalog.set('models', a, modelData(a, projectId, 'TWIN-1'));
        await env.admin.catalog.set('models', b, modelData(b, projectId, 'TWIN-1'));
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(2);
        await env.admin.catalog.batch([
          { op: 'delete', collection: 'models', id: a },
          { op: 'delete', collection: 'models', id: b },
        ]);
      });
    });
}
