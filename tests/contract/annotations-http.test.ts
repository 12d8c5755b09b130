// The findings user rule (docs/ARCHITECTURE.md "Findings") on the embedded backend (`catalog serve`) over raw HTTP: no adapter, only
// fetch and the /v1 routes of shared/wire/routes.ts, as any client could send them. A user
// (role 'user') adds a finding with the count batch createAnnotation writes (2xx), but deleting
// it (alone or with the count lowered), bumping a model's count without a finding, adding a
// finding without the bump, as someone else, or out of sequence are refused with 403 and change
// nothing; a hidden model's findings are withheld from the user (by id, by query, by count).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnnotationMessages } from '@shared/annotations.js';
import { startLocalServer } from '../support/local-backend.js';
import type { LocalServerHandle } from '../support/local-backend.js';

let handle: LocalServerHandle;
let userToken = '';
let userUid = '';

interface Reply {
  status: number;
  body: unknown;
}

async function call(method: string, path: string, bearer: string, body?: unknown): Promise<Reply> {
  const response = await fetch(`${handle.server.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const service = (method: string, path: string, body?: unknown): Promise<Reply> => call(method, path, handle.serviceKey, body);
const asUser = (method: string, path: string, body?: unknown): Promise<Reply> => call(method, path, userToken, body);

function finding(modelId: string, seq: number, author: string): Record<string, unknown> {
  return {
    modelId,
    projectId: 'p1',
    seq,
    kind: 'point',
    points: [{ x: 1, y: 2, z: 3 }],
    measure: null,
    up: null,
    title: 'Corrosion at the bolt',
    note: '',
    category: 'corrosion',
    severity: 2,
    status: 'open',
    photos: ['IMG_0001.jpg'],
    author_uid: author,
    author_email: 'field@http.test',
    created_at: { $serverTimestamp: true },
    last_updated: { $serverTimestamp: true },
    followUpOf: null,
  };
}

/** The batch createAnnotation sends: the finding at {modelId}_{seq} and the model's count and number. */
const countBatch = (modelId: string, seq: number, count: number, author: string, model: Record<string, unknown> = {}): unknown => ({
  ops: [
    { op: 'create', collection: 'annotations', id: `${modelId}_${seq}`, data: finding(modelId, seq, author) },
    {
      op: 'update',
      collection: 'models',
      id: modelId,
      data: { 'metadata.annotationsCount': count, 'metadata.annotationsSeq': seq, ...model },
    },
  ],
});

async function modelCounts(id: string): Promise<unknown> {
  const reply = await service('GET', `/v1/docs/models/${id}`);
  return (reply.body as { doc: { metadata?: unknown } }).doc.metadata;
}

beforeAll(async () => {
  handle = await startLocalServer();
  const created = await service('POST', '/v1/auth/accounts', { email: 'field@http.test', password: 'field-pass-1' });
  expect(created.status).toBe(200);
  userUid = (created.body as { user: { uid: string } }).user.uid;
  const seeded = await service('POST', '/v1/batch', {
    ops: [
      { op: 'set', collection: 'users', id: userUid, data: { uid: userUid, email: 'field@http.test', role: 'user' } },
      { op: 'set', collection: 'projects', id: 'p1', data: { name: 'Bridge', structure_id: 'BR-1' } },
      {
        op: 'set',
        collection: 'models',
        id: 'm1',
        data: { uuid: 'm1', publicId: 'M-1', name: 'Span', projectId: 'p1', visible: true, metadata: { annotationsCount: 0 } },
      },
      {
        op: 'set',
        collection: 'models',
        id: 'h1',
        data: {
          uuid: 'h1',
          publicId: 'H-1',
          name: 'Hidden span',
          projectId: 'p1',
          visible: false,
          metadata: { annotationsCount: 1, annotationsSeq: 1 },
        },
      },
      { op: 'set', collection: 'annotations', id: 'h1_1', data: finding('h1', 1, 'cli') },
    ],
  });
  expect(seeded.status, JSON.stringify(seeded.body)).toBe(204);
  const signedIn = await fetch(`${handle.server.url}/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'field@http.test', password: 'field-pass-1' }),
  });
  expect(signedIn.status).toBe(200);
  userToken = ((await signedIn.json()) as { idToken: string }).idToken;
});

afterAll(async () => {
  await handle?.server.close();
  if (handle) rmSync(handle.dataDir, { recursive: true, force: true });
});

describe('findings over raw HTTP as a user: users add findings on models they can open, as their author', () => {
  it("refuses what the rule forbids with 403 and writes nothing; accepts the user's finding with its count batch", async () => {
    // a count bump alone
    const bump = await asUser('POST', '/v1/batch', {
      ops: [{ op: 'update', collection: 'models', id: 'm1', data: { 'metadata.annotationsCount': 1, 'metadata.annotationsSeq': 1 } }],
    });
    expect(bump.status, JSON.stringify(bump.body)).toBe(403);
    expect(await asUser('PATCH', '/v1/docs/models/m1', { data: { 'metadata.annotationsCount': 1 } })).toMatchObject({ status: 403 });
    // a finding without the bump
    expect(await asUser('PUT', '/v1/docs/annotations/m1_1', { data: finding('m1', 1, userUid) })).toMatchObject({ status: 403 });
    // as someone else, out of sequence, or with another change to the model
    expect(await asUser('POST', '/v1/batch', countBatch('m1', 1, 1, 'someone-else'))).toMatchObject({ status: 403 });
    const otherEmail = countBatch('m1', 1, 1, userUid) as { ops: Array<{ data: Record<string, unknown> }> };
    otherEmail.ops[0]!.data.author_email = 'boss@http.test';
    expect(await asUser('POST', '/v1/batch', otherEmail)).toMatchObject({ status: 403 });
    // bad content: refused with the form's message, whoever writes
    const severe = countBatch('m1', 1, 1, userUid) as { ops: Array<{ data: Record<string, unknown> }> };
    severe.ops[0]!.data.severity = 9;
    for (const bearer of [userToken, handle.serviceKey]) {
      const reply = await call('POST', '/v1/batch', bearer, severe);
      expect(reply.status).toBe(400);
      expect(JSON.stringify(reply.body)).toContain(AnnotationMessages.severityInvalid);
    }
    expect(await asUser('POST', '/v1/batch', countBatch('m1', 4, 1, userUid))).toMatchObject({ status: 403 });
    expect(await asUser('POST', '/v1/batch', countBatch('m1', 1, 1, userUid, { name: 'Mine now' }))).toMatchObject({ status: 403 });
    expect(await modelCounts('m1')).toEqual({ annotationsCount: 0 });
    expect((await service('POST', '/v1/query/annotations', { query: { where: [['modelId', '==', 'm1']] } })).body).toEqual({ docs: [] });

    // the batch createAnnotation writes
    const created = await asUser('POST', '/v1/batch', countBatch('m1', 1, 1, userUid));
    expect(created.status, JSON.stringify(created.body)).toBe(204);
    expect(await modelCounts('m1')).toEqual({ annotationsCount: 1, annotationsSeq: 1 });
    const stored = await asUser('GET', '/v1/docs/annotations/m1_1');
    expect(stored.body).toMatchObject({ doc: { id: 'm1_1', author_uid: userUid, seq: 1 } });

    // own content edits pass (with the server's time as last_updated); other fields do not
    const edit = { status: 'monitoring', severity: 4, last_updated: { $serverTimestamp: true } };
    expect(await asUser('PATCH', '/v1/docs/annotations/m1_1', { data: edit })).toMatchObject({
      status: 204,
    });
    expect(await asUser('PATCH', '/v1/docs/annotations/m1_1', { data: { author_uid: 'cli' } })).toMatchObject({ status: 403 });

    // deleting it: refused, alone or with the count lowered
    expect(await asUser('DELETE', '/v1/docs/annotations/m1_1')).toMatchObject({ status: 403 });
    const withCount = await asUser('POST', '/v1/batch', {
      ops: [
        { op: 'delete', collection: 'annotations', id: 'm1_1' },
        { op: 'update', collection: 'models', id: 'm1', data: { 'metadata.annotationsCount': 0 } },
      ],
    });
    expect(withCount.status).toBe(403);
    expect((await service('GET', '/v1/docs/annotations/m1_1')).body).toMatchObject({ doc: { id: 'm1_1', status: 'monitoring' } });
    expect(await modelCounts('m1')).toEqual({ annotationsCount: 1, annotationsSeq: 1 });

    // alignments: admins only
    const alignment = await asUser('PUT', '/v1/docs/alignments/m1__h1', {
      data: {
        referenceModelId: 'm1',
        modelId: 'h1',
        projectId: 'p1',
        matrix: [],
        method: 'same-frame',
        pairs: [],
        rmsError: 0,
        created_by: userUid,
      },
    });
    expect(alignment.status).toBe(403);
  });

  it("withholds a hidden model's findings from the user: by id, by model, by project and in counts", async () => {
    expect((await service('GET', '/v1/docs/annotations/h1_1')).body).toMatchObject({ doc: { id: 'h1_1' } });
    expect(await asUser('GET', '/v1/docs/annotations/h1_1')).toEqual({ status: 200, body: { doc: null, version: null } });
    const byModel = { query: { where: [['modelId', '==', 'h1']] } };
    expect(((await service('POST', '/v1/query/annotations', byModel)).body as { docs: unknown[] }).docs).toHaveLength(1);
    expect(await asUser('POST', '/v1/query/annotations', byModel)).toEqual({ status: 200, body: { docs: [] } });
    const byProject = { query: { where: [['projectId', '==', 'p1']] } };
    const all = (await service('POST', '/v1/query/annotations', byProject)).body as { docs: { id: string }[] };
    const mine = (await asUser('POST', '/v1/query/annotations', byProject)).body as { docs: { id: string }[] };
    expect(all.docs.map((d) => d.id)).toContain('h1_1');
    expect(mine.docs.map((d) => d.id)).not.toContain('h1_1');
    expect(mine.docs.length).toBe(all.docs.length - 1);
    expect((await asUser('POST', '/v1/count/annotations', byModel)).body).toEqual({ count: 0 });
    // a finding on the hidden model: refused
    expect(await asUser('POST', '/v1/batch', countBatch('h1', 2, 2, userUid))).toMatchObject({ status: 403 });

    // shown again: the user reads its findings (the kept query answer is not stale)
    expect(await service('PATCH', '/v1/docs/models/h1', { data: { visible: true } })).toMatchObject({ status: 204 });
    expect(((await asUser('POST', '/v1/query/annotations', byModel)).body as { docs: unknown[] }).docs).toHaveLength(1);
    expect(await service('PATCH', '/v1/docs/models/h1', { data: { visible: false } })).toMatchObject({ status: 204 });
    expect(await asUser('POST', '/v1/query/annotations', byModel)).toEqual({ status: 200, body: { docs: [] } });
  });
});
