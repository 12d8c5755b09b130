/**
 * The Public ID rule of the model workflows (shared/workflows/public-id.ts `assertPublicIdFree`):
 * unique within a project, on create (`addModel`) and on edit (`updateModel`), with the CLI's
 * message, on by default (on every create path, the model-list upload included, although that
 * upload once had no uniqueness check). `uniquePublicId: false` skips the workflow's
 * pre-check only: the backend refuses the clash when it is written. Runs on the in-memory
 * backend, signed in as an admin (records only: `recordOnly` uploads nothing).
 */
import { describe, expect, it } from 'vitest';
import type { AppError } from '@shared/errors.js';
import { ErrorCode, isAppError } from '@shared/errors.js';
import { ValidationMessages } from '@shared/messages.js';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { publicIdInUse } from '@shared/validation/models.js';
import { addModel, assertPublicIdFree, updateModel } from '@shared/workflows/index.js';

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** A catalog with projects P1 and P2 and model m1 (Public ID TWR-A) in P1. */
async function seeded() {
  const { catalog, files } = createMemoryBackendAs('admin');
  await catalog.batch([
    { op: 'create', collection: 'projects', id: 'P1', data: { name: 'Tower', reference_model_id: null } },
    { op: 'create', collection: 'projects', id: 'P2', data: { name: 'Bridge', reference_model_id: null } },
  ]);
  const add = (publicId: string, projectId = 'P1', hooks: { uniquePublicId?: boolean } = {}) =>
    addModel(
      { catalog, files },
      { projectId, publicId, name: `Model ${publicId}`, modelType: 'splat', setAsReference: false, files: {} },
      { recordOnly: true, ...hooks },
    );
  const { model } = await add('TWR-A');
  return { catalog, add, first: model };
}

describe('assertPublicIdFree (a Public ID is unique within its project)', () => {
  it('passes for a free Public ID, the same Public ID in another project, and the model itself', async () => {
    const { catalog, first } = await seeded();
    await expect(assertPublicIdFree(catalog, { projectId: 'P1', publicId: 'TWR-B' })).resolves.toBeUndefined();
    await expect(assertPublicIdFree(catalog, { projectId: 'P2', publicId: 'TWR-A' })).resolves.toBeUndefined();
    await expect(assertPublicIdFree(catalog, { projectId: 'P1', publicId: 'TWR-A', exceptModelId: first.id })).resolves.toBeUndefined();
  });

  it('refuses a Public ID another model of the project has: already-exists, the CLI message', async () => {
    const { catalog, first } = await seeded();
    const error = await failure(assertPublicIdFree(catalog, { projectId: 'P1', publicId: 'TWR-A' }));
    expect(error.code).toBe(ErrorCode.AlreadyExists);
    expect(error.message).toBe('Public ID TWR-A is already used in this project.');
    expect(error.message).toBe(publicIdInUse('TWR-A'));
    expect(error.context).toEqual({ publicId: 'TWR-A', modelId: first.id });
  });
});

describe('addModel and the Public ID rule', () => {
  it('with uniquePublicId: refuses a clash (trimmed) before writing anything; another project is fine', async () => {
    const { catalog, add } = await seeded();
    const error = await failure(add(' TWR-A ', 'P1', { uniquePublicId: true }));
    expect(error.code).toBe(ErrorCode.AlreadyExists);
    expect(error.message).toBe(publicIdInUse('TWR-A'));
    expect(await catalog.count('models')).toBe(1);
    const { model } = await add('TWR-A', 'P2', { uniquePublicId: true });
    expect(model.projectId).toBe('P2');
    const next = await add('TWR-B', 'P1', { uniquePublicId: true });
    expect(next.model.publicId).toBe('TWR-B');
  });

  it('by default too (every create path), and without the pre-check the backend refuses the clash when written', async () => {
    const { catalog, add } = await seeded();
    const byDefault = await failure(add('TWR-A'));
    expect(byDefault.code).toBe(ErrorCode.AlreadyExists);
    expect(byDefault.message).toBe(publicIdInUse('TWR-A'));
    const atWrite = await failure(add('TWR-A', 'P1', { uniquePublicId: false }));
    expect(atWrite.code).toBe(ErrorCode.AlreadyExists);
    expect(atWrite.message).toBe(publicIdInUse('TWR-A'));
    expect(await catalog.query('models', { where: [['publicId', '==', 'TWR-A']] })).toHaveLength(1);
  });

  it('refuses a malformed Public ID (the Edit rule) before writing anything', async () => {
    const { catalog, add } = await seeded();
    const error = await failure(add('BAD PUB/ID <b>x</b>'));
    expect(error.code).toBe(ErrorCode.InvalidArgument);
    expect(error.message).toBe(ValidationMessages.publicIdPattern);
    expect(await catalog.count('models')).toBe(1);
  });
});

describe('updateModel and the Public ID rule', () => {
  it("with uniquePublicId: refuses another model's Public ID in the project, keeps its own, writes nothing on a clash", async () => {
    const { catalog, add, first } = await seeded();
    const { model: second } = await add('TWR-B');
    const error = await failure(updateModel(catalog, second.id, { name: 'Renamed', publicId: ' TWR-A ' }, { uniquePublicId: true }));
    expect(error.code).toBe(ErrorCode.AlreadyExists);
    expect(error.message).toBe(publicIdInUse('TWR-A'));
    expect((await catalog.get('models', second.id))?.name).toBe('Model TWR-B');
    await expect(updateModel(catalog, first.id, { name: 'Same id', publicId: 'TWR-A' }, { uniquePublicId: true })).resolves.toMatchObject({
      publicId: 'TWR-A',
    });
    await expect(updateModel(catalog, second.id, { name: 'New id', publicId: 'TWR-C' }, { uniquePublicId: true })).resolves.toMatchObject({
      publicId: 'TWR-C',
    });
  });

  it("the format rule of the Edit form comes first, with that form's messages; an unknown model is not-found", async () => {
    const { catalog, first } = await seeded();
    expect((await failure(updateModel(catalog, first.id, { name: 'N', publicId: 'bad id!' }, { uniquePublicId: true }))).message).toBe(
      ValidationMessages.publicIdPattern,
    );
    expect((await failure(updateModel(catalog, first.id, { name: 'N', publicId: ' ' }, { uniquePublicId: true }))).message).toBe(
      ValidationMessages.publicIdRequired,
    );
    expect((await failure(updateModel(catalog, 'missing', { name: 'N', publicId: 'X' }, { uniquePublicId: true }))).code).toBe(
      ErrorCode.NotFound,
    );
  });

  it('by default too (the Edit Model form), and without the pre-check the backend refuses the clash when written', async () => {
    const { catalog, add } = await seeded();
    const { model: second } = await add('TWR-B');
    expect((await failure(updateModel(catalog, second.id, { name: 'N', publicId: 'TWR-A' }))).code).toBe(ErrorCode.AlreadyExists);
    const atWrite = await failure(updateModel(catalog, second.id, { name: 'N', publicId: 'TWR-A' }, { uniquePublicId: false }));
    expect(atWrite.code).toBe(ErrorCode.AlreadyExists);
    expect((await catalog.get('models', second.id))?.publicId).toBe('TWR-B');
  });
});
