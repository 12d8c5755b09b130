// Transactions' preconditions under hostile requests, as raw HTTP against `catalog serve` (the
// hostile-request harness, tests/support/hostile.ts): a batch's `preconditions` (the documents a
// transaction read, with the versions the document reply gave) are checked before any write is
// computed or authorised. A malformed one is refused with 400; one that no longer holds with 409
// `aborted`, never 403; nothing is written either way. A non-admin's precondition compares what
// they may read: a hidden model, or a finding of one, is absent to a user, so a precondition on a
// hidden document answers exactly as one on a missing document. The multi-step tests at the end
// replay what `createAnnotation` sends: the second, stale copy of a user's finding batch is a
// conflict (409 `aborted`), not the count binding's 403.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { AnnotationMessages } from '@shared/annotations.js';
import { saveAlignment } from '@shared/workflows/alignments.js';
import { createAnnotation } from '@shared/workflows/annotations.js';
import { hostileTable, sendCase, snapshot, startHostileWorld, userFindingOps } from '../support/hostile.js';
import type { Caller, HostileCase, HostileReply, HostileWorld } from '../support/hostile.js';

let world: HostileWorld;
const model = randomUUID();
const hidden = randomUUID();
/** A model id that names nothing. */
const absent = randomUUID();
/** Versions as the admin reads them (set in beforeAll). */
const versions = { model: '', hidden: '', project: '', hiddenFinding: '', modelFinding: '', userRecord: '', hiddenAlignment: '' };
/** A version no document has (43 base64url characters, as the server's). */
const STALE = 'A'.repeat(43);

const finding = { title: 'Rust on the girder', category: 'corrosion', severity: 3, points: [{ x: 1, y: 2, z: 3 }] };

/** GET one document as a caller: its reply's `doc` and `version`. */
async function read(as: Caller, collection: string, id: string): Promise<{ doc: Record<string, unknown> | null; version: string | null }> {
  const reply = await sendCase(world, { name: 'read', as, method: 'GET', path: `/v1/docs/${collection}/${id}`, status: 200 });
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text) as { doc: Record<string, unknown> | null; version: string | null };
}

beforeAll(async () => {
  world = await startHostileWorld({ model, hidden });
  const author = { uid: world.admin.uid, email: world.admin.email };
  await createAnnotation(world.service.catalog, hidden, finding, author); // `${hidden}_1`
  await createAnnotation(world.service.catalog, model, finding, author); // `${model}_1`
  await saveAlignment(world.service.catalog, {
    referenceModelId: model,
    modelId: hidden,
    method: 'same-frame',
    createdBy: world.admin.uid,
  });
  versions.hiddenAlignment = (await read('admin', 'alignments', `${model}__${hidden}`)).version!;
  versions.model = (await read('admin', 'models', model)).version!;
  versions.hidden = (await read('admin', 'models', hidden)).version!;
  versions.project = (await read('admin', 'projects', world.project)).version!;
  versions.hiddenFinding = (await read('admin', 'annotations', `${hidden}_1`)).version!;
  versions.modelFinding = (await read('admin', 'annotations', `${model}_1`)).version!;
  versions.userRecord = (await read('user', 'users', world.user.uid)).version!;
});

afterAll(async () => {
  await world?.stop();
});

const findingOps = (modelId: string, seq: number, count: number): unknown[] => userFindingOps(world, modelId, seq, count);

const precondition = (collection: string, id: string, version: string | null): Record<string, unknown> => ({ collection, id, version });
const projectUpdate = { op: 'update', collection: 'projects', id: 'proj-security', data: { description: 'changed' } };
const batch = (
  as: Caller,
  name: string,
  body: () => unknown,
  status: number,
  message?: RegExp,
  check?: HostileCase['check'],
): HostileCase => ({
  name,
  as,
  method: 'POST',
  path: '/v1/batch',
  body,
  status,
  ...(message ? { message } : {}),
  ...(check ? { check } : {}),
});
/** The reply's error code. */
const codeOf = (reply: HostileReply): string | undefined => (JSON.parse(reply.text) as { error?: { code?: string } }).error?.code;
const aborted = (reply: HostileReply): void => expect(codeOf(reply)).toBe('aborted');
const invalid = (reply: HostileReply): void => expect(codeOf(reply)).toBe('invalid-argument');
/** A conflict on `collection/id`, as every stale precondition answers (the id is the caller's own). */
const changed = (collection: string, id: string): RegExp =>
  new RegExp(`${collection}/${id} changed since it was read; nothing was written`);

function cases(): HostileCase[] {
  return [
    // ---- malformed preconditions: 400, nothing written -----------------------------------------
    batch(
      'admin',
      'preconditions not an array',
      () => ({ ops: [projectUpdate], preconditions: 'models/x' }),
      400,
      /Invalid batch: preconditions/,
      invalid,
    ),
    batch(
      'admin',
      'precondition not an object',
      () => ({ ops: [projectUpdate], preconditions: [42] }),
      400,
      /Invalid batch: preconditions\.0/,
      invalid,
    ),
    batch(
      'admin',
      'precondition version a number',
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', 7 as never)] }),
      400,
      /Invalid batch: preconditions\.0\.version/,
      invalid,
    ),
    batch(
      'admin',
      'precondition version empty',
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', '')] }),
      400,
      /Invalid batch: preconditions\.0\.version/,
      invalid,
    ),
    batch(
      'admin',
      'precondition version of 129 characters',
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', 'v'.repeat(129))] }),
      400,
      /Invalid batch: preconditions\.0\.version/,
      invalid,
    ),
    batch(
      'admin',
      'precondition without its version',
      () => ({ ops: [projectUpdate], preconditions: [{ collection: 'projects', id: 'proj-security' }] }),
      400,
      /Invalid batch: preconditions\.0\.version/,
      invalid,
    ),
    batch(
      'admin',
      'precondition with an unknown key',
      () => ({ ops: [projectUpdate], preconditions: [{ ...precondition('projects', 'proj-security', versions.project), exists: false }] }),
      400,
      /Invalid batch: preconditions\.0/,
      invalid,
    ),
    batch(
      'admin',
      'precondition on an unknown collection',
      () => ({ ops: [projectUpdate], preconditions: [precondition('secrets', 'x', null)] }),
      400,
      /Invalid batch: preconditions\.0\.collection/,
      invalid,
    ),
    batch(
      'admin',
      "precondition id with '/'",
      () => ({ ops: [projectUpdate], preconditions: [precondition('models', `${model}/x`, null)] }),
      400,
      /Invalid batch: preconditions\.0\.id/,
      invalid,
    ),
    batch(
      'admin',
      "precondition id '__proto__'-like",
      () => ({ ops: [projectUpdate], preconditions: [precondition('models', '__proto__', null)] }),
      400,
      /Invalid batch: preconditions\.0\.id/,
      invalid,
    ),
    batch(
      'admin',
      '501 preconditions',
      () => ({
        ops: [projectUpdate],
        preconditions: Array.from({ length: 501 }, () => precondition('projects', 'proj-security', versions.project)),
      }),
      400,
      /Invalid batch: preconditions/,
      invalid,
    ),
    batch(
      'user',
      "a user's malformed precondition on a hidden model",
      () => ({ ops: [], preconditions: [precondition('models', hidden, 12 as never)] }),
      400,
      /Invalid batch: preconditions\.0\.version/,
      invalid,
    ),

    // ---- stale preconditions: 409 aborted, nothing written --------------------------------------
    batch(
      'admin',
      "admin's update with a stale version",
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', STALE)] }),
      409,
      changed('projects', 'proj-security'),
      aborted,
    ),
    batch(
      'service',
      "service key's update with a stale version",
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', STALE)] }),
      409,
      changed('projects', 'proj-security'),
      aborted,
    ),
    batch(
      'admin',
      "'absent' on an existing document",
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', null)] }),
      409,
      changed('projects', 'proj-security'),
      aborted,
    ),
    batch(
      'admin',
      'a version on a missing document',
      () => ({
        ops: [{ op: 'create', collection: 'projects', id: 'proj-new', data: { name: 'New', structure_id: 'N-1' } }],
        preconditions: [precondition('projects', 'proj-new', versions.project)],
      }),
      409,
      changed('projects', 'proj-new'),
      aborted,
    ),
    batch(
      'admin',
      "another document's version",
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', versions.model)] }),
      409,
      changed('projects', 'proj-security'),
      aborted,
    ),
    batch(
      'admin',
      'one holding and one stale precondition of the same document',
      () => ({
        ops: [projectUpdate],
        preconditions: [precondition('projects', 'proj-security', versions.project), precondition('projects', 'proj-security', STALE)],
      }),
      409,
      changed('projects', 'proj-security'),
      aborted,
    ),
    batch(
      'admin',
      'a stale precondition with no writes',
      () => ({ ops: [], preconditions: [precondition('models', model, STALE)] }),
      409,
      changed('models', model),
      aborted,
    ),
    batch(
      'admin',
      'a stale precondition is checked before the writes are: an invalid finding is not looked at',
      () => ({
        ops: [{ op: 'create', collection: 'annotations', id: `${model}_9`, data: { title: '', modelId: model, seq: 9 } }],
        preconditions: [precondition('models', model, STALE)],
      }),
      409,
      changed('models', model),
      aborted,
    ),
    batch(
      'user',
      "a user's finding batch on a model read before a change: a conflict, not the count binding's 403",
      () => ({ ops: findingOps(model, 2, 2), preconditions: [precondition('models', model, STALE)] }),
      409,
      changed('models', model),
      aborted,
    ),
    batch(
      'user',
      "a user's 'absent' on a visible model",
      () => ({ ops: [], preconditions: [precondition('models', model, null)] }),
      409,
      changed('models', model),
      aborted,
    ),
    batch(
      'user',
      "a user's precondition on their own record, stale",
      () => ({ ops: [], preconditions: [precondition('users', world.user.uid, STALE)] }),
      409,
      /users\/\w+ changed since it was read; nothing was written/,
      aborted,
    ),

    // ---- hidden documents read as absent to a user: the same answer as a missing one ------------
    batch(
      'user',
      "a user's precondition with a hidden model's real version",
      () => ({ ops: [], preconditions: [precondition('models', hidden, versions.hidden)] }),
      409,
      changed('models', hidden),
      aborted,
    ),
    batch(
      'user',
      "a user's precondition with a version on a missing model",
      () => ({ ops: [], preconditions: [precondition('models', absent, versions.hidden)] }),
      409,
      changed('models', absent),
      aborted,
    ),
    batch(
      'user',
      "a user's 'absent' on a hidden model holds, as on a missing one",
      () => ({ ops: [], preconditions: [precondition('models', hidden, null)] }),
      204,
    ),
    batch(
      'user',
      "a user's 'absent' on a missing model holds",
      () => ({ ops: [], preconditions: [precondition('models', absent, null)] }),
      204,
    ),
    batch(
      'user',
      "a user's precondition with a hidden model's finding's real version",
      () => ({ ops: [], preconditions: [precondition('annotations', `${hidden}_1`, versions.hiddenFinding)] }),
      409,
      changed('annotations', `${hidden}_1`),
      aborted,
    ),
    batch(
      'user',
      "a user's 'absent' on a hidden model's finding holds",
      () => ({ ops: [], preconditions: [precondition('annotations', `${hidden}_1`, null)] }),
      204,
    ),
    batch(
      'user',
      "a user's finding batch on a hidden model with the hidden model's version: a conflict, as for a missing model",
      () => ({ ops: findingOps(hidden, 2, 2), preconditions: [precondition('models', hidden, versions.hidden)] }),
      409,
      changed('models', hidden),
      aborted,
    ),
    batch(
      'user',
      "a user's finding batch on a missing model with a version: the same conflict",
      () => ({ ops: findingOps(absent, 2, 2), preconditions: [precondition('models', absent, versions.hidden)] }),
      409,
      changed('models', absent),
      aborted,
    ),
    batch(
      'user',
      "a user's precondition with the real version of an alignment of a hidden model",
      () => ({ ops: [], preconditions: [precondition('alignments', `${model}__${hidden}`, versions.hiddenAlignment)] }),
      409,
      changed('alignments', `${model}__${hidden}`),
      aborted,
    ),
    batch(
      'user',
      "a user's 'absent' on an alignment of a hidden model holds, as on a missing one",
      () => ({
        ops: [],
        preconditions: [precondition('alignments', `${model}__${hidden}`, null), precondition('alignments', `${model}__${absent}`, null)],
      }),
      204,
    ),
    {
      name: "a user's read of a hidden model has no version, as a missing one",
      as: 'user',
      method: 'GET',
      path: `/v1/docs/models/${hidden}`,
      status: 200,
      check: (reply) => expect(JSON.parse(reply.text)).toEqual({ doc: null, version: null }),
    },
    {
      name: "a user's read of a hidden model's finding has no version, as a missing one",
      as: 'user',
      method: 'GET',
      path: `/v1/docs/annotations/${hidden}_1`,
      status: 200,
      check: (reply) => expect(JSON.parse(reply.text)).toEqual({ doc: null, version: null }),
    },
    {
      name: "an admin's read carries the document's version",
      as: 'admin',
      method: 'GET',
      path: `/v1/docs/models/${hidden}`,
      status: 200,
      check: (reply) => expect((JSON.parse(reply.text) as { version: string }).version).toMatch(/^[A-Za-z0-9_-]{43}$/),
    },

    // ---- a holding precondition does not open what the rules refuse -----------------------------
    batch(
      'user',
      "a user's project update with the project's real version",
      () => ({ ops: [projectUpdate], preconditions: [precondition('projects', 'proj-security', versions.project)] }),
      403,
      /Missing permission/,
    ),
    batch(
      'user',
      "a user's precondition on someone else's user record (refused as its read is, whether it exists or not)",
      () => ({ ops: [], preconditions: [precondition('users', world.admin.uid, null)] }),
      403,
      /Missing permission/,
    ),
    batch(
      'user',
      "a user's finding batch with the model's real version but written as someone else",
      () => {
        const ops = findingOps(model, 2, 2) as Array<{ data: Record<string, unknown> }>;
        ops[0]!.data.author_uid = world.admin.uid;
        return { ops, preconditions: [precondition('models', model, versions.model)] };
      },
      403,
      /someone else/,
    ),
    batch(
      'anon',
      'preconditions signed out',
      () => ({ ops: [], preconditions: [precondition('models', model, versions.model)] }),
      401,
      /Sign in first/,
    ),
  ];
}

describe('transaction preconditions under hostile requests', () => {
  const table = cases();

  it('has at least 30 cases', () => {
    expect(table.length).toBeGreaterThanOrEqual(30);
  });

  hostileTable(() => world, table);
});

describe('transactions over raw HTTP', () => {
  it("a user's finding batch racing an admin's finding delete is a conflict (409 aborted), not the count binding's 403; read again, it commits", async () => {
    const stale = await read('user', 'models', model);
    const meta = (stale.doc!.metadata ?? {}) as { annotationsSeq?: number; annotationsCount?: number };
    const body = {
      ops: findingOps(model, (meta.annotationsSeq ?? 0) + 1, (meta.annotationsCount ?? 0) + 1),
      preconditions: [precondition('models', model, stale.version)],
    };
    // the admin deletes a finding between the user's read and commit (deleteAnnotation's batch)
    await world.service.catalog.batch([
      { op: 'delete', collection: 'annotations', id: `${model}_1` },
      { op: 'update', collection: 'models', id: model, data: { 'metadata.annotationsCount': (meta.annotationsCount ?? 1) - 1 } },
    ]);
    const state = await snapshot(world);
    const conflict = await sendCase(world, { name: 'conflict', as: 'user', method: 'POST', path: '/v1/batch', body, status: 409 });
    expect(conflict.status, conflict.text).toBe(409);
    expect(codeOf(conflict)).toBe('aborted');
    expect(conflict.text).toMatch(changed('models', model));
    // without the precondition the same stale batch meets the count binding
    const bare = await sendCase(world, {
      name: 'bare',
      as: 'user',
      method: 'POST',
      path: '/v1/batch',
      body: { ops: body.ops },
      status: 403,
    });
    expect(bare.status, bare.text).toBe(403);
    expect(await snapshot(world)).toBe(state);

    // read again: the transaction's next attempt commits
    const fresh = await read('user', 'models', model);
    const now = (fresh.doc!.metadata ?? {}) as { annotationsSeq?: number; annotationsCount?: number };
    const retry = {
      ops: findingOps(model, (now.annotationsSeq ?? 0) + 1, (now.annotationsCount ?? 0) + 1),
      preconditions: [precondition('models', model, fresh.version)],
    };
    const committed = await sendCase(world, { name: 'retry', as: 'user', method: 'POST', path: '/v1/batch', body: retry, status: 204 });
    expect(committed.status, committed.text).toBe(204);
    expect((await read('user', 'models', model)).version).not.toBe(fresh.version);
  });

  it('a precondition on a model that is hidden after the read is a conflict; once deleted, the workflow says Model not found', async () => {
    const extra = randomUUID();
    await world.service.catalog.set('models', extra, {
      uuid: extra,
      publicId: 'SEC-X',
      name: 'extra',
      projectId: world.project,
      visible: true,
      files: {},
    });
    const seen = await read('user', 'models', extra);
    await world.service.catalog.update('models', extra, { visible: false });
    const state = await snapshot(world);
    const reply = await sendCase(world, {
      name: 'hidden since',
      as: 'user',
      method: 'POST',
      path: '/v1/batch',
      body: { ops: findingOps(extra, 1, 1), preconditions: [precondition('models', extra, seen.version)] },
      status: 409,
    });
    expect(reply.status, reply.text).toBe(409);
    expect(reply.text).toMatch(changed('models', extra));
    expect(await snapshot(world)).toBe(state);
    await world.service.catalog.delete('models', extra);
    const user = createLocalBackend({ baseUrl: world.url });
    try {
      await user.identity.signIn(world.user.email, world.user.password);
      await expect(createAnnotation(user.catalog, extra, finding, { uid: world.user.uid, email: world.user.email })).rejects.toMatchObject({
        code: 'not-found',
        message: AnnotationMessages.modelNotFound,
      });
    } finally {
      await user.close();
    }
  });
});
