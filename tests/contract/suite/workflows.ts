/**
 * Backend contract, part: the workflows of `shared/workflows` over each backend (the multi-record
 * changes behind the ports: reference-model transitions, delete guards, visibility, model files,
 * users): what each of them leaves behind, read back through the ports.
 * - reference model (adding a model marked as reference, and the reference picker): a new model
 *   marked as reference sets the project's reference_model_id when it has none; with one,
 *   declining the replacement keeps the old reference and still creates the model; setting a
 *   reference clears isReference on the old model, sets it on the new one and updates the
 *   project; a model of another project is refused; deleting the reference model clears the
 *   project's reference_model_id; hiding it is refused (otherwise every user would see 'Unable to
 *   load reference model information.'); a hidden model stops reaching non-admins;
 * - delete guards (the project delete flow and the typed-name confirmations): a project with
 *   associated models — hidden ones included — cannot be deleted; the typed name must match
 *   (trimmed); a model's typed name too;
 * - visibility (admins hide and show models; non-admins see only visible ones): hide and show
 *   stamp last_updated; non-admins never receive a hidden model; only admins toggle it;
 * - projects (the project form's rules): validation before anything is written;
 * - model files (the model management screen: additional files, delete one, delete all):
 *   additional uploads are listed in the record, main files cannot be deleted one by one,
 *   delete-all keeps them, deleting a model removes its files;
 * - users (role resolution at first sign-in, the register-user form): registration writes the
 *   record, an existing email is refused, a first sign-in gets its role from the allowlist.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ProjectMessages, ValidationMessages, projectHasModels } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import { publicIdInUse } from '@shared/validation/models.js';
import {
  addModel,
  createProject,
  deleteAllModelFiles,
  deleteModel,
  deleteModelFile,
  deleteProject,
  listModelFiles,
  registerUser,
  resolveRole,
  setModelVisibility,
  setReferenceModel,
  updateModel,
  updateProject,
  uploadAdditionalFiles,
} from '@shared/workflows/index.js';
import type { AddModelInput } from '@shared/workflows/index.js';
import type { ContractContext } from './context.js';
import { bytes, expectCode, rejection } from './context.js';
import { cameraMetadataText, gaussianPly, HTML_PAGE, jpegPhoto, LFS_POINTER, pngPhoto, triangleGlb } from '../../support/model-fixtures.js';

/** The main files' content: a 3DGS PLY of 8 Gaussians and a one-triangle GLB (both pass the content checks). */
const SPLAT_BYTES = gaussianPly(8);
const GLB_BYTES = triangleGlb();

/** Declares this part of the contract for the backend of `ctx`. */
export function workflowsContract(ctx: ContractContext): void {
  const { env, tag, skip } = ctx;

  /** A project made by the project workflow, named after the run and `suffix`. */
  const newProject = (suffix: string): Promise<string> =>
    createProject(env.admin.catalog, { name: `Workflow ${tag} ${suffix}`, structure_id: `${tag}-W-${suffix}` });

  /**
   * Adds a model with the add-model workflow: with its two main files when the backend stores
   * files, else the record only (`recordOnly`, as `catalog seed` does without file storage).
   */
  const newModel = async (
    backend: Pick<Backend, 'catalog' | 'files'>,
    projectId: string,
    publicId: string,
    extra: Partial<AddModelInput> = {},
    hooks: Parameters<typeof addModel>[2] = {},
  ) =>
    addModel(
      backend,
      {
        projectId,
        publicId,
        name: `Model ${publicId}`,
        modelType: 'hybrid',
        setAsReference: false,
        files: skip.files ? {} : await mainFiles(),
        ...extra,
      },
      { recordOnly: Boolean(skip.files), ...hooks },
    );

  /** A model's two main files (a 3DGS PLY of 8 Gaussians, a one-triangle GLB). */
  const mainFiles = async () => ({
    splat: { source: new Blob([SPLAT_BYTES]), name: 'scan.ply' },
    glb: { source: new Blob([await GLB_BYTES]), name: 'mesh.glb' },
  });

  /** The project's reference_model_id and the ids of its models with isReference true. */
  const referenceState = async (projectId: string): Promise<{ project: string | null | undefined; flagged: string[] }> => {
    const project = await env.admin.catalog.get('projects', projectId);
    const flagged = await env.admin.catalog.query('models', {
      where: [
        ['projectId', '==', projectId],
        ['isReference', '==', true],
      ],
    });
    return { project: project?.reference_model_id, flagged: flagged.map((m) => m.id).sort() };
  };

  describe('workflows', () => {
    describe('reference model', () => {
      it('a first model added as reference sets the project reference; a second one replaces it only when confirmed', async () => {
        const projectId = await newProject('ref-add');
        expect((await env.admin.catalog.get('projects', projectId))?.reference_model_id).toBeNull();
        const first = await newModel(env.admin, projectId, 'R-1', { setAsReference: true });
        expect(first.referenceUpdated).toBe(true);
        expect(first.model.isReference).toBe(true);
        expect(await referenceState(projectId)).toEqual({ project: first.model.id, flagged: [first.model.id] });

        let asked = 0;
        const decline = async (): Promise<boolean> => (asked += 1) < 0;
        const declined = await newModel(env.admin, projectId, 'R-2', { setAsReference: true }, { confirmReplaceReference: decline });
        expect(asked).toBe(1);
        expect(declined.referenceUpdated).toBe(false);
        expect((await env.admin.catalog.get('models', declined.model.id))?.isReference).toBe(false);
        expect(await referenceState(projectId)).toEqual({ project: first.model.id, flagged: [first.model.id] });

        const accept = async (): Promise<boolean> => true;
        const accepted = await newModel(env.admin, projectId, 'R-3', { setAsReference: true }, { confirmReplaceReference: accept });
        expect(accepted.referenceUpdated).toBe(true);
        expect(await referenceState(projectId)).toEqual({ project: accepted.model.id, flagged: [accepted.model.id] });
        expect((await env.admin.catalog.get('models', first.model.id))?.isReference).toBe(false);
      });

      it('setting a reference moves isReference to the new model and stamps every changed record', async () => {
        const projectId = await newProject('ref-set');
        const a = await newModel(env.admin, projectId, 'S-1', { setAsReference: true });
        const b = await newModel(env.admin, projectId, 'S-2');
        const before = await env.admin.catalog.get('models', a.model.id);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await setReferenceModel(env.admin.catalog, projectId, b.model.id);
        expect(await referenceState(projectId)).toEqual({ project: b.model.id, flagged: [b.model.id] });
        const old = await env.admin.catalog.get('models', a.model.id);
        expect(old?.isReference).toBe(false);
        expect(Date.parse(old!.last_updated!)).toBeGreaterThan(Date.parse(before!.last_updated!));
        // setting the current reference again changes nothing about who is the reference
        await setReferenceModel(env.admin.catalog, projectId, b.model.id);
        expect(await referenceState(projectId)).toEqual({ project: b.model.id, flagged: [b.model.id] });
        // a user sees the same reference (the project and the flag)
        expect((await env.user.catalog.get('projects', projectId))?.reference_model_id).toBe(b.model.id);
        expect((await env.user.catalog.get('models', b.model.id))?.isReference).toBe(true);
      });

      it('refuses a model of another project, a missing model or project, and a non-admin, changing nothing', async () => {
        const projectId = await newProject('ref-guard');
        const other = await newProject('ref-other');
        const ref = await newModel(env.admin, projectId, 'G-1', { setAsReference: true });
        const stranger = await newModel(env.admin, other, 'G-2');
        await expectCode(setReferenceModel(env.admin.catalog, projectId, stranger.model.id), 'invalid-argument');
        await expectCode(setReferenceModel(env.admin.catalog, projectId, `missing-${tag}`), 'not-found');
        const missingProject = await rejection(setReferenceModel(env.admin.catalog, `missing-${tag}`, ref.model.id));
        expect(missingProject.code).toBe('not-found');
        expect(missingProject.message).toBe(ProjectMessages.notFound);
        if (!skip.roles) {
          const mine = await newModel(env.admin, projectId, 'G-3');
          await expectCode(setReferenceModel(env.user.catalog, projectId, mine.model.id), 'permission-denied');
        }
        expect(await referenceState(projectId)).toEqual({ project: ref.model.id, flagged: [ref.model.id] });
        expect(await referenceState(other)).toEqual({ project: null, flagged: [] });
      });

      it.skipIf(Boolean(skip.files))('deleting the reference model clears the project reference; deleting another keeps it', async () => {
        const projectId = await newProject('ref-delete');
        const ref = await newModel(env.admin, projectId, 'D-1', { setAsReference: true });
        const other = await newModel(env.admin, projectId, 'D-2');
        const kept = await deleteModel(env.admin, other.model.id, `  ${other.model.name} `);
        expect(kept.name).toBe(other.model.name);
        expect(await referenceState(projectId)).toEqual({ project: ref.model.id, flagged: [ref.model.id] });
        const deleted = await deleteModel(env.admin, ref.model.id, ref.model.name);
        // the splat, the GLB and, where the backend makes one, the web-sized copy
        const webCopies = ref.model.files?.webSplatPath ? 1 : 0;
        expect(deleted).toEqual({ name: ref.model.name, filesDeleted: 2 + webCopies, filesNotDeleted: [] });
        expect(await env.admin.catalog.get('models', ref.model.id)).toBeNull();
        expect(await referenceState(projectId)).toEqual({ project: null, flagged: [] });
        expect(await env.admin.files.list(`models/${ref.model.uuid}/`)).toEqual({ items: [], prefixes: [] });
        // with no reference left, the next model added as reference becomes it without asking
        const next = await newModel(env.admin, projectId, 'D-3', { setAsReference: true }, { confirmReplaceReference: async () => false });
        expect(next.referenceUpdated).toBe(true);
        expect(await referenceState(projectId)).toEqual({ project: next.model.id, flagged: [next.model.id] });
      });

      it.skipIf(Boolean(skip.roles))(
        'hiding the reference model is refused; a hidden model stops reaching non-admins until shown',
        async () => {
          const projectId = await newProject('ref-hide');
          const ref = await newModel(env.admin, projectId, 'H-1', { setAsReference: true });
          const plain = await newModel(env.admin, projectId, 'H-2');
          const refused = await rejection(setModelVisibility(env.admin.catalog, ref.model.id, false, env.admin.files));
          expect(refused.code).toBe('failed-precondition');
          expect(refused.message).toBe(ProjectMessages.hideReferenceRefused);
          expect((await env.admin.catalog.get('models', ref.model.id))?.visible).toBe(true);
          expect(await referenceState(projectId)).toEqual({ project: ref.model.id, flagged: [ref.model.id] });
          const before = await env.admin.catalog.get('models', plain.model.id);
          await new Promise((resolve) => setTimeout(resolve, 5));
          await setModelVisibility(env.admin.catalog, plain.model.id, false, env.admin.files);
          const hidden = await env.admin.catalog.get('models', plain.model.id);
          expect(hidden?.visible).toBe(false);
          expect(Date.parse(hidden!.last_updated!)).toBeGreaterThan(Date.parse(before!.last_updated!));
          expect(await referenceState(projectId)).toEqual({ project: ref.model.id, flagged: [ref.model.id] });
          expect(await env.user.catalog.get('models', plain.model.id)).toBeNull();
          const where: [string, '==', string][] = [['projectId', '==', projectId]];
          expect((await env.user.catalog.query('models', { where })).map((m) => m.id)).toEqual([ref.model.id]);
          expect(await env.user.catalog.count('models', { where })).toBe(1);
          await setModelVisibility(env.admin.catalog, plain.model.id, true, env.admin.files);
          expect((await env.user.catalog.get('models', ref.model.id))?.isReference).toBe(true);
          expect(await env.user.catalog.count('models', { where })).toBe(2);
        },
      );
    });

    describe('delete guards', () => {
      it('a project with models cannot be deleted (hidden ones count); the typed name must match; then it can', async () => {
        const projectId = await newProject('guard');
        const name = `Workflow ${tag} guard`;
        const mismatch = await rejection(deleteProject(env.admin.catalog, projectId, `${name}!`));
        expect(mismatch.code).toBe('invalid-argument');
        expect(mismatch.message).toBe(ValidationMessages.projectNameMismatch);
        const a = await newModel(env.admin, projectId, 'P-1');
        const b = await newModel(env.admin, projectId, 'P-2');
        await setModelVisibility(env.admin.catalog, b.model.id, false);
        const guarded = await rejection(deleteProject(env.admin.catalog, projectId, name));
        expect(guarded.code).toBe('failed-precondition');
        expect(guarded.message).toBe(projectHasModels(2));
        expect(guarded.context.count).toBe(2);
        expect(await env.admin.catalog.get('projects', projectId)).not.toBeNull();
        for (const model of [a.model, b.model]) {
          if (skip.files) await env.admin.catalog.delete('models', model.id);
          else await deleteModel(env.admin, model.id, model.name);
        }
        expect(await deleteProject(env.admin.catalog, projectId, `  ${name}  `)).toBe(name);
        expect(await env.admin.catalog.get('projects', projectId)).toBeNull();
        const gone = await rejection(deleteProject(env.admin.catalog, projectId, name));
        expect(gone.code).toBe('not-found');
        expect(gone.message).toBe(ProjectMessages.notFound);
      });

      it.skipIf(Boolean(skip.roles))('a user cannot delete a project, even an empty one', async () => {
        const projectId = await newProject('guard-user');
        await expectCode(deleteProject(env.user.catalog, projectId, `Workflow ${tag} guard-user`), 'permission-denied');
        expect(await env.admin.catalog.get('projects', projectId)).not.toBeNull();
        await deleteProject(env.admin.catalog, projectId, `Workflow ${tag} guard-user`);
      });

      it.skipIf(Boolean(skip.files))('a model is deleted only when its typed name matches; nothing is deleted otherwise', async () => {
        const projectId = await newProject('guard-model');
        const { model } = await newModel(env.admin, projectId, 'M-1');
        const error = await rejection(deleteModel(env.admin, model.id, 'another name'));
        expect(error.code).toBe('invalid-argument');
        expect(error.message).toBe(ValidationMessages.modelNameMismatch);
        expect(await env.admin.catalog.get('models', model.id)).not.toBeNull();
        expect((await env.admin.files.list(`models/${model.uuid}/`)).items).toHaveLength(model.files?.webSplatPath ? 3 : 2);
        await expectCode(deleteModel(env.admin, `missing-${tag}`, 'x'), 'not-found');
        if (!skip.roles) await expectCode(deleteModel(env.user, model.id, model.name), 'permission-denied', 'storage/unauthorized');
        expect(await env.admin.catalog.get('models', model.id)).not.toBeNull();
      });
    });

    describe('projects and models', () => {
      it('the project form is validated before anything is written; updates stamp last_updated', async () => {
        const invalid = await rejection(createProject(env.admin.catalog, { name: `Workflow ${tag} bad`, mapUrl: 'javascript:alert(1)' }));
        expect(invalid.code).toBe('invalid-argument');
        expect(await env.admin.catalog.query('projects', { where: [['name', '==', `Workflow ${tag} bad`]] })).toEqual([]);
        const projectId = await newProject('form');
        const created = await env.admin.catalog.get('projects', projectId);
        expect(created).toMatchObject({ name: `Workflow ${tag} form`, structure_id: `${tag}-W-form`, reference_model_id: null });
        await new Promise((resolve) => setTimeout(resolve, 5));
        const form = { name: `Workflow ${tag} form 2`, structure_id: `${tag}-W-form`, mapUrl: 'https://maps.example/x' };
        await updateProject(env.admin.catalog, projectId, form);
        const updated = await env.admin.catalog.get('projects', projectId);
        expect(updated?.name).toBe(`Workflow ${tag} form 2`);
        expect(updated?.location?.mapUrl).toBe('https://maps.example/x');
        expect(Date.parse(updated!.last_updated!)).toBeGreaterThan(Date.parse(created!.last_updated!));
        expect(updated?.created_at).toBe(created?.created_at);
        await expectCode(updateProject(env.admin.catalog, `missing-${tag}`, { name: 'x' }), 'not-found');
      });

      it('a Public ID is unique within a project (add, by default, and edit); other projects may reuse it', async () => {
        const projectId = await newProject('public-id');
        const other = await newProject('public-id-2');
        const first = await newModel(env.admin, projectId, 'U-1');
        const clash = await rejection(newModel(env.admin, projectId, 'U-1'));
        expect(clash.code).toBe('already-exists');
        expect(clash.message).toBe(publicIdInUse('U-1'));
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(1);
        await newModel(env.admin, other, 'U-1', {}, { uniquePublicId: true });
        const second = await newModel(env.admin, projectId, 'U-2', {}, { uniquePublicId: true });
        const unique = { uniquePublicId: true };
        await expectCode(
          updateModel(env.admin.catalog, second.model.id, { name: 'Second', publicId: 'U-1', captureDate: '' }, unique),
          'already-exists',
        );
        const kept = await updateModel(
          env.admin.catalog,
          first.model.id,
          { name: ' First ', publicId: 'U-1', captureDate: '2025-06-01' },
          unique,
        );
        expect(kept).toEqual({ name: 'First', publicId: 'U-1', captureDate: '2025-06-01' });
        const edited = await env.admin.catalog.get('models', first.model.id);
        expect(edited?.name).toBe('First');
        expect(edited?.metadata?.captureDate).toBe('2025-06-01');
        expect(edited?.metadata?.displayOrder).toBe(0);
      });

      it('a malformed Public ID is refused by add-model before anything is written', async () => {
        const projectId = await newProject('public-id-format');
        const uuid = randomUUID();
        const refused = await rejection(newModel(env.admin, projectId, 'BAD PUB/ID <b>x</b>', {}, { uuid }));
        expect(refused.code).toBe('invalid-argument');
        expect(refused.message).toBe(ValidationMessages.publicIdPattern);
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(0);
        if (!skip.files) expect(await env.admin.files.list(`models/${uuid}/`)).toEqual({ items: [], prefixes: [] });
      });
    });

    describe.skipIf(Boolean(skip.files))('content checks', () => {
      it('add-model refuses a file that is not what its name says, with the message, and writes nothing', async () => {
        const projectId = await newProject('content');
        const good = await mainFiles();
        const truncated = SPLAT_BYTES.subarray(0, SPLAT_BYTES.byteLength - 100);
        const cases: Array<[Partial<AddModelInput['files']>, string]> = [
          [
            { glb: { source: new Blob([HTML_PAGE]), name: 'html-named.glb' } },
            'This .glb is an HTML page, not a GLB file (html-named.glb).',
          ],
          [{ glb: { source: new Blob([await jpegPhoto()]), name: 'photo.glb' } }, 'This .glb is a JPEG image, not a GLB file (photo.glb).'],
          [{ splat: { source: new Blob([LFS_POINTER]), name: 'point_cloud.ply' } }, 'This .ply is a Git LFS pointer'],
          [{ splat: { source: new Blob([truncated]), name: 'cut.ply' } }, 'This .ply is truncated: its header declares 8 Gaussians'],
          [{ images: [{ source: new Blob([HTML_PAGE]), name: 'photo.jpg' }] }, 'This .jpg is an HTML page, not an image (photo.jpg).'],
        ];
        for (const [files, message] of cases) {
          const uuid = randomUUID();
          const refused = await rejection(
            addModel(
              env.admin,
              { projectId, publicId: 'C-1', name: 'Content', modelType: 'hybrid', setAsReference: false, files: { ...good, ...files } },
              { uuid },
            ),
          );
          expect(refused.code).toBe('invalid-argument');
          expect(refused.message).toContain(message);
          expect(await env.admin.files.list(`models/${uuid}/`)).toEqual({ items: [], prefixes: [] });
        }
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', projectId]] })).toBe(0);
      });

      it('add-model stores the validation report, and a thumbnail made from the first photo when the platform can', async () => {
        const projectId = await newProject('report');
        const photos = [
          { source: new Blob([await pngPhoto(40, 30)]), name: '00000.png' },
          { source: new Blob([await pngPhoto(40, 30)]), name: '00001.png' },
        ];
        const thumbnail = new Blob([await jpegPhoto(8, 6)], { type: 'image/jpeg' });
        const { model } = await addModel(
          env.admin,
          {
            projectId,
            publicId: 'REP-1',
            name: 'Report',
            modelType: 'hybrid',
            setAsReference: false,
            files: {
              ...(await mainFiles()),
              cameraMetadata: { text: cameraMetadataText(['00000.png', '00001.png', 'missing.png']), name: 'cameras.json' },
              images: photos,
            },
          },
          { content: { makeThumbnail: async () => thumbnail } },
        );
        const report = (await env.admin.catalog.get('models', model.id))?.validation;
        expect(report).toMatchObject({
          version: 1,
          splat: { verdict: 'ok', format: 'ply', gaussians: 8, shDegree: 3, boundingBox: { min: [0, 0, -7], max: [7, 14, 0] } },
          glb: { verdict: 'ok', meshes: 1, triangles: 1, vertices: 3, generator: 'catalog tests' },
          cameraMetadata: { verdict: 'ok', cameras: 3, withPhoto: 2 },
          photos: { count: 2, dimensions: [{ width: 40, height: 30, count: 2 }] },
        });
        expect(model.files?.thumbnails).toEqual([`models/${model.uuid}/images_thumbnails/thumbnail.jpg`]);
        expect((await env.admin.files.getMetadata(model.files!.thumbnails![0]!)).size).toBe(thumbnail.size);
        if (env.admin.files.makeWebSplat) {
          expect(model.files?.webSplatPath).toBe(`models/${model.uuid}/model.spz`);
          expect(model.files?.webSplatSize).toBeGreaterThan(0);
        } else {
          expect(model.files?.webSplatPath ?? null).toBeNull();
          expect(report?.notes.join(' ')).toContain('No web-sized copy');
        }
      });

      it('additional photos are checked (nothing written when one is refused) and added to the report', async () => {
        const projectId = await newProject('more-photos');
        const { model } = await newModel(env.admin, projectId, 'MP-1');
        const refused = await rejection(
          uploadAdditionalFiles(env.admin, model.id, 'images', [
            { source: new Blob([await pngPhoto()]), name: 'ok.png' },
            { source: new Blob([await pngPhoto()]), name: 'renamed.jpg' },
          ]),
        );
        expect(refused.message).toBe('This .jpg is a PNG image, not a JPEG image (renamed.jpg).');
        expect(await env.admin.files.list(`models/${model.uuid}/images/`)).toEqual({ items: [], prefixes: [] });
        await uploadAdditionalFiles(env.admin, model.id, 'images', [{ source: new Blob([await pngPhoto(20, 10)]), name: 'ok.png' }]);
        const record = await env.admin.catalog.get('models', model.id);
        expect(record?.validation?.photos).toMatchObject({ count: 1, dimensions: [{ width: 20, height: 10, count: 1 }] });
        expect(record?.validation?.splat?.gaussians).toBe(8);
        // a photo that replaces one of the same name is not counted twice
        await uploadAdditionalFiles(env.admin, model.id, 'images', [{ source: new Blob([await pngPhoto(20, 10)]), name: 'ok.png' }]);
        expect((await env.admin.catalog.get('models', model.id))?.validation?.photos?.count).toBe(1);
      });
    });

    describe.skipIf(Boolean(skip.files))('model files', () => {
      it('additional files are uploaded into the record; main files cannot be deleted one by one; delete-all keeps them', async () => {
        const projectId = await newProject('files');
        const { model } = await newModel(env.admin, projectId, 'F-1');
        const main = [model.files!.splatPath!, model.files!.glbPath!];
        const web = model.files?.webSplatPath ? [model.files.webSplatPath] : [];
        const stages: string[] = [];
        const [photoA, photoB] = [await jpegPhoto(16, 12), await jpegPhoto(32, 24)];
        const uploaded = await uploadAdditionalFiles(
          env.admin,
          model.id,
          'images',
          [
            { source: new Blob([photoA]), name: 'a.jpg' },
            { source: new Blob([photoB]), name: 'b.jpg' },
          ],
          { onStage: (stage) => stages.push(stage) },
        );
        expect(uploaded).toEqual({ count: 2, folder: 'images' });
        expect(stages).toEqual(['preparing', 'uploading', 'processing', 'completed']);
        await uploadAdditionalFiles(env.admin, model.id, 'assets', [{ source: new Blob([bytes(30)]), name: 'notes.txt' }]);
        const images = [`models/${model.uuid}/images/a.jpg`, `models/${model.uuid}/images/b.jpg`];
        expect((await env.admin.catalog.get('models', model.id))?.files?.images).toEqual(images);
        const listed = await listModelFiles(env.admin, model.id);
        expect(listed.map((entry) => [entry.path, entry.size])).toEqual([
          [main[0], SPLAT_BYTES.byteLength],
          [main[1], (await GLB_BYTES).byteLength],
          ...web.map((path) => [path, model.files!.webSplatSize]),
          [images[0], photoA.byteLength],
          [images[1], photoB.byteLength],
          [`models/${model.uuid}/assets/notes.txt`, 30],
        ]);
        if (!skip.roles) {
          expect((await listModelFiles(env.user, model.id)).map((entry) => entry.path)).toEqual(listed.map((entry) => entry.path));
        }

        const refused = await rejection(deleteModelFile(env.admin, model.id, main[0]!));
        expect(refused.code).toBe('invalid-argument');
        expect(refused.message).toBe(ValidationMessages.cannotDeleteMainFiles);
        await deleteModelFile(env.admin, model.id, images[0]!);
        expect((await env.admin.catalog.get('models', model.id))?.files?.images).toEqual([images[1]]);
        await expectCode(env.admin.files.getMetadata(images[0]!), 'storage/object-not-found');

        expect(await deleteAllModelFiles(env.admin, model.id)).toBe(2);
        const record = await env.admin.catalog.get('models', model.id);
        expect(record?.files).toMatchObject({ images: [], assets: [], splatPath: main[0], glbPath: main[1] });
        expect((await listModelFiles(env.admin, model.id)).map((entry) => entry.path)).toEqual([...main, ...web]);
        expect(await deleteAllModelFiles(env.admin, model.id)).toBe(0);
      });

      it('an add-model upload canceled after some files landed leaves no file and no record', async () => {
        const projectId = await newProject('files-cancel');
        const uuid = randomUUID();
        const controller = new AbortController();
        const files = { ...(await mainFiles()), images: [{ source: new Blob([await jpegPhoto()]), name: 'a.jpg' }] };
        const error = await rejection(
          addModel(
            env.admin,
            { projectId, publicId: 'X-1', name: 'Canceled', modelType: 'hybrid', setAsReference: true, files },
            {
              uuid,
              signal: controller.signal,
              onFile: (_key, status) => {
                if (status === 'completed') controller.abort();
              },
            },
          ),
        );
        expect(error.code).toBe('storage/canceled');
        expect(await env.admin.catalog.get('models', uuid)).toBeNull();
        expect(await env.admin.files.list(`models/${uuid}/`)).toEqual({ items: [], prefixes: [] });
        expect(await referenceState(projectId)).toEqual({ project: null, flagged: [] });
      });
    });

    describe.skipIf(Boolean(skip.identity || skip.selfRegistration))('users', () => {
      it('registration writes the user record; an email already registered is refused', async () => {
        const email = `Reg-${tag}@Example.com`;
        const record = await registerUser(env.service, { email, password: 'secret-1', role: 'user' }, 'contract');
        expect(record).toMatchObject({ email: email.toLowerCase(), role: 'user', created_by: 'contract' });
        expect(record.uid).toBe(record.id);
        const again = await rejection(registerUser(env.service, { email: email.toLowerCase(), password: 'secret-1' }, 'contract'));
        expect(again.code).toBe('already-exists');
        expect(again.message).toBe(ValidationMessages.registerEmailExists);
      });

      it('a first sign-in resolves the role from the allowlist and writes it; a second one reads it', async () => {
        const plain = `first-${tag}@example.com`;
        const boss = `boss-${tag}@example.com`;
        await env.service.identity.createAccount(plain, 'secret-1');
        await env.service.identity.createAccount(boss, 'secret-1');
        await env.admin.catalog.set('admins', boss, { email: boss });
        for (const [email, role] of [
          [plain, 'user'],
          [boss, 'admin'],
        ] as const) {
          const user = await env.anon.identity.signIn(email, 'secret-1');
          try {
            expect(await resolveRole(env.anon.catalog, user)).toBe(role);
            expect((await env.anon.catalog.get('users', user.uid))?.role).toBe(role);
            expect(await resolveRole(env.anon.catalog, user)).toBe(role);
          } finally {
            await env.anon.identity.signOut();
          }
        }
        expect(await resolveRole(env.anon.catalog, null)).toBeNull();
        expect(await resolveRole(env.service.catalog, env.service.identity.currentUser())).toBe('admin');
      });
    });
  });
}
