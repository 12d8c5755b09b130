/**
 * Backend contract, part: Batches: several writes applied together, all or none, also when one of
 * them is denied (a denied write takes the whole batch with it).
 */
import { describe, expect, it } from 'vitest';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { ContractContext } from './context.js';
import { expectCode } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function batchesContract(ctx: ContractContext): void {
  const { env, tag, skip, project } = ctx;

  describe('batches', () => {
    it('apply all writes together', async () => {
      const a = `batch-a-${tag}`;
      const b = `batch-b-${tag}`;
      await env.admin.catalog.batch([
        { op: 'create', collection: 'projects', id: a, data: project('ba') },
        { op: 'set', collection: 'projects', id: b, data: project('bb') },
        { op: 'update', collection: 'projects', id: a, data: { reference_model_id: 'm1', last_updated: SERVER_TIMESTAMP } },
      ]);
      expect((await env.admin.catalog.get('projects', a))?.reference_model_id).toBe('m1');
      expect(await env.admin.catalog.get('projects', b)).not.toBeNull();
      await env.admin.catalog.batch([
        { op: 'delete', collection: 'projects', id: a },
        { op: 'delete', collection: 'projects', id: b },
      ]);
      expect(await env.admin.catalog.get('projects', a)).toBeNull();
    });

    it('are atomic: a failing write leaves nothing written', async () => {
      const id = `atomic-${tag}`;
      await expectCode(
        env.admin.catalog.batch([
          { op: 'create', collection: 'projects', id, data: project('atomic') },
          { op: 'update', collection: 'projects', id: `missing-${tag}`, data: { name: 'x' } },
        ]),
        'not-found',
      );
      expect(await env.admin.catalog.get('projects', id)).toBeNull();
      const existing = await env.admin.catalog.add('projects', project('exists'));
      await expectCode(
        env.admin.catalog.batch([
          { op: 'update', collection: 'projects', id: existing, data: { name: 'changed' } },
          { op: 'create', collection: 'projects', id: existing, data: project('dup') },
        ]),
        'already-exists',
        // Google's Firestore emulator refuses two writes to one document in one commit outright
        'invalid-argument',
      );
      expect((await env.admin.catalog.get('projects', existing))?.name).toBe(`Contract ${tag} exists`);
      await env.admin.catalog.delete('projects', existing);
    });

    it.skipIf(Boolean(skip.roles))('are atomic across permissions: a denied write leaves nothing written', async () => {
      const own = `users-${tag}`;
      await expectCode(
        env.user.catalog.batch([
          { op: 'set', collection: 'users', id: ctx.userUid, data: { note: own }, merge: true },
          { op: 'create', collection: 'projects', id: own, data: project('denied') },
        ]),
        'permission-denied',
      );
      expect((await env.user.catalog.get('users', ctx.userUid))?.note).not.toBe(own);
    });
  });
}
