// Stored = validated on Firebase: every case of the findings field table
// (tests/support/findings-field-table.ts; tests/contract/trust-findings-fields.test.ts sends the
// same cases to `catalog serve`) run against firestore.rules on the Firestore emulator through the
// web SDK (the compat API of @firebase/rules-unit-testing), as the user and the admin: a user's new
// finding in one batch with its model's count, an edit of their own finding (the server-time
// sentinel as serverTimestamp()), the admin's writes. An allowance must commit (and is undone
// before the next case), a refusal must fail with permission-denied. A case only the server can
// enforce (a malformed point between the second and the last) is listed and skipped here.
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';
import { FINDING_FIELD_CASES, fieldCaseData, fieldCaseName, fieldTableFixture } from '../support/findings-field-table.js';
import type { FieldTableIds, FindingFieldCase } from '../support/findings-field-table.js';
import { sdkData } from '../support/rules-data.js';

// Every denial is expected here: keep the SDK's per-denial warnings out of the output.
setLogLevel('error');

const ids: FieldTableIds = {
  user: { uid: 'field-user', email: 'user@fields.test' },
  admin: { uid: 'field-admin', email: 'admin@fields.test' },
  project: 'field-project',
  foreignProject: 'field-foreign-project',
  model: 'field-model',
  other: 'field-other',
  hidden: 'field-hidden',
  foreign: 'field-foreign',
};

let env: RulesTestEnvironment;
let firestore: FirestoreEmulatorHandle;

/** Writes the table's documents and the two accounts' records (rules off). */
async function resetFixture(): Promise<void> {
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore();
    const batch = db.batch();
    batch.delete(db.doc(`annotations/${ids.model}_3`));
    batch.set(db.doc(`users/${ids.user.uid}`), { uid: ids.user.uid, email: ids.user.email, role: 'user' });
    batch.set(db.doc(`users/${ids.admin.uid}`), { uid: ids.admin.uid, email: ids.admin.email, role: 'admin' });
    for (const doc of fieldTableFixture(ids)) batch.set(db.doc(`${doc.collection}/${doc.id}`), doc.data);
    await batch.commit();
  });
}

beforeAll(async () => {
  firestore = await startFirestoreEmulator();
  const [host, port] = firestore.host.split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-findings-fields',
    firestore: { rules: readFileSync('firestore.rules', 'utf8'), host: host!, port: Number(port) },
  });
  await resetFixture();
});

afterAll(async () => {
  await env?.cleanup();
  await firestore?.stop();
});

/** Sends a case through the web SDK as its caller: the count batch of a create, an update of an edit. */
function attempt(c: FindingFieldCase): Promise<unknown> {
  const who = c.as === 'user' ? ids.user : ids.admin;
  const db = env.authenticatedContext(who.uid, { email: who.email }).firestore();
  const data = sdkData(fieldCaseData(c, ids));
  if (c.op === 'create') {
    const batch = db.batch();
    batch.set(db.doc(`annotations/${ids.model}_3`), data);
    batch.update(db.doc(`models/${ids.model}`), { 'metadata.annotationsCount': 3, 'metadata.annotationsSeq': 3 });
    return batch.commit();
  }
  return db.doc(`annotations/${ids.model}_${c.op === 'update' ? 1 : 2}`).update(data);
}

const cases = FINDING_FIELD_CASES.filter((c) => c.only !== 'server');
const skipped = FINDING_FIELD_CASES.filter((c) => c.only === 'server');
if (skipped.length > 0) console.info(`[findings fields] catalog serve only: ${skipped.map((c) => `${c.name} (${c.why})`).join('; ')}`);

describe('firestore.rules: the findings field table (stored = validated)', () => {
  it.each(cases.map((c) => [fieldCaseName(c), c] as const))('%s', async (_name, c) => {
    if (c.expect === 'deny') {
      await assertFails(attempt(c));
      return;
    }
    await assertSucceeds(attempt(c));
    await resetFixture();
  });
});
