// @vitest-environment jsdom
// The in-memory backend in the portal's test environment (jsdom), as the portal's component tests
// use it: a store seeded with documents and accounts, clients signed in synchronously with a role
// (createMemoryBackendAs), live updates after writes to the store, uploads of Blobs, download
// links the page can fetch (data: URLs, or the links a test asks for), and a paused store (loading
// states). The full contract runs in Node (memory.test.ts).
import { describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryBackendAs, createMemoryStore } from '@shared/adapters/memory/index.js';
import { cameraMetadataText } from '../support/model-fixtures.js';

const uuid = '0b7c3c1e-2f4a-4c4b-9a41-6f1f3f7f9a10';

describe('in-memory backend under jsdom', () => {
  it('seeds a store, signs clients in synchronously, hides hidden models from users and pushes live changes', async () => {
    const store = createMemoryStore({
      documents: {
        projects: [{ id: 'p1', name: 'Tower', structure_id: 'T-1' }],
        models: {
          shown: { uuid: 'shown', publicId: 'S', name: 'Shown', projectId: 'p1', visible: true },
          hidden: { uuid: 'hidden', publicId: 'H', name: 'Hidden', projectId: 'p1', visible: false },
        },
      },
    });
    const admin = createMemoryBackendAs('admin', { store });
    const user = createMemoryBackendAs('user', { store });
    expect(admin.identity.currentUser()).toEqual({ uid: 'admin-uid', email: 'admin@memory.test' });
    expect(user.identity.currentUser()?.uid).toBe('user-uid');
    expect((await user.catalog.get('users', 'user-uid'))?.role).toBe('user');
    expect((await admin.catalog.query('models', { orderBy: [['publicId']] })).map((m) => m.id)).toEqual(['hidden', 'shown']);
    expect((await user.catalog.query('models')).map((m) => m.id)).toEqual(['shown']);

    const seen: string[][] = [];
    const stop = user.catalog.subscribe('models', { where: [['projectId', '==', 'p1']] }, (docs) => seen.push(docs.map((d) => d.id)));
    await new Promise((resolve) => setTimeout(resolve, 0));
    store.writeDocument('models', 'later', { uuid: 'later', publicId: 'L', name: 'Later', projectId: 'p1' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    await admin.catalog.update('models', 'hidden', { visible: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    stop();
    expect(seen).toEqual([['shown'], ['later', 'shown'], ['hidden', 'later', 'shown']]);

    const states: Array<string | null> = [];
    const anon = createMemoryBackend({ store });
    anon.identity.onAuthStateChanged((u) => states.push(u?.uid ?? null));
    await anon.identity.signIn('user@memory.test', 'password');
    await anon.identity.signOut();
    expect(states).toEqual([null, 'user-uid', null]);
    await Promise.all([admin, user, anon].map((backend) => backend.close()));
  });

  it('uploads Blobs with progress and hands out data: links the page can fetch', async () => {
    const admin = createMemoryBackendAs('admin', { files: { [`models/${uuid}/images/seeded.jpg`]: { data: 'seeded' } } });
    const progress: number[] = [];
    const metadata = cameraMetadataText(['seeded.jpg']);
    const size = new TextEncoder().encode(metadata).length;
    const stored = await admin.files.upload(`models/${uuid}/camera-metadata.json`, new Blob([metadata], { type: 'application/json' }), {
      onProgress: (p) => progress.push(p.bytesTransferred),
    });
    expect(stored).toMatchObject({ size, contentType: 'application/json' });
    expect(progress).toEqual([0, size]);
    const url = await admin.files.getDownloadUrl(`models/${uuid}/camera-metadata.json`);
    expect(url.startsWith('data:application/json;base64,')).toBe(true);
    expect(await (await fetch(url)).text()).toBe(metadata);
    expect(await admin.files.list(`models/${uuid}/`)).toMatchObject({
      items: [{ path: `models/${uuid}/camera-metadata.json` }],
      prefixes: [`models/${uuid}/images/`],
    });
    expect((await admin.files.getMetadata(`models/${uuid}/images/seeded.jpg`)).contentType).toBe('image/jpeg');
  });

  it('holds calls while paused (a loading state) and makes the links a test asks for', async () => {
    const user = createMemoryBackendAs('user', {
      documents: { projects: [{ id: 'p1', name: 'Tower', structure_id: 'T-1' }] },
      files: { 'models/m1/images_thumbnails/t.png': { data: new Uint8Array([1, 2, 3]) } },
      downloadUrl: (file) => `http://files.test/${file.path}`,
    });
    const resume = user.store.pause();
    let loaded: string[] | null = null;
    const stop = user.catalog.subscribe('projects', undefined, (docs) => {
      loaded = docs.map((d) => d.name);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(loaded).toBeNull();
    resume();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(loaded).toEqual(['Tower']);
    stop();
    expect(await user.files.getDownloadUrl('models/m1/images_thumbnails/t.png')).toBe(
      'http://files.test/models/m1/images_thumbnails/t.png',
    );
  });
});
