/**
 * The change-map workflows (shared/workflows/change-maps.ts) as a contract any backend is held to,
 * through its ports: a change map is saved beside its values file and read by its pair and in its
 * capture's list, is refused without its values file or with a field that breaks its rules (the
 * field table of tests/support/change-map-field-table.ts, written raw), and is deleted with its
 * values file; camera metadata added, replaced (at the same path: its upload time in the record
 * changes) or deleted puts the maps of its model out of date, as the capture or as the reference;
 * deleting either model takes its change maps and their values files with it; a user
 * reads the change map of two models they can open, never one with a hidden model (nor its values
 * file), and writes none. An admin accepts a change map's registration as the pair's alignment
 * ('icp', keeping the manual alignment it replaced, the map staying up to date) and resets it to
 * that alignment or to none; a user does neither, and the registration of files changed since is
 * refused. The alignment field table (tests/support/alignment-field-table.ts, written raw) holds
 * alignments of all three methods to the stored-document rules. Bound to backends by
 * tests/contract/change-maps.test.ts (memory, local server, firebase-admin); the acceptance case
 * also by tests/firebase/alignments-emulator.test.ts (the web SDK under firestore.rules).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alignmentId } from '@shared/annotations.js';
import { AlignmentMessages } from '@shared/alignment.js';
import { ChangeMapMessages, changeMapInputFile, changeMapOutOfDate } from '@shared/change-map-document.js';
import { AppError } from '@shared/errors.js';
import { changeValuesPath } from '@shared/paths.js';
import type { Backend, Query } from '@shared/ports/index.js';
import type { ModelData } from '@shared/types.js';
import { acceptRegistration, deleteAlignment, getAlignment, resetAlignment, saveAlignment } from '@shared/workflows/alignments.js';
import { deleteChangeMap, getChangeMap, listChangeMaps, saveChangeMap } from '@shared/workflows/change-maps.js';
import type { SaveChangeMapInput } from '@shared/workflows/change-maps.js';
import { deleteModel } from '@shared/workflows/delete-model.js';
import { deleteModelFile } from '@shared/workflows/model-files-delete.js';
import { uploadCameraMetadata } from '@shared/workflows/model-files-upload.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { randomTag } from '../contract/suite/context.js';
import { ALIGNMENT_FIELD_CASES, alignmentFieldCaseName, alignmentFieldData } from './alignment-field-table.js';
import { CHANGE_MAP_FIELD_CASES, changeMapFieldCaseName, changeMapFieldData } from './change-map-field-table.js';
import { cameraMetadataText } from './model-fixtures.js';

/** A backend to run the change-map contract on. */
export interface ChangeMapsBackend {
  /** Shown in the report. */
  name: string;
  /** Makes the admin, user, signed-out and service clients. */
  setup: () => Promise<ContractSetup>;
  /** Why nothing runs (null: everything runs). */
  skipAll: string | null;
  /** Why the user's cases and the field table skip (the clients bypass rules and store what they are sent), or null. */
  noRules: string | null;
}

/** The code of the AppError a promise is refused with (fails when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal, the call succeeded');
}

/**
 * Declares the change-map contract for one backend.
 * @param backend the backend and what of it skips, with the printed reasons
 */
export function describeChangeMapWorkflows(backend: ChangeMapsBackend): void {
  if (backend.skipAll) console.info(`[change maps ${backend.name}] skipping: ${backend.skipAll}`);
  else if (backend.noRules) console.info(`[change maps ${backend.name}] skipping the user rule and the field table: ${backend.noRules}`);

  describe.skipIf(backend.skipAll !== null)(`change-map workflows: ${backend.name}`, () => {
    let env: ContractSetup;
    const tag = randomTag();
    const project = `proj-c-${tag}`;
    const [reference, capture, hidden] = [randomUUID(), randomUUID(), randomUUID()];

    const modelRecord = (id: string, visible: boolean): ModelData => ({
      uuid: id,
      publicId: `C-${id.slice(0, 8)}`,
      name: `model ${id}`,
      projectId: project,
      visible,
      files: { splatPath: `models/${id}/model.ply`, splatSize: 4000 },
      metadata: {},
      uploaded_at: '2026-01-05T08:00:00.000Z',
    });
    const addModel = async (id: string, visible = true): Promise<void> => {
      await env.admin.catalog.set('models', id, modelRecord(id, visible));
    };
    /** The input of a computed change map of `modelId` against `referenceModelId` (inputs: both files as stored, no alignment). */
    const input = (referenceModelId: string, modelId: string, extra: Partial<SaveChangeMapInput> = {}): SaveChangeMapInput => {
      const data = changeMapFieldData(referenceModelId, modelId, project);
      return {
        referenceModelId,
        modelId,
        inputs: {
          modelFile: changeMapInputFile(modelRecord(modelId, true)),
          referenceFile: changeMapInputFile(modelRecord(referenceModelId, true)),
          alignment: null,
        },
        registration: data.registration,
        levelOfDetection: data.levelOfDetection,
        pointCount: data.pointCount,
        referencePointCount: data.referencePointCount,
        histogram: data.histogram,
        regions: data.regions,
        computedBy: 'cli',
        ...extra,
      };
    };
    const uploadValues = async (referenceModelId: string, modelId: string): Promise<string> => {
      const path = changeValuesPath(modelId, referenceModelId);
      await env.admin.files.upload(path, new Blob([new Uint8Array(20)]), { contentType: 'application/octet-stream' });
      return path;
    };
    const stored = async (files: Backend['files'], path: string): Promise<boolean> => {
      try {
        await files.getMetadata(path);
        return true;
      } catch (error) {
        expect((error as AppError).code).toBe('storage/object-not-found');
        return false;
      }
    };

    beforeAll(async () => {
      env = await backend.setup();
      await env.admin.catalog.set('projects', project, { name: `Changes ${tag}`, structure_id: `C-${tag}` });
      await addModel(reference);
      await addModel(capture);
      await addModel(hidden, false);
    });

    afterAll(async () => {
      await env?.teardown();
    });

    it("saves a change map beside its values file, reads it by its pair and in its capture's list, and deletes both", async () => {
      const admin = env.admin.catalog;
      const path = await uploadValues(reference, capture);
      const saved = await saveChangeMap(admin, env.admin.files, input(reference, capture));
      expect(saved).toMatchObject({ id: alignmentId(reference, capture), valuesPath: path, projectId: project, computed_at: null });

      const read = await getChangeMap(admin, reference, capture);
      const { computed_at: computedAt, ...rest } = read!;
      const { computed_at: _none, ...written } = saved;
      expect(computedAt).toBeTruthy();
      expect(rest).toEqual(written);
      expect(await getChangeMap(admin, capture, reference)).toBeNull(); // one direction only
      expect((await listChangeMaps(admin, capture)).map((m) => m.id)).toEqual([saved.id]);
      expect(await listChangeMaps(admin, reference)).toEqual([]);
      // computed from the files as they are: up to date
      expect(changeMapOutOfDate(read!, modelRecord(capture, true), modelRecord(reference, true), null)).toBeNull();

      expect(await deleteChangeMap(env.admin, reference, capture)).toEqual({ deleted: true, filesNotDeleted: [] });
      expect(await getChangeMap(admin, reference, capture)).toBeNull();
      expect(await stored(env.admin.files, path)).toBe(false);
      expect(await deleteChangeMap(env.admin, reference, capture)).toEqual({ deleted: false, filesNotDeleted: [] });
    });

    it('refuses a change map without its values file or with a field that breaks its rules, and writes nothing', async () => {
      const admin = env.admin.catalog;
      const missing = await refusal(saveChangeMap(admin, env.admin.files, input(reference, capture)));
      expect([missing.code, missing.message]).toEqual([
        'failed-precondition',
        ChangeMapMessages.valuesMissing(changeValuesPath(capture, reference)),
      ]);
      const path = await uploadValues(reference, capture);
      const tooMany = input(reference, capture, { regions: Array.from({ length: 101 }, () => input(reference, capture).regions[0]!) });
      const refused = await refusal(saveChangeMap(admin, env.admin.files, tooMany));
      expect([refused.code, refused.message]).toEqual(['invalid-argument', ChangeMapMessages.regionsMax]);
      const itself = await refusal(saveChangeMap(admin, env.admin.files, input(capture, capture)));
      expect([itself.code, itself.message]).toEqual(['invalid-argument', ChangeMapMessages.sameModel]);
      expect(await getChangeMap(admin, reference, capture)).toBeNull();
      await env.admin.files.delete(path);
    });

    describe.skipIf(backend.noRules !== null)('the field table of tests/support/change-map-field-table.ts', () => {
      for (const c of CHANGE_MAP_FIELD_CASES) {
        it(changeMapFieldCaseName(c), async () => {
          const id = c.id ? c.id(reference, capture) : alignmentId(reference, capture);
          const data = c.change(changeMapFieldData(reference, capture, project));
          const write = env.admin.catalog.set('changeMaps', id, data as never);
          if (c.expect === 'allow') await write;
          else expect((await refusal(write)).code).toBe('invalid-argument');
          await env.admin.catalog.delete('changeMaps', id);
        });
      }
    });

    it.skipIf(backend.noRules !== null)(
      'a user reads the change map of two models they can open, never one with a hidden model nor its values, and writes none',
      async () => {
        const admin = env.admin.catalog;
        const user = env.user.catalog;
        const paths = [await uploadValues(reference, capture), await uploadValues(reference, hidden), await uploadValues(hidden, capture)];
        await saveChangeMap(admin, env.admin.files, input(reference, capture));
        await saveChangeMap(admin, env.admin.files, input(reference, hidden));
        await saveChangeMap(admin, env.admin.files, input(hidden, capture));
        try {
          const pair = (referenceModelId: string, modelId: string): Query => ({
            where: [
              ['referenceModelId', '==', referenceModelId],
              ['modelId', '==', modelId],
            ],
          });
          expect((await getChangeMap(user, reference, capture))?.modelId).toBe(capture);
          expect((await user.query('changeMaps', pair(reference, capture))).length).toBe(1);
          for (const [referenceModelId, modelId] of [
            [reference, hidden],
            [hidden, capture],
          ] as const) {
            expect(await getChangeMap(user, referenceModelId, modelId)).toBeNull();
            expect(await user.query('changeMaps', pair(referenceModelId, modelId))).toEqual([]);
            expect(await user.count('changeMaps', pair(referenceModelId, modelId))).toBe(0);
            expect((await getChangeMap(admin, referenceModelId, modelId))?.modelId).toBe(modelId);
          }
          expect((await listChangeMaps(user, capture)).map((m) => m.referenceModelId)).toEqual([reference]);
          expect((await listChangeMaps(admin, capture)).map((m) => m.referenceModelId).sort()).toEqual([reference, hidden].sort());
          // the values files: those of a hidden capture and of a hidden reference read as missing
          expect(await stored(env.user.files, paths[0]!)).toBe(true);
          expect(await stored(env.user.files, paths[1]!)).toBe(false);
          expect(await stored(env.user.files, paths[2]!)).toBe(false);
          expect(await stored(env.admin.files, paths[2]!)).toBe(true);
          // writes are admins' only
          expect((await refusal(saveChangeMap(user, env.user.files, input(reference, capture)))).code).toBe('permission-denied');
          expect((await refusal(user.delete('changeMaps', alignmentId(reference, capture)))).code).toBe('permission-denied');
          expect((await refusal(user.update('changeMaps', alignmentId(reference, capture), { levelOfDetection: 1 }))).code).toBe(
            'permission-denied',
          );
          expect((await getChangeMap(admin, reference, capture))?.levelOfDetection).toBe(0.03);
        } finally {
          for (const [referenceModelId, modelId] of [
            [reference, capture],
            [reference, hidden],
            [hidden, capture],
          ] as const)
            await deleteChangeMap(env.admin, referenceModelId, modelId);
        }
      },
    );

    describe.skipIf(backend.noRules !== null)('the alignment field table of tests/support/alignment-field-table.ts', () => {
      for (const c of ALIGNMENT_FIELD_CASES) {
        it(alignmentFieldCaseName(c), async () => {
          const id = alignmentId(reference, capture);
          const write = env.admin.catalog.set('alignments', id, c.change(alignmentFieldData(reference, capture, project)) as never);
          if (c.expect === 'allow') await write;
          else expect((await refusal(write)).code).toBe('invalid-argument');
          await env.admin.catalog.delete('alignments', id);
        });
      }
    });

    it(ACCEPTANCE_CASE, () => checkRegistrationAcceptance(env, project, backend.noRules === null));

    it('camera metadata added, replaced or deleted puts the maps of its model out of date, as the capture or as the reference', async () => {
      const admin = env.admin.catalog;
      const [ref, cap] = [randomUUID(), randomUUID()];
      await addModel(ref);
      await addModel(cap);
      await uploadValues(ref, cap);
      const records = async () => [(await admin.get('models', cap))!, (await admin.get('models', ref))!] as const;
      /** The pair's map stored as computed from both records as they are now; returns them. */
      const computeNow = async () => {
        const [capture, reference] = await records();
        const inputs = { modelFile: changeMapInputFile(capture), referenceFile: changeMapInputFile(reference), alignment: null };
        await saveChangeMap(admin, env.admin.files, input(ref, cap, { inputs }));
        return [capture, reference] as const;
      };
      const outOfDate = async () => {
        const [capture, reference] = await records();
        return changeMapOutOfDate((await getChangeMap(admin, ref, cap))!, capture, reference, null);
      };
      const cameras = (names: string[]) => [{ name: 'cameras.json', text: cameraMetadataText(names) }];
      try {
        await computeNow();
        expect(await outOfDate()).toBeNull();

        // added to the capture: the record says where and when, and the map is out of date
        await uploadCameraMetadata(env.admin, cap, cameras(['a.jpg']));
        const [added] = await records();
        expect(added.files.cameraMetadata).toBe(`models/${cap}/camera-metadata.json`);
        const uploadedAt = added.files.cameraMetadataUploadedAt!;
        expect(new Date(uploadedAt).toISOString()).toBe(uploadedAt);
        expect(await outOfDate()).toBe(ChangeMapMessages.captureCamerasChanged);

        // computed again (the stamp, camera metadata and all, passes the stored-document rules), then replaced at the same path
        await computeNow();
        expect(await outOfDate()).toBeNull();
        // (a replacement in the same millisecond would keep the time: wait for the clock to move on)
        while (new Date().toISOString() <= uploadedAt) await new Promise((resolve) => setTimeout(resolve, 1));
        await uploadCameraMetadata(env.admin, cap, cameras(['a.jpg', 'b.jpg']));
        const [replaced] = await records();
        expect(replaced.files.cameraMetadata).toBe(added.files.cameraMetadata);
        expect(replaced.files.cameraMetadataUploadedAt! > uploadedAt).toBe(true);
        expect(await outOfDate()).toBe(ChangeMapMessages.captureCamerasChanged);

        // the reference's added
        await computeNow();
        await uploadCameraMetadata(env.admin, ref, cameras(['r.jpg']));
        expect(await outOfDate()).toBe(ChangeMapMessages.referenceCamerasChanged);

        // the capture's deleted: its path and time cleared
        await computeNow();
        await deleteModelFile(env.admin, cap, `models/${cap}/camera-metadata.json`);
        const [deleted] = await records();
        expect([deleted.files.cameraMetadata, deleted.files.cameraMetadataUploadedAt]).toEqual([null, null]);
        expect(await outOfDate()).toBe(ChangeMapMessages.captureCamerasChanged);
      } finally {
        await deleteChangeMap(env.admin, ref, cap);
      }
    });

    it("deleting a model takes its change maps, as the capture or as the reference, with their values files in the captures' folders", async () => {
      const admin = env.admin.catalog;
      const [gone, before, after] = [randomUUID(), randomUUID(), randomUUID()];
      for (const id of [gone, before, after]) await addModel(id);
      // `before` compared with `gone`, and `gone` compared with `after`
      const kept = await uploadValues(before, after);
      const beforeValues = await uploadValues(gone, before);
      const goneValues = await uploadValues(after, gone);
      await saveChangeMap(admin, env.admin.files, input(gone, before));
      await saveChangeMap(admin, env.admin.files, input(after, gone));
      await saveChangeMap(admin, env.admin.files, input(before, after));

      const done = await deleteModel(env.admin, gone, `model ${gone}`);
      expect(done.filesNotDeleted).toEqual([]);
      expect(await admin.get('models', gone)).toBeNull();
      expect(await getChangeMap(admin, gone, before)).toBeNull();
      expect(await getChangeMap(admin, after, gone)).toBeNull();
      expect(await stored(env.admin.files, beforeValues)).toBe(false);
      expect(await stored(env.admin.files, goneValues)).toBe(false);
      // the other models and their own change map stay
      expect(await admin.get('models', before)).not.toBeNull();
      expect(await admin.get('models', after)).not.toBeNull();
      expect((await getChangeMap(admin, before, after))?.valuesPath).toBe(kept);
      expect(await stored(env.admin.files, kept)).toBe(true);
      await deleteChangeMap(env.admin, before, after);
    });
  });
}

/** The name of {@link checkRegistrationAcceptance}'s case. */
export const ACCEPTANCE_CASE =
  "accepts a change map's registration as the pair's 'icp' alignment and resets it to the alignment it replaced, or to none; a user does neither";

/**
 * The acceptance of a change map's registration on one backend (run by
 * {@link describeChangeMapWorkflows} and, through the portal's web SDK under firestore.rules, by
 * tests/firebase/alignments-emulator.test.ts): two new models and a 3-point alignment of them, a
 * change map refined from it (written as the service principal, without its values file, which
 * accepting does not read); the admin accepts its registration ('icp', the 3-point alignment kept
 * as `previous`, the map up to date), accepts again (the same `previous`), resets (the 3-point
 * alignment back as it was, the map up to date); a reset of a manual alignment is refused; without
 * a manual alignment a reset removes the accepted one; the registration of a capture uploaded
 * again is refused; a user accepts and resets nothing.
 * @param env the backend's clients
 * @param projectId the models' project
 * @param rules whether the backend applies the rules to the user (false: the user's refusals are not checked)
 */
export async function checkRegistrationAcceptance(env: ContractSetup, projectId: string, rules: boolean): Promise<void> {
  const admin = env.admin.catalog;
  const [ref, cap] = [randomUUID(), randomUUID()];
  const record = (id: string): ModelData => ({
    uuid: id,
    publicId: `R-${id.slice(0, 8)}`,
    name: `model ${id}`,
    projectId,
    visible: true,
    files: { splatPath: `models/${id}/model.ply`, splatSize: 4000 },
    metadata: {},
    uploaded_at: '2026-01-05T08:00:00.000Z',
  });
  await env.service.catalog.set('models', ref, record(ref));
  await env.service.catalog.set('models', cap, record(cap));
  const pairInput = { referenceModelId: ref, modelId: cap, createdBy: 'admin-uid' };
  const missing = await refusal(acceptRegistration(admin, pairInput));
  expect([missing.code, missing.message]).toEqual(['not-found', AlignmentMessages.noChangeMap]);

  // a 3-point alignment, then the change map refined from it: a quarter turn and a shift
  const manual = await saveAlignment(admin, {
    referenceModelId: ref,
    modelId: cap,
    method: '3-point',
    pairs: [
      { model: { x: 0, y: 0, z: 0 }, reference: { x: 1, y: 0, z: 0 } },
      { model: { x: 1, y: 0, z: 0 }, reference: { x: 2, y: 0, z: 0 } },
      { model: { x: 0, y: 1, z: 0 }, reference: { x: 1, y: 1, z: 0 } },
    ],
    createdBy: 'admin-uid',
  });
  const registration = { matrix: [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 2, 0.5, 0, 1], rmsError: 0.0041, iterations: 12, pairs: 4800 };
  const map = {
    ...changeMapFieldData(ref, cap, projectId),
    inputs: {
      modelFile: changeMapInputFile(record(cap)),
      referenceFile: changeMapInputFile(record(ref)),
      alignment: { method: manual.method, matrix: manual.matrix },
    },
    registration,
  };
  await env.service.catalog.set('changeMaps', alignmentId(ref, cap), map);
  try {
    const accepted = await acceptRegistration(admin, pairInput);
    const replaced = { method: '3-point', matrix: manual.matrix, pairs: manual.pairs, rmsError: manual.rmsError };
    expect(accepted).toMatchObject({ method: 'icp', matrix: registration.matrix, rmsError: 0.0041, pairs: [], previous: replaced });
    const stored = await getAlignment(admin, ref, cap);
    expect(stored).toMatchObject({ method: 'icp', matrix: registration.matrix, rmsError: 0.0041, pairs: [], previous: replaced });
    // the map was measured through this very transform: still up to date
    expect(changeMapOutOfDate(map, record(cap), record(ref), stored)).toBeNull();
    // accepting again (over the 'icp' alignment) keeps what the first one replaced
    expect((await acceptRegistration(admin, pairInput)).previous).toEqual(replaced);

    if (rules) {
      expect((await refusal(acceptRegistration(env.user.catalog, { ...pairInput, createdBy: 'user' }))).code).toBe('permission-denied');
      expect((await refusal(resetAlignment(env.user.catalog, ref, cap, 'user'))).code).toBe('permission-denied');
      expect((await getAlignment(admin, ref, cap))?.method).toBe('icp');
    }

    // reset: the 3-point alignment as it was, and the map up to date with it
    const restored = await resetAlignment(admin, ref, cap, 'admin-uid');
    expect(restored).toMatchObject(replaced);
    const back = await getAlignment(admin, ref, cap);
    expect(back).toMatchObject(replaced);
    expect(back?.previous ?? null).toBeNull();
    expect(changeMapOutOfDate(map, record(cap), record(ref), back)).toBeNull();
    const notAccepted = await refusal(resetAlignment(admin, ref, cap, 'admin-uid'));
    expect([notAccepted.code, notAccepted.message]).toEqual(['failed-precondition', AlignmentMessages.notAccepted]);

    // without a manual alignment: accepted with nothing to restore, and a reset removes it
    await deleteAlignment(admin, ref, cap);
    expect((await acceptRegistration(admin, pairInput)).previous).toBeNull();
    expect(await resetAlignment(admin, ref, cap, 'admin-uid')).toBeNull();
    expect(await getAlignment(admin, ref, cap)).toBeNull();

    // the capture's file uploaded again: its registration is of other files and is refused
    await env.service.catalog.update('models', cap, { uploaded_at: '2026-02-01T00:00:00.000Z' });
    const changed = await refusal(acceptRegistration(admin, pairInput));
    expect([changed.code, changed.message]).toEqual([
      'failed-precondition',
      AlignmentMessages.registrationOutOfDate(ChangeMapMessages.captureChanged),
    ]);
    expect(await getAlignment(admin, ref, cap)).toBeNull();
  } finally {
    await env.service.catalog.delete('alignments', alignmentId(ref, cap));
    await env.service.catalog.delete('changeMaps', alignmentId(ref, cap));
  }
}
