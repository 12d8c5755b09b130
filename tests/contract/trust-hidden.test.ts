// Hidden means hidden, as raw HTTP against `catalog serve` (the hostile-request harness,
// tests/support/hostile.ts): a user (no SeeHiddenModels) never receives an alignment of a hidden
// model (get, query, count), and every request about a hidden model's document — the model, its
// findings, its alignments, its files — gets exactly the answer the same request gets about a
// document that does not exist: same status, same message (the ids aside), nothing changed. Each
// pair below runs both requests; docs/ARCHITECTURE.md "Hidden models" says which answer each kind
// of request gets. The memory backend's guard against writing over a withheld document is at the end.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import { AppError } from '@shared/errors.js';
import { createAnnotation } from '@shared/workflows/annotations.js';
import { saveAlignment } from '@shared/workflows/alignments.js';
import { hostileTable, literally, sendCase, snapshot, startHostileWorld, userFindingOps } from '../support/hostile.js';
import type { HostileCase, HostileReply, HostileWorld } from '../support/hostile.js';

let world: HostileWorld;
/** A third model of the project, visible, aligned to the visible one (what the user may read). */
const other = randomUUID();
/** A model id that names nothing. */
const absent = randomUUID();

const finding = { title: 'Rust on the girder', category: 'corrosion', severity: 3, points: [{ x: 1, y: 2, z: 3 }] };

beforeAll(async () => {
  world = await startHostileWorld();
  const { service, admin, hidden, model, project } = world;
  await service.catalog.set('models', other, {
    uuid: other,
    publicId: 'SEC-O',
    name: 'other',
    projectId: project,
    visible: true,
    files: {},
  });
  const author = { uid: admin.uid, email: admin.email };
  await createAnnotation(service.catalog, hidden, finding, author); // `${hidden}_1`
  await createAnnotation(service.catalog, model, finding, author); // `${model}_1`
  for (const [referenceModelId, modelId] of [
    [model, hidden],
    [hidden, model],
    [model, other],
  ]) {
    await saveAlignment(service.catalog, {
      referenceModelId: referenceModelId!,
      modelId: modelId!,
      method: 'same-frame',
      createdBy: admin.uid,
    });
  }
});

afterAll(async () => {
  await world?.stop();
});

/** The documents of a reply (`{docs}` of a query). */
const docsOf = (reply: HostileReply): Array<{ id: string }> => (JSON.parse(reply.text) as { docs: Array<{ id: string }> }).docs;
/** The document of a get's reply (`{doc}`, null when absent to the caller). */
const docOf = (reply: HostileReply): { id: string } | null => (JSON.parse(reply.text) as { doc: { id: string } | null }).doc;

/** A user's finding create at `{modelId}_{seq}` with its model's count bump, as one batch body. */
const findingBatch = (modelId: string, seq: number): unknown => ({ ops: userFindingOps(world, modelId, seq) });

describe('hidden means hidden: alignments follow their models', () => {
  // What the service key reads, so that a withheld answer is told from an empty one.
  it('the service key reads all three alignments; the admin reads those of the hidden model', async () => {
    const all = await sendCase(world, { name: '', as: 'service', method: 'POST', path: '/v1/query/alignments', body: {}, status: 200 });
    expect(docsOf(all).map((d) => d.id)).toHaveLength(3);
    const byId = await sendCase(world, {
      name: '',
      as: 'admin',
      method: 'GET',
      path: `/v1/docs/alignments/${world.model}__${world.hidden}`,
      status: 200,
    });
    expect(docOf(byId)?.id).toBe(`${world.model}__${world.hidden}`);
  });

  hostileTable(
    () => world,
    [
      {
        name: 'user: an alignment whose model is hidden, by id, reads as missing',
        as: 'user',
        method: 'GET',
        path: () => `/v1/docs/alignments/${world.model}__${world.hidden}`,
        status: 200,
        check: (reply) => expect(docOf(reply)).toBeNull(),
      },
      {
        name: 'user: an alignment whose reference model is hidden, by id, reads as missing',
        as: 'user',
        method: 'GET',
        path: () => `/v1/docs/alignments/${world.hidden}__${world.model}`,
        status: 200,
        check: (reply) => expect(docOf(reply)).toBeNull(),
      },
      {
        name: "user: a reference model's alignments leave out the one with a hidden model",
        as: 'user',
        method: 'POST',
        path: '/v1/query/alignments',
        body: () => ({ query: { where: [['referenceModelId', '==', world.model]] } }),
        status: 200,
        check: (reply) => expect(docsOf(reply).map((d) => d.id)).toEqual([`${world.model}__${other}`]),
      },
      {
        name: "user: a hidden model's alignments as the aligned model (modelId ==): none",
        as: 'user',
        method: 'POST',
        path: '/v1/query/alignments',
        body: () => ({ query: { where: [['modelId', '==', world.hidden]] } }),
        status: 200,
        check: (reply) => expect(docsOf(reply)).toEqual([]),
      },
      {
        name: "user: a pair's alignment with a hidden model (both ids ==): none",
        as: 'user',
        method: 'POST',
        path: '/v1/query/alignments',
        body: () => ({
          query: {
            where: [
              ['referenceModelId', '==', world.model],
              ['modelId', '==', world.hidden],
            ],
          },
        }),
        status: 200,
        check: (reply) => expect(docsOf(reply)).toEqual([]),
      },
      {
        name: "user: a project's alignments are counted without the hidden model's",
        as: 'user',
        method: 'POST',
        path: '/v1/count/alignments',
        body: () => ({ query: { where: [['projectId', '==', world.project]] } }),
        status: 200,
        check: (reply) => expect(JSON.parse(reply.text)).toEqual({ count: 1 }),
      },
      {
        name: 'user: all alignments, counted: only the visible pair',
        as: 'user',
        method: 'POST',
        path: '/v1/count/alignments',
        body: {},
        status: 200,
        check: (reply) => expect(JSON.parse(reply.text)).toEqual({ count: 1 }),
      },
      {
        name: 'admin: all alignments, counted: all three',
        as: 'admin',
        method: 'POST',
        path: '/v1/count/alignments',
        body: {},
        status: 200,
        check: (reply) => expect(JSON.parse(reply.text)).toEqual({ count: 3 }),
      },
    ],
  );

  it('hiding a model withholds its alignments at once, and showing it again gives them back (no stale kept answer)', async () => {
    const visiblePair = (): HostileCase => ({
      name: '',
      as: 'user',
      method: 'POST',
      path: '/v1/query/alignments',
      body: { query: { where: [['referenceModelId', '==', world.model]] } },
      status: 200,
    });
    expect(docsOf(await sendCase(world, visiblePair()))).toHaveLength(1);
    await world.service.catalog.update('models', other, { visible: false });
    expect(docsOf(await sendCase(world, visiblePair()))).toEqual([]);
    await world.service.catalog.update('models', world.hidden, { visible: true });
    await world.service.catalog.update('models', other, { visible: true });
    expect(docsOf(await sendCase(world, visiblePair()))).toHaveLength(2);
    await world.service.catalog.update('models', world.hidden, { visible: false });
    expect(docsOf(await sendCase(world, visiblePair()))).toHaveLength(1);
  });
});

/**
 * One request about a model's documents, built for a model id: sent for the hidden model and for
 * a model that does not exist, it must get the same status and message.
 */
interface OraclePair {
  name: string;
  method: string;
  path: (modelId: string) => string;
  body?: (modelId: string) => unknown;
  /** The status both get. */
  status: number;
  /** What both say. */
  message: RegExp;
}

/** A reply's text with the two model ids (and finding numbers) written alike, to compare the hidden and the missing answer. */
const normalised = (text: string): string => text.replaceAll(world.hidden, '{model}').replaceAll(absent, '{model}');

const content = { title: 'Seen', category: 'crack', severity: 2, points: [{ x: 0, y: 0, z: 0 }] };

const PAIRS: readonly OraclePair[] = [
  {
    name: "a finding at the model's first number (the hidden model's exists), with the count bump",
    method: 'POST',
    path: () => '/v1/batch',
    body: (m) => findingBatch(m, 1),
    status: 403,
    message: /no such model/,
  },
  {
    name: "a finding at the model's next number, with the count bump",
    method: 'POST',
    path: () => '/v1/batch',
    body: (m) => findingBatch(m, 2),
    status: 403,
    message: /no such model/,
  },
  {
    name: 'a finding set (PUT) at its first number',
    method: 'PUT',
    path: (m) => `/v1/docs/annotations/${m}_1`,
    body: (m) => ({ data: { ...content, modelId: m, seq: 1, author_uid: world.user.uid } }),
    status: 403,
    message: /no such model/,
  },
  {
    name: "a finding's title (PATCH)",
    method: 'PATCH',
    path: (m) => `/v1/docs/annotations/${m}_1`,
    body: () => ({ data: { title: 'Seen' } }),
    status: 404,
    message: /Document annotations\/\S+_1 not found/,
  },
  {
    name: 'a finding deleted',
    method: 'DELETE',
    path: (m) => `/v1/docs/annotations/${m}_1`,
    status: 403,
    message: /Missing permission: write annotations\//,
  },
  {
    name: 'the model renamed (PATCH)',
    method: 'PATCH',
    path: (m) => `/v1/docs/models/${m}`,
    body: () => ({ data: { name: 'Renamed' } }),
    status: 404,
    message: /Document models\/\S+ not found/,
  },
  {
    name: "the model's finding count raised without a finding (PATCH)",
    method: 'PATCH',
    path: (m) => `/v1/docs/models/${m}`,
    body: () => ({ data: { 'metadata.annotationsCount': 9, 'metadata.annotationsSeq': 9 } }),
    status: 404,
    message: /Document models\/\S+ not found/,
  },
  {
    name: "the model's count raised in a batch",
    method: 'POST',
    path: () => '/v1/batch',
    body: (m) => ({ ops: [{ op: 'update', collection: 'models', id: m, data: { 'metadata.annotationsCount': 9 } }] }),
    status: 404,
    message: /Document models\/\S+ not found/,
  },
  {
    name: 'the model shown (PUT with merge)',
    method: 'PUT',
    path: (m) => `/v1/docs/models/${m}`,
    body: () => ({ data: { visible: true }, merge: true }),
    status: 403,
    message: /Missing permission: write models\//,
  },
  {
    name: 'the model deleted',
    method: 'DELETE',
    path: (m) => `/v1/docs/models/${m}`,
    status: 403,
    message: /Missing permission: write models\//,
  },
  {
    name: "an alignment's error (PATCH)",
    method: 'PATCH',
    path: (m) => `/v1/docs/alignments/${world.model}__${m}`,
    body: () => ({ data: { rmsError: 0.5 } }),
    status: 403,
    message: /Missing permission: write alignments\//,
  },
  {
    name: 'the model by id',
    method: 'GET',
    path: (m) => `/v1/docs/models/${m}`,
    status: 200,
    message: /"doc":null/,
  },
  {
    name: 'a finding by id',
    method: 'GET',
    path: (m) => `/v1/docs/annotations/${m}_1`,
    status: 200,
    message: /"doc":null/,
  },
  {
    name: 'an alignment by id',
    method: 'GET',
    path: (m) => `/v1/docs/alignments/${world.model}__${m}`,
    status: 200,
    message: /"doc":null/,
  },
  {
    name: "the model's findings (query)",
    method: 'POST',
    path: () => '/v1/query/annotations',
    body: (m) => ({ query: { where: [['modelId', '==', m]] } }),
    status: 200,
    message: literally('{"docs":[]}'),
  },
  {
    name: "the model's findings (count)",
    method: 'POST',
    path: () => '/v1/count/annotations',
    body: (m) => ({ query: { where: [['modelId', '==', m]] } }),
    status: 200,
    message: literally('{"count":0}'),
  },
  {
    name: "the model's alignments as the reference (count)",
    method: 'POST',
    path: () => '/v1/count/alignments',
    body: (m) => ({ query: { where: [['referenceModelId', '==', m]] } }),
    status: 200,
    message: literally('{"count":0}'),
  },
  {
    name: "a transaction's precondition on the model (read as absent, now changed)",
    method: 'POST',
    path: () => '/v1/batch',
    body: (m) => ({ ops: [], preconditions: [{ collection: 'models', id: m, version: 'x'.repeat(43) }] }),
    status: 409,
    message: /changed since it was read/,
  },
  {
    name: "the metadata of the model's GLB",
    method: 'GET',
    path: (m) => `/v1/file-meta/models/${m}/model.glb`,
    status: 404,
    message: /No file at models\/\S+\/model\.glb/,
  },
  {
    name: "a download link of the model's GLB",
    method: 'GET',
    path: (m) => `/v1/download-url/models/${m}/model.glb`,
    status: 404,
    message: /No file at models\/\S+\/model\.glb/,
  },
  {
    name: "the listing of the model's folder",
    method: 'GET',
    path: (m) => `/v1/list?prefix=${encodeURIComponent(`models/${m}/`)}`,
    status: 200,
    message: literally('{"items":[],"prefixes":[]}'),
  },
  {
    name: "a listing of a bad folder under the model's",
    method: 'GET',
    path: (m) => `/v1/list?prefix=${encodeURIComponent(`models/${m}/../x/`)}`,
    status: 400,
    message: /\.\./,
  },
  {
    name: "the model's GLB with a guessed download token",
    method: 'GET',
    path: (m) => `/v1/files/models/${m}/model.glb?token=${'A'.repeat(32)}`,
    status: 403,
    message: /Invalid download token/,
  },
];

describe('hidden means hidden: a hidden model answers as one that does not exist (user)', () => {
  for (const pair of PAIRS) {
    it(`${pair.name}: same status and message`, async () => {
      const before = await snapshot(world);
      const texts: string[] = [];
      for (const modelId of [world.hidden, absent]) {
        const reply = await sendCase(world, {
          name: pair.name,
          as: 'user',
          method: pair.method,
          path: pair.path(modelId),
          ...(pair.body ? { body: pair.body(modelId) } : {}),
          status: pair.status,
        });
        expect(reply.status, reply.text.slice(0, 300)).toBe(pair.status);
        expect(reply.text).toMatch(pair.message);
        if (pair.status >= 400) expect((JSON.parse(reply.text) as { error: { code: string } }).error.code).not.toBe('internal');
        texts.push(normalised(reply.text));
      }
      expect(texts[0]).toBe(texts[1]);
      expect(texts[0]).not.toMatch(/hidden/i);
      expect(await snapshot(world)).toBe(before);
    });
  }

  it('the GLB of the hidden model is there: the admin reads its metadata (the pairs above are not about a missing file)', async () => {
    const reply = await sendCase(world, {
      name: '',
      as: 'admin',
      method: 'GET',
      path: `/v1/file-meta/models/${world.hidden}/model.glb`,
      status: 200,
    });
    expect(reply.status).toBe(200);
  });

  it("the hidden model's finding number 1 exists (so the first pair's hidden side writes at a taken id, which must not answer 409)", async () => {
    const before = await snapshot(world);
    expect(before).toContain(`"${world.hidden}_1"`);
    expect(before).not.toContain(`"${world.hidden}_2"`);
  });
});

describe('memory backend: a write is never applied over a document withheld from the writer', () => {
  it("a user's create at an id taken by a finding of a hidden model is refused and changes nothing", async () => {
    // An inconsistent store (a finding of the hidden model stored at the visible model's next id),
    // which the rules would let the user create were it missing.
    const store = createMemoryStore({
      accounts: [{ uid: 'u1', email: 'u1@hidden.test', role: 'user' }],
      documents: {
        models: {
          shown: {
            uuid: 'shown',
            publicId: 'S',
            name: 'S',
            projectId: 'p1',
            visible: true,
            metadata: { annotationsCount: 0, annotationsSeq: 0 },
          },
          secret: { uuid: 'secret', publicId: 'H', name: 'H', projectId: 'p1', visible: false },
        },
        annotations: { shown_1: { modelId: 'secret', projectId: 'p1', seq: 1, title: 'Secret', author_uid: 'admin' } },
      },
    });
    const user = createMemoryBackend({ store, signedInAs: 'u1' });
    expect(await user.catalog.get('annotations', 'shown_1')).toBeNull();
    const error = await createAnnotation(user.catalog, 'shown', finding, { uid: 'u1', email: 'u1@hidden.test' }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect([(error as AppError).code, (error as AppError).message]).toEqual([
      'permission-denied',
      'Missing permission: write annotations/shown_1',
    ]);
    expect(store.readDocument('annotations', 'shown_1')).toMatchObject({ modelId: 'secret', title: 'Secret' });
    expect(store.readDocument('models', 'shown')).toMatchObject({ metadata: { annotationsCount: 0, annotationsSeq: 0 } });
  });
});
