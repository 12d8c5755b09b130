/**
 * The harness of the hostile-request tables (`tests/contract/security*.test.ts`,
 * `tests/contract/trust-*.test.ts`): an embedded backend with an admin and a user account, a
 * project with a visible and a hidden model (each with a real GLB), a way to send one request as
 * any caller, and a snapshot of everything a request could change (every collection, file rows,
 * files on disk, Object.prototype). A table case asserts its status, a clear message and that the
 * snapshot did not change.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { Backend } from '@shared/ports/index.js';
import type { CollectionName } from '@shared/types.js';
import { listFilesDeep } from '@shared/workflows/util.js';
import { startLocalServer } from './local-backend.js';
import type { LocalServerHandle } from './local-backend.js';
import { triangleGlb } from './model-fixtures.js';

/** Who sends a request: signed out, the user or admin account, the service key, or a raw bearer token (or the name of one in `world.tokensByName`). */
export type Caller = 'anon' | 'user' | 'admin' | 'service' | { token: string };

/** One row of a hostile-request table. */
export interface HostileCase {
  name: string;
  as: Caller;
  method: string;
  path: string | (() => string);
  /** A JSON value (sent as JSON), or a builder of one. */
  body?: unknown;
  /** A raw body (text, bytes or a multipart form), or a builder of one. */
  raw?: string | (() => string | FormData | Blob);
  headers?: Record<string, string>;
  status: number;
  /** What the error message (or the whole reply text) must say. */
  message?: RegExp;
  /** Extra checks on the reply. */
  check?: (reply: HostileReply) => void;
}

/** A reply as the tables see it. */
export interface HostileReply {
  status: number;
  headers: Headers;
  text: string;
}

/** One account of the world. */
export interface HostileAccount {
  uid: string;
  email: string;
  password: string;
  /** A fresh ID token. */
  token: string;
  refreshToken: string;
}

/** A running embedded backend with its accounts and fixtures. */
export interface HostileWorld {
  handle: LocalServerHandle;
  url: string;
  /** A client acting with the service key. */
  service: Backend;
  user: HostileAccount;
  admin: HostileAccount;
  /** Raw tokens by the names cases use in `{ token: name }` (filled by the test file). */
  tokensByName: Record<string, string>;
  /** The project 'proj-security' ('Security tower', SEC-1). */
  project: string;
  /** A visible model of the project (Public ID SEC-M) with a GLB at `models/{model}/model.glb`. */
  model: string;
  /** A hidden model of the project (Public ID SEC-H) with a GLB. */
  hidden: string;
  /** The fixtures' GLB bytes (a real one: the server checks every model file). */
  glbBody: Uint8Array<ArrayBuffer>;
  stop(): Promise<void>;
}

/**
 * Signs an account in over HTTP.
 * @returns its ID and refresh tokens and uid
 */
export async function signInToken(
  url: string,
  email: string,
  password: string,
): Promise<{ idToken: string; refreshToken: string; uid: string }> {
  const response = await fetch(`${url}/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { idToken: string; refreshToken: string; user: { uid: string } };
  return { idToken: body.idToken, refreshToken: body.refreshToken, uid: body.user.uid };
}

/**
 * Creates an account with a `users/{uid}` record of `role` and signs it in.
 * @param service the service-key client
 */
export async function createAccount(
  url: string,
  service: Backend,
  email: string,
  password: string,
  role: 'admin' | 'user',
): Promise<HostileAccount> {
  const account = await service.identity.createAccount(email, password);
  await service.catalog.set('users', account.uid, {
    uid: account.uid,
    email,
    role,
    created_at: SERVER_TIMESTAMP,
    created_by: 'security',
  });
  const signedIn = await signInToken(url, email, password);
  return { uid: account.uid, email, password, token: signedIn.idToken, refreshToken: signedIn.refreshToken };
}

/**
 * Starts an embedded backend in a temporary folder with `admin@security.test` and
 * `user@security.test`, the project 'proj-security' and its visible model SEC-M and hidden model
 * SEC-H, each with a GLB.
 * @param options.portalDir a built portal to serve (none by default)
 * @param options.model, options.hidden the fixture models' ids (fresh uuids by default)
 */
export async function startHostileWorld(options: { portalDir?: string; model?: string; hidden?: string } = {}): Promise<HostileWorld> {
  const handle = await startLocalServer({ portalDir: options.portalDir });
  const url = handle.server.url;
  const service = createLocalBackend({ baseUrl: url, serviceKey: handle.serviceKey });
  const admin = await createAccount(url, service, 'admin@security.test', 'admin-pass-1', 'admin');
  const user = await createAccount(url, service, 'user@security.test', 'user-pass-1', 'user');
  const project = 'proj-security';
  const model = options.model ?? randomUUID();
  const hidden = options.hidden ?? randomUUID();
  await service.catalog.set('projects', project, {
    name: 'Security tower',
    structure_id: 'SEC-1',
    description: '',
    slug: 'security-tower',
    location: { lat: 1, lng: 2, address: null, mapUrl: 'https://maps.example/x' },
  });
  const glbBody = await triangleGlb();
  for (const [id, publicId, visible] of [
    [model, 'SEC-M', true],
    [hidden, 'SEC-H', false],
  ] as const) {
    await service.catalog.set('models', id, {
      uuid: id,
      publicId,
      name: visible ? 'visible' : 'hidden',
      projectId: project,
      visible,
      files: { glbPath: `models/${id}/model.glb` },
    });
    await service.files.upload(`models/${id}/model.glb`, new Blob([glbBody]));
  }
  return {
    handle,
    url,
    service,
    user,
    admin,
    tokensByName: {},
    project,
    model,
    hidden,
    glbBody,
    async stop() {
      await service.close();
      await handle.server.close();
    },
  };
}

/** The Authorization header of a caller (none for 'anon'). */
export function authHeader(world: HostileWorld, caller: Caller): Record<string, string> {
  if (caller === 'anon') return {};
  if (caller === 'service') return { authorization: `Bearer ${world.handle.serviceKey}` };
  if (typeof caller === 'object') return { authorization: `Bearer ${world.tokensByName[caller.token] ?? caller.token}` };
  return { authorization: `Bearer ${world[caller].token}` };
}

/** Every collection, as the snapshot reads them. */
const COLLECTIONS: readonly CollectionName[] = ['projects', 'models', 'users', 'admins', 'annotations', 'alignments', 'changeMaps'];

/**
 * Everything a hostile request could change: every collection's documents, the file rows with
 * their sizes, the files on disk, and Object.prototype's own names (the server runs in this process).
 * @returns a JSON string to compare before and after
 */
export async function snapshot(world: HostileWorld): Promise<string> {
  const collections = await Promise.all(COLLECTIONS.map((c) => world.service.catalog.query(c)));
  for (const docs of collections) docs.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rows = await Promise.all(
    (await listFilesDeep(world.service.files, 'models/'))
      .sort()
      .map(async (p) => `${p}:${(await world.service.files.getMetadata(p)).size}`),
  );
  const root = join(world.handle.dataDir, 'storage');
  const disk = readdirSync(root, { recursive: true, withFileTypes: true })
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
  return JSON.stringify({ collections, rows, disk, proto: Object.getOwnPropertyNames(Object.prototype).sort() });
}

/**
 * Sends one case's request.
 * @returns the reply's status, headers and text
 */
export async function sendCase(world: HostileWorld, c: HostileCase): Promise<HostileReply> {
  const headers: Record<string, string> = { ...authHeader(world, c.as), ...c.headers };
  let body: string | FormData | Blob | undefined;
  if (c.raw !== undefined) body = typeof c.raw === 'function' ? c.raw() : c.raw;
  else if (c.body !== undefined) body = JSON.stringify(typeof c.body === 'function' ? (c.body as () => unknown)() : c.body);
  const path = typeof c.path === 'function' ? c.path() : c.path;
  if (typeof body === 'string') headers['content-type'] ??= path.startsWith('/v1/files/') ? 'application/octet-stream' : 'application/json';
  const response = await fetch(`${world.url}${path}`, { method: c.method, headers, body });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/**
 * Runs one case: its status, a refusal that says what is wrong (JSON `{error: {code, message}}`
 * from the API, never code 'internal'; text from tus), its message, its own checks, and nothing
 * changed.
 */
export async function runHostileCase(world: HostileWorld, c: HostileCase): Promise<void> {
  const before = await snapshot(world);
  const reply = await sendCase(world, c);
  expect(reply.status, reply.text.slice(0, 300)).toBe(c.status);
  if (c.status >= 400 && c.method !== 'OPTIONS' && c.method !== 'HEAD') {
    expect(reply.text.length).toBeGreaterThan(0);
    if (reply.text.startsWith('{')) {
      const body = JSON.parse(reply.text) as { error?: { code?: string; message?: string } };
      expect(body.error?.message ?? '').not.toBe('');
      expect(body.error?.code).not.toBe('internal');
    }
  }
  if (c.message) expect(reply.text).toMatch(c.message);
  c.check?.(reply);
  expect(await snapshot(world)).toBe(before);
  expect(({} as Record<string, unknown>).role).toBeUndefined();
}

/**
 * Registers one test per case (inside the caller's `describe`).
 * @param world the running world (read when the tests run)
 * @param cases the table
 */
export function hostileTable(world: () => HostileWorld, cases: readonly HostileCase[]): void {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => runHostileCase(world(), c));
}

/** A regular expression matching `text` literally. */
export const literally = (text: string): RegExp => new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** The fields of the finding the tables create: a point finding, as the form writes it. */
export const HOSTILE_FINDING = {
  title: 'Rust on the girder',
  note: '',
  category: 'corrosion',
  severity: 3,
  status: 'open',
  points: [{ x: 1, y: 2, z: 3 }],
  kind: 'point',
  measure: null,
  up: null,
  photos: [],
} as const;

/**
 * The writes of the user's finding create at `{modelId}_{seq}` with its model's count bump (what
 * `createAnnotation` commits as that user).
 * @param count the model's finding count after the create (default `seq`)
 * @returns the batch's ops, for `{ops}` or `{ops, preconditions}`
 */
export function userFindingOps(world: HostileWorld, modelId: string, seq: number, count = seq): unknown[] {
  return [
    {
      op: 'create',
      collection: 'annotations',
      id: `${modelId}_${seq}`,
      data: {
        ...HOSTILE_FINDING,
        modelId,
        projectId: world.project,
        seq,
        author_uid: world.user.uid,
        author_email: world.user.email,
        followUpOf: null,
        created_at: SERVER_TIMESTAMP,
        last_updated: SERVER_TIMESTAMP,
      },
    },
    { op: 'update', collection: 'models', id: modelId, data: { 'metadata.annotationsCount': count, 'metadata.annotationsSeq': seq } },
  ];
}
