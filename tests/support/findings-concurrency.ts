/**
 * Findings counts under concurrency, as a contract any backend is held to through its ports: 20
 * finding creates and deletes at once on one model, by a user and an admin, all succeed and leave
 * `metadata.annotationsCount` equal to the findings stored and `annotationsSeq` at the last number
 * given; a user's create racing an admin's delete succeeds (a conflict is retried, never a
 * permission error); and a model deleted while findings are being added to it leaves no finding
 * behind (each create either is deleted with the model or fails with 'Model not found'). Bound to
 * backends by tests/contract/annotations-concurrency.test.ts (memory, local server) and
 * tests/firebase/annotations-concurrency-emulator.test.ts (the web SDK under firestore.rules).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnnotationInput } from '@shared/annotations.js';
import { AnnotationMessages, annotationId } from '@shared/annotations.js';
import { AppError } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import { createAnnotation, deleteAnnotation } from '@shared/workflows/annotations.js';
import { deleteModelsWithFindings } from '@shared/workflows/model-delete-records.js';
import { deleteModel } from '@shared/workflows/delete-model.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { randomTag } from '../contract/suite/context.js';

/** A backend to run the concurrency contract on. */
export interface ConcurrencyBackend {
  /** Shown in the report. */
  name: string;
  /** Makes the admin, user, signed-out and service clients. */
  setup: () => Promise<ContractSetup>;
  /** Why nothing runs (null: everything runs). */
  skipAll: string | null;
  /**
   * True when the backend has file storage, so the model delete is `deleteModel` itself; without
   * it the catalog part (`deleteModelsWithFindings`, which deleteModel ends with) runs.
   */
  files: boolean;
  /** Milliseconds each test may take (the emulator's transactions back off for a second or more). */
  timeoutMs: number;
}

const input = (title: string): AnnotationInput => ({ title, category: 'crack', severity: 2, points: [{ x: 1, y: 2, z: 3 }] });

/** What a settled call ended with: 'ok', or the AppError's code and message. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return error instanceof AppError ? `${error.code}: ${error.message}` : `unexpected: ${String(error)}`;
  }
}

/**
 * Declares the concurrency contract for one backend.
 * @param backend the backend and whether it skips, with the printed reason
 */
export function describeFindingsConcurrency(backend: ConcurrencyBackend): void {
  if (backend.skipAll) console.info(`[findings concurrency ${backend.name}] skipping: ${backend.skipAll}`);

  describe.skipIf(backend.skipAll !== null)(`findings counts under concurrency: ${backend.name}`, () => {
    let env: ContractSetup;
    let adminUid = '';
    let userUid = '';
    const tag = randomTag();
    const project = `proj-c-${tag}`;

    const addModel = async (id: string, publicId: string): Promise<void> => {
      await env.admin.catalog.set('models', id, {
        uuid: id,
        publicId,
        name: `model ${id}`,
        projectId: project,
        visible: true,
        files: {},
        metadata: {},
        created_at: SERVER_TIMESTAMP,
      } as never);
    };
    /** The model's counters and the findings stored for it, as the admin reads them. */
    const state = async (id: string): Promise<{ count: number | undefined; seq: number | undefined; stored: string[] }> => {
      const model = await env.admin.catalog.get('models', id);
      const stored = await env.admin.catalog.query('annotations', { where: [['modelId', '==', id]] });
      return {
        count: model?.metadata?.annotationsCount,
        seq: model?.metadata?.annotationsSeq,
        stored: stored.map((f) => f.id).sort(),
      };
    };
    const asAdmin = (): { uid: string; email: string } => ({ uid: adminUid, email: 'admin@contract.test' });
    const asUser = (): { uid: string; email: string } => ({ uid: userUid, email: 'user@contract.test' });

    beforeAll(async () => {
      env = await backend.setup();
      adminUid = env.admin.identity.currentUser()?.uid ?? 'cli';
      userUid = env.user.identity.currentUser()?.uid ?? 'cli';
      await env.admin.catalog.set('projects', project, {
        name: `Concurrency ${tag}`,
        structure_id: `C-${tag}`,
        created_at: SERVER_TIMESTAMP,
      });
    });

    afterAll(async () => {
      await env?.teardown();
    });

    it(
      '20 creates and deletes at once by a user and an admin all succeed; the count is the findings stored',
      async () => {
        const model = `model-c-${tag}`;
        await addModel(model, `C1-${tag}`);
        const seeded: string[] = [];
        for (let i = 0; i < 8; i += 1) seeded.push((await createAnnotation(env.admin.catalog, model, input(`Seed ${i}`), asAdmin())).id);
        expect(await state(model)).toMatchObject({ count: 8, seq: 8 });

        // 12 creates (6 by the user, 6 by the admin) and 8 admin deletes, interleaved, all at once
        const calls: Array<Promise<unknown>> = [];
        for (let i = 0; i < 12; i += 1) {
          const user = i % 2 === 0;
          calls.push(
            createAnnotation(user ? env.user.catalog : env.admin.catalog, model, input(`Parallel ${i}`), user ? asUser() : asAdmin()),
          );
          if (i < 8) calls.push(deleteAnnotation(env.admin.catalog, seeded[i]!));
        }
        const outcomes = await Promise.all(calls.map(outcome));
        expect(outcomes).toEqual(calls.map(() => 'ok'));

        const after = await state(model);
        expect(after.stored.length).toBe(12);
        expect(after.count).toBe(12);
        expect(after.seq).toBe(20);
        // every number from 9 to 20 given once, none of the deleted ones left
        expect(after.stored).toEqual(Array.from({ length: 12 }, (_, i) => annotationId(model, i + 9)).sort());
      },
      backend.timeoutMs,
    );

    it(
      "a user's create racing an admin's delete succeeds, never a permission error",
      async () => {
        const model = `model-r-${tag}`;
        await addModel(model, `C2-${tag}`);
        for (let round = 0; round < 4; round += 1) {
          const victim = await createAnnotation(env.admin.catalog, model, input(`To delete ${round}`), asAdmin());
          const [created, deleted] = await Promise.all([
            outcome(createAnnotation(env.user.catalog, model, input(`Mine ${round}`), asUser())),
            outcome(deleteAnnotation(env.admin.catalog, victim.id)),
          ]);
          expect([created, deleted]).toEqual(['ok', 'ok']);
        }
        const after = await state(model);
        expect(after).toMatchObject({ count: 4, seq: 8 });
        expect(after.stored.length).toBe(4);
      },
      backend.timeoutMs,
    );

    it(
      'a model deleted while a user and an admin add findings to it leaves no finding behind',
      async () => {
        const model = `model-d-${tag}`;
        await addModel(model, `C3-${tag}`);
        await createAnnotation(env.admin.catalog, model, input('Before'), asAdmin());
        let created = 0;
        let gone = false;
        const refusals: string[] = [];
        let underWay = (): void => undefined;
        const started = new Promise<void>((resolve) => (underWay = resolve));
        // Writers add findings until the model is gone (at most 20 each).
        const writer = async (client: Backend, author: () => { uid: string; email: string }): Promise<void> => {
          for (let i = 0; i < 20 && !gone; i += 1) {
            const result = await outcome(createAnnotation(client.catalog, model, input(`While deleting ${i}`), author()));
            if (result !== 'ok') {
              refusals.push(result);
              return;
            }
            created += 1;
            if (created === 3) underWay();
          }
        };
        const writers = [writer(env.user, asUser), writer(env.admin, asAdmin), writer(env.user, asUser), writer(env.admin, asAdmin)];
        // the delete starts once the writers are under way, and runs beside them
        await started;
        const stored = await env.admin.catalog.get('models', model);
        if (backend.files) await deleteModel(env.admin, model, `model ${model}`);
        else await deleteModelsWithFindings(env.admin.catalog, [stored!]);
        gone = true;
        await Promise.all(writers);

        expect(await env.admin.catalog.get('models', model)).toBeNull();
        expect((await state(model)).stored).toEqual([]);
        expect(await env.service.catalog.query('annotations', { where: [['modelId', '==', model]] })).toEqual([]);
        // a create after the delete is refused as 'Model not found', never as a permission error
        for (const refusal of refusals) expect(refusal).toBe(`not-found: ${AnnotationMessages.modelNotFound}`);
        expect(await outcome(createAnnotation(env.user.catalog, model, input('Too late'), asUser()))).toBe(
          `not-found: ${AnnotationMessages.modelNotFound}`,
        );
      },
      backend.timeoutMs,
    );
  });
}
