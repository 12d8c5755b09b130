// Security rules (firestore.rules, storage.rules) with @firebase/rules-unit-testing: every cell of
// the SPEC.md §6 role table that the server enforces, for four principals (signed out, signed in
// without a role, user, admin). firestore.rules runs on Google's Firestore emulator, started here
// from the machine image's jar (tests/firebase/emulators.ts; a missing jar or Java fails with the
// package to install). storage.rules needs the Storage emulator, whose rules runtime is downloaded
// from Google at start and cannot run here: its cases run only where FIREBASE_STORAGE_EMULATOR_HOST
// is set (`firebase emulators:exec` in .github/workflows/firebase.yml) and skip with that reason
// otherwise.
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestContext, RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { startFirestoreEmulator } from '../firebase/emulators.js';
import type { FirestoreEmulatorHandle } from '../firebase/emulators.js';

const storageHost = process.env.FIREBASE_STORAGE_EMULATOR_HOST ?? null;
const storageSkipReason = storageHost
  ? null
  : "the Storage emulator cannot run here (its rules runtime is downloaded from Google at start); storage.rules runs in .github/workflows/firebase.yml";
if (storageSkipReason) console.info(`[rules] skipping the storage.rules cases: ${storageSkipReason}`);

function hostPort(value: string | undefined, fallback: number): { host: string; port: number } {
  const [host, port] = (value ?? `127.0.0.1:${fallback}`).split(':');
  return { host: host || '127.0.0.1', port: Number(port) || fallback };
}

describe('security rules: the §6 role table', () => {
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
  });

  afterAll(async () => {
    await env?.cleanup();
    await firestore?.stop();
  });

  beforeEach(async () => {
    await env.clearFirestore();
    if (storageHost) await env.clearStorage();
    await env.withSecurityRulesDisabled(async (ctx) => {
      const db = ctx.firestore();
      await db.doc('users/admin1').set({ uid: 'admin1', email: 'admin@lab.example', role: 'admin' });
      await db.doc('users/user1').set({ uid: 'user1', email: 'user@lab.example', role: 'user' });
      await db.doc('admins/boss@lab.example').set({ email: 'boss@lab.example' });
      await db.doc('projects/p1').set({ name: 'Tower', structure_id: 'TWR-001' });
      await db.doc('models/shown').set({ uuid: 'shown', publicId: 'S-1', projectId: 'p1', visible: true });
      await db.doc('models/hidden').set({ uuid: 'hidden', publicId: 'H-1', projectId: 'p1', visible: false });
      await db.doc('models/legacy').set({ uuid: 'legacy', publicId: 'L-1', projectId: 'p1' });
      if (!storageHost) return;
      const storage = ctx.storage();
      await storage.ref('models/shown/model.glb').put(bytes);
      await storage.ref('models/hidden/model.glb').put(bytes);
    });
  });

  const anon = (): RulesTestContext => env.unauthenticatedContext();
  const noRole = (): RulesTestContext => env.authenticatedContext('newbie', { email: 'newbie@lab.example' });
  const user = (): RulesTestContext => env.authenticatedContext('user1', { email: 'user@lab.example' });
  const admin = (): RulesTestContext => env.authenticatedContext('admin1', { email: 'admin@lab.example' });

  describe('browse catalog, projects, map, project detail', () => {
    it('signed out and no role: no reads', async () => {
      for (const ctx of [anon(), noRole()]) {
        await assertFails(ctx.firestore().doc('projects/p1').get());
        await assertFails(ctx.firestore().collection('projects').get());
        await assertFails(ctx.firestore().doc('models/shown').get());
        await assertFails(ctx.firestore().collection('models').where('visible', '==', true).get());
      }
    });
    it('user and admin read projects and visible models', async () => {
      for (const ctx of [user(), admin()]) {
        await assertSucceeds(ctx.firestore().doc('projects/p1').get());
        await assertSucceeds(ctx.firestore().collection('projects').orderBy('name').get());
        await assertSucceeds(ctx.firestore().doc('models/shown').get());
        await assertSucceeds(ctx.firestore().doc('models/legacy').get());
        await assertSucceeds(ctx.firestore().collection('models').where('visible', '==', true).orderBy('publicId').get());
      }
    });
  });

  describe('see hidden models', () => {
    it('a user never reads a hidden model: not by id, not by an unfiltered query', async () => {
      await assertFails(user().firestore().doc('models/hidden').get());
      await assertFails(user().firestore().collection('models').get());
      await assertFails(user().firestore().collection('models').where('projectId', '==', 'p1').get());
      await assertFails(user().firestore().collection('models').where('visible', '==', false).get());
    });
    it('an admin reads hidden models and unfiltered queries', async () => {
      await assertSucceeds(admin().firestore().doc('models/hidden').get());
      await assertSucceeds(admin().firestore().collection('models').get());
    });
  });

  describe('create, edit, delete projects and models; upload, hide or show models', () => {
    it('only an admin writes projects', async () => {
      for (const ctx of [anon(), noRole(), user()]) {
        await assertFails(ctx.firestore().collection('projects').add({ name: 'x' }));
        await assertFails(ctx.firestore().doc('projects/p1').update({ name: 'hacked' }));
        await assertFails(ctx.firestore().doc('projects/p1').delete());
      }
      await assertSucceeds(admin().firestore().collection('projects').add({ name: 'New' }));
      // a map URL is a link: http(s) or nothing, even for an admin
      await assertSucceeds(admin().firestore().collection('projects').add({ name: 'Linked', location: { mapUrl: 'https://maps.example/x' } }));
      await assertSucceeds(admin().firestore().collection('projects').add({ name: 'No link', location: { lat: 1, lng: 2, mapUrl: null } }));
      await assertFails(admin().firestore().collection('projects').add({ name: 'Evil', location: { mapUrl: 'javascript:alert(1)' } }));
      await assertFails(admin().firestore().doc('projects/p1').update({ 'location.mapUrl': ' JaVaScRiPt:alert(1)' }));
      await assertSucceeds(admin().firestore().doc('projects/p1').update({ name: 'Renamed' }));
      await assertSucceeds(admin().firestore().doc('projects/p1').delete());
    });
    it('only an admin writes models (create, hide/show, delete)', async () => {
      for (const ctx of [anon(), noRole(), user()]) {
        await assertFails(ctx.firestore().doc('models/new').set({ uuid: 'new', visible: true }));
        await assertFails(ctx.firestore().doc('models/shown').update({ visible: false }));
        await assertFails(ctx.firestore().doc('models/shown').delete());
      }
      await assertSucceeds(admin().firestore().doc('models/new').set({ uuid: 'new', visible: true }));
      await assertSucceeds(admin().firestore().doc('models/shown').update({ visible: false }));
      await assertSucceeds(admin().firestore().doc('models/new').delete());
    });
  });

  describe.skipIf(storageSkipReason !== null)('manage model files', () => {
    it('readers with a role read the files of visible models only; an admin reads all', async () => {
      await assertFails(anon().storage().ref('models/shown/model.glb').getMetadata());
      await assertFails(noRole().storage().ref('models/shown/model.glb').getMetadata());
      await assertSucceeds(user().storage().ref('models/shown/model.glb').getMetadata());
      await assertFails(user().storage().ref('models/hidden/model.glb').getMetadata());
      await assertSucceeds(admin().storage().ref('models/hidden/model.glb').getMetadata());
    });
    it('only an admin uploads, replaces or deletes files', async () => {
      for (const ctx of [anon(), noRole(), user()]) {
        await assertFails(ctx.storage().ref('models/shown/images/a.jpg').put(bytes).then((snapshot) => snapshot));
        await assertFails(ctx.storage().ref('models/shown/model.glb').delete());
      }
      await assertSucceeds(admin().storage().ref('models/shown/images/a.jpg').put(bytes).then((snapshot) => snapshot));
      await assertSucceeds(admin().storage().ref('models/shown/images/a.jpg').delete());
    });
  });

  describe('register users; roles; promote to admin', () => {
    it('a user reads only their own record; an admin reads and lists all', async () => {
      await assertSucceeds(user().firestore().doc('users/user1').get());
      await assertFails(user().firestore().doc('users/admin1').get());
      await assertFails(user().firestore().collection('users').get());
      await assertSucceeds(admin().firestore().collection('users').where('email', '==', 'user@lab.example').get());
    });
    it('a new account creates only its own record, with role user', async () => {
      const db = noRole().firestore();
      await assertFails(db.doc('users/user1').set({ uid: 'user1', email: 'newbie@lab.example', role: 'user' }));
      await assertFails(db.doc('users/newbie').set({ uid: 'newbie', email: 'newbie@lab.example', role: 'admin' }));
      await assertFails(db.doc('users/newbie').set({ uid: 'newbie', email: 'other@lab.example', role: 'user' }));
      await assertSucceeds(db.doc('users/newbie').set({ uid: 'newbie', email: 'newbie@lab.example', role: 'user' }));
    });
    it('an account whose email is in admins may create its record with role admin', async () => {
      const boss = env.authenticatedContext('boss', { email: 'boss@lab.example' }).firestore();
      await assertSucceeds(boss.doc('admins/boss@lab.example').get());
      await assertSucceeds(boss.doc('users/boss').set({ uid: 'boss', email: 'boss@lab.example', role: 'admin' }));
    });
    it('nobody raises their own role; a user may edit their own note', async () => {
      await assertFails(user().firestore().doc('users/user1').update({ role: 'admin' }));
      await assertFails(user().firestore().doc('users/user1').set({ role: 'admin' }, { merge: true }));
      await assertFails(user().firestore().doc('users/admin1').update({ role: 'user' }));
      await assertSucceeds(user().firestore().doc('users/user1').update({ note: 'mine' }));
    });
    it('only an admin registers users, promotes them and edits the admins allowlist', async () => {
      await assertFails(user().firestore().doc('users/someone').set({ uid: 'someone', email: 's@lab.example', role: 'user' }));
      await assertFails(user().firestore().doc('admins/user@lab.example').set({ email: 'user@lab.example' }));
      await assertFails(user().firestore().doc('admins/boss@lab.example').get());
      await assertSucceeds(admin().firestore().doc('users/someone').set({ uid: 'someone', email: 's@lab.example', role: 'user' }));
      await assertSucceeds(admin().firestore().doc('users/someone').set({ role: 'admin' }, { merge: true }));
      await assertSucceeds(admin().firestore().doc('admins/new@lab.example').set({ email: 'new@lab.example' }));
    });
  });
});
