// Stored = validated on Firebase for change maps and for the alignments accepted from them: every
// case of the change-map field table (tests/support/change-map-field-table.ts) and of the
// alignment field table (tests/support/alignment-field-table.ts; tests/support/change-maps-contract.ts
// runs the same cases on the memory backend and `catalog serve`) sent to firestore.rules on the
// Firestore emulator through the web SDK as the admin, at a missing document (a create) and over a
// stored one (an update: a change map is written whole; the stored alignment is an 'icp' one). An
// allowance must commit (and is undone before the next case), a refusal must fail with
// permission-denied. The cases only the stored-document schema enforces are listed and skipped
// here. A user's writes and every read are rows of the access table (tests/rules/role-table.test.ts).
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ALIGNMENT_FIELD_CASES, alignmentFieldCaseName, alignmentFieldData } from '../support/alignment-field-table.js';
import { CHANGE_MAP_FIELD_CASES, changeMapFieldCaseName, changeMapFieldData } from '../support/change-map-field-table.js';
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

/** One of the two tables: its collection, its valid document and its cases. */
interface FieldTable {
  collection: 'changeMaps' | 'alignments';
  what: string;
  data: () => object;
  cases: ReadonlyArray<{
    name: string;
    change: (data: never) => object;
    id?: (referenceModelId: string, modelId: string) => string;
    expect: 'allow' | 'deny';
    only?: 'server';
    why?: string;
  }>;
  caseName: (c: never) => string;
}

const TABLES: FieldTable[] = [
  {
    collection: 'changeMaps',
    what: 'change map',
    data: () => changeMapFieldData(reference, capture, project),
    cases: CHANGE_MAP_FIELD_CASES,
    caseName: changeMapFieldCaseName,
  },
  {
    collection: 'alignments',
    what: "alignment ('icp')",
    data: () => alignmentFieldData(reference, capture, project),
    cases: ALIGNMENT_FIELD_CASES,
    caseName: alignmentFieldCaseName,
  },
];

/** The admin's record, the two models, neither document, and the table's own stored or not (rules off). */
async function resetFixture(table: FieldTable, stored: boolean): Promise<void> {
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore();
    const batch = db.batch();
    batch.set(db.doc(`users/${admin.uid}`), { uid: admin.uid, email: admin.email, role: 'admin' });
    for (const id of [reference, capture])
      batch.set(db.doc(`models/${id}`), { uuid: id, publicId: id, name: id, projectId: project, visible: true });
    for (const collection of ['changeMaps', 'alignments'])
      for (const doc of (await db.collection(collection).get()).docs) batch.delete(doc.ref);
    await batch.commit();
    if (stored) await db.doc(`${table.collection}/${key}`).set({ ...table.data() });
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

for (const table of TABLES) {
  const cases = table.cases.filter((c) => c.only !== 'server');
  const skipped = table.cases.filter((c) => c.only === 'server');
  if (skipped.length > 0)
    console.info(`[${table.what} fields] catalog serve only: ${skipped.map((c) => (c.why ? `${c.name} (${c.why})` : c.name)).join('; ')}`);

  /** Writes a case as the admin (`set`, a create or an update as the fixture says). */
  const attempt = (c: FieldTable['cases'][number]): Promise<unknown> => {
    const db = env.authenticatedContext(admin.uid, { email: admin.email }).firestore();
    const id = c.id ? c.id(reference, capture) : key;
    return db.doc(`${table.collection}/${id}`).set(sdkData(c.change(table.data() as never) as Record<string, unknown>));
  };

  describe(`firestore.rules: the ${table.what} field table (stored = validated)`, () => {
    for (const stored of [false, true]) {
      describe(stored ? `over a stored ${table.what}` : `a new ${table.what}`, () => {
        it.each(cases.map((c) => [table.caseName(c as never), c] as const))('%s', async (_name, c) => {
          await resetFixture(table, stored);
          if (c.expect === 'deny') await assertFails(attempt(c));
          else await assertSucceeds(attempt(c));
        });
      });
    }
  });
}
