/**
 * Backend contract, part: project summaries (`CatalogPort.projectSummaries` and its live
 * variant): per project the models the caller may read (hidden ones count for admins only) and
 * the reference model's thumbnail (null when the caller may not read the reference), a project
 * without models included with 0, and live updates when a model is added, hidden or deleted
 * elsewhere.
 */
import { describe, expect, it } from 'vitest';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import type { Backend, ProjectSummary } from '@shared/ports/index.js';
import { setModelVisibility } from '@shared/workflows/visibility.js';
import type { ContractContext } from './context.js';

/**
 * How long a live summary may take to follow a change (ms). Usually well under a second; long
 * because the Firestore emulator now and then breaks a listener's stream (RESOURCE_EXHAUSTED with a
 * garbage message size, an open firebase-tools bug), after which the web SDK waits out its
 * longest back-off (about a minute) before it listens again: the summary then arrives late, not
 * never.
 */
const LIVE_WAIT_MS = 90_000;
import { waitFor } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function summariesContract(ctx: ContractContext): void {
  const { env, tag, skip, project } = ctx;
  const ids = { a: `sum-${tag}-a`, b: `sum-${tag}-b`, c: `sum-${tag}-c` };
  const thumb = (uuid: string) => `models/${uuid}/images_thumbnails/t.png`;
  const model = (uuid: string, projectId: string, visible: boolean, extra: Record<string, unknown> = {}) => ({
    uuid,
    publicId: uuid.toUpperCase(),
    name: `summary ${uuid}`,
    projectId,
    visible,
    isReference: false,
    files: { thumbnails: [thumb(uuid)] },
    last_updated: SERVER_TIMESTAMP,
    ...extra,
  });
  /** The summaries of this part's projects, by id. */
  const ours = (summaries: readonly ProjectSummary[]): Record<string, Omit<ProjectSummary, 'projectId'> | undefined> =>
    Object.fromEntries(
      Object.entries(ids).map(([key, id]) => {
        const found = summaries.find((s) => s.projectId === id);
        return [key, found ? { modelCount: found.modelCount, referenceThumbnailPath: found.referenceThumbnailPath } : undefined];
      }),
    );
  let seeded: Promise<void> | null = null;
  /**
   * Three projects: A with a visible reference (with a thumbnail), one more visible model and a
   * hidden one; B without models; C whose reference is hidden, with one visible model.
   */
  const seed = (admin: Backend): Promise<void> =>
    (seeded ??= (async () => {
      const [a1, a2, a3, c1, c2] = ['a1', 'a2', 'a3', 'c1', 'c2'].map((n) => `sum-${tag}-${n}`) as [string, string, string, string, string];
      await admin.catalog.set('projects', ids.a, project('sum-a', { reference_model_id: a1 }));
      await admin.catalog.set('projects', ids.b, project('sum-b', { reference_model_id: null }));
      await admin.catalog.set('projects', ids.c, project('sum-c', { reference_model_id: c1 }));
      await admin.catalog.set('models', a1, model(a1, ids.a, true, { isReference: true }));
      await admin.catalog.set('models', a2, model(a2, ids.a, true));
      await admin.catalog.set('models', a3, model(a3, ids.a, false));
      await admin.catalog.set('models', c1, model(c1, ids.c, false, { isReference: true }));
      await admin.catalog.set('models', c2, model(c2, ids.c, true));
    })());

  describe('project summaries', () => {
    it('an admin counts every model of each project, hidden ones too, with the reference thumbnail; a project without models counts 0', async () => {
      await seed(env.admin);
      expect(ours(await env.admin.catalog.projectSummaries())).toEqual({
        a: { modelCount: 3, referenceThumbnailPath: thumb(`sum-${tag}-a1`) },
        b: { modelCount: 0, referenceThumbnailPath: null },
        c: { modelCount: 2, referenceThumbnailPath: thumb(`sum-${tag}-c1`) },
      });
    });

    it.skipIf(Boolean(skip.roles))("a user's counts leave hidden models out, and a hidden reference gives no thumbnail", async () => {
      await seed(env.admin);
      const summaries = await env.user.catalog.projectSummaries();
      expect(ours(summaries)).toEqual({
        a: { modelCount: 2, referenceThumbnailPath: thumb(`sum-${tag}-a1`) },
        b: { modelCount: 0, referenceThumbnailPath: null },
        c: { modelCount: 1, referenceThumbnailPath: null },
      });
      // one entry per project, in project id order
      const projectIds = summaries.map((s) => s.projectId);
      expect(projectIds).toEqual([...new Set(projectIds)].sort());
    });

    it.skipIf(Boolean(skip.roles))('a signed-out caller is refused', async () => {
      await expect(env.anon.catalog.projectSummaries()).rejects.toMatchObject({
        code: expect.stringMatching(/^(unauthenticated|permission-denied)$/),
      });
    });

    it('a live summary follows a model added and then deleted elsewhere', { timeout: 4 * LIVE_WAIT_MS }, async () => {
      await seed(env.admin);
      const projectId = `sum-${tag}-live-admin`;
      await env.admin.catalog.set('projects', projectId, project('sum-live-admin'));
      const counts: number[] = [];
      const errors: Error[] = [];
      const stop = env.admin.catalog.subscribeProjectSummaries(
        (summaries) => counts.push(summaries.find((s) => s.projectId === projectId)?.modelCount ?? -1),
        (error) => errors.push(error),
      );
      try {
        await waitFor(() => counts.at(-1) === 0, 'the first summary', LIVE_WAIT_MS);
        const id = `sum-${tag}-live-admin-1`;
        await env.admin.catalog.set('models', id, model(id, projectId, true));
        await waitFor(() => counts.at(-1) === 1, 'the added model', LIVE_WAIT_MS);
        await env.admin.catalog.delete('models', id);
        await waitFor(() => counts.at(-1) === 0, 'the deleted model', LIVE_WAIT_MS);
        expect(errors).toEqual([]);
      } finally {
        stop();
      }
    });

    it.skipIf(Boolean(skip.roles))(
      "a user's live summary follows a model added, then hidden elsewhere",
      { timeout: 4 * LIVE_WAIT_MS },
      async () => {
        await seed(env.admin);
        const projectId = `sum-${tag}-live-user`;
        await env.admin.catalog.set('projects', projectId, project('sum-live-user'));
        const counts: number[] = [];
        const errors: Error[] = [];
        const stop = env.user.catalog.subscribeProjectSummaries(
          (summaries) => counts.push(summaries.find((s) => s.projectId === projectId)?.modelCount ?? -1),
          (error) => errors.push(error),
        );
        try {
          await waitFor(() => counts.at(-1) === 0, 'the first summary', LIVE_WAIT_MS);
          const [first, second] = [`sum-${tag}-live-user-1`, `sum-${tag}-live-user-2`];
          await env.admin.catalog.set('models', first, model(first, projectId, true));
          await env.admin.catalog.set('models', second, model(second, projectId, true));
          await waitFor(() => counts.at(-1) === 2, 'the added models', LIVE_WAIT_MS);
          // the first one, not the model written last, is hidden
          await setModelVisibility(env.admin.catalog, first, false);
          await waitFor(() => counts.at(-1) === 1, 'the hidden model', LIVE_WAIT_MS);
          expect(errors).toEqual([]);
        } finally {
          stop();
        }
      },
    );
  });
}
