/**
 * Backend contract, part: Live updates: a subscriber sees other clients' writes, and a non-admin
 * never receives a hidden model (non-admins see only models that are not hidden).
 */
import { describe, expect, it } from 'vitest';
import type { ContractContext } from './context.js';
import { waitFor } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function liveContract(ctx: ContractContext): void {
  const { env, tag, skip, project } = ctx;

  describe('live updates', () => {
    it('a subscriber sees a write made by another client', async () => {
      const structureId = `${tag}-live`;
      const snapshots: string[][] = [];
      const errors: Error[] = [];
      const stop = env.user.catalog.subscribe(
        'projects',
        { where: [['structure_id', '==', structureId]] },
        (docs) => snapshots.push(docs.map((d) => d.name)),
        (error) => errors.push(error),
      );
      try {
        await waitFor(() => snapshots.length >= 1, 'the first snapshot');
        expect(snapshots[0]).toEqual([]);
        const id = await env.admin.catalog.add('projects', project('live'));
        await waitFor(() => snapshots.some((s) => s.includes(`Contract ${tag} live`)), 'the new project');
        await env.admin.catalog.update('projects', id, { name: `Contract ${tag} live 2` });
        await waitFor(() => snapshots.some((s) => s.includes(`Contract ${tag} live 2`)), 'the renamed project');
        await env.admin.catalog.delete('projects', id);
        await waitFor(() => snapshots[snapshots.length - 1]!.length === 0, 'the deletion');
        expect(errors).toEqual([]);
      } finally {
        stop();
      }
    });

    it.skipIf(Boolean(skip.roles))('a non-admin subscriber never receives a hidden model', async () => {
      const projectId = `live-hidden-${tag}`;
      const seen = new Set<string>();
      let calls = 0;
      const stop = env.user.catalog.subscribe('models', { where: [['projectId', '==', projectId]] }, (docs) => {
        calls += 1;
        for (const d of docs) seen.add(d.id);
      });
      try {
        await waitFor(() => calls >= 1, 'the first snapshot');
        await env.admin.catalog.set('models', `${projectId}-hidden`, {
          uuid: `${projectId}-hidden`,
          publicId: 'H',
          name: 'hidden',
          projectId,
          visible: false,
          files: {},
        });
        await env.admin.catalog.set('models', `${projectId}-shown`, {
          uuid: `${projectId}-shown`,
          publicId: 'S',
          name: 'shown',
          projectId,
          visible: true,
          files: {},
        });
        await waitFor(() => seen.has(`${projectId}-shown`), 'the visible model');
        await env.admin.catalog.update('models', `${projectId}-shown`, { visible: false });
        await waitFor(() => calls >= 3, 'the model being hidden');
        expect(seen.has(`${projectId}-hidden`)).toBe(false);
      } finally {
        stop();
      }
    });
  });
}
