// firestore.rules: a project's coordinates are null/absent or numbers within latitude -90..90 and
// longitude -180..180, on create and on an update that changes lat or lng; a project
// stored before the rule stays editable in its other fields. Same emulator as role-table.test.ts.
import { readFileSync } from 'node:fs';
import { assertFails, assertSucceeds, initializeTestEnvironment } from '@firebase/rules-unit-testing';
import type { RulesTestEnvironment } from '@firebase/rules-unit-testing';
import { setLogLevel } from 'firebase/firestore';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { startFirestoreEmulator } from '../support/emulators.js';
import type { FirestoreEmulatorHandle } from '../support/emulators.js';

setLogLevel('error');

const project = (lat: unknown, lng: unknown) => ({
  name: 'Tower',
  structure_id: 'TWR-1',
  description: '',
  slug: 'tower',
  location: { lat, lng, address: null, mapUrl: null },
});

describe('firestore.rules: project coordinates must be in range', () => {
  let env: RulesTestEnvironment;
  let firestore: FirestoreEmulatorHandle;

  beforeAll(async () => {
    firestore = await startFirestoreEmulator();
    const [host, port] = firestore.host.split(':');
    env = await initializeTestEnvironment({
      projectId: 'demo-location',
      firestore: { rules: readFileSync('firestore.rules', 'utf8'), host: host ?? '127.0.0.1', port: Number(port) },
    });
    await env.clearFirestore();
    await env.withSecurityRulesDisabled(async (ctx) => {
      const db = ctx.firestore();
      await db.doc('users/admin-uid').set({ uid: 'admin-uid', email: 'admin@example.com', role: 'admin' });
      await db.doc('projects/old-bad').set(project(95, -200));
      await db.doc('projects/ok').set(project(43.47, -80.54));
    });
  });

  afterAll(async () => {
    await env?.cleanup();
    await firestore?.stop();
  });

  const db = () => env.authenticatedContext('admin-uid', { email: 'admin@example.com' }).firestore();

  it('an admin creates a project only with coordinates in range (bounds included) or none', async () => {
    await assertSucceeds(db().doc('projects/c1').set(project(90, 180)));
    await assertSucceeds(db().doc('projects/c2').set(project(-90, -180)));
    await assertSucceeds(db().doc('projects/c3').set(project(null, null)));
    await assertSucceeds(db().doc('projects/c4').set({ name: 'No location' }));
    await assertFails(db().doc('projects/c5').set(project(95, 0)));
    await assertFails(db().doc('projects/c6').set(project(-90.0001, 0)));
    await assertFails(db().doc('projects/c7').set(project(0, -200)));
    await assertFails(db().doc('projects/c8').set(project(0, 180.5)));
    await assertFails(db().doc('projects/c9').set(project('43', 0)));
  });

  it('an update that changes lat or lng needs them in range; other updates of an old project pass', async () => {
    await assertFails(db().doc('projects/ok').update({ 'location.lat': 91 }));
    await assertFails(db().doc('projects/ok').update({ 'location.lng': -181 }));
    await assertSucceeds(db().doc('projects/ok').update({ 'location.lat': -45.5 }));
    await assertSucceeds(db().doc('projects/old-bad').update({ description: 'still editable' }));
    await assertFails(db().doc('projects/old-bad').update({ 'location.lat': 96 }));
    await assertSucceeds(db().doc('projects/old-bad').update({ 'location.lat': 45, 'location.lng': 100 }));
  });
});
