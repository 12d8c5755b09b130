// Stored = validated on Firebase for change maps: every case of the change-map field table
// (tests/support/change-map-field-table.ts; tests/support/change-maps-contract.ts runs the same
// cases on the memory backend and `catalog serve`) sent to firestore.rules on the Firestore
// emulator through the web SDK as the admin, at a missing document (a create) and over a stored
// one (an update: a change map is written whole). An allowance must commit (and is undone before
// the next case), a refusal must fail with permission-denied. The cases only the stored-document
// schema enforces are listed and skipped here. A user's writes and every read are rows of the
// access table (tests/rules/role-table.test.ts).
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { CHANGE_MAP_FIELD_CASES, changeMapFieldCaseName, changeMapFieldData } from '../support/change-map-field-table.js';
import type { ChangeMapFieldCase } from '../support/change-map-field-table.js';
import { startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';
import { sdkData } from '../support/rules-data.js';

// Every denial is expected here: keep the SDK's per-denial warnings out of the output.
setLogLevel('error');

const admin = { uid: 'map-admin', email: 'admin@maps.test' };
const [reference, capture, project] = ['map-reference', 'map-capture', 'map-project'];
const key = `${reference}__${capture}`;

let env: RulesTestEnvironment;
let firestore: FirestoreEmulatorHandle;

/** The admin's record, the two models and no change map (rules off). */
async function resetFixture(stored: boolean): Promise<void> {
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore();
    const batch = db.batch();
    batch.set(db.doc(`users/${admin.uid}`), { uid: admin.uid, email: admin.email, role: 'admin' });
    for (const id of [reference, capture])
      batch.set(db.doc(`models/${id}`), { uuid: id, publicId: id, name: id, projectId: project, visible: true });
    for (const doc of (await db.collection('changeMaps').get()).docs) batch.delete(doc.ref);
    await batch.commit();
    if (stored) await db.doc(`changeMaps/${key}`).set({ ...changeMapFieldData(reference, capture, project) });
  });
}

beforeAll(async () => {
  firestore = await startFirestoreEmulator();
  const [host, port] = firestore.host.split(':');
  env = await initializeTestEnvironment({
    projectId: 'demo-change-map-fields',
    firestore: { rules: readFileSync('firestore.rules', 'utf8'), host: host!, port: Number(port) },
  });
});

afterAll(async () => {
  await env?.cleanup();
  await firestore?.stop();
});

/** Writes a case as the admin (`set`, a create or an update as `stored` says). */
function attempt(c: ChangeMapFieldCase): Promise<unknown> {
  const db = env.authenticatedContext(admin.uid, { email: admin.email }).firestore();
  const id = c.id ? c.id(reference, capture) : key;
  return db.doc(`changeMaps/${id}`).set(sdkData(c.change(changeMapFieldData(reference, capture, project)) as Record<string, unknown>));
}

const cases = CHANGE_MAP_FIELD_CASES.filter((c) => c.only !== 'server');
const skipped = CHANGE_MAP_FIELD_CASES.filter((c) => c.only === 'server');
if (skipped.length > 0) console.info(`[change-map fields] catalog serve only: ${skipped.map((c) => `${c.name} (${c.why})`).join('; ')}`);

describe('firestore.rules: the change-map field table (stored = validated)', () => {
  for (const stored of [false, true]) {
    describe(stored ? 'over a stored change map' : 'a new change map', () => {
      it.each(cases.map((c) => [changeMapFieldCaseName(c), c] as const))('%s', async (_name, c) => {
        await resetFixture(stored);
        if (c.expect === 'deny') await assertFails(attempt(c));
        else await assertSucceeds(attempt(c));
      });
    });
  }
});
