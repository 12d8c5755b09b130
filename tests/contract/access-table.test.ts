// The embedded server (`catalog serve`, in this process) against EVERY row of the shared access
// table (tests/support/access-table.ts, decided by shared/roles.ts); tests/rules/role-table.test.ts runs
// the same rows against firestore.rules, so the two backends cannot drift. The principals sign in
// through /v1/auth/sign-in with the table's fixed uids (accounts imported with the service key);
// the requests go to the /v1 document routes a client uses.
//
// What a decision is on this server (the table's module comment says the same):
// - allow: 2xx; a read returns exactly what the service key reads (same ids, same data, same order);
// - deny: 401 (signed out), 403 (permission) or 400 (the map-URL content rule, an unnamed collection);
//   a read may instead be withheld: 200 with less than the service key reads (a hidden model by
//   id reads as `{doc: null}`, a query returns only what the caller may read), and a write to a
//   document the caller reads as absent (a hidden model, a finding or an alignment of one, or none
//   at all) may be refused as for a missing document: 404 `not-found` (hidden means hidden). Never
//   any other status; signed out is always refused (never 200).
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_COLLECTIONS, ACCESS_FIXTURE, ACCESS_IDENTITIES, ACCESS_TABLE, accessRowName } from '../support/access-table.js';
import type { AccessPrincipal, AccessRequest } from '../support/access-table.js';
import { startLocalServer } from '../support/local-backend.js';
import type { LocalServerHandle } from '../support/local-backend.js';

let handle: LocalServerHandle;
const tokens = new Map<AccessPrincipal, string>();
const PASSWORD = 'access-pass-1';

interface Reply {
  status: number;
  body: unknown;
}

async function call(method: string, path: string, bearer: string | undefined, body?: unknown): Promise<Reply> {
  const response = await fetch(`${handle.server.url}${path}`, {
    method,
    headers: {
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Sends one request of the table as a client would (see tests/support/access-table.ts AccessRequest). */
function send(request: AccessRequest, bearer: string | undefined): Promise<Reply> {
  const at = (id: string): string => `/v1/docs/${request.collection}/${encodeURIComponent(id)}`;
  switch (request.op) {
    case 'get':
      return call('GET', at(request.id), bearer);
    case 'list':
      return call('POST', `/v1/query/${request.collection}`, bearer, { query: request.query });
    case 'create':
      return request.id === undefined
        ? call('POST', `/v1/docs/${request.collection}`, bearer, { data: request.data })
        : call('PUT', at(request.id), bearer, { data: request.data });
    case 'update':
      return request.merge
        ? call('PUT', at(request.id), bearer, { data: request.data, merge: true })
        : call('PATCH', at(request.id), bearer, { data: request.data });
    case 'delete':
      return call('DELETE', at(request.id), bearer);
    case 'batch':
      return call('POST', '/v1/batch', bearer, { ops: request.ops });
  }
}

/** The documents a write addresses: its own, or each of a batch's. */
function targets(request: AccessRequest): { collection: string; id: string }[] {
  if (request.op === 'batch') return request.ops.map((op) => ({ collection: op.collection, id: op.id }));
  return 'id' in request && request.id !== undefined ? [{ collection: request.collection, id: request.id }] : [];
}

/** True when the caller reads one of a write's documents as absent (missing, or withheld from them). */
async function absentToCaller(request: AccessRequest, bearer: string | undefined): Promise<boolean> {
  for (const { collection, id } of targets(request)) {
    const reply = await call('GET', `/v1/docs/${collection}/${encodeURIComponent(id)}`, bearer);
    if (reply.status !== 200 || (reply.body as { doc: unknown }).doc === null) return true;
  }
  return false;
}

/** Puts the fixture back: every document of the table's collections not in it removed, the rest rewritten. */
async function resetFixture(): Promise<void> {
  const ops: unknown[] = [];
  for (const collection of ACCESS_COLLECTIONS) {
    const { body } = await call('POST', `/v1/query/${collection}`, handle.serviceKey, {});
    for (const doc of (body as { docs: { id: string }[] }).docs) {
      if (!ACCESS_FIXTURE.some((f) => f.collection === collection && f.id === doc.id)) ops.push({ op: 'delete', collection, id: doc.id });
    }
  }
  for (const doc of ACCESS_FIXTURE) ops.push({ op: 'set', collection: doc.collection, id: doc.id, data: doc.data });
  const reply = await call('POST', '/v1/batch', handle.serviceKey, { ops });
  expect(reply.status, JSON.stringify(reply.body)).toBe(204);
}

beforeAll(async () => {
  handle = await startLocalServer();
  // Accounts with the table's fixed uids: a password hash from one created account, imported for each.
  const created = await call('POST', '/v1/auth/accounts', handle.serviceKey, { email: 'hash-source@access.test', password: PASSWORD });
  expect(created.status).toBe(200);
  const exported = await call('GET', '/v1/admin/accounts', handle.serviceKey);
  const hash = (exported.body as { accounts: { email: string; password_hash: string }[] }).accounts.find(
    (a) => a.email === 'hash-source@access.test',
  )!.password_hash;
  const identities = Object.entries(ACCESS_IDENTITIES) as [AccessPrincipal, (typeof ACCESS_IDENTITIES)[keyof typeof ACCESS_IDENTITIES]][];
  const imported = await call('POST', '/v1/admin/accounts', handle.serviceKey, {
    accounts: identities.map(([, identity]) => ({ uid: identity.uid, email: identity.email, password_hash: hash, disabled: false })),
  });
  expect(imported.body).toEqual({ added: identities.length });
  for (const [principal, identity] of identities) {
    const signedIn = await call('POST', '/v1/auth/sign-in', undefined, { email: identity.email, password: PASSWORD });
    expect(signedIn.status).toBe(200);
    tokens.set(principal, (signedIn.body as { idToken: string }).idToken);
  }
  await resetFixture();
});

afterAll(async () => {
  await handle?.server.close();
  if (handle) rmSync(handle.dataDir, { recursive: true, force: true });
});

describe('embedded server: the access table of tests/support/access-table.ts', () => {
  for (const row of ACCESS_TABLE) {
    it(accessRowName(row), async () => {
      const { request } = row;
      const read = request.op === 'get' || request.op === 'list';
      // what an unrestricted read returns, to tell a full answer from a withheld one
      const full = read ? await send(request, handle.serviceKey) : null;
      const reply = await send(request, tokens.get(row.principal));
      const detail = `HTTP ${reply.status} ${JSON.stringify(reply.body)}`;
      const complete = reply.status === 200 && full !== null && JSON.stringify(reply.body) === JSON.stringify(full.body);
      if (row.expect === 'allow') {
        if (read) expect(complete, `${detail}; the service key reads ${JSON.stringify(full?.body)}`).toBe(true);
        else expect(reply.status, detail).toBeGreaterThanOrEqual(200);
        expect(reply.status, detail).toBeLessThan(300);
        if (!read) await resetFixture();
        return;
      }
      if (row.principal === 'signed-out' && request.collection !== 'unnamed') expect(reply.status, detail).toBe(401);
      const code = (reply.body as { error?: { code?: string } } | null)?.error?.code;
      const asMissing = !read && reply.status === 404 && code === 'not-found' && (await absentToCaller(request, tokens.get(row.principal)));
      const refused = [400, 401, 403].includes(reply.status) || asMissing;
      const withheld = read && reply.status === 200 && !complete;
      expect(
        refused || withheld,
        `a denial must be refused (400/401/403, or 404 for a document absent to the caller)${read ? ' or withheld' : ''}: ${detail}`,
      ).toBe(true);
      if (!read && !refused) await resetFixture();
    });
  }
});
