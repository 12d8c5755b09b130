// `catalog serve` compresses JSON (so large catalogs travel small; @fastify/compress and the query route's kept
// compressed answers): gzip and br when asked, identity otherwise; the same documents whatever the
// encoding, fresh after a write (also one by another connection to the database file), and a user's answer never holds hidden models even when an
// admin's answer to the same query is kept; model files and range responses go out as stored;
// the live-update stream still flushes each event at once.
import http from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triangleGlb } from '../support/model-fixtures.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let userToken: string;
const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

interface RawReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request with node:http (nothing decoded), as a browser or curl would send it. */
function raw(path: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const request = http.request(
      `${server.url}${path}`,
      {
        method: options.method ?? (body ? 'POST' : 'GET'),
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function decode(reply: RawReply): unknown {
  const encoding = reply.headers['content-encoding'];
  const bytes = encoding === 'gzip' ? gunzipSync(reply.body) : encoding === 'br' ? brotliDecompressSync(reply.body) : reply.body;
  return JSON.parse(bytes.toString('utf8'));
}

const queryModels = (token: string, encoding: string) =>
  raw('/v1/query/models', {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': encoding },
    body: { query: { orderBy: [['publicId', 'asc']] } },
  });

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'compress' });
  await server.service.catalog.batch([
    { op: 'set', collection: 'projects', id: 'p1', data: { name: 'P', structure_id: 'P-1', slug: 'p' } },
  ]);
  // 300 models (about 100 KB of JSON: the route's kept-compression path), every 10th hidden
  const ops = Array.from({ length: 300 }, (_, i) => ({
    op: 'set' as const,
    collection: 'models' as const,
    id: uuid(i),
    data: {
      uuid: uuid(i),
      publicId: `P-1-${String(i).padStart(3, '0')}`,
      name: `Survey ${i} of the footbridge`,
      projectId: 'p1',
      visible: i % 10 !== 0,
      files: { glbPath: `models/${uuid(i)}/model.glb`, glbSize: 1 },
    },
  }));
  await server.service.catalog.batch(ops);
  await server.service.files.upload(`models/${uuid(1)}/model.glb`, new Blob([await triangleGlb()]), { contentType: 'model/gltf-binary' });
  const account = await server.service.identity.createAccount('reader@lab.example', 'reader-pass-1');
  await server.service.catalog.set('users', account.uid, { uid: account.uid, email: 'reader@lab.example', role: 'user' });
  const grant = decode(await raw('/v1/auth/sign-in', { body: { email: 'reader@lab.example', password: 'reader-pass-1' } })) as {
    idToken: string;
  };
  userToken = grant.idToken;
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('catalog serve compresses JSON and keeps cached answers exact', () => {
  it('answers the models query with gzip or br when asked, identity otherwise, with the same documents', async () => {
    const plain = await queryModels(server.serviceKey, 'identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const docs = decode(plain) as { docs: { id: string; publicId: string }[] };
    expect(docs.docs).toHaveLength(300);
    expect(docs.docs[0]).toMatchObject({ id: uuid(0), publicId: 'P-1-000' });
    for (const encoding of ['gzip', 'br'] as const) {
      const packed = await queryModels(server.serviceKey, `${encoding}, identity;q=0.5`);
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      expect(packed.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      expect(packed.body.length).toBeLessThan(plain.body.length / 5);
      expect(decode(packed)).toEqual(docs);
    }
  });

  it('serves a fresh answer after a write, compressed or not', async () => {
    await queryModels(server.serviceKey, 'gzip');
    await server.service.catalog.update('models', uuid(5), { name: 'Renamed survey' });
    for (const encoding of ['gzip', 'br', 'identity']) {
      const answer = decode(await queryModels(server.serviceKey, encoding)) as { docs: { id: string; name: string }[] };
      expect(answer.docs.find((d) => d.id === uuid(5))?.name).toBe('Renamed survey');
    }
  });

  it('sees a commit by another connection to the database file (the kept answer is dropped)', async () => {
    await queryModels(server.serviceKey, 'gzip');
    const other = new Database(join(server.dataDir, 'catalog.db'));
    try {
      other
        .prepare(`UPDATE documents SET data = json_set(data, '$.name', 'Edited elsewhere') WHERE collection = 'models' AND id = ?`)
        .run(uuid(7));
    } finally {
      other.close();
    }
    for (const encoding of ['gzip', 'identity']) {
      const answer = decode(await queryModels(server.serviceKey, encoding)) as { docs: { id: string; name: string }[] };
      expect(answer.docs.find((d) => d.id === uuid(7))?.name).toBe('Edited elsewhere');
    }
  });

  it("never gives a user hidden models, even when an admin's answer to the same query is kept", async () => {
    const adminAnswer = decode(await queryModels(server.serviceKey, 'gzip')) as { docs: unknown[] };
    expect(adminAnswer.docs).toHaveLength(300);
    for (const encoding of ['gzip', 'identity']) {
      const userAnswer = decode(await queryModels(userToken, encoding)) as { docs: { visible?: boolean }[] };
      expect(userAnswer.docs).toHaveLength(270);
      expect(userAnswer.docs.every((d) => d.visible !== false)).toBe(true);
    }
  });

  it('keeps answers exact after writes to kept rows: hidden, added and deleted models, for admins and users', async () => {
    type Docs = { docs: { id: string; publicId: string; name: string; visible?: boolean }[] };
    const both = async (token: string): Promise<Docs> => {
      const packed = decode(await queryModels(token, 'gzip')) as Docs;
      expect(decode(await queryModels(token, 'identity'))).toEqual(packed);
      return packed;
    };
    // answers (and their rows) kept for both before the writes
    await both(server.serviceKey);
    await both(userToken);
    await server.service.catalog.update('models', uuid(42), { visible: false, name: 'Hidden now' });
    await server.service.catalog.set('models', uuid(900), {
      uuid: uuid(900),
      publicId: 'P-1-041a',
      name: 'Added survey',
      projectId: 'p1',
      visible: true,
      files: { glbPath: `models/${uuid(900)}/model.glb`, glbSize: 1 },
    });
    await server.service.catalog.delete('models', uuid(43));
    const admin = await both(server.serviceKey);
    const user = await both(userToken);
    expect(admin.docs.find((d) => d.id === uuid(42))).toMatchObject({ visible: false, name: 'Hidden now' });
    expect(user.docs.some((d) => d.id === uuid(42))).toBe(false);
    expect(user.docs.every((d) => d.visible !== false)).toBe(true);
    // in publicId order: after P-1-041, then the hidden P-1-042 for admins only (P-1-043 deleted)
    for (const [answer, next] of [
      [admin, 'P-1-042'],
      [user, 'P-1-044'],
    ] as const) {
      expect(answer.docs.some((d) => d.id === uuid(43))).toBe(false);
      const added = answer.docs.findIndex((d) => d.id === uuid(900));
      expect(answer.docs[added - 1]?.publicId).toBe('P-1-041');
      expect(answer.docs[added + 1]?.publicId).toBe(next);
      expect(answer.docs.map((d) => d.publicId)).toEqual(answer.docs.map((d) => d.publicId).sort());
    }
    // shown again: back in the user's answer
    await server.service.catalog.update('models', uuid(42), { visible: true });
    expect((await both(userToken)).docs.find((d) => d.id === uuid(42))?.name).toBe('Hidden now');
  });

  it('keeps kept answers exact when a write renames, reorders or moves a model out of a filter', async () => {
    type Docs = { docs: { id: string; publicId: string; name: string; projectId: string }[] };
    const filtered = { query: { where: [['projectId', '==', 'p1']], orderBy: [['publicId', 'asc']], limit: 20 } };
    const query = async (body: unknown): Promise<Docs> =>
      decode(
        await raw('/v1/query/models', { headers: { authorization: `Bearer ${server.serviceKey}`, 'accept-encoding': 'gzip' }, body }),
      ) as Docs;
    const all = { query: { orderBy: [['publicId', 'asc']] } };
    await query(all);
    await query(filtered);
    // a rename only: same members, same order, the new name
    await server.service.catalog.update('models', uuid(12), { name: 'Renamed in place' });
    expect((await query(all)).docs.find((d) => d.id === uuid(12))?.name).toBe('Renamed in place');
    expect((await query(filtered)).docs.find((d) => d.id === uuid(12))?.name).toBe('Renamed in place');
    // a new Public ID: the model moves to its place in the order
    await server.service.catalog.update('models', uuid(11), { publicId: 'P-1-zzz' });
    const reordered = await query(all);
    expect(reordered.docs.at(-1)?.id).toBe(uuid(11));
    expect(reordered.docs.map((d) => d.publicId)).toEqual(reordered.docs.map((d) => d.publicId).sort());
    // a reorder, then a rename, with no query between: both show
    await server.service.catalog.update('models', uuid(13), { publicId: 'P-1-000a' });
    await server.service.catalog.update('models', uuid(14), { name: 'Renamed after a reorder' });
    const both = await query(all);
    expect(both.docs[1]?.id).toBe(uuid(13));
    expect(both.docs.find((d) => d.id === uuid(14))?.name).toBe('Renamed after a reorder');
    // another project: out of the filtered answer, whose limit takes the next model instead
    const before = (await query(filtered)).docs.map((d) => d.id);
    await server.service.catalog.set('projects', 'p2', { name: 'Q', structure_id: 'Q-1', slug: 'q' });
    await server.service.catalog.update('models', before[3] as string, { projectId: 'p2' });
    const after = (await query(filtered)).docs;
    expect(after).toHaveLength(20);
    expect(after.some((d) => d.id === before[3])).toBe(false);
    expect(after.every((d) => d.projectId === 'p1')).toBe(true);
  });

  it('compresses smaller JSON answers too (@fastify/compress), and leaves tiny ones alone', async () => {
    const some = await raw('/v1/query/models', {
      headers: { authorization: `Bearer ${server.serviceKey}`, 'accept-encoding': 'gzip' },
      body: { query: { where: [['projectId', '==', 'p1']], limit: 20 } },
    });
    expect(some.headers['content-encoding']).toBe('gzip');
    expect((decode(some) as { docs: unknown[] }).docs).toHaveLength(20);
    const tiny = await raw('/v1/config', { headers: { 'accept-encoding': 'gzip' } });
    expect(tiny.status).toBe(200);
    expect(tiny.headers['content-encoding']).toBeUndefined();
  });

  it('sends model files and range responses as stored', async () => {
    const { url } = decode(
      await raw(`/v1/download-url/models/${uuid(1)}/model.glb`, { headers: { authorization: `Bearer ${server.serviceKey}` } }),
    ) as { url: string };
    const glb = await triangleGlb();
    const whole = await raw(url, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.length).toBe(glb.byteLength);
    const part = await raw(url, { headers: { 'accept-encoding': 'gzip, br', range: 'bytes=0-11' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.toString('latin1', 0, 4)).toBe('glTF');
  });

  it('still flushes each live-update event at once when the client accepts gzip', async () => {
    const events: string[] = [];
    const request = http.request(`${server.url}/v1/events`, {
      headers: { authorization: `Bearer ${server.serviceKey}`, 'accept-encoding': 'gzip, br', accept: 'text/event-stream' },
    });
    const opened = new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve);
      request.on('error', reject);
    });
    request.end();
    const response = await opened;
    try {
      expect(response.headers['content-encoding']).toBeUndefined();
      response.on('data', (chunk: Buffer) => events.push(chunk.toString('utf8')));
      await expect.poll(() => events.join('')).toContain('event: ready');
      await server.service.catalog.update('models', uuid(2), { name: 'Live' });
      await expect.poll(() => events.join(''), { timeout: 5000 }).toContain('event: change');
    } finally {
      request.destroy();
    }
  });
});
