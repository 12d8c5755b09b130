// `catalog serve` compresses JSON (issue 17, @fastify/compress and the query route's kept
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

describe('catalog serve compresses JSON (issue 17)', () => {
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
