/**
 * The findings workflows (shared/workflows/annotations.ts) as a contract any backend is
 * held to, through its ports: the count and the number move with each create and delete in the
 * same batch; edits keep the author; deleteModel takes the model's findings and alignments with
 * it; a user adds and edits their own findings with the same workflows, but cannot delete one,
 * edit someone else's, write an alignment, or read or add findings of a hidden model; a finding
 * made from a change region keeps the region, and a user's must name a change map of its model
 * they can read. Bound to
 * backends by tests/contract/annotations.test.ts (memory, local server, firebase-admin) and
 * tests/firebase/annotations-emulator.test.ts (the portal's web SDK under firestore.rules).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationInput } from '@shared/annotations.js';
import { alignmentId, annotationId } from '@shared/annotations.js';
import { AppError } from '@shared/errors.js';
import type { Backend, Query } from '@shared/ports/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import {
  createAnnotation,
  deleteAnnotation,
  listModelAnnotations,
  listProjectAnnotations,
  updateAnnotation,
} from '@shared/workflows/annotations.js';
import { deleteModel } from '@shared/workflows/delete-model.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { randomTag } from '../contract/suite/context.js';
import { changeMapFieldData } from './change-map-field-table.js';

/** A backend to run the findings contract on. */
export interface FindingsBackend {
  /** Shown in the report. */
  name: string;
  /** Makes the admin, user, signed-out and service clients. */
  setup: () => Promise<ContractSetup>;
  /** Why nothing runs (null: everything runs). */
  skipAll: string | null;
  /** Why the user rule's cases skip (the clients bypass rules), or null. */
  noRules: string | null;
  /** Why deleteModel skips (no file storage), or null/absent. */
  noFiles?: string | null;
  /**
   * True when a live subscription re-runs when a model is hidden or shown (the embedded and the
   * memory backends); Firestore ends a refused listener, so it does not.
   */
  liveFollowsVisibility?: boolean;
}

const input = (title: string, extra: Partial<AnnotationInput> = {}): AnnotationInput => ({
  title,
  note: 'seen from the south span',
  category: 'corrosion',
  severity: 3,
  points: [{ x: 1.5, y: -2, z: 0.25 }],
  ...extra,
});

/** The code of the AppError a promise is refused with (fails when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
  throw new Error('expected a refusal, the call succeeded');
}

/**
 * Declares the findings contract for one backend.
 * @param backend the backend and what of it skips, with the printed reasons
 */
export function describeFindingsWorkflows(backend: FindingsBackend): void {
  if (backend.skipAll) console.info(`[annotations ${backend.name}] skipping: ${backend.skipAll}`);
  else if (backend.noRules) console.info(`[annotations ${backend.name}] skipping the user rule: ${backend.noRules}`);
  else if (backend.noFiles) console.info(`[annotations ${backend.name}] skipping deleteModel: ${backend.noFiles}`);

  describe.skipIf(backend.skipAll !== null)(`findings workflows: ${backend.name}`, () => {
    let env: ContractSetup;
    let adminUid = '';
    let userUid = '';
    const tag = randomTag();
    const project = `proj-f-${tag}`;
    const model = `model-f-${tag}`;
    const other = `other-f-${tag}`;
    const hidden = `hidden-f-${tag}`;

    const modelRecord = (id: string, visible: boolean): Record<string, unknown> => ({
      uuid: id,
      publicId: `F-${id.slice(0, 5)}-${tag}`,
      name: `model ${id}`,
      projectId: project,
      visible,
      files: {},
      metadata: {},
      created_at: SERVER_TIMESTAMP,
    });
    const counts = async (catalog: Backend['catalog'], id: string): Promise<{ count?: number; seq?: number }> => {
      const stored = await catalog.get('models', id);
      return { count: stored?.metadata?.annotationsCount, seq: stored?.metadata?.annotationsSeq };
    };

    beforeAll(async () => {
      env = await backend.setup();
      adminUid = env.admin.identity.currentUser()?.uid ?? 'cli';
      userUid = env.user.identity.currentUser()?.uid ?? 'cli';
      await env.admin.catalog.set('projects', project, { name: `Findings ${tag}`, structure_id: `F-${tag}`, created_at: SERVER_TIMESTAMP });
      await env.admin.catalog.set('models', model, modelRecord(model, true) as never);
      await env.admin.catalog.set('models', other, modelRecord(other, true) as never);
      await env.admin.catalog.set('models', hidden, modelRecord(hidden, false) as never);
    });

    afterAll(async () => {
      await env?.teardown();
    });

    it('create sets count 1 and number 1; a second is F-2; a delete keeps the count exact and the number', async () => {
      const admin = env.admin.catalog;
      const first = await createAnnotation(admin, model, input('Rust on girder 4'), { uid: adminUid, email: 'admin@contract.test' });
      expect(first.id).toBe(annotationId(model, 1));
      expect(first.seq).toBe(1);
      expect(await counts(admin, model)).toEqual({ count: 1, seq: 1 });
      const second = await createAnnotation(admin, model, input('Spalling at the pier', { category: 'spalling' }), {
        uid: adminUid,
        email: null,
      });
      expect(second.id).toBe(annotationId(model, 2));
      expect(await counts(admin, model)).toEqual({ count: 2, seq: 2 });
      expect((await listModelAnnotations(admin, model)).map((a) => a.id)).toEqual([annotationId(model, 1), annotationId(model, 2)]);

      await deleteAnnotation(admin, first.id);
      expect(await admin.get('annotations', first.id)).toBeNull();
      expect(await counts(admin, model)).toEqual({ count: 1, seq: 2 });
      const third = await createAnnotation(admin, model, input('Crack, new'), { uid: adminUid, email: null });
      expect(third.id).toBe(annotationId(model, 3)); // numbers are never reused
      expect(await counts(admin, model)).toEqual({ count: 2, seq: 3 });
      expect((await listModelAnnotations(admin, model)).length).toBe(2);
    });

    it('an edit changes the content and keeps the model, number, author and creation time', async () => {
      const admin = env.admin.catalog;
      const created = await createAnnotation(admin, other, input('Bent rail'), { uid: adminUid, email: 'admin@contract.test' });
      const before = await admin.get('annotations', created.id);
      expect(before?.created_at).toBeTruthy();
      await updateAnnotation(admin, created.id, input('Bent rail, worse', { severity: 5, status: 'monitoring' }));
      const after = await admin.get('annotations', created.id);
      expect(after).toMatchObject({
        title: 'Bent rail, worse',
        severity: 5,
        status: 'monitoring',
        modelId: other,
        seq: 1,
        author_uid: adminUid,
        author_email: 'admin@contract.test',
      });
      expect(after?.created_at).toEqual(before?.created_at);
      expect(await counts(admin, other)).toEqual({ count: 1, seq: 1 });
    });

    it.skipIf(backend.noRules !== null)(
      "a user adds and edits their own finding with the workflows; deleting it or editing someone else's is refused and changes nothing",
      async () => {
        const user = env.user.catalog;
        const admin = env.admin.catalog;
        const start = await counts(admin, model);
        const mine = await createAnnotation(user, model, input('Vegetation on the bearing', { category: 'vegetation' }), {
          uid: userUid,
          email: 'user@contract.test',
        });
        expect(mine.id).toBe(annotationId(model, (start.seq ?? 0) + 1));
        expect(await counts(admin, model)).toEqual({ count: (start.count ?? 0) + 1, seq: (start.seq ?? 0) + 1 });
        expect((await admin.get('annotations', mine.id))?.author_uid).toBe(userUid);

        await updateAnnotation(user, mine.id, input('Vegetation on the bearing, cut back', { category: 'vegetation', status: 'repaired' }));
        expect((await admin.get('annotations', mine.id))?.status).toBe('repaired');

        const afterCreate = await counts(admin, model);
        expect(await refusal(deleteAnnotation(user, mine.id))).toBe('permission-denied');
        expect(await admin.get('annotations', mine.id)).not.toBeNull();
        expect(await counts(admin, model)).toEqual(afterCreate);

        const admins = (await listModelAnnotations(admin, model)).find((a) => a.author_uid === adminUid)!;
        expect(await refusal(updateAnnotation(user, admins.id, input('Not mine')))).toBe('permission-denied');
        expect((await admin.get('annotations', admins.id))?.title).toBe(admins.title);

        // as someone else: refused, nothing written
        expect(await refusal(createAnnotation(user, model, input('Forged'), { uid: adminUid, email: null }))).toBe('permission-denied');
        expect(await counts(admin, model)).toEqual(afterCreate);
        // alignments are admins' only
        const alignment = {
          referenceModelId: model,
          modelId: other,
          projectId: project,
          matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
          method: 'same-frame' as const,
          pairs: [],
          rmsError: 0,
          created_by: userUid,
        };
        expect(await refusal(user.set('alignments', alignmentId(model, other), alignment))).toBe('permission-denied');
        expect(await admin.get('alignments', alignmentId(model, other))).toBeNull();
      },
    );

    it('a finding made from a change region keeps the region; a user may name only a change map of the model they can read', async () => {
      const admin = env.admin.catalog;
      const mapId = alignmentId(other, model);
      const hiddenMapId = alignmentId(hidden, model);
      await admin.set('changeMaps', mapId, changeMapFieldData(other, model, project));
      await admin.set('changeMaps', hiddenMapId, changeMapFieldData(hidden, model, project));
      try {
        const region = { referenceModelId: other, regionId: 2, maxDistance: -0.45 };
        const byAdmin = await createAnnotation(
          admin,
          model,
          input('Change region 2: removed', { category: 'other' }),
          { uid: adminUid, email: null },
          {
            changeRegion: region,
          },
        );
        expect(byAdmin.changeRegion).toEqual(region);
        expect((await admin.get('annotations', byAdmin.id))?.changeRegion).toEqual(region);
        // an edit keeps it
        await updateAnnotation(admin, byAdmin.id, input('Change region 2: removed antenna', { category: 'other' }));
        expect((await admin.get('annotations', byAdmin.id))?.changeRegion).toEqual(region);
        // one point, the region's centre: nothing written otherwise
        const distance = input('Two points', {
          points: [
            { x: 0, y: 0, z: 0 },
            { x: 1, y: 0, z: 0 },
          ],
        });
        expect(await refusal(createAnnotation(admin, model, distance, { uid: adminUid, email: null }, { changeRegion: region }))).toBe(
          'invalid-argument',
        );
        // a finding without one stores null
        const plain = await createAnnotation(admin, model, input('Plain'), { uid: adminUid, email: null });
        expect((await admin.get('annotations', plain.id))?.changeRegion).toBeNull();
        if (backend.noRules !== null) return;

        const user = env.user.catalog;
        const mine = await createAnnotation(
          user,
          model,
          input('Change region 1: added or moved'),
          { uid: userUid, email: null },
          {
            changeRegion: { referenceModelId: other, regionId: 1, maxDistance: 0.3 },
          },
        );
        expect((await admin.get('annotations', mine.id))?.changeRegion).toEqual({ referenceModelId: other, regionId: 1, maxDistance: 0.3 });
        // a hidden reference, or no change map of the pair: refused, nothing written
        const before = await counts(admin, model);
        for (const referenceModelId of [hidden, `none-${tag}`]) {
          const code = await refusal(
            createAnnotation(
              user,
              model,
              input('Not mine to name'),
              { uid: userUid, email: null },
              {
                changeRegion: { referenceModelId, regionId: 1, maxDistance: 0.3 },
              },
            ),
          );
          // (the server refuses the content, 400; Firestore's rules answer permission-denied)
          expect(['invalid-argument', 'permission-denied']).toContain(code);
        }
        expect(await counts(admin, model)).toEqual(before);
      } finally {
        await admin.delete('changeMaps', mapId);
        await admin.delete('changeMaps', hiddenMapId);
      }
    });

    it.skipIf(backend.noRules !== null)("a hidden model's findings are withheld from a user, who cannot add one there", async () => {
      const admin = env.admin.catalog;
      const user = env.user.catalog;
      const found = await createAnnotation(admin, hidden, input('Crack under the deck'), { uid: adminUid, email: null });
      const { id: foundId, created_at: createdAt, last_updated: lastUpdated, ...findingFields } = found;
      expect([foundId, createdAt, lastUpdated]).toEqual([annotationId(hidden, 1), null, null]);
      expect((await listModelAnnotations(admin, hidden)).map((a) => a.id)).toEqual([found.id]);
      expect(await listModelAnnotations(user, hidden)).toEqual([]);
      expect(await user.get('annotations', found.id)).toBeNull();
      expect((await listProjectAnnotations(user, [model, other, hidden])).some((a) => a.modelId === hidden)).toBe(false);
      // the workflow reads the model first: a user cannot see it
      expect(await refusal(createAnnotation(user, hidden, input('Mine'), { uid: userUid, email: null }))).toBe('not-found');
      // nor write the batch by hand
      expect(
        await refusal(
          user.batch([
            {
              op: 'create',
              collection: 'annotations',
              id: annotationId(hidden, 2),
              data: { ...findingFields, seq: 2, author_uid: userUid, title: 'Mine' },
            },
            { op: 'update', collection: 'models', id: hidden, data: { 'metadata.annotationsCount': 2, 'metadata.annotationsSeq': 2 } },
          ]),
        ),
      ).toBe('permission-denied');
      expect(await counts(admin, hidden)).toEqual({ count: 1, seq: 1 });

      // live: a user's subscription to the hidden model's findings delivers none, never an error
      const delivered: string[][] = [];
      const errors: unknown[] = [];
      const stop = user.subscribe(
        'annotations',
        { where: [['modelId', '==', hidden]] },
        (docs) => delivered.push(docs.map((d) => d.id)),
        (error) => errors.push(error),
      );
      try {
        await expect.poll(() => delivered.length, { timeout: 10_000 }).toBeGreaterThan(0);
        expect(delivered.at(-1)).toEqual([]);
        expect(errors).toEqual([]);
        if (backend.liveFollowsVisibility) {
          // shown: the subscription re-runs with the model's change and delivers the finding
          await admin.update('models', hidden, { visible: true });
          await expect.poll(() => delivered.at(-1), { timeout: 10_000 }).toEqual([found.id]);
          await admin.update('models', hidden, { visible: false });
          await expect.poll(() => delivered.at(-1), { timeout: 10_000 }).toEqual([]);
        }
      } finally {
        stop();
      }
    });

    it.skipIf(backend.noRules !== null)('an alignment with a hidden model is withheld from a user, as the model is', async () => {
      const admin = env.admin.catalog;
      const user = env.user.catalog;
      const id = alignmentId(model, hidden);
      await admin.set('alignments', id, {
        referenceModelId: model,
        modelId: hidden,
        projectId: project,
        matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
        method: 'same-frame',
        pairs: [],
        rmsError: 0,
        created_by: adminUid,
        created_at: SERVER_TIMESTAMP,
      });
      try {
        const pair: Query = {
          where: [
            ['referenceModelId', '==', model],
            ['modelId', '==', hidden],
          ],
        };
        expect((await admin.get('alignments', id))?.modelId).toBe(hidden);
        expect((await admin.query('alignments', pair)).map((a) => a.id)).toEqual([id]);
        expect(await user.get('alignments', id)).toBeNull();
        expect(await user.query('alignments', pair)).toEqual([]);
        expect(await user.count('alignments', pair)).toBe(0);
      } finally {
        await admin.delete('alignments', id);
      }
    });

    it.skipIf(backend.noFiles !== null && backend.noFiles !== undefined)(
      'deleteModel removes the model with its findings and alignments, and leaves the other models alone',
      async () => {
        const admin = env.admin.catalog;
        await admin.set('alignments', alignmentId(other, model), {
          referenceModelId: other,
          modelId: model,
          projectId: project,
          matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
          method: 'same-frame',
          pairs: [],
          rmsError: 0,
          created_by: adminUid,
          created_at: SERVER_TIMESTAMP,
        });
        const ofModel = await listModelAnnotations(admin, model);
        expect(ofModel.length).toBeGreaterThan(0);
        const ofOther = await listModelAnnotations(admin, other);
        await deleteModel(env.admin, model, `model ${model}`);
        expect(await admin.get('models', model)).toBeNull();
        expect(await admin.query('annotations', { where: [['modelId', '==', model]] })).toEqual([]);
        expect(await admin.get('alignments', alignmentId(other, model))).toBeNull();
        expect((await listModelAnnotations(admin, other)).map((a) => a.id)).toEqual(ofOther.map((a) => a.id));
        expect(await counts(admin, other)).toEqual({ count: ofOther.length, seq: 1 });
      },
    );
  });
}
