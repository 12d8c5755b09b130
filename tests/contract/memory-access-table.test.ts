// The in-memory backend (shared/adapters/memory) against EVERY row of the shared access table
// (tests/support/access-table.ts, decided by shared/roles.ts), as tests/contract/access-table.test.ts
// holds the embedded server to it and tests/rules/role-table.test.ts firestore.rules. The
// principals are clients of one store signed in with the table's fixed uids; the requests are the
// port calls a client makes (get, query, add, set, set with merge, update, delete, batch).
//
// What a decision is here (the embedded server's, without HTTP):
// - allow: the call succeeds; a read returns exactly what the service principal reads;
// - deny: the call is refused (unauthenticated when signed out, permission-denied, or
//   invalid-argument for the map-URL content rule and an unnamed collection), or a read is withheld
//   (a hidden model by id reads as null, a query returns less than the service principal reads),
//   or a write to a document the caller reads as absent (hidden from them, or none at all) is
//   refused as for a missing document: not-found (hidden means hidden).
import { beforeEach, describe, expect, it } from 'vitest';
import { ACCESS_COLLECTIONS, ACCESS_FIXTURE, ACCESS_IDENTITIES, ACCESS_TABLE, accessRowName } from '../support/access-table.js';
import type { AccessPrincipal, AccessRequest } from '../support/access-table.js';
import { createMemoryBackend, createMemoryStore } from '@shared/adapters/memory/index.js';
import type { MemoryBackend } from '@shared/adapters/memory/index.js';
import { AppError } from '@shared/errors.js';
import type { CollectionName } from '@shared/types.js';

const store = createMemoryStore({
  accounts: Object.values(ACCESS_IDENTITIES).map((identity) => ({ uid: identity.uid, email: identity.email })),
});
const service = createMemoryBackend({ store, service: true });
const clients = new Map<AccessPrincipal, MemoryBackend>(
  (Object.keys(ACCESS_IDENTITIES) as Exclude<AccessPrincipal, 'signed-out'>[]).map((p) => [
    p,
    createMemoryBackend({ store, signedInAs: ACCESS_IDENTITIES[p].uid }),
  ]),
);
clients.set('signed-out', createMemoryBackend({ store }));

/** The outcome of one call: its value, or the AppError it was refused with. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: AppError };

/** Sends one request of the table through the ports (see tests/support/access-table.ts AccessRequest). */
async function send(request: AccessRequest, backend: MemoryBackend): Promise<Outcome> {
  const collection = request.collection as CollectionName;
  const { catalog } = backend;
  try {
    switch (request.op) {
      case 'get':
        return { ok: true, value: await catalog.get(collection, request.id) };
      case 'list':
        return { ok: true, value: await catalog.query(collection, request.query) };
      case 'create':
        return {
          ok: true,
          value:
            request.id === undefined
              ? await catalog.add(collection, request.data as never)
              : await catalog.set(collection, request.id, request.data as never),
        };
      case 'update':
        return {
          ok: true,
          value: request.merge
            ? await catalog.set(collection, request.id, request.data as never, { merge: true })
            : await catalog.update(collection, request.id, request.data),
        };
      case 'delete':
        return { ok: true, value: await catalog.delete(collection, request.id) };
      case 'batch':
        return { ok: true, value: await catalog.batch(request.ops) };
    }
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error };
    throw error;
  }
}

/** True when the caller reads one of a write's documents (its own, or each of a batch's) as absent: missing, or withheld from them. */
async function absentToCaller(request: AccessRequest, backend: MemoryBackend): Promise<boolean> {
  const targets =
    request.op === 'batch'
      ? request.ops.map((op) => ({ collection: op.collection, id: op.id }))
      : 'id' in request && request.id !== undefined
        ? [{ collection: request.collection as CollectionName, id: request.id }]
        : [];
  for (const { collection, id } of targets) {
    const doc = await backend.catalog.get(collection, id).catch(() => null);
    if (doc === null) return true;
  }
  return false;
}

/** Puts the fixture back: every document not in it removed, the rest rewritten (no role table). */
function resetFixture(): void {
  for (const collection of ACCESS_COLLECTIONS) {
    for (const doc of store.documents(collection)) {
      if (!ACCESS_FIXTURE.some((f) => f.collection === collection && f.id === doc.id)) store.deleteDocument(collection, doc.id);
    }
  }
  for (const doc of ACCESS_FIXTURE) store.writeDocument(doc.collection, doc.id, doc.data);
}

beforeEach(resetFixture);

describe('in-memory backend: the access table of tests/support/access-table.ts', () => {
  for (const row of ACCESS_TABLE) {
    it(accessRowName(row), async () => {
      const { request } = row;
      const read = request.op === 'get' || request.op === 'list';
      // what an unrestricted read returns, to tell a full answer from a withheld one
      const full = read ? await send(request, service) : null;
      const outcome = await send(request, clients.get(row.principal)!);
      const detail = outcome.ok ? `ok ${JSON.stringify(outcome.value)}` : `${outcome.error.code}: ${outcome.error.message}`;
      const complete = outcome.ok && full !== null && full.ok && JSON.stringify(outcome.value) === JSON.stringify(full.value);
      if (row.expect === 'allow') {
        expect(outcome.ok, detail).toBe(true);
        if (read) expect(complete, `${detail}; the service principal reads ${JSON.stringify(full)}`).toBe(true);
        return;
      }
      if (row.principal === 'signed-out' && request.collection !== 'unnamed')
        expect(outcome.ok ? null : outcome.error.code, detail).toBe('unauthenticated');
      const asMissing =
        !read && !outcome.ok && outcome.error.code === 'not-found' && (await absentToCaller(request, clients.get(row.principal)!));
      const refused =
        asMissing || (!outcome.ok && ['unauthenticated', 'permission-denied', 'invalid-argument'].includes(outcome.error.code));
      const withheld = read && outcome.ok && !complete;
      expect(refused || withheld, `a denial must be refused${read ? ' or withheld' : ''}: ${detail}`).toBe(true);
    });
  }
});
