/**
 * Backend contract, part: File storage: uploads (small, resumable with progress, Node streams,
 * batches), cancel, listing, metadata, deletion and download links, and the storage error codes
 * they answer with (`storage/object-not-found`, `storage/canceled`, `storage/unauthorized`).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { UploadProgress } from '@shared/ports/index.js';
import { cameraMetadataText, gaussianCountForBytes, gaussianPly, jpegPhoto, pngPhoto } from '../../support/model-fixtures.js';
import type { ContractContext } from './context.js';
import { bytes, expectCode, rejection } from './context.js';
import { largeGlb } from './content.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function filesContract(ctx: ContractContext): void {
  const { env, skip } = ctx;

  describe.skipIf(Boolean(skip.files))('files', () => {
    const folder = `models/${randomUUID()}`;

    it('uploads a small file, reads its metadata and lists the folder', async () => {
      const metadata = cameraMetadataText(['a.jpg', 'b.jpg']);
      const metadataSize = new TextEncoder().encode(metadata).length;
      const stored = await env.admin.files.upload(`${folder}/camera-metadata.json`, new Blob([metadata], { type: 'application/json' }));
      expect(stored).toMatchObject({ path: `${folder}/camera-metadata.json`, size: metadataSize });
      const meta = await env.admin.files.getMetadata(`${folder}/camera-metadata.json`);
      expect(meta.size).toBe(metadataSize);
      expect(meta.contentType).toContain('application/json');
      expect(Date.parse(meta.updated!)).not.toBeNaN();
      const [a, b] = [await jpegPhoto(64, 48), await jpegPhoto(32, 24)];
      expect(a.length).not.toBe(b.length);
      await env.admin.files.upload(`${folder}/images/a.jpg`, new Blob([a]), { contentType: 'image/jpeg' });
      await env.admin.files.upload(`${folder}/images/b.jpg`, new Blob([b]), { contentType: 'image/jpeg' });
      const listing = await env.user.files.list(`${folder}/`);
      expect(listing.items.map((i) => i.path)).toEqual([`${folder}/camera-metadata.json`]);
      expect(listing.prefixes).toEqual([`${folder}/images/`]);
      const images = await env.admin.files.list(`${folder}/images`);
      expect(images.items.map((i) => [i.path, i.size])).toEqual([
        [`${folder}/images/a.jpg`, a.length],
        [`${folder}/images/b.jpg`, b.length],
      ]);
      expect(await env.admin.files.list(`${folder}/nothing/`)).toEqual({ items: [], prefixes: [] });
    });

    it('uploads a file above 256 KB resumably, with progress', async () => {
      const data = gaussianPly(gaussianCountForBytes(600 * 1024 + 17));
      const progress: UploadProgress[] = [];
      const stored = await env.admin.files.upload(`${folder}/model.ply`, new Blob([data]), { onProgress: (p) => progress.push(p) });
      expect(stored.size).toBe(data.length);
      expect(progress.length).toBeGreaterThan(0);
      expect(progress.every((p) => p.totalBytes === data.length)).toBe(true);
      expect(progress[progress.length - 1]!.bytesTransferred).toBe(data.length);
      for (let i = 1; i < progress.length; i += 1)
        expect(progress[i]!.bytesTransferred).toBeGreaterThanOrEqual(progress[i - 1]!.bytesTransferred);
      if (!skip.downloadLinks) {
        const url = await env.user.files.getDownloadUrl(`${folder}/model.ply`);
        const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
        expect(body.length).toBe(data.length);
        expect(body[12345]).toBe(data[12345]);
      }
    });

    it.skipIf(Boolean(skip.nodeStreams))('uploads a platform stream source (Node fs.ReadStream)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'contract-upload-'));
      try {
        const file = join(dir, 'model.glb');
        const glb = await largeGlb(400 * 1024);
        expect(glb.length).toBeGreaterThan(256 * 1024);
        writeFileSync(file, glb);
        const stored = await env.admin.files.upload(`${folder}/model.glb`, {
          size: glb.length,
          input: createReadStream(file),
          name: 'model.glb',
        });
        expect(stored.size).toBe(glb.length);
        expect((await env.admin.files.getMetadata(`${folder}/model.glb`)).size).toBe(glb.length);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('cancels an upload through its AbortSignal, leaving no file', async () => {
      const controller = new AbortController();
      const path = `${folder}/model.splat`;
      const error = await rejection(
        env.admin.files.upload(path, new Blob([bytes(48 * 1024 * 1024)]), {
          signal: controller.signal,
          onProgress: (p) => {
            if (p.bytesTransferred > 0) controller.abort();
          },
        }),
      );
      expect(error.code).toBe('storage/canceled');
      await expectCode(env.admin.files.getMetadata(path), 'storage/object-not-found');
      expect((await env.admin.files.list(`${folder}/`)).items.map((i) => i.path)).not.toContain(path);
      const already = new AbortController();
      already.abort();
      await expectCode(env.admin.files.upload(path, new Blob([bytes(10)]), { signal: already.signal }), 'storage/canceled');
    });

    it.skipIf(Boolean(skip.downloadLinks || skip.httpDownloadLinks))(
      'download links need their token, work without other credentials and honour HTTP ranges',
      async () => {
        const data = new Uint8Array(await pngPhoto(640, 480));
        expect(data.length).toBeGreaterThan(200);
        await env.admin.files.upload(`${folder}/images_thumbnails/t.png`, new Blob([data]), { contentType: 'image/png' });
        const url = await env.user.files.getDownloadUrl(`${folder}/images_thumbnails/t.png`);
        expect(url).toMatch(/^https?:\/\//);
        const full = await fetch(url);
        expect(full.status).toBe(200);
        expect(new Uint8Array(await full.arrayBuffer())).toEqual(data);
        const ranged = await fetch(url, { headers: { range: 'bytes=100-199' } });
        expect(ranged.status).toBe(206);
        expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(data.slice(100, 200));
        const parsed = new URL(url);
        parsed.search = '';
        const withoutToken = await fetch(parsed);
        expect([401, 403]).toContain(withoutToken.status);
        await withoutToken.arrayBuffer();
        parsed.searchParams.set('token', 'guessed-token-000000000000');
        const guessed = await fetch(parsed);
        expect([401, 403]).toContain(guessed.status);
        await guessed.arrayBuffer();
      },
    );

    it('stores a batch of small files in one call, all or none (when the backend has uploadBatch)', async (context) => {
      const { uploadBatch } = env.admin.files;
      if (!uploadBatch) {
        context.skip();
        return;
      }
      const batch = (items: Parameters<typeof uploadBatch>[0]) => uploadBatch.call(env.admin.files, items);
      const stored = await batch([
        { path: `${folder}/assets/a.jpg`, source: new Blob([bytes(100)]), contentType: 'image/jpeg' },
        { path: `${folder}/assets/b.png`, source: new Blob([bytes(2000)]) },
        { path: `${folder}/assets/c.json`, source: new Blob(['{}'], { type: 'application/json' }) },
      ]);
      expect(stored.map((f) => [f.path, f.size])).toEqual([
        [`${folder}/assets/a.jpg`, 100],
        [`${folder}/assets/b.png`, 2000],
        [`${folder}/assets/c.json`, 2],
      ]);
      expect((await env.admin.files.getMetadata(`${folder}/assets/a.jpg`)).contentType).toBe('image/jpeg');
      expect((await env.admin.files.getMetadata(`${folder}/assets/b.png`)).contentType).toBe('image/png');
      expect((await env.admin.files.getMetadata(`${folder}/assets/c.json`)).contentType).toContain('application/json');
      if (!skip.downloadLinks) {
        const body = new Uint8Array(await (await fetch(await env.user.files.getDownloadUrl(`${folder}/assets/b.png`))).arrayBuffer());
        expect(body).toEqual(bytes(2000));
      }
      const batchFolder = `models/${randomUUID()}`;
      // one bad path: nothing of the batch is stored
      await expectCode(
        batch([
          { path: `${batchFolder}/assets/ok.jpg`, source: new Blob([bytes(10)]) },
          { path: `${batchFolder}/assets/../escape.jpg`, source: new Blob([bytes(10)]) },
        ]),
        'invalid-argument',
      );
      expect(await env.admin.files.list(`${batchFolder}/assets/`)).toEqual({ items: [], prefixes: [] });
      // users cannot write
      const userBatch = env.user.files.uploadBatch;
      if (userBatch && !skip.roles) {
        await expectCode(
          userBatch.call(env.user.files, [{ path: `${batchFolder}/images/x.jpg`, source: new Blob([await jpegPhoto()]) }]),
          'storage/unauthorized',
        );
        expect(await env.admin.files.list(`${batchFolder}/images/`)).toEqual({ items: [], prefixes: [] });
      }
      const already = new AbortController();
      already.abort();
      await expectCode(
        uploadBatch.call(env.admin.files, [{ path: `${batchFolder}/images/y.jpg`, source: new Blob([await jpegPhoto()]) }], {
          signal: already.signal,
        }),
        'storage/canceled',
      );
    });

    it('deletes files; missing files give object-not-found', async () => {
      await env.admin.files.delete(`${folder}/images/a.jpg`);
      await expectCode(env.admin.files.getMetadata(`${folder}/images/a.jpg`), 'storage/object-not-found');
      await expectCode(env.admin.files.delete(`${folder}/images/a.jpg`), 'storage/object-not-found');
      await expectCode(env.admin.files.getDownloadUrl(`${folder}/images/a.jpg`), 'storage/object-not-found');
      expect((await env.admin.files.list(`${folder}/images/`)).items.map((i) => i.path)).toEqual([`${folder}/images/b.jpg`]);
    });
  });
}
