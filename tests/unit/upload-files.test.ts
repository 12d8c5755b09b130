/**
 * uploadFiles (shared/workflows/util.ts): bounded concurrency, per-file statuses, the first
 * failure stopping the rest, cancel. The file store is a scripted FileStorePort whose uploads
 * finish when the test says so (the real store is covered by the contract suite and by the
 * add-model workflow tests against `catalog serve`).
 */
import { describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../shared/errors.js';
import type { FileStorePort, StoredFile, UploadOptions } from '../../shared/ports/files.js';
import { uploadFiles, type FileUpload } from '../../shared/workflows/util.js';

interface Pending {
  path: string;
  resolve: () => void;
  reject: (error: unknown) => void;
}

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
    list: async () => ({ items: [], prefixes: [] }),
    getMetadata: async () => {
      throw new Error('unused');
    },
    delete: async () => undefined,
    getDownloadUrl: async () => '',
  };
  return { store, pending, maxActive: () => maxActive };
}

const plan = (n: number): FileUpload[] =>
  Array.from({ length: n }, (_, i) => ({ key: `images/${i}.jpg`, path: `models/u/images/${i}.jpg`, source: new Blob([new Uint8Array(i + 1)]) }));

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
    expect([...stored.keys()].sort()).toEqual(plan(5).map((p) => p.key).sort());
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
