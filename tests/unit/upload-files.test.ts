/**
 * uploadFiles (shared/workflows/util.ts): bounded concurrency, per-file statuses, the first
 * failure stopping the rest, cancel. The file store is a scripted FileStorePort whose uploads
 * finish when the test says so (the real store is covered by the contract suite and by the
 * add-model workflow tests against `catalog serve`).
 */
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FileStorePort, StoredFile, UploadOptions } from '@shared/ports/files.js';
import { RESUMABLE_UPLOAD_THRESHOLD_BYTES, UPLOAD_BATCH_MAX_BYTES, UPLOAD_BATCH_MAX_FILES } from '@shared/constants.js';
import { UPLOAD_BATCHES_IN_FLIGHT, uploadFiles, type FileUpload } from '@shared/workflows/util.js';

interface Pending {
  path: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The FileStorePort methods uploadFiles does not call. */
const unusedMethods: Pick<FileStorePort, 'list' | 'getMetadata' | 'delete' | 'getDownloadUrl'> = {
  list: async () => ({ items: [], prefixes: [] }),
  getMetadata: async () => {
    throw new Error('unused');
  },
  delete: async () => undefined,
  getDownloadUrl: async () => '',
};

function scriptedStore() {
  const pending: Pending[] = [];
  let active = 0;
  let maxActive = 0;
  const store: FileStorePort = {
    upload: (path: string, source, options: UploadOptions = {}) =>
      new Promise<StoredFile>((resolve, reject) => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        const done = (): void => {
          active -= 1;
        };
        options.signal?.addEventListener('abort', () => {
          done();
          reject(new AppError(ErrorCode.Canceled, 'The upload was canceled'));
        });
        pending.push({
          path,
          resolve: () => {
            done();
            resolve({ path, size: source.size, contentType: null, updated: new Date().toISOString() });
          },
          reject: (error) => {
            done();
            reject(error);
          },
        });
      }),
    ...unusedMethods,
  };
  return { store, pending, maxActive: () => maxActive };
}

const plan = (n: number): FileUpload[] =>
  Array.from({ length: n }, (_, i) => ({
    key: `images/${i}.jpg`,
    path: `models/u/images/${i}.jpg`,
    source: new Blob([new Uint8Array(i + 1)]),
  }));

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

describe('uploadFiles', () => {
  it('sends at most `concurrency` files at once, in plan order, and reports each status', async () => {
    const { store, pending, maxActive } = scriptedStore();
    const statuses: string[] = [];
    const uploaded: string[] = [];
    const run = uploadFiles(store, plan(5), uploaded, { concurrency: 2, onFile: (key, status) => statuses.push(`${key}:${status}`) });
    await tick();
    expect(pending.map((p) => p.path)).toEqual(['models/u/images/0.jpg', 'models/u/images/1.jpg']);
    while (pending.length > 0) {
      pending.shift()!.resolve();
      await tick();
    }
    const stored = await run;
    expect(maxActive()).toBe(2);
    expect([...stored.keys()].sort()).toEqual(
      plan(5)
        .map((p) => p.key)
        .sort(),
    );
    expect(stored.get('images/4.jpg')?.size).toBe(5);
    expect(uploaded).toHaveLength(5);
    expect(statuses.filter((s) => s.endsWith(':completed'))).toHaveLength(5);
    expect(statuses.filter((s) => s.endsWith(':error'))).toHaveLength(0);
  });

  it('stops at the first failure: files not started stay waiting, the error is rethrown, stored files are listed', async () => {
    const { store, pending } = scriptedStore();
    const statuses = new Map<string, string>();
    const uploaded: string[] = [];
    const run = uploadFiles(store, plan(6), uploaded, { concurrency: 2, onFile: (key, status) => statuses.set(key, status) });
    await tick();
    pending.shift()!.resolve(); // 0 stored
    await tick();
    // 1 and 2 in flight; 2 fails with a permission error, 1 is canceled by it
    const failing = pending.find((p) => p.path.endsWith('/2.jpg'))!;
    failing.reject(new AppError(ErrorCode.PermissionDenied, 'no'));
    await expect(run).rejects.toMatchObject({ code: ErrorCode.PermissionDenied });
    expect(uploaded).toEqual(['models/u/images/0.jpg']);
    expect(statuses.get('images/0.jpg')).toBe('completed');
    expect(statuses.get('images/1.jpg')).toBe('error');
    expect(statuses.get('images/2.jpg')).toBe('error');
    expect(statuses.get('images/3.jpg')).toBeUndefined();
    expect(statuses.get('images/5.jpg')).toBeUndefined();
  });

  it('cancels every upload when the caller aborts, with storage/canceled', async () => {
    const { store } = scriptedStore();
    const controller = new AbortController();
    const uploaded: string[] = [];
    const run = uploadFiles(store, plan(3), uploaded, { signal: controller.signal });
    await tick();
    controller.abort();
    await expect(run).rejects.toMatchObject({ code: ErrorCode.Canceled });
    expect(uploaded).toEqual([]);
  });
});

describe('uploadFiles with a store that takes batches', () => {
  /** A store recording each call: uploads and batches finish when the test says so. */
  function batchingStore() {
    const calls: Array<{ kind: 'upload' | 'batch'; paths: string[]; done?: boolean; finish: (error?: unknown) => void }> = [];
    let batchesActive = 0;
    let maxBatchesActive = 0;
    const stored = (path: string, size: number): StoredFile => ({ path, size, contentType: null, updated: new Date().toISOString() });
    const store: FileStorePort = {
      upload: (path, source) =>
        new Promise<StoredFile>((resolve, reject) => {
          calls.push({ kind: 'upload', paths: [path], finish: (error) => (error ? reject(error) : resolve(stored(path, source.size))) });
        }),
      uploadBatch: (items, options = {}) =>
        new Promise<StoredFile[]>((resolve, reject) => {
          batchesActive += 1;
          maxBatchesActive = Math.max(maxBatchesActive, batchesActive);
          const call = {
            kind: 'batch' as const,
            paths: items.map((i) => i.path),
            done: false,
            finish: (error?: unknown) => {
              if (call.done) return;
              call.done = true;
              batchesActive -= 1;
              if (error) reject(error);
              else resolve(items.map((i) => stored(i.path, i.source.size)));
            },
          };
          options.signal?.addEventListener('abort', () => call.finish(new AppError(ErrorCode.Canceled, 'The upload was canceled')));
          calls.push(call);
        }),
      ...unusedMethods,
    };
    return { store, calls, maxBatchesActive: () => maxBatchesActive };
  }
  const small = (i: number, size = 100 * 1024): FileUpload => ({
    key: `images/${i}.jpg`,
    path: `models/u/images/${i}.jpg`,
    source: new Blob([new Uint8Array(size)]),
  });
  const big: FileUpload = {
    key: 'splat',
    path: 'models/u/model.ply',
    source: new Blob([new Uint8Array(RESUMABLE_UPLOAD_THRESHOLD_BYTES + 1)]),
  };

  it('sends large files alone and small ones in batches of at most UPLOAD_BATCH_MAX_BYTES / UPLOAD_BATCH_MAX_FILES, at most UPLOAD_BATCHES_IN_FLIGHT batches in flight', async () => {
    const { store, calls, maxBatchesActive } = batchingStore();
    // 100 KiB photos: 40 per 4 MiB batch; 100 tiny files: 64 per batch
    const photos = Array.from({ length: 100 }, (_, i) => small(i));
    const tiny = Array.from({ length: 100 }, (_, i) => ({ ...small(1000 + i, 10), key: `assets/${i}`, path: `models/u/assets/${i}` }));
    const statuses = new Map<string, string>();
    const uploaded: string[] = [];
    const run = uploadFiles(store, [big, ...photos, ...tiny], uploaded, {
      concurrency: 4,
      onFile: (key, status) => statuses.set(key, status),
    });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await tick();
    };
    await settle();
    for (;;) {
      const next = calls.find((c) => !c.done);
      if (!next) break;
      if (next.kind === 'upload') next.done = true;
      next.finish();
      await settle();
    }
    const result = await run;
    expect(calls.filter((c) => c.kind === 'upload').map((c) => c.paths)).toEqual([['models/u/model.ply']]);
    const batches = calls.filter((c) => c.kind === 'batch').map((c) => c.paths.length);
    // consecutive small files share a batch: 40 photos (4 MiB), 40, then the last 20 photos with
    // 44 tiny files (64 files), then the other 56 tiny files
    const perBytes = Math.floor(UPLOAD_BATCH_MAX_BYTES / (100 * 1024));
    expect(batches).toEqual([perBytes, perBytes, UPLOAD_BATCH_MAX_FILES, 200 - 2 * perBytes - UPLOAD_BATCH_MAX_FILES]);
    expect(calls.filter((c) => c.kind === 'batch').flatMap((c) => c.paths)).toEqual([...photos, ...tiny].map((p) => p.path));
    expect(maxBatchesActive()).toBeLessThanOrEqual(UPLOAD_BATCHES_IN_FLIGHT);
    expect(result.size).toBe(201);
    expect(uploaded).toHaveLength(201);
    expect([...statuses.values()].every((s) => s === 'completed')).toBe(true);
  });

  it('batches waiting for their turn do not hold up a large file behind them', async () => {
    const { store, calls } = batchingStore();
    const photos = Array.from({ length: 200 }, (_, i) => small(i));
    const run = uploadFiles(store, [...photos, big], [], { concurrency: 2 });
    for (let i = 0; i < 20; i++) await tick();
    // one batch in flight, the others waiting; the large file already started
    expect(calls.filter((c) => c.kind === 'batch')).toHaveLength(UPLOAD_BATCHES_IN_FLIGHT);
    expect(calls.filter((c) => c.kind === 'upload').map((c) => c.paths[0])).toEqual(['models/u/model.ply']);
    for (;;) {
      const next = calls.find((c) => !c.done);
      if (!next) break;
      if (next.kind === 'upload') next.done = true;
      next.finish();
      for (let i = 0; i < 20; i++) await tick();
    }
    expect((await run).size).toBe(201);
  });

  it('a failing batch marks its files as errors, stops the rest and is not in `uploaded`', async () => {
    const { store, calls } = batchingStore();
    const photos = Array.from({ length: 100 }, (_, i) => small(i));
    const statuses = new Map<string, string>();
    const uploaded: string[] = [];
    const run = uploadFiles(store, photos, uploaded, { concurrency: 4, onFile: (key, status) => statuses.set(key, status) });
    const settle = async (): Promise<void> => {
      for (let i = 0; i < 20; i++) await tick();
    };
    await settle();
    expect(calls).toHaveLength(UPLOAD_BATCHES_IN_FLIGHT);
    calls[0].finish();
    await settle();
    calls[1].finish(new AppError(ErrorCode.InvalidArgument, 'bad batch'));
    await expect(run).rejects.toMatchObject({ code: ErrorCode.InvalidArgument, message: 'bad batch' });
    expect(uploaded).toEqual(calls[0].paths);
    expect(statuses.get('images/0.jpg')).toBe('completed');
    for (const path of calls[1].paths) expect(statuses.get(`images/${/(\d+)\.jpg$/.exec(path)![1]}.jpg`)).toBe('error');
    // the third batch: not started, or canceled
    expect(statuses.get('images/99.jpg')).not.toBe('completed');
  });
});
