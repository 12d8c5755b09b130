/**
 * The backend contract (DESIGN.md §2): the behaviour of the ports stated once, run against
 * every adapter by a short test file that only creates its backend. Covers documents (CRUD,
 * queries, counts, batches, server timestamps), live updates, the role table of SPEC.md §6
 * (including hidden models and self-registration), identity error codes (SPEC.md §8) and file
 * storage (uploads with progress, cancel, listing, metadata, deletion, download links).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, isAppError } from '@shared/errors.js';
import type { ErrorCode } from '@shared/errors.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import type { Backend, UploadProgress } from '@shared/ports/index.js';

/** What an adapter's test file provides: four clients and the means to clean up. */
export interface ContractSetup {
  /** Signed in as an account whose `users/{uid}` record has role 'admin'. */
  admin: Backend;
  /** Signed in as an account whose record has role 'user'. */
  user: Backend;
  /** Signed out. The suite signs it in temporarily for registration tests and signs it out again. */
  anon: Backend;
  /** The service principal (service key / firebase-admin). */
  service: Backend;
  /** Disables an account (to test `auth/user-disabled`); absent when the backend cannot. */
  disableAccount?(email: string): Promise<void>;
  /** Closes the clients and stops what the setup started. */
  teardown(): Promise<void>;
}

/** Resolves with the rejection of `promise` (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw new Error(`expected an AppError, got ${String(error)}`);
  }
  throw new Error('expected a rejection, but the call succeeded');
}

async function expectCode(promise: Promise<unknown>, ...codes: ErrorCode[]): Promise<void> {
  const error = await rejection(promise);
  expect(codes, `got ${error.code}: ${error.message}`).toContain(error.code);
}

async function waitFor(predicate: () => boolean, what: string, timeoutMs = 8000): Promise<void> {
  const start = Date.now();
  while (!predicate()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Deterministic bytes: byte i is (i * 7 + 3) mod 256. */
function bytes(length: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(new ArrayBuffer(length));
  for (let i = 0; i < length; i += 1) out[i] = (i * 7 + 3) % 256;
  return out;
}

const randomTag = (): string => Math.random().toString(36).slice(2, 10);

/** Parts of the contract an adapter's test run may skip when a service cannot run here. */
export type ContractPart =
  | 'roles'
  | 'selfRegistration'
  | 'identity'
  | 'files'
  // single behaviours a stand-in emulator may lack (the real service has them):
  | 'replaceOnSet'
  | 'nestedFieldQueries'
  | 'batchRollback'
  // adapter scope: browser clients upload Blobs only; Firebase Auth lets any client create an account
  | 'nodeStreams'
  | 'restrictedSignUp'
  // fetching download links (a stand-in storage server may not serve them)
  | 'downloadLinks';

/** Capability-based skips: each skipped part with the reason, printed when the suite is declared. */
export interface ContractOptions {
  skip?: Partial<Record<ContractPart, string>>;
  /** Why the whole suite cannot run here (printed), or null/undefined when it can. */
  skipAll?: string | null;
}

/**
 * Declares the contract suite for one backend.
 * @param name shown in the test report, e.g. 'local'
 * @param setup creates the clients (called once, before the tests)
 */
export function describeBackendContract(name: string, setup: () => Promise<ContractSetup>, options: ContractOptions = {}): void {
  const skip = options.skip ?? {};
  if (options.skipAll) console.info(`[contract ${name}] skipping everything: ${options.skipAll}`);
  else for (const [part, reason] of Object.entries(skip)) console.info(`[contract ${name}] skipping ${part}: ${reason}`);
  describe.skipIf(Boolean(options.skipAll))(`backend contract: ${name}`, () => {
    let env: ContractSetup;
    const tag = randomTag();
    let adminUid = '';
    let userUid = '';

    beforeAll(async () => {
      env = await setup();
      adminUid = env.admin.identity.currentUser()?.uid ?? '';
      userUid = env.user.identity.currentUser()?.uid ?? '';
      expect(adminUid).not.toBe('');
      expect(userUid).not.toBe('');
    });

    afterAll(async () => {
      await env?.teardown();
    });

    const project = (suffix: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      name: `Contract ${tag} ${suffix}`,
      structure_id: `${tag}-${suffix}`,
      description: `contract test ${suffix}`,
      slug: `contract-${tag}-${suffix}`.toLowerCase(),
      ...extra,
    });

    describe('documents', () => {
      it('add creates a 20-character id; get returns the data with its id', async () => {
        const id = await env.admin.catalog.add('projects', project('crud'));
        expect(id).toMatch(/^[A-Za-z0-9]{20}$/);
        const doc = await env.admin.catalog.get('projects', id);
        expect(doc).toMatchObject({ id, name: `Contract ${tag} crud`, structure_id: `${tag}-crud` });
      });

      it('get of a missing document is null', async () => {
        expect(await env.admin.catalog.get('projects', `missing-${tag}`)).toBeNull();
      });

      it.skipIf(Boolean(skip.replaceOnSet))('set replaces a document; set with merge merges nested fields', async () => {
        const id = `set-${tag}`;
        await env.admin.catalog.set('projects', id, project('set', { location: { lat: 1, lng: 2, address: 'A' } }));
        await env.admin.catalog.set('projects', id, { location: { lat: 5, lng: 2 } } as never, { merge: true });
        expect((await env.admin.catalog.get('projects', id))?.location).toEqual({ lat: 5, lng: 2, address: 'A' });
        expect((await env.admin.catalog.get('projects', id))?.name).toBe(`Contract ${tag} set`);
        await env.admin.catalog.set('projects', id, { name: 'Replaced', structure_id: 'X', description: '', slug: 'x' });
        const replaced = await env.admin.catalog.get('projects', id);
        expect(replaced).toEqual({ id, name: 'Replaced', structure_id: 'X', description: '', slug: 'x' });
        await env.admin.catalog.delete('projects', id);
      });

      it('update changes dotted fields, keeps the rest, and fails with not-found on a missing document', async () => {
        const id = await env.admin.catalog.add('models', {
          uuid: `u-${tag}`,
          publicId: `pub-${tag}`,
          name: 'Model',
          files: { splatPath: 'a.ply', images: ['x.jpg'] },
          metadata: { captureDate: '2025-01-01', displayOrder: 0 },
        });
        await env.admin.catalog.update('models', id, { 'metadata.captureDate': '2025-06-01', 'files.images': [], name: 'Renamed' });
        const doc = await env.admin.catalog.get('models', id);
        expect(doc?.metadata).toEqual({ captureDate: '2025-06-01', displayOrder: 0 });
        expect(doc?.files).toEqual({ splatPath: 'a.ply', images: [] });
        expect(doc?.name).toBe('Renamed');
        await expectCode(env.admin.catalog.update('models', `missing-${tag}`, { name: 'x' }), 'not-found');
        await env.admin.catalog.delete('models', id);
      });

      it('delete removes a document; deleting a missing document succeeds', async () => {
        const id = await env.admin.catalog.add('projects', project('delete'));
        await env.admin.catalog.delete('projects', id);
        expect(await env.admin.catalog.get('projects', id)).toBeNull();
        await env.admin.catalog.delete('projects', id);
      });

      it('server timestamps are replaced by the server clock (ISO)', async () => {
        const before = Date.now();
        const id = await env.admin.catalog.add('projects', project('time', { created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP }));
        const created = await env.admin.catalog.get('projects', id);
        expect(created?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
        expect(Math.abs(Date.parse(created!.created_at!) - before)).toBeLessThan(60_000);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await env.admin.catalog.update('projects', id, { last_updated: SERVER_TIMESTAMP });
        const updated = await env.admin.catalog.get('projects', id);
        expect(Date.parse(updated!.last_updated!)).toBeGreaterThanOrEqual(Date.parse(created!.created_at!));
        expect(updated?.created_at).toBe(created?.created_at);
        await env.admin.catalog.delete('projects', id);
      });
    });

    describe('queries', () => {
      const group = `q-${tag}`;
      beforeAll(async () => {
        await env.admin.catalog.batch([
          { op: 'create', collection: 'models', id: `${group}-a`, data: { uuid: `${group}-a`, publicId: 'B-2', name: 'a', projectId: group, visible: true, files: {}, metadata: { captureDate: '2024-05-01', displayOrder: 2 } } },
          { op: 'create', collection: 'models', id: `${group}-b`, data: { uuid: `${group}-b`, publicId: 'A-1', name: 'b', projectId: group, isReference: true, files: {}, metadata: { captureDate: '2023-01-01', displayOrder: 1 } } },
          { op: 'create', collection: 'models', id: `${group}-c`, data: { uuid: `${group}-c`, publicId: 'C-3', name: 'c', projectId: group, isReference: false, files: {}, metadata: { captureDate: '2025-09-09', displayOrder: 3 } } },
          { op: 'create', collection: 'models', id: `${group}-other`, data: { uuid: `${group}-other`, publicId: 'A-0', name: 'other', projectId: `${group}-x`, files: {}, metadata: { captureDate: '2024-05-01', displayOrder: 0 } } },
        ]);
      });

      it.skipIf(Boolean(skip.nestedFieldQueries))('filters with == on a field and on a dotted path', async () => {
        const ofProject = await env.admin.catalog.query('models', { where: [['projectId', '==', group]] });
        expect(ofProject.map((m) => m.id).sort()).toEqual([`${group}-a`, `${group}-b`, `${group}-c`]);
        const byDate = await env.admin.catalog.query('models', { where: [['metadata.captureDate', '==', '2024-05-01'], ['projectId', '==', group]] });
        expect(byDate.map((m) => m.id)).toEqual([`${group}-a`]);
        const byNumber = await env.admin.catalog.query('models', { where: [['metadata.displayOrder', '==', 3], ['projectId', '==', group]] });
        expect(byNumber.map((m) => m.id)).toEqual([`${group}-c`]);
        const byBoolean = await env.admin.catalog.query('models', { where: [['isReference', '==', true], ['projectId', '==', group]] });
        expect(byBoolean.map((m) => m.id)).toEqual([`${group}-b`]);
      });

      it('filters with != (documents missing the field do not match)', async () => {
        const notReference = await env.admin.catalog.query('models', { where: [['projectId', '==', group], ['isReference', '!=', true]] });
        expect(notReference.map((m) => m.id)).toEqual([`${group}-c`]);
      });

      it.skipIf(Boolean(skip.nestedFieldQueries))('orders ascending and descending, also by dotted paths, and limits', async () => {
        const where: [string, '==', string][] = [['projectId', '==', group]];
        const asc = await env.admin.catalog.query('models', { where, orderBy: [['publicId', 'asc']] });
        expect(asc.map((m) => m.publicId)).toEqual(['A-1', 'B-2', 'C-3']);
        const desc = await env.admin.catalog.query('models', { where, orderBy: [['metadata.captureDate', 'desc']] });
        expect(desc.map((m) => m.name)).toEqual(['c', 'a', 'b']);
        const limited = await env.admin.catalog.query('models', { where, orderBy: [['metadata.displayOrder']], limit: 2 });
        expect(limited.map((m) => m.name)).toEqual(['b', 'a']);
      });

      it('counts what a query would return', async () => {
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', group]] })).toBe(3);
        expect(await env.admin.catalog.count('models', { where: [['projectId', '==', `${group}-none`]] })).toBe(0);
      });

      it('rejects invalid field paths', async () => {
        await expectCode(env.admin.catalog.query('models', { where: [["x') OR 1=1 --", '==', 1]] }), 'invalid-argument');
      });
    });

    describe('batches', () => {
      it('apply all writes together', async () => {
        const a = `batch-a-${tag}`;
        const b = `batch-b-${tag}`;
        await env.admin.catalog.batch([
          { op: 'create', collection: 'projects', id: a, data: project('ba') },
          { op: 'set', collection: 'projects', id: b, data: project('bb') },
          { op: 'update', collection: 'projects', id: a, data: { reference_model_id: 'm1', last_updated: SERVER_TIMESTAMP } },
        ]);
        expect((await env.admin.catalog.get('projects', a))?.reference_model_id).toBe('m1');
        expect(await env.admin.catalog.get('projects', b)).not.toBeNull();
        await env.admin.catalog.batch([
          { op: 'delete', collection: 'projects', id: a },
          { op: 'delete', collection: 'projects', id: b },
        ]);
        expect(await env.admin.catalog.get('projects', a)).toBeNull();
      });

      it.skipIf(Boolean(skip.batchRollback))('are atomic: a failing write leaves nothing written', async () => {
        const id = `atomic-${tag}`;
        await expectCode(
          env.admin.catalog.batch([
            { op: 'create', collection: 'projects', id, data: project('atomic') },
            { op: 'update', collection: 'projects', id: `missing-${tag}`, data: { name: 'x' } },
          ]),
          'not-found',
        );
        expect(await env.admin.catalog.get('projects', id)).toBeNull();
        const existing = await env.admin.catalog.add('projects', project('exists'));
        await expectCode(
          env.admin.catalog.batch([
            { op: 'update', collection: 'projects', id: existing, data: { name: 'changed' } },
            { op: 'create', collection: 'projects', id: existing, data: project('dup') },
          ]),
          'already-exists',
          // Google's Firestore emulator refuses two writes to one document in one commit outright
          'invalid-argument',
        );
        expect((await env.admin.catalog.get('projects', existing))?.name).toBe(`Contract ${tag} exists`);
        await env.admin.catalog.delete('projects', existing);
      });

      it.skipIf(Boolean(skip.roles))('are atomic across permissions: a denied write leaves nothing written', async () => {
        const own = `users-${tag}`;
        await expectCode(
          env.user.catalog.batch([
            { op: 'set', collection: 'users', id: userUid, data: { note: own }, merge: true },
            { op: 'create', collection: 'projects', id: own, data: project('denied') },
          ]),
          'permission-denied',
        );
        expect((await env.user.catalog.get('users', userUid))?.note).not.toBe(own);
      });
    });

    describe('live updates', () => {
      it('a subscriber sees a write made by another client', async () => {
        const structureId = `${tag}-live`;
        const snapshots: string[][] = [];
        const errors: Error[] = [];
        const stop = env.user.catalog.subscribe(
          'projects',
          { where: [['structure_id', '==', structureId]] },
          (docs) => snapshots.push(docs.map((d) => d.name)),
          (error) => errors.push(error),
        );
        try {
          await waitFor(() => snapshots.length >= 1, 'the first snapshot');
          expect(snapshots[0]).toEqual([]);
          const id = await env.admin.catalog.add('projects', project('live'));
          await waitFor(() => snapshots.some((s) => s.includes(`Contract ${tag} live`)), 'the new project');
          await env.admin.catalog.update('projects', id, { name: `Contract ${tag} live 2` });
          await waitFor(() => snapshots.some((s) => s.includes(`Contract ${tag} live 2`)), 'the renamed project');
          await env.admin.catalog.delete('projects', id);
          await waitFor(() => snapshots[snapshots.length - 1]!.length === 0, 'the deletion');
          expect(errors).toEqual([]);
        } finally {
          stop();
        }
      });

      it.skipIf(Boolean(skip.roles))('a non-admin subscriber never receives a hidden model', async () => {
        const projectId = `live-hidden-${tag}`;
        const seen = new Set<string>();
        let calls = 0;
        const stop = env.user.catalog.subscribe('models', { where: [['projectId', '==', projectId]] }, (docs) => {
          calls += 1;
          for (const d of docs) seen.add(d.id);
        });
        try {
          await waitFor(() => calls >= 1, 'the first snapshot');
          await env.admin.catalog.set('models', `${projectId}-hidden`, { uuid: `${projectId}-hidden`, publicId: 'H', name: 'hidden', projectId, visible: false, files: {} });
          await env.admin.catalog.set('models', `${projectId}-shown`, { uuid: `${projectId}-shown`, publicId: 'S', name: 'shown', projectId, visible: true, files: {} });
          await waitFor(() => seen.has(`${projectId}-shown`), 'the visible model');
          await env.admin.catalog.update('models', `${projectId}-shown`, { visible: false });
          await waitFor(() => calls >= 3, 'the model being hidden');
          expect(seen.has(`${projectId}-hidden`)).toBe(false);
        } finally {
          stop();
        }
      });
    });

    describe.skipIf(Boolean(skip.roles))('role table', () => {
      it('a signed-out client cannot read', async () => {
        await expectCode(env.anon.catalog.query('projects'), 'unauthenticated', 'permission-denied');
        await expectCode(env.anon.catalog.get('projects', 'any'), 'unauthenticated', 'permission-denied');
        await expectCode(env.anon.catalog.count('models'), 'unauthenticated', 'permission-denied');
        if (!skip.files) await expectCode(env.anon.files.list('models/'), 'storage/unauthenticated', 'storage/unauthorized');
      });

      it('a user reads projects but cannot create, change or delete them', async () => {
        const id = await env.admin.catalog.add('projects', project('roles'));
        expect((await env.user.catalog.get('projects', id))?.name).toBe(`Contract ${tag} roles`);
        await expectCode(env.user.catalog.add('projects', project('by-user') as never), 'permission-denied');
        await expectCode(env.user.catalog.update('projects', id, { name: 'hacked' }), 'permission-denied');
        await expectCode(env.user.catalog.delete('projects', id), 'permission-denied');
        await expectCode(env.user.catalog.set('models', `m-${tag}`, { uuid: 'x', publicId: 'x', name: 'x', files: {} }), 'permission-denied');
        await expectCode(env.user.catalog.set('admins', `x-${tag}@example.com`, {}), 'permission-denied');
        await env.admin.catalog.delete('projects', id);
      });

      it('a user reads their own record, not other users’ records', async () => {
        expect((await env.user.catalog.get('users', userUid))?.role).toBe('user');
        await expectCode(env.user.catalog.get('users', adminUid), 'permission-denied');
        expect((await env.admin.catalog.get('users', userUid))?.role).toBe('user');
      });

      it('nobody but an admin changes a role, including their own', async () => {
        await expectCode(env.user.catalog.update('users', userUid, { role: 'admin' }), 'permission-denied');
        await expectCode(env.user.catalog.set('users', userUid, { role: 'admin' }, { merge: true }), 'permission-denied');
        await expectCode(env.user.catalog.update('users', adminUid, { role: 'user' }), 'permission-denied');
        expect((await env.admin.catalog.get('users', userUid))?.role).toBe('user');
        await env.admin.catalog.update('users', userUid, { note: `checked ${tag}` });
        await env.user.catalog.update('users', userUid, { note: `own note ${tag}` });
        expect((await env.user.catalog.get('users', userUid))?.note).toBe(`own note ${tag}`);
      });

      it('a user never receives a hidden model: not from get, query nor count', async () => {
        const projectId = `hidden-${tag}`;
        await env.admin.catalog.set('models', `${projectId}-h`, { uuid: `${projectId}-h`, publicId: 'HID', name: 'h', projectId, visible: false, files: {} });
        // visible: true as every create writes it (Firebase queries of non-admins filter on it; a
        // legacy record without the field reads by id, see 'a model without visible' below)
        await env.admin.catalog.set('models', `${projectId}-v`, { uuid: `${projectId}-v`, publicId: 'VIS', name: 'v', projectId, visible: true, files: {} });
        expect(await env.user.catalog.get('models', `${projectId}-h`)).toBeNull();
        expect((await env.admin.catalog.get('models', `${projectId}-h`))?.visible).toBe(false);
        const where: [string, '==', string][] = [['projectId', '==', projectId]];
        expect((await env.user.catalog.query('models', { where })).map((m) => m.id)).toEqual([`${projectId}-v`]);
        expect((await env.user.catalog.query('models', { where: [['visible', '==', false], ...where] })).length).toBe(0);
        expect(await env.user.catalog.count('models', { where })).toBe(1);
        expect(await env.admin.catalog.count('models', { where })).toBe(2);
      });

      it('a model without visible (a legacy record) reads by id as visible', async () => {
        const id = `legacy-${tag}`;
        await env.admin.catalog.set('models', id, { uuid: id, publicId: 'LEG', name: 'legacy', files: {} });
        expect((await env.user.catalog.get('models', id))?.publicId).toBe('LEG');
      });

      it('a user cannot upload or delete files, nor create or look up accounts', async () => {
        const folder = `models/${randomUUID()}`;
        const path = `${folder}/model.glb`;
        if (!skip.files) {
          await env.admin.files.upload(path, new Blob([bytes(100)]));
          await expectCode(env.user.files.upload(`${folder}/images/other.jpg`, new Blob([bytes(100)])), 'storage/unauthorized');
          await expectCode(env.user.files.upload(`${folder}/model.ply`, new Blob([bytes(300 * 1024)])), 'storage/unauthorized');
          await expectCode(env.user.files.delete(path), 'storage/unauthorized');
          expect((await env.user.files.getMetadata(path)).size).toBe(100);
        }
        if (!skip.restrictedSignUp) await expectCode(env.user.identity.createAccount(`new-${tag}@example.com`, 'secret-1'), 'permission-denied');
        if (env.user.identity.findAccountByEmail) {
          await expectCode(env.user.identity.findAccountByEmail(`new-${tag}@example.com`), 'permission-denied');
        }
        if (!skip.files) await env.admin.files.delete(path);
      });

      it.skipIf(Boolean(skip.files))('a user cannot read the files of a hidden model', async () => {
        const uuid = randomUUID();
        await env.admin.catalog.set('models', uuid, { uuid, publicId: 'HF', name: 'hf', visible: false, files: {} });
        await env.admin.files.upload(`models/${uuid}/model.glb`, new Blob([bytes(10)]));
        await expectCode(env.user.files.getMetadata(`models/${uuid}/model.glb`), 'storage/unauthorized');
        await expectCode(env.user.files.getDownloadUrl(`models/${uuid}/model.glb`), 'storage/unauthorized');
        expect((await env.admin.files.getMetadata(`models/${uuid}/model.glb`)).size).toBe(10);
        await env.admin.files.delete(`models/${uuid}/model.glb`);
      });
    });

    describe.skipIf(Boolean(skip.selfRegistration))('self-registration of users/{uid}', () => {
      it('a new account creates only its own record, with role user', async () => {
        const email = `self-${tag}@example.com`;
        const account = await env.service.identity.createAccount(email, 'secret-1');
        await env.anon.identity.signIn(email, 'secret-1');
        try {
          expect(env.anon.identity.currentUser()?.uid).toBe(account.uid);
          expect(await env.anon.catalog.get('users', account.uid)).toBeNull();
          await expectCode(env.anon.catalog.query('projects'), 'permission-denied');
          await expectCode(env.anon.catalog.set('users', account.uid, { uid: account.uid, email, role: 'admin' }), 'permission-denied');
          await expectCode(env.anon.catalog.set('users', userUid, { uid: userUid, email, role: 'user' }), 'permission-denied');
          await env.anon.catalog.set('users', account.uid, { uid: account.uid, email, role: 'user', created_at: SERVER_TIMESTAMP });
          expect((await env.anon.catalog.get('users', account.uid))?.role).toBe('user');
          expect(Array.isArray(await env.anon.catalog.query('projects'))).toBe(true);
          await expectCode(env.anon.catalog.update('users', account.uid, { role: 'admin' }), 'permission-denied');
        } finally {
          await env.anon.identity.signOut();
        }
        expect(env.anon.identity.currentUser()).toBeNull();
      });

      it('an account whose email is in admins may create its record with role admin', async () => {
        const email = `allow-${tag}@example.com`;
        const account = await env.service.identity.createAccount(email, 'secret-1');
        await env.admin.catalog.set('admins', email, { email });
        await env.anon.identity.signIn(email, 'secret-1');
        try {
          expect(await env.anon.catalog.get('admins', email)).not.toBeNull();
          await env.anon.catalog.set('users', account.uid, { uid: account.uid, email, role: 'admin' });
          expect((await env.anon.catalog.get('users', userUid))?.role).toBe('user');
        } finally {
          await env.anon.identity.signOut();
        }
      });
    });

    describe.skipIf(Boolean(skip.identity))('identity', () => {
      it('reports the signed-in user to auth-state observers', async () => {
        const user = await new Promise((resolve) => {
          const stop = env.admin.identity.onAuthStateChanged((u) => {
            resolve(u);
            queueMicrotask(stop);
          });
        });
        expect(user).toMatchObject({ uid: adminUid });
      });

      it('sign-in errors carry the identity codes', async () => {
        const email = `signin-${tag}@example.com`;
        await env.service.identity.createAccount(email, 'right-password');
        await expectCode(env.anon.identity.signIn(email, 'wrong-password'), 'auth/wrong-password', 'auth/invalid-credential');
        await expectCode(env.anon.identity.signIn(`nobody-${tag}@example.com`, 'whatever1'), 'auth/user-not-found', 'auth/invalid-credential');
        await expectCode(env.anon.identity.signIn('not-an-email', 'whatever1'), 'auth/invalid-email');
        expect(env.anon.identity.currentUser()).toBeNull();
      });

      it('a disabled account cannot sign in', async (context) => {
        if (!env.disableAccount) {
          context.skip();
          return;
        }
        const email = `disabled-${tag}@example.com`;
        await env.service.identity.createAccount(email, 'secret-1');
        await env.disableAccount(email);
        await expectCode(env.anon.identity.signIn(email, 'secret-1'), 'auth/user-disabled');
      });

      it('account creation checks the password and duplicates; lookups find accounts by email', async () => {
        await expectCode(env.service.identity.createAccount(`weak-${tag}@example.com`, '12345'), 'auth/weak-password');
        await expectCode(env.service.identity.createAccount('bad-email', 'secret-1'), 'auth/invalid-email');
        const created = await env.admin.identity.createAccount(`dup-${tag}@example.com`, 'secret-1');
        await expectCode(env.service.identity.createAccount(`dup-${tag}@example.com`, 'secret-1'), 'auth/email-already-in-use');
        if (env.service.capabilities.lookupUsers && env.service.identity.findAccountByEmail) {
          expect(await env.service.identity.findAccountByEmail(`dup-${tag}@example.com`)).toMatchObject({ uid: created.uid });
          expect(await env.service.identity.findAccountByEmail(`none-${tag}@example.com`)).toBeNull();
        }
      });
    });

    describe.skipIf(Boolean(skip.files))('files', () => {
      const folder = `models/${randomUUID()}`;

      it('uploads a small file, reads its metadata and lists the folder', async () => {
        const stored = await env.admin.files.upload(`${folder}/camera-metadata.json`, new Blob(['[{"id":1}]'], { type: 'application/json' }));
        expect(stored).toMatchObject({ path: `${folder}/camera-metadata.json`, size: 10 });
        const meta = await env.admin.files.getMetadata(`${folder}/camera-metadata.json`);
        expect(meta.size).toBe(10);
        expect(meta.contentType).toContain('application/json');
        expect(Date.parse(meta.updated!)).not.toBeNaN();
        await env.admin.files.upload(`${folder}/images/a.jpg`, new Blob([bytes(20)]), { contentType: 'image/jpeg' });
        await env.admin.files.upload(`${folder}/images/b.jpg`, new Blob([bytes(30)]), { contentType: 'image/jpeg' });
        const listing = await env.user.files.list(`${folder}/`);
        expect(listing.items.map((i) => i.path)).toEqual([`${folder}/camera-metadata.json`]);
        expect(listing.prefixes).toEqual([`${folder}/images/`]);
        const images = await env.admin.files.list(`${folder}/images`);
        expect(images.items.map((i) => [i.path, i.size])).toEqual([
          [`${folder}/images/a.jpg`, 20],
          [`${folder}/images/b.jpg`, 30],
        ]);
        expect(await env.admin.files.list(`${folder}/nothing/`)).toEqual({ items: [], prefixes: [] });
      });

      it('uploads a file above 256 KB resumably, with progress', async () => {
        const data = bytes(600 * 1024 + 17);
        const progress: UploadProgress[] = [];
        const stored = await env.admin.files.upload(`${folder}/model.ply`, new Blob([data]), { onProgress: (p) => progress.push(p) });
        expect(stored.size).toBe(data.length);
        expect(progress.length).toBeGreaterThan(0);
        expect(progress.every((p) => p.totalBytes === data.length)).toBe(true);
        expect(progress[progress.length - 1]!.bytesTransferred).toBe(data.length);
        for (let i = 1; i < progress.length; i += 1) expect(progress[i]!.bytesTransferred).toBeGreaterThanOrEqual(progress[i - 1]!.bytesTransferred);
        if (!skip.downloadLinks) {
          const url = await env.user.files.getDownloadUrl(`${folder}/model.ply`);
          const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
          expect(body.length).toBe(data.length);
          expect(body[12345]).toBe(data[12345]);
        }
      });

      it.skipIf(Boolean(skip.nodeStreams))('uploads a platform stream source (Node fs.ReadStream)', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'contract-upload-'));
        try {
          const file = join(dir, 'model.glb');
          writeFileSync(file, bytes(400 * 1024));
          const stored = await env.admin.files.upload(`${folder}/model.glb`, { size: 400 * 1024, input: createReadStream(file), name: 'model.glb' });
          expect(stored.size).toBe(400 * 1024);
          expect((await env.admin.files.getMetadata(`${folder}/model.glb`)).size).toBe(400 * 1024);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });

      it('cancels an upload through its AbortSignal, leaving no file', async () => {
        const controller = new AbortController();
        const path = `${folder}/model.splat`;
        const error = await rejection(
          env.admin.files.upload(path, new Blob([bytes(48 * 1024 * 1024)]), {
            signal: controller.signal,
            onProgress: (p) => {
              if (p.bytesTransferred > 0) controller.abort();
            },
          }),
        );
        expect(error.code).toBe('storage/canceled');
        await expectCode(env.admin.files.getMetadata(path), 'storage/object-not-found');
        expect((await env.admin.files.list(`${folder}/`)).items.map((i) => i.path)).not.toContain(path);
        const already = new AbortController();
        already.abort();
        await expectCode(env.admin.files.upload(path, new Blob([bytes(10)]), { signal: already.signal }), 'storage/canceled');
      });

      it.skipIf(Boolean(skip.downloadLinks))('download links need their token, work without other credentials and honour HTTP ranges', async () => {
        const data = bytes(1000);
        await env.admin.files.upload(`${folder}/images_thumbnails/t.png`, new Blob([data]), { contentType: 'image/png' });
        const url = await env.user.files.getDownloadUrl(`${folder}/images_thumbnails/t.png`);
        expect(url).toMatch(/^https?:\/\//);
        const full = await fetch(url);
        expect(full.status).toBe(200);
        expect(new Uint8Array(await full.arrayBuffer())).toEqual(data);
        const ranged = await fetch(url, { headers: { range: 'bytes=100-199' } });
        expect(ranged.status).toBe(206);
        expect(new Uint8Array(await ranged.arrayBuffer())).toEqual(data.slice(100, 200));
        const parsed = new URL(url);
        parsed.search = '';
        const withoutToken = await fetch(parsed);
        expect([401, 403]).toContain(withoutToken.status);
        await withoutToken.arrayBuffer();
        parsed.searchParams.set('token', 'guessed-token-000000000000');
        const guessed = await fetch(parsed);
        expect([401, 403]).toContain(guessed.status);
        await guessed.arrayBuffer();
      });

      it('stores a batch of small files in one call, all or none (when the backend has uploadBatch)', async (context) => {
        const { uploadBatch } = env.admin.files;
        if (!uploadBatch) {
          context.skip();
          return;
        }
        const batch = (items: Parameters<typeof uploadBatch>[0]) => uploadBatch.call(env.admin.files, items);
        const stored = await batch([
          { path: `${folder}/assets/a.jpg`, source: new Blob([bytes(100)]), contentType: 'image/jpeg' },
          { path: `${folder}/assets/b.png`, source: new Blob([bytes(2000)]) },
          { path: `${folder}/assets/c.json`, source: new Blob(['{}'], { type: 'application/json' }) },
        ]);
        expect(stored.map((f) => [f.path, f.size])).toEqual([
          [`${folder}/assets/a.jpg`, 100],
          [`${folder}/assets/b.png`, 2000],
          [`${folder}/assets/c.json`, 2],
        ]);
        expect((await env.admin.files.getMetadata(`${folder}/assets/a.jpg`)).contentType).toBe('image/jpeg');
        expect((await env.admin.files.getMetadata(`${folder}/assets/b.png`)).contentType).toBe('image/png');
        expect((await env.admin.files.getMetadata(`${folder}/assets/c.json`)).contentType).toContain('application/json');
        if (!skip.downloadLinks) {
          const body = new Uint8Array(await (await fetch(await env.user.files.getDownloadUrl(`${folder}/assets/b.png`))).arrayBuffer());
          expect(body).toEqual(bytes(2000));
        }
        const batchFolder = `models/${randomUUID()}`;
        // one bad path: nothing of the batch is stored
        await expectCode(
          batch([
            { path: `${batchFolder}/assets/ok.jpg`, source: new Blob([bytes(10)]) },
            { path: `${batchFolder}/assets/../escape.jpg`, source: new Blob([bytes(10)]) },
          ]),
          'invalid-argument',
        );
        expect(await env.admin.files.list(`${batchFolder}/assets/`)).toEqual({ items: [], prefixes: [] });
        // users cannot write
        const userBatch = env.user.files.uploadBatch;
        if (userBatch && !skip.roles) {
          await expectCode(userBatch.call(env.user.files, [{ path: `${batchFolder}/images/x.jpg`, source: new Blob([bytes(10)]) }]), 'storage/unauthorized');
          expect(await env.admin.files.list(`${batchFolder}/images/`)).toEqual({ items: [], prefixes: [] });
        }
        const already = new AbortController();
        already.abort();
        await expectCode(uploadBatch.call(env.admin.files, [{ path: `${batchFolder}/images/y.jpg`, source: new Blob([bytes(10)]) }], { signal: already.signal }), 'storage/canceled');
      });

      it('deletes files; missing files give object-not-found', async () => {
        await env.admin.files.delete(`${folder}/images/a.jpg`);
        await expectCode(env.admin.files.getMetadata(`${folder}/images/a.jpg`), 'storage/object-not-found');
        await expectCode(env.admin.files.delete(`${folder}/images/a.jpg`), 'storage/object-not-found');
        await expectCode(env.admin.files.getDownloadUrl(`${folder}/images/a.jpg`), 'storage/object-not-found');
        expect((await env.admin.files.list(`${folder}/images/`)).items.map((i) => i.path)).toEqual([`${folder}/images/b.jpg`]);
      });
    });

    it.skipIf(Boolean(skip.roles))('errors are AppErrors with product codes', async () => {
      const error = await rejection(env.anon.catalog.get('projects', 'x'));
      expect(isAppError(error)).toBe(true);
    });
  });
}
