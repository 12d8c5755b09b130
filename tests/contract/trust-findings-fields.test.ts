// Stored = validated, as raw HTTP against `catalog serve` (the hostile-request harness,
// tests/support/hostile.ts): every case of the findings field table (tests/support/findings-field-table.ts,
// which tests/rules/findings-fields.test.ts runs against firestore.rules) is sent as a user's new
// finding with its count batch, a user's edit of their own finding, or the admin's write. A refusal
// answers its status and the form's message and changes nothing; an allowance stores the schema's
// output with the server's times (a user's) or the given ones (the admin's import). A finding
// stored before the rules (written into the database file directly) stays editable in its other
// fields.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredDocument } from '@shared/validation/documents.js';
import { FINDING_FIELD_CASES, fieldCaseData, fieldCaseName, fieldTableFixture } from '../support/findings-field-table.js';
import type { FieldTableIds, FindingFieldCase } from '../support/findings-field-table.js';
import { literally, runHostileCase, sendCase, startHostileWorld } from '../support/hostile.js';
import type { HostileCase, HostileWorld } from '../support/hostile.js';

let world: HostileWorld;
let ids: FieldTableIds;

/** Writes a document into the database file as it is, without the server's rules (a document stored before them). */
function storeRaw(collection: string, id: string, data: Record<string, unknown>): void {
  const db = new Database(join(world.handle.dataDir, 'catalog.db'));
  try {
    const now = new Date().toISOString();
    db.prepare(
      `INSERT INTO documents (collection, id, data, create_time, update_time) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (collection, id) DO UPDATE SET data = excluded.data, update_time = excluded.update_time`,
    ).run(collection, id, JSON.stringify(data), now, now);
  } finally {
    db.close();
  }
}

/** Puts the table's documents (back) in place: through the service key, the legacy finding straight into the file. */
async function resetFixture(): Promise<void> {
  const docs = fieldTableFixture(ids);
  const legacy = `${ids.model}_2`;
  await world.service.catalog.batch([
    { op: 'delete', collection: 'annotations', id: `${ids.model}_3` },
    ...docs
      .filter((doc) => doc.id !== legacy)
      .map((doc) => ({ op: 'set' as const, collection: doc.collection, id: doc.id, data: doc.data, merge: doc.merge === true })),
  ]);
  storeRaw('annotations', legacy, docs.find((doc) => doc.id === legacy)!.data);
}

beforeAll(async () => {
  world = await startHostileWorld();
  ids = {
    user: { uid: world.user.uid, email: world.user.email },
    admin: { uid: world.admin.uid, email: world.admin.email },
    project: world.project,
    foreignProject: 'proj-foreign',
    model: world.model,
    other: randomUUID(),
    hidden: world.hidden,
    foreign: randomUUID(),
  };
  await resetFixture();
});

afterAll(async () => {
  await world?.stop();
});

/** The request of a case: the count batch of a create, a PATCH of an edit. */
function requestOf(c: FindingFieldCase): Pick<HostileCase, 'as' | 'method' | 'path' | 'body'> {
  const data = fieldCaseData(c, ids);
  if (c.op === 'create') {
    return {
      as: c.as,
      method: 'POST',
      path: '/v1/batch',
      body: {
        ops: [
          { op: 'create', collection: 'annotations', id: `${ids.model}_3`, data },
          { op: 'update', collection: 'models', id: ids.model, data: { 'metadata.annotationsCount': 3, 'metadata.annotationsSeq': 3 } },
        ],
      },
    };
  }
  const id = c.op === 'update' ? `${ids.model}_1` : `${ids.model}_2`;
  return { as: c.as, method: 'PATCH', path: `/v1/docs/annotations/${id}`, body: { data } };
}

/** The stored finding (as the service key reads it). */
async function stored(id: string): Promise<Record<string, unknown> | null> {
  return (await world.service.catalog.get('annotations', id)) as Record<string, unknown> | null;
}

const cases = FINDING_FIELD_CASES.filter((c) => c.only !== 'rules');
const skipped = FINDING_FIELD_CASES.filter((c) => c.only === 'rules');
if (skipped.length > 0) console.info(`[findings fields] firestore.rules only: ${skipped.map((c) => `${c.name} (${c.why})`).join('; ')}`);

describe('catalog serve: the findings field table (stored = validated)', () => {
  it.each(cases.filter((c) => c.expect === 'deny').map((c) => [fieldCaseName(c), c] as const))('%s', async (_name, c) => {
    await runHostileCase(world, {
      name: c.name,
      ...requestOf(c),
      status: c.status ?? 400,
      // the message as the JSON reply spells it (quotes escaped)
      message: literally(JSON.stringify(c.message ?? '').slice(1, -1)),
    });
  });

  it.each(cases.filter((c) => c.expect === 'allow').map((c) => [fieldCaseName(c), c] as const))('%s', async (_name, c) => {
    const started = new Date().toISOString();
    const reply = await sendCase(world, { name: c.name, ...requestOf(c), status: 204 });
    expect(reply.status, reply.text).toBe(204);
    const id = c.op === 'create' ? `${ids.model}_3` : c.op === 'update' ? `${ids.model}_1` : `${ids.model}_2`;
    const doc = await stored(id);
    expect(doc).not.toBeNull();
    const { id: _id, ...data } = doc!;
    const sent = fieldCaseData(c, ids);
    for (const [key, value] of Object.entries(sent)) {
      if (key === 'created_at' || key === 'last_updated') continue;
      expect(data[key], key).toEqual(value);
    }
    if (c.op !== 'update-legacy') expect(parseStoredDocument('annotations', id, data)).toMatchObject({ ok: true });
    if (c.as === 'user') {
      // the server's time, once per commit, within this request
      expect(typeof data.last_updated === 'string' && data.last_updated >= started && data.last_updated <= new Date().toISOString()).toBe(
        true,
      );
      if (c.op === 'create') expect(data.created_at).toBe(data.last_updated);
      else expect(data.created_at).toBe('2026-01-05T08:00:00.000Z');
    } else if (c.op === 'create') {
      // an admin's given times are kept (an import); the sentinel is the server's time
      const given = (value: unknown): unknown => (typeof value === 'string' ? value : data.last_updated);
      expect([data.created_at, data.last_updated]).toEqual([given(sent.created_at), given(sent.last_updated)]);
    }
    await resetFixture();
  });
});
