/**
 * Backend contract, part: who may read and write what by role (hidden models, own records, file
 * access), the `users/{uid}` record a first sign-in creates for itself (role from the admins
 * allowlist, else 'user') and the product error type.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAppError } from '@shared/errors.js';
import { SERVER_TIMESTAMP } from '@shared/ports/index.js';
import { gaussianCountForBytes, gaussianPly, jpegPhoto, triangleGlb } from '../../support/model-fixtures.js';
import type { ContractContext } from './context.js';
import { expectCode, rejection } from './context.js';

/** Declares this part of the contract for the backend of `ctx`. */
export function rolesContract(ctx: ContractContext): void {
  const { env, tag, skip, project } = ctx;

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
      expect((await env.user.catalog.get('users', ctx.userUid))?.role).toBe('user');
      await expectCode(env.user.catalog.get('users', ctx.adminUid), 'permission-denied');
      expect((await env.admin.catalog.get('users', ctx.userUid))?.role).toBe('user');
    });

    it('nobody but an admin changes a role, including their own', async () => {
      await expectCode(env.user.catalog.update('users', ctx.userUid, { role: 'admin' }), 'permission-denied');
      await expectCode(env.user.catalog.set('users', ctx.userUid, { role: 'admin' }, { merge: true }), 'permission-denied');
      await expectCode(env.user.catalog.update('users', ctx.adminUid, { role: 'user' }), 'permission-denied');
      expect((await env.admin.catalog.get('users', ctx.userUid))?.role).toBe('user');
      await env.admin.catalog.update('users', ctx.userUid, { note: `checked ${tag}` });
      await env.user.catalog.update('users', ctx.userUid, { note: `own note ${tag}` });
      expect((await env.user.catalog.get('users', ctx.userUid))?.note).toBe(`own note ${tag}`);
    });

    it('a user never receives a hidden model: not from get, query nor count', async () => {
      const projectId = `hidden-${tag}`;
      await env.admin.catalog.set('models', `${projectId}-h`, {
        uuid: `${projectId}-h`,
        publicId: 'HID',
        name: 'h',
        projectId,
        visible: false,
        files: {},
      });
      // visible: true as every create writes it (Firebase queries of non-admins filter on it; a
      // legacy record without the field reads by id, see 'a model without visible' below)
      await env.admin.catalog.set('models', `${projectId}-v`, {
        uuid: `${projectId}-v`,
        publicId: 'VIS',
        name: 'v',
        projectId,
        visible: true,
        files: {},
      });
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
        const glb = await triangleGlb();
        await env.admin.files.upload(path, new Blob([glb]));
        await expectCode(env.user.files.upload(`${folder}/images/other.jpg`, new Blob([await jpegPhoto()])), 'storage/unauthorized');
        await expectCode(
          env.user.files.upload(`${folder}/model.ply`, new Blob([gaussianPly(gaussianCountForBytes(300 * 1024))])),
          'storage/unauthorized',
        );
        await expectCode(env.user.files.delete(path), 'storage/unauthorized');
        expect((await env.user.files.getMetadata(path)).size).toBe(glb.length);
      }
      if (!skip.restrictedSignUp)
        await expectCode(env.user.identity.createAccount(`new-${tag}@example.com`, 'secret-1'), 'permission-denied');
      if (env.user.identity.findAccountByEmail) {
        await expectCode(env.user.identity.findAccountByEmail(`new-${tag}@example.com`), 'permission-denied');
      }
      if (!skip.files) await env.admin.files.delete(path);
    });

    it.skipIf(Boolean(skip.files))('a user cannot read the files of a hidden model', async () => {
      const uuid = randomUUID();
      await env.admin.catalog.set('models', uuid, { uuid, publicId: 'HF', name: 'hf', visible: false, files: {} });
      const glb = await triangleGlb();
      await env.admin.files.upload(`models/${uuid}/model.glb`, new Blob([glb]));
      // hidden means hidden: read as missing (the embedded and memory backends), or refused as a read under a missing model is (storage.rules)
      await expectCode(env.user.files.getMetadata(`models/${uuid}/model.glb`), 'storage/object-not-found', 'storage/unauthorized');
      await expectCode(env.user.files.getDownloadUrl(`models/${uuid}/model.glb`), 'storage/object-not-found', 'storage/unauthorized');
      expect((await env.admin.files.getMetadata(`models/${uuid}/model.glb`)).size).toBe(glb.length);
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
        await expectCode(env.anon.catalog.set('users', ctx.userUid, { uid: ctx.userUid, email, role: 'user' }), 'permission-denied');
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
        expect((await env.anon.catalog.get('users', ctx.userUid))?.role).toBe('user');
      } finally {
        await env.anon.identity.signOut();
      }
    });
  });

  it.skipIf(Boolean(skip.roles))('errors are AppErrors with product codes', async () => {
    const error = await rejection(env.anon.catalog.get('projects', 'x'));
    expect(isAppError(error)).toBe(true);
  });
}
