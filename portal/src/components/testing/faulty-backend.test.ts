/** The component tests' fault decorator: held and failed reads, failing links, and everything else passed through. */
import { describe, expect, it } from 'vitest';
import { createTestBackend } from './memory-app.js';

const tower = { id: 'p1', name: 'Tower', structure_id: 'TWR-1', description: '', slug: 'tower' };

/** Resolves after pending microtasks and timers. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('withFaults over the memory backend', () => {
  it('holds the first snapshot of a collection until released, then delivers what the store holds', async () => {
    const test = createTestBackend('user');
    const release = test.hold('projects');
    const seen: string[][] = [];
    test.backend.catalog.subscribe('projects', undefined, (docs) => seen.push(docs.map((d) => d.id)));
    const queried = test.backend.catalog.query('projects');
    await settle();
    expect(seen).toEqual([]);
    const { id, ...data } = tower;
    test.store.writeDocument('projects', id, data);
    release();
    await settle();
    expect(seen).toEqual([['p1']]);
    expect((await queried).map((d) => d.id)).toEqual(['p1']);
    test.store.writeDocument('projects', 'p2', { ...data, structure_id: 'TWR-2' });
    await settle();
    expect(seen.at(-1)).toEqual(['p1', 'p2']);
  });

  it('fails running, held and later reads of a collection; other collections are untouched', async () => {
    const test = createTestBackend('user', { projects: [tower] });
    const errors: string[] = [];
    const onError = (error: Error) => errors.push(error.message);
    let snapshots = 0;
    test.backend.catalog.subscribe('projects', undefined, () => snapshots++, onError);
    await settle();
    expect(snapshots).toBe(1);
    test.fail('projects', new Error('down'));
    expect(errors).toEqual(['down']);
    test.store.writeDocument('projects', 'p2', { name: 'After', structure_id: 'A-1', description: '', slug: 'a' });
    test.backend.catalog.subscribe('projects', undefined, () => snapshots++, onError);
    await settle();
    expect(snapshots).toBe(1);
    expect(errors).toEqual(['down', 'down']);
    await expect(test.backend.catalog.query('projects')).rejects.toThrow('down');
    expect(await test.backend.catalog.query('models')).toEqual([]);
  });

  it('fails reads of a held collection, waiting or made after the failure (the screen sees the failure, not a spinner)', async () => {
    const test = createTestBackend('user', { projects: [tower] });
    test.hold('projects');
    const errors: string[] = [];
    const waiting = test.backend.catalog.query('projects');
    test.fail('projects', new Error('down'));
    await expect(waiting).rejects.toThrow('down');
    test.backend.catalog.subscribe(
      'projects',
      undefined,
      () => errors.push('snapshot'),
      (error) => errors.push(error.message),
    );
    await settle();
    expect(errors).toEqual(['down']);
    await expect(test.backend.catalog.count('projects')).rejects.toThrow('down');
  });

  it('rejects the links of chosen paths; the others resolve through the store', async () => {
    const files = { glbPath: 'models/m1/model.glb', splatPath: 'models/m1/model.ply' };
    const test = createTestBackend('user', { models: [{ id: 'm1', uuid: 'm1', publicId: 'M-1', name: 'M', files }] });
    test.failingLinks.add('models/m1/model.glb');
    await expect(test.backend.files.getDownloadUrl('models/m1/model.glb')).rejects.toThrow('no link for models/m1/model.glb');
    expect(await test.backend.files.getDownloadUrl('models/m1/model.ply')).toBe('http://files.test/models/m1/model.ply');
    expect(test.backend.identity.currentUser()).toEqual({ uid: 'user-uid', email: 'user@demo.lab' });
    expect(test.backend.kind).toBe('memory');
  });
});
