/**
 * Backend contract, part: Documents: add with 20-character ids, get, set (replace and merge),
 * dotted-path updates, delete, server timestamps (the document database calls the product makes).
 */
import { describe, expect, it } from 'vitest';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { ContractContext } from './context.js';
import { expectCode } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function documentsContract(ctx: ContractContext): void {
  const { env, tag, project } = ctx;

  describe('documents', () => {
    it('add creates a 20-character id; get returns the data with its id', async () => {
      const id = await env.admin.catalog.add('projects', project('crud'));
      expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
      const doc = await env.admin.catalog.get('projects', id);
      expect(doc).toMatchObject({ id, name: `Contract ${tag} crud`, structure_id: `${tag}-crud` });
    });

    it('get of a missing document is null', async () => {
      expect(await env.admin.catalog.get('projects', `missing-${tag}`)).toBeNull();
    });

    it('set replaces a document; set with merge merges nested fields', async () => {
      const id = `set-${tag}`;
      await env.admin.catalog.set('projects', id, project('set', { location: { lat: 1, lng: 2, address: 'A' } }));
      await env.admin.catalog.set('projects', id, { location: { lat: 5, lng: 2 } } as never, { merge: true });
      expect((await env.admin.catalog.get('projects', id))?.location).toEqual({ lat: 5, lng: 2, address: 'A' });
      expect((await env.admin.catalog.get('projects', id))?.name).toBe(`Contract ${tag} set`);
      await env.admin.catalog.set('projects', id, { name: 'Replaced', structure_id: 'X', description: '', slug: 'x' });
      const replaced = await env.admin.catalog.get('projects', id);
      expect(replaced).toEqual({ id, name: 'Replaced', structure_id: 'X', description: '', slug: 'x' });
      await env.admin.catalog.delete('projects', id);
    });

    it('update changes dotted fields, keeps the rest, and fails with not-found on a missing document', async () => {
      const id = await env.admin.catalog.add('models', {
        uuid: `u-${tag}`,
        publicId: `pub-${tag}`,
        name: 'Model',
        files: { splatPath: 'a.ply', images: ['x.jpg'] },
        metadata: { captureDate: '2025-01-01', displayOrder: 0 },
      });
      await env.admin.catalog.update('models', id, { 'metadata.captureDate': '2025-06-01', 'files.images': [], name: 'Renamed' });
      const doc = await env.admin.catalog.get('models', id);
      expect(doc?.metadata).toEqual({ captureDate: '2025-06-01', displayOrder: 0 });
      expect(doc?.files).toEqual({ splatPath: 'a.ply', images: [] });
      expect(doc?.name).toBe('Renamed');
      await expectCode(env.admin.catalog.update('models', `missing-${tag}`, { name: 'x' }), 'not-found');
      await env.admin.catalog.delete('models', id);
    });

    it('delete removes a document; deleting a missing document succeeds', async () => {
      const id = await env.admin.catalog.add('projects', project('delete'));
      await env.admin.catalog.delete('projects', id);
      expect(await env.admin.catalog.get('projects', id)).toBeNull();
      await env.admin.catalog.delete('projects', id);
    });

    it('server timestamps are replaced by the server clock (ISO)', async () => {
      const before = Date.now();
      const id = await env.admin.catalog.add('projects', project('time', { created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP }));
      const created = await env.admin.catalog.get('projects', id);
      expect(created?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
      expect(Math.abs(Date.parse(created!.created_at!) - before)).toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 5));
      await env.admin.catalog.update('projects', id, { last_updated: SERVER_TIMESTAMP });
      const updated = await env.admin.catalog.get('projects', id);
      expect(Date.parse(updated!.last_updated!)).toBeGreaterThanOrEqual(Date.parse(created!.created_at!));
      expect(updated?.created_at).toBe(created?.created_at);
      await env.admin.catalog.delete('projects', id);
    });
  });
}
