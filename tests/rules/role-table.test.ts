// Security rules (firestore.rules, storage.rules) with @firebase/rules-unit-testing. firestore.rules
// runs EVERY row of the access table (tests/support/access-table.ts: the role table for
// signed out, signed in without a record, allowlisted, user and admin × every collection × get,
// list, create, update, delete and the atomic batches findings need, decided by
// shared/roles.ts `can()`); the embedded server runs the
// same rows (tests/contract/access-table.test.ts), so the two backends cannot drift. It runs on
// Google's Firestore emulator, started here from the machine image's jar
// (tests/support/emulators.ts; a missing jar or Java fails with the package to install).
// storage.rules needs the Storage emulator, whose rules runtime is downloaded from Google at start
// and cannot run here: its cases run only where FIREBASE_STORAGE_EMULATOR_HOST is set
// (`firebase emulators:exec` in .github/workflows/firebase.yml) and skip with that reason otherwise.
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestContext, RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import { ACCESS_FIXTURE, ACCESS_IDENTITIES, ACCESS_TABLE, accessRowName } from '../support/access-table.js';
import type { AccessPrincipal, AccessRequest } from '../support/access-table.js';
import { startFirestoreEmulator } from '../support/emulators.js';
import { sdkData } from '../support/rules-data.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';

const storageHost = process.env.FIREBASE_STORAGE_EMULATOR_HOST ?? null;
const storageSkipReason = storageHost
  ? null
  : 'the Storage emulator cannot run here (its rules runtime is downloaded from Google at start); storage.rules runs in .github/workflows/firebase.yml';
// Every denial is expected here: keep the SDK's per-denial warnings out of the output.
setLogLevel('error');
if (storageSkipReason) console.info(`[rules] skipping the storage.rules cases: ${storageSkipReason}`);

function hostPort(value: string | undefined, fallback: number): { host: string; port: number } {
  const [host, port] = (value ?? `127.0.0.1:${fallback}`).split(':');
  return { host: host || '127.0.0.1', port: Number(port) || fallback };
}

type Db = ReturnType<RulesTestContext['firestore']>;

/** Runs one request of the table with the Firestore web SDK (compat API of rules-unit-testing). */
function runRequest(db: Db, request: AccessRequest): Promise<unknown> {
  switch (request.op) {
    case 'get':
      return db.doc(`${request.collection}/${request.id}`).get();
    case 'list': {
      let query: ReturnType<Db['collection']> | ReturnType<ReturnType<Db['collection']>['where']> = db.collection(request.collection);
      for (const [field, op, value] of request.query.where ?? []) query = query.where(field, op, value);
      for (const [field, direction] of request.query.orderBy ?? []) query = query.orderBy(field, direction ?? 'asc');
      if (request.query.limit !== undefined) query = query.limit(request.query.limit);
      return query.get();
    }
    case 'create':
      return request.id === undefined
        ? db.collection(request.collection).add(sdkData(request.data))
        : db.doc(`${request.collection}/${request.id}`).set(sdkData(request.data));
    case 'update':
      return request.merge
        ? db.doc(`${request.collection}/${request.id}`).set(sdkData(request.data), { merge: true })
        : db.doc(`${request.collection}/${request.id}`).update(sdkData(request.data));
    case 'delete':
      return db.doc(`${request.collection}/${request.id}`).delete();
    case 'batch': {
      // writes that the rules bind together (a finding and its model's count), atomically
      const batch = db.batch();
      for (const op of request.ops) {
        const ref = db.doc(`${op.collection}/${op.id}`);
        if (op.op === 'create') batch.set(ref, sdkData(op.data));
        else if (op.op === 'update') batch.update(ref, sdkData(op.data));
        else batch.delete(ref);
      }
      return batch.commit();
    }
  }
}

describe('security rules: the role table', () => {
  let env: RulesTestEnvironment;
  let firestore: FirestoreEmulatorHandle;
  const bytes = new Uint8Array([1, 2, 3, 4]);

  beforeAll(async () => {
    firestore = await startFirestoreEmulator();
    env = await initializeTestEnvironment({
      projectId: 'demo-catalog',
      firestore: { rules: readFileSync('firestore.rules', 'utf8'), ...hostPort(firestore.host, 8080) },
      ...(storageHost ? { storage: { rules: readFileSync('storage.rules', 'utf8'), ...hostPort(storageHost, 9199) } } : {}),
    });
    await env.clearFirestore();
    await env.withSecurityRulesDisabled(async (ctx) => {
      const batch = ctx.firestore().batch();
      for (const doc of ACCESS_FIXTURE) batch.set(ctx.firestore().doc(`${doc.collection}/${doc.id}`), doc.data);
      await batch.commit();
    });
  });

  afterAll(async () => {
    await env?.cleanup();
    await firestore?.stop();
  });

  /** Undoes an allowed write: the written collections back to the fixture, documents added removed. */
  async function restore(request: AccessRequest): Promise<void> {
    const collections = new Set<string>(request.op === 'batch' ? request.ops.map((op) => op.collection) : [request.collection]);
    await env.withSecurityRulesDisabled(async (ctx) => {
      const db = ctx.firestore();
      const batch = db.batch();
      for (const collection of collections) {
        const fixture = ACCESS_FIXTURE.filter((doc) => doc.collection === collection);
        for (const doc of (await db.collection(collection).get()).docs) {
          if (!fixture.some((f) => f.id === doc.id)) batch.delete(doc.ref);
        }
        for (const doc of fixture) batch.set(db.doc(`${doc.collection}/${doc.id}`), doc.data);
      }
      await batch.commit();
    });
  }

  const contextOf = (principal: AccessPrincipal): RulesTestContext =>
    principal === 'signed-out'
      ? env.unauthenticatedContext()
      : env.authenticatedContext(ACCESS_IDENTITIES[principal].uid, { email: ACCESS_IDENTITIES[principal].email });
  const anon = (): RulesTestContext => contextOf('signed-out');
  const noRole = (): RulesTestContext => contextOf('no-role');
  const user = (): RulesTestContext => contextOf('user');
  const admin = (): RulesTestContext => contextOf('admin');

  // Every row of the access table (tests/support/access-table.ts, decided by shared/roles.ts):
  // an allowance must succeed and a denial must fail with permission-denied. An allowed write is
  // undone before the next row (the target document restored, anything added removed).
  describe('the access table of tests/support/access-table.ts', () => {
    for (const row of ACCESS_TABLE) {
      it(accessRowName(row), async () => {
        const db = contextOf(row.principal).firestore();
        const attempt = runRequest(db, row.request);
        if (row.expect === 'deny') {
          await assertFails(attempt);
          return;
        }
        await assertSucceeds(attempt);
        if (row.request.op !== 'get' && row.request.op !== 'list') await restore(row.request);
      });
    }
  });

  // Hidden means hidden: a user's request about a hidden model's document gets the same answer as
  // about one that does not exist (permission-denied, which the web adapter turns into "none" for
  // reads), so no refusal tells that a hidden document exists; the documents of models one can
  // open read as absent when missing.
  describe('hidden means hidden: the same answer for a hidden and a missing document', () => {
    const refusal = async (attempt: Promise<unknown>): Promise<string> => {
      const error = (await assertFails(attempt)) as { code?: string };
      return String(error.code);
    };
    const pairs: Array<[string, (db: Db) => Promise<unknown>, (db: Db) => Promise<unknown>]> = [
      ['get a finding', (db) => db.doc('annotations/hidden_1').get(), (db) => db.doc('annotations/absent_1').get()],
      ['get a finding number not given yet', (db) => db.doc('annotations/hidden_9').get(), (db) => db.doc('annotations/absent_9').get()],
      [
        "list a model's findings",
        (db) => db.collection('annotations').where('modelId', '==', 'hidden').get(),
        (db) => db.collection('annotations').where('modelId', '==', 'absent').get(),
      ],
      ['get an alignment', (db) => db.doc('alignments/shown__hidden').get(), (db) => db.doc('alignments/shown__absent').get()],
      [
        "list a pair's alignment",
        (db) => db.collection('alignments').where('referenceModelId', '==', 'hidden').where('modelId', '==', 'legacy').get(),
        (db) => db.collection('alignments').where('referenceModelId', '==', 'absent').where('modelId', '==', 'legacy').get(),
      ],
      ['get a change map', (db) => db.doc('changeMaps/shown__hidden').get(), (db) => db.doc('changeMaps/shown__absent').get()],
      [
        "list a pair's change map",
        (db) => db.collection('changeMaps').where('referenceModelId', '==', 'hidden').where('modelId', '==', 'legacy').get(),
        (db) => db.collection('changeMaps').where('referenceModelId', '==', 'absent').where('modelId', '==', 'legacy').get(),
      ],
      ['get a model', (db) => db.doc('models/hidden').get(), (db) => db.doc('models/absent').get()],
      ['rename a model', (db) => db.doc('models/hidden').update({ name: 'x' }), (db) => db.doc('models/absent').update({ name: 'x' })],
      [
        "edit a finding's title",
        (db) => db.doc('annotations/hidden_1').update({ title: 'x' }),
        (db) => db.doc('annotations/absent_1').update({ title: 'x' }),
      ],
    ];
    for (const [what, hidden, missing] of pairs) {
      it(`user: ${what}: a hidden one and a missing one are both refused alike`, async () => {
        const db = user().firestore();
        const [a, b] = [await refusal(hidden(db)), await refusal(missing(db))];
        expect([a, b]).toEqual(['permission-denied', 'permission-denied']);
      });
    }
    it("user: a missing finding, alignment or change map of models one can open reads as absent; the admin reads a hidden model's", async () => {
      const db = user().firestore();
      expect((await assertSucceeds(db.doc('annotations/shown_9').get())).exists).toBe(false);
      expect((await assertSucceeds(db.doc('alignments/legacy__shown').get())).exists).toBe(false);
      expect((await assertSucceeds(db.doc('changeMaps/legacy__shown').get())).exists).toBe(false);
      expect((await assertSucceeds(admin().firestore().doc('alignments/shown__hidden').get())).exists).toBe(true);
      expect((await assertSucceeds(admin().firestore().doc('changeMaps/shown__hidden').get())).exists).toBe(true);
    });
  });

  // a model's Public ID has the Edit form's format on create and whenever publicId or
  // projectId changes (uniqueness cannot be expressed in rules: the workflows and the embedded
  // server check it).
  describe('the Public ID format of models', () => {
    const model = { uuid: 'pid', name: 'P', projectId: 'p1', visible: true };
    it('an admin creates a model only with a well-formed Public ID', async () => {
      const db = admin().firestore();
      await assertFails(db.doc('models/pid-bad').set({ ...model, publicId: 'BAD PUB/ID <b>x</b>' }));
      await assertFails(db.doc('models/pid-none').set({ ...model }));
      await assertFails(db.doc('models/pid-number').set({ ...model, publicId: 7 }));
      await assertSucceeds(db.doc('models/pid-ok').set({ ...model, publicId: 'TWR-001_2025' }));
      await restore({ op: 'create', collection: 'models', id: 'pid-ok', data: {} });
    });
    it('an update that changes the Public ID or the project needs a well-formed one; other updates pass', async () => {
      const db = admin().firestore();
      await assertFails(db.doc('models/shown').update({ publicId: 'has space' }));
      await assertSucceeds(db.doc('models/shown').update({ publicId: 'S-2' }));
      await restore({ op: 'update', collection: 'models', id: 'shown', data: {} });
      // a model stored before the rule, with a Public ID the rule refuses, stays editable
      await env.withSecurityRulesDisabled(async (ctx) => {
        await ctx.firestore().doc('models/shown').update({ publicId: 'old id' });
      });
      await assertSucceeds(db.doc('models/shown').update({ name: 'Renamed' }));
      await assertFails(db.doc('models/shown').update({ projectId: 'p2' }));
      await restore({ op: 'update', collection: 'models', id: 'shown', data: {} });
    });
  });

  // The camera metadata's upload time (`files.cameraMetadataUploadedAt`, what a change map's
  // stamp reads of a replaced camera metadata): the server's time, a stored time, or null.
  describe("a model's camera metadata upload time", () => {
    it('an admin writes the server time, a stored time or null with the camera metadata; nothing else', async () => {
      const db = admin().firestore();
      const write = (value: unknown) =>
        db
          .doc('models/shown')
          .update(sdkData({ 'files.cameraMetadata': 'models/shown/camera-metadata.json', 'files.cameraMetadataUploadedAt': value }));
      await assertSucceeds(write(SERVER_TIMESTAMP));
      await assertSucceeds(write('2026-03-01T12:00:00.000Z'));
      await assertSucceeds(write(null));
      await assertFails(write('yesterday'));
      await assertFails(write(1772366400000));
      await assertFails(write({ at: '2026-03-01T12:00:00.000Z' }));
      // a new model with its camera metadata, as the add-model workflow stores it
      const files = { splatPath: 'models/cams/model.ply', splatSize: 10, cameraMetadata: 'models/cams/camera-metadata.json' };
      const model = { uuid: 'cams', publicId: 'CAMS-1', name: 'Cameras', visible: true };
      await assertSucceeds(
        db.doc('models/cams').set({ ...model, files: { ...files, cameraMetadataUploadedAt: '2026-03-01T12:00:00.000Z' } }),
      );
      await assertFails(db.doc('models/cams-bad').set({ ...model, uuid: 'cams-bad', files: { ...files, cameraMetadataUploadedAt: 7 } }));
      await restore({ op: 'update', collection: 'models', id: 'shown', data: {} });
    });
  });

  describe.skipIf(storageSkipReason !== null)('manage model files', () => {
    beforeAll(async () => {
      await env.clearStorage();
      await env.withSecurityRulesDisabled(async (ctx) => {
        await ctx.storage().ref('models/shown/model.glb').put(bytes);
        await ctx.storage().ref('models/hidden/model.glb').put(bytes);
      });
    });
    it('readers with a role read the files of visible models only; an admin reads all', async () => {
      await assertFails(anon().storage().ref('models/shown/model.glb').getMetadata());
      await assertFails(noRole().storage().ref('models/shown/model.glb').getMetadata());
      await assertSucceeds(user().storage().ref('models/shown/model.glb').getMetadata());
      await assertFails(user().storage().ref('models/hidden/model.glb').getMetadata());
      await assertSucceeds(admin().storage().ref('models/hidden/model.glb').getMetadata());
    });
    it('only an admin uploads, replaces or deletes files', async () => {
      for (const ctx of [anon(), noRole(), user()]) {
        await assertFails(
          ctx
            .storage()
            .ref('models/shown/images/a.jpg')
            .put(bytes)
            .then((snapshot) => snapshot),
        );
        await assertFails(ctx.storage().ref('models/shown/model.glb').delete());
      }
      await assertSucceeds(
        admin()
          .storage()
          .ref('models/shown/images/a.jpg')
          .put(bytes)
          .then((snapshot) => snapshot),
      );
      await assertSucceeds(admin().storage().ref('models/shown/images/a.jpg').delete());
    });
  });
});
