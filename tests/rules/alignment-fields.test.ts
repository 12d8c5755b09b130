// Stored = validated on Firebase for alignments: every case of the alignment field table
// (tests/support/alignment-field-table.ts; tests/support/change-maps-contract.ts runs the same
// cases on the memory backend and `catalog serve`) sent to firestore.rules on the Firestore
// emulator through the web SDK as the admin, at a missing document (a create) and over a stored
// 'icp' alignment (an update). An allowance must commit (and is undone before the next case), a
// refusal must fail with permission-denied. The cases only the stored-document schema enforces are
// listed and skipped here. A user's writes and every read are rows of the access table
// (tests/rules/role-table.test.ts).
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ALIGNMENT_FIELD_CASES, alignmentFieldCaseName, alignmentFieldData } from '../support/alignment-field-table.js';
import type { AlignmentFieldCase } from '../support/alignment-field-table.js';
import { startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';
import { sdkData } from '../support/rules-data.js';

// Every denial is expected here: keep the SDK's per-denial warnings out of the output.
setLogLevel('error');

const admin = { uid: 'align-admin', email: 'admin@alignments.test' };
const [reference, capture, project] = ['align-reference', 'align-capture', 'align-project'];
const key = `${reference}__${capture}`;

let env: RulesTestEnvironment;
let firestore: FirestoreEmulatorHandle;

/** The admin's record, the two models and the alignment stored or not (rules off). */
async function resetFixture(stored: boolean): Promise<void> {
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore();
    const batch = db.batch();
    batch.set(db.doc(`users/${admin.uid}`), { uid: admin.uid, email: admin.email, role: 'admin' });
    for (const id of [reference, capture])
      batch.set(db.doc(`models/${id}`), { uuid: id, publicId: id, name: id, projectId: project, visible: true });
    batch.delete(db.doc(`alignments/${key}`));
    await batch.commit();
    if (stored) await db.doc(`alignments/${key}`).set({ ...alignmentFieldData(reference, capture, project) });
  });
}

beforeAll(async () => {
  firestore = await startFirestoreEmulator();
  const [host, port] = firestore.host.split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-alignment-fields',
    firestore: { rules: readFileSync('firestore.rules', 'utf8'), host: host!, port: Number(port) },
  });
});

afterAll(async () => {
  await env?.cleanup();
  await firestore?.stop();
});

/** Writes a case as the admin (`set`: a create or an update as the fixture says). */
function attempt(c: AlignmentFieldCase): Promise<unknown> {
  const db = env.authenticatedContext(admin.uid, { email: admin.email }).firestore();
  return db.doc(`alignments/${key}`).set(sdkData(c.change(alignmentFieldData(reference, capture, project)) as Record<string, unknown>));
}

const cases = ALIGNMENT_FIELD_CASES.filter((c) => c.only !== 'server');
const skipped = ALIGNMENT_FIELD_CASES.filter((c) => c.only === 'server');
if (skipped.length > 0) console.info(`[alignment fields] catalog serve only: ${skipped.map((c) => c.name).join('; ')}`);

describe('firestore.rules: the alignment field table (stored = validated)', () => {
  for (const stored of [false, true]) {
    describe(stored ? "over a stored 'icp' alignment" : 'a new alignment', () => {
      it.each(cases.map((c) => [alignmentFieldCaseName(c), c] as const))('%s', async (_name, c) => {
        await resetFixture(stored);
        if (c.expect === 'deny') await assertFails(attempt(c));
        else await assertSucceeds(attempt(c));
      });
    });
  }
});
