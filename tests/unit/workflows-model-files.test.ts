/**
 * The model-files and update-model workflows on the in-memory backend (`setupMemoryBackend`,
 * which passes the same contract suite as the embedded one; signed in as an admin): listing with progress, additional uploads, camera
 * metadata checks (nothing written on bad input), per-file delete refusing main files, delete-all
 * keeping the main files, and the edit-model rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@shared/errors.js';
import { ValidationMessages } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import {
  addModel,
  createProject,
  deleteModel,
  deletableFiles,
  deleteAllModelFiles,
  deleteModelFile,
  listModelFiles,
  updateModel,
  uploadAdditionalFiles,
  uploadCameraMetadata,
} from '@shared/workflows/index.js';
import type { ContractSetup } from '../contract/suite/index.js';
import { setupMemoryBackend } from '../support/memory-backend.js';
import { cameraEntry, jpegPhoto, splatFile, triangleGlb } from '../support/model-fixtures.js';

const CAMERA = cameraEntry();

/** An upload source as the workflows take it: `content` as a Blob, named `name`. */
const upload = (name: string, content: BlobPart) => ({ source: new Blob([content]), name });

async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error.message;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('model files workflows (the model management screen: extra files, camera metadata, edit, delete)', () => {
  let setup: ContractSetup;
  let admin: Backend;
  let modelId: string;

  beforeAll(async () => {
    setup = await setupMemoryBackend();
    admin = setup.admin;
    const projectId = await createProject(admin.catalog, { name: 'Files Tower', structure_id: 'FT-1' });
    const { model } = await addModel(admin, {
      projectId,
      publicId: 'FT-1-A',
      name: 'Survey A',
      modelType: 'hybrid',
      setAsReference: true,
      files: { splat: upload('scan.splat', splatFile(2)), glb: upload('mesh.glb', await triangleGlb()) },
    });
    modelId = model.id;
  });

  afterAll(async () => setup?.teardown());

  it('uploads images, thumbnails, assets and camera metadata through the four stages and lists them with progress', async () => {
    const stages: string[] = [];
    const result = await uploadAdditionalFiles(
      admin,
      modelId,
      'images',
      [upload('one.jpg', await jpegPhoto()), upload('two.jpg', await jpegPhoto())],
      {
        onStage: (s) => stages.push(s),
      },
    );
    expect(result).toEqual({ count: 2, folder: 'images' });
    expect(stages).toEqual(['preparing', 'uploading', 'processing', 'completed']);
    await uploadAdditionalFiles(admin, modelId, 'thumbnails', [upload('thumb.jpg', await jpegPhoto(8, 6))]);
    await uploadAdditionalFiles(admin, modelId, 'assets', [upload('notes.txt', 'a')]);
    expect(
      await uploadCameraMetadata(admin, modelId, [{ name: 'cams.json', text: JSON.stringify([CAMERA, { ...CAMERA, id: 2 }]) }]),
    ).toEqual({ cameras: 2 });

    const progress: Array<[number, number]> = [];
    const entries = await listModelFiles(admin, modelId, (loaded, total) => progress.push([loaded, total]));
    expect(entries.map((e) => e.type).sort()).toEqual(['asset', 'cameraMetadata', 'glb', 'image', 'image', 'splat', 'thumbnail']);
    expect(progress.at(-1)).toEqual([7, 7]);
    expect(deletableFiles(entries)).toHaveLength(5);
    const model = await admin.catalog.get('models', modelId);
    expect(model?.files.images).toHaveLength(2);
    expect(model?.files.cameraMetadata).toMatch(/camera-metadata\.json$/);
  });

  it('refuses bad camera metadata with the camera-metadata upload messages and writes nothing', async () => {
    const before = await admin.catalog.get('models', modelId);
    const cases: Array<[Array<{ name: string; text: string }>, string]> = [
      [
        [
          { name: 'a.json', text: '[]' },
          { name: 'b.json', text: '[]' },
        ],
        ValidationMessages.cameraOneFile,
      ],
      [[{ name: 'a.txt', text: '[]' }], ValidationMessages.cameraJsonOnly],
      [[{ name: 'a.json', text: '{oops' }], ValidationMessages.cameraInvalidJson],
      [[{ name: 'a.json', text: '{}' }], ValidationMessages.cameraNotArray],
      [[{ name: 'a.json', text: '[]' }], ValidationMessages.cameraEmpty],
      [[{ name: 'a.json', text: JSON.stringify([CAMERA, { ...CAMERA, id: 'x' }]) }], 'JSON format error: Camera 2: id must be a number'],
    ];
    for (const [files, message] of cases) expect(await rejection(uploadCameraMetadata(admin, modelId, files))).toBe(message);
    expect(await admin.catalog.get('models', modelId)).toEqual(before);
  });

  it('refuses to delete a main file, deletes one extra file and then all extra files but never the main ones', async () => {
    const entries = await listModelFiles(admin, modelId);
    const splat = entries.find((e) => e.type === 'splat')!;
    expect(await rejection(deleteModelFile(admin, modelId, splat.path))).toBe(ValidationMessages.cannotDeleteMainFiles);
    const image = entries.find((e) => e.type === 'image')!;
    await deleteModelFile(admin, modelId, image.path);
    const after = await listModelFiles(admin, modelId);
    expect(after.some((e) => e.path === image.path)).toBe(false);
    expect((await admin.catalog.get('models', modelId))?.files.images).not.toContain(image.path);

    expect(await deleteAllModelFiles(admin, modelId)).toBe(4);
    const left = await listModelFiles(admin, modelId);
    expect(left.map((e) => e.type).sort()).toEqual(['glb', 'splat']);
    const model = await admin.catalog.get('models', modelId);
    expect(model?.files).toMatchObject({ images: [], thumbnails: [], assets: [], cameraMetadata: null });
    expect(await deleteAllModelFiles(admin, modelId)).toBe(0);
  });

  it('updates a model with the Edit Model rules, writing nothing on bad input', async () => {
    expect(await rejection(updateModel(admin.catalog, modelId, { name: ' ', publicId: 'X' }))).toBe(ValidationMessages.modelNameRequired);
    expect(await rejection(updateModel(admin.catalog, modelId, { name: 'N', publicId: '' }))).toBe(ValidationMessages.publicIdRequired);
    expect(await rejection(updateModel(admin.catalog, modelId, { name: 'N', publicId: 'a b' }))).toBe(ValidationMessages.publicIdPattern);
    expect(await rejection(updateModel(admin.catalog, modelId, { name: 'N', publicId: 'ok', captureDate: '2025-02-30' }))).toBe(
      ValidationMessages.invalidDate,
    );
    expect((await admin.catalog.get('models', modelId))?.name).toBe('Survey A');
    await updateModel(admin.catalog, modelId, { name: ' Survey A2 ', publicId: 'FT-1-A2', captureDate: '2025-06-01' });
    const model = await admin.catalog.get('models', modelId);
    expect(model).toMatchObject({ name: 'Survey A2', publicId: 'FT-1-A2', metadata: { captureDate: '2025-06-01', displayOrder: 0 } });
  });

  it('deleteModel deletes the record and reports, without throwing, the files it could not delete', async () => {
    const projectId = await createProject(admin.catalog, { name: 'Leftover Tower', structure_id: 'LO-1' });
    const { model } = await addModel(admin, {
      projectId,
      publicId: 'LO-1-A',
      name: 'Leftover survey',
      modelType: 'mesh',
      setAsReference: false,
      files: { glb: upload('mesh.glb', await triangleGlb()), images: [upload('a.jpg', await jpegPhoto())] },
    });
    const stuck = model.files.glbPath as string;
    // the file store refuses to delete the GLB (as a storage outage would)
    const flaky: Backend = {
      ...admin,
      files: {
        ...admin.files,
        list: (f) => admin.files.list(f),
        delete: (path) => (path === stuck ? Promise.reject(new Error('storage unavailable')) : admin.files.delete(path)),
      },
    };
    const result = await deleteModel(flaky, model.id, '  Leftover survey ');
    expect(result).toEqual({ name: 'Leftover survey', filesDeleted: 1, filesNotDeleted: [stuck] });
    expect(await admin.catalog.get('models', model.id)).toBeNull();
    expect((await admin.files.getMetadata(stuck)).path).toBe(stuck);
  });
});
