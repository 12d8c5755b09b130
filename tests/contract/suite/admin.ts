/**
 * Backend contract, part: the admin rules that keep the catalog consistent, over each backend,
 * read back through the ports.
 * - a hidden model cannot be the reference model (`setReferenceModel` refuses it, nothing
 *   changes), and the current reference model cannot be hidden (`setModelVisibility` refuses);
 *   otherwise every user would see 'Unable to load reference model information.';
 * - 'Set as Admin' by UID needs the account (`grantAdmin` refuses a UID without a `users/{uid}`
 *   record and writes nothing; an existing record gets role admin);
 * - 'Delete project and all its models' (`deleteProjectWithModels`): one typed name; files,
 *   records and the project gone; a run that fails midway leaves the project and the models not
 *   reached intact, and running it again finishes the job.
 */
import { describe, expect, it } from 'vitest';
import { ProjectMessages, ValidationMessages, noAccountWithUid } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { FileStorePort } from '@shared/ports/files.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import {
  addModel,
  createProject,
  deleteProjectWithModels,
  grantAdmin,
  setModelVisibility,
  setReferenceModel,
  uploadAdditionalFiles,
} from '@shared/workflows/index.js';
import type { ContractContext } from './context.js';
import { expectCode, rejection } from './context.js';
import { gaussianPly, triangleGlb } from '../../support/model-fixtures.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function adminContract(ctx: ContractContext): void {
  const { env, tag, skip } = ctx;

  const newProject = (suffix: string): Promise<string> =>
    createProject(env.admin.catalog, { name: `Admin ${tag} ${suffix}`, structure_id: `${tag}-A-${suffix}` });

  /** A model with its two main files (the record only when the backend stores no files). */
  const newModel = async (projectId: string, publicId: string, setAsReference = false) =>
    (
      await addModel(
        env.admin,
        {
          projectId,
          publicId,
          name: `Model ${publicId}`,
          modelType: 'hybrid',
          setAsReference,
          files: skip.files
            ? {}
            : {
                splat: { source: new Blob([gaussianPly(8)]), name: 'scan.ply' },
                glb: { source: new Blob([await triangleGlb()]), name: 'mesh.glb' },
              },
        },
        { recordOnly: Boolean(skip.files), confirmReplaceReference: async () => true },
      )
    ).model;

  describe('admin rules: hidden models and the reference, Set as Admin by UID, deleting a project with its models', () => {
    it('a hidden model cannot be made the reference; the reference model cannot be hidden; nothing changes', async () => {
      const projectId = await newProject('hidden-ref');
      const ref = await newModel(projectId, 'HR-1', true);
      const other = await newModel(projectId, 'HR-2');
      await setModelVisibility(env.admin.catalog, other.id, false);

      const refused = await rejection(setReferenceModel(env.admin.catalog, projectId, other.id));
      expect(refused.code).toBe('failed-precondition');
      expect(refused.message).toBe(ProjectMessages.hiddenReference);
      expect((await env.admin.catalog.get('projects', projectId))?.reference_model_id).toBe(ref.id);
      expect((await env.admin.catalog.get('models', other.id))?.isReference).toBe(false);

      const hide = await rejection(setModelVisibility(env.admin.catalog, ref.id, false));
      expect(hide.code).toBe('failed-precondition');
      expect(hide.message).toBe(ProjectMessages.hideReferenceRefused);
      expect((await env.admin.catalog.get('models', ref.id))?.visible).toBe(true);

      // shown again, it can become the reference; then the old reference may be hidden
      await setModelVisibility(env.admin.catalog, other.id, true);
      await setReferenceModel(env.admin.catalog, projectId, other.id);
      await setModelVisibility(env.admin.catalog, ref.id, false);
      expect((await env.admin.catalog.get('models', ref.id))?.visible).toBe(false);
      expect((await env.admin.catalog.get('projects', projectId))?.reference_model_id).toBe(other.id);
    });

    it("'Set as Admin' refuses a UID without an account and writes nothing; an existing record becomes admin", async () => {
      const missing = `no-such-uid-${tag}`;
      const error = await rejection(grantAdmin(env.admin.catalog, missing));
      expect(error.code).toBe('not-found');
      expect(error.message).toBe(noAccountWithUid(missing));
      expect(await env.admin.catalog.get('users', missing)).toBeNull();
      await expectCode(grantAdmin(env.admin.catalog, '   '), 'invalid-argument');

      const uid = `admin-contract-${tag}`;
      await env.admin.catalog.set('users', uid, { uid, email: `${uid}@example.com`, role: 'user' });
      await grantAdmin(env.admin.catalog, `  ${uid} `);
      expect(await env.admin.catalog.get('users', uid)).toMatchObject({ uid, email: `${uid}@example.com`, role: 'admin' });
      // an account the caller found itself (the CLI's promote by email) is written with its email
      const found = `admin-found-${tag}`;
      await grantAdmin(env.admin.catalog, found, { account: { uid: found, email: `${found}@Example.com` } });
      expect(await env.admin.catalog.get('users', found)).toMatchObject({ uid: found, email: `${found}@example.com`, role: 'admin' });
      if (!skip.roles) await expectCode(grantAdmin(env.user.catalog, uid), 'permission-denied');
      await env.admin.catalog.delete('users', uid);
      await env.admin.catalog.delete('users', found);
    });

    it.skipIf(Boolean(skip.files))(
      'deletes a project with all its models after one typed name: files, records and the project gone',
      async () => {
        const projectId = await newProject('with-models');
        const name = `Admin ${tag} with-models`;
        const ref = await newModel(projectId, 'WM-1', true);
        const hidden = await newModel(projectId, 'WM-2');
        await setModelVisibility(env.admin.catalog, hidden.id, false);
        const third = await newModel(projectId, 'WM-3');
        await uploadAdditionalFiles(env.admin, third.id, 'assets', [{ source: new Blob(['notes']), name: 'notes.txt' }]);
        const models = [ref, hidden, third];

        const mismatch = await rejection(deleteProjectWithModels(env.admin, projectId, `${name}!`));
        expect(mismatch.code).toBe('invalid-argument');
        expect(mismatch.message).toBe(ValidationMessages.projectNameMismatch);
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(3);
        if (!skip.roles) await expectCode(deleteProjectWithModels(env.user, projectId, name), 'permission-denied', 'storage/unauthorized');
        expect(await env.admin.catalog.get('projects', projectId)).not.toBeNull();

        const progress: number[] = [];
        const done = await deleteProjectWithModels(env.admin, projectId, `  ${name} `, {
          chunk: 2,
          onProgress: (p) => progress.push(p.modelsDeleted),
        });
        expect(done.name).toBe(name);
        expect(done.modelsDeleted).toBe(3);
        // two main files each (and a web-sized copy where the backend makes one), plus the asset
        expect(done.filesDeleted).toBeGreaterThanOrEqual(7);
        expect(progress).toEqual([2, 3]);
        expect(await env.admin.catalog.get('projects', projectId)).toBeNull();
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(0);
        for (const model of models) {
          expect(await env.admin.catalog.get('models', model.id)).toBeNull();
          expect(await env.admin.files.list(`models/${model.uuid}/`)).toEqual({ items: [], prefixes: [] });
        }
        await expectCode(deleteProjectWithModels(env.admin, projectId, name), 'not-found');
      },
    );

    it.skipIf(Boolean(skip.files))('a delete that fails midway leaves a consistent catalog, and a retry finishes it', async () => {
      const projectId = await newProject('retry');
      const name = `Admin ${tag} retry`;
      const models = [await newModel(projectId, 'RT-1', true), await newModel(projectId, 'RT-2'), await newModel(projectId, 'RT-3')];
      // the file store fails on every file of the second model it is asked to delete
      let seen: string | null = null;
      let failing: string | null = null;
      const flaky: FileStorePort = Object.assign(Object.create(env.admin.files) as FileStorePort, {
        delete: async (path: string) => {
          const uuid = path.split('/')[1] ?? '';
          if (seen === null) seen = uuid;
          else if (failing === null && uuid !== seen) failing = uuid;
          if (uuid === failing) throw new AppError(ErrorCode.Unavailable, `refused ${path}`);
          return env.admin.files.delete(path);
        },
      });
      const backend: Pick<Backend, 'catalog' | 'files'> = { catalog: env.admin.catalog, files: flaky };
      const error = await rejection(deleteProjectWithModels(backend, projectId, name, { chunk: 1 }));
      expect(error.code).toBe('unavailable');

      // the project and the models not reached are intact; the first model is gone entirely
      expect(await env.admin.catalog.get('projects', projectId)).not.toBeNull();
      const left = await env.admin.catalog.query('models', { where: [['projectId', '==', projectId]] });
      expect(left).toHaveLength(2);
      const first = models.find((m) => m.uuid === seen)!;
      expect(await env.admin.catalog.get('models', first.id)).toBeNull();
      expect(await env.admin.files.list(`models/${first.uuid}/`)).toEqual({ items: [], prefixes: [] });
      const project = await env.admin.catalog.get('projects', projectId);
      // a project whose reference model is gone has no reference (never a dangling id)
      if (first.id === models[0]!.id) expect(project?.reference_model_id).toBeNull();
      else expect(project?.reference_model_id).toBe(models[0]!.id);
      for (const model of left) expect((await env.admin.files.list(`models/${model.uuid}/`)).items.length).toBeGreaterThan(0);

      const retried = await deleteProjectWithModels(env.admin, projectId, name);
      expect(retried.modelsDeleted).toBe(2);
      expect(await env.admin.catalog.get('projects', projectId)).toBeNull();
      for (const model of models) {
        expect(await env.admin.catalog.get('models', model.id)).toBeNull();
        expect(await env.admin.files.list(`models/${model.uuid}/`)).toEqual({ items: [], prefixes: [] });
      }
    });
  });
}
