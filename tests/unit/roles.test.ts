import { describe, expect, it } from 'vitest';
import { ALL_CAPABILITIES, Capability, can, decideRole, findingRights, roleBadge, routeAccess, visibleModelsFor } from '@shared/roles.js';
import type { Role } from '@shared/types.js';

describe('decideRole (role resolution at sign-in)', () => {
  it('uses an existing record as is', () => {
    expect(decideRole({ existingRole: 'user', email: 'boss@lab.org', emailInAdmins: true })).toEqual({ role: 'user', create: false });
    expect(decideRole({ existingRole: 'admin', email: null, emailInAdmins: false })).toEqual({ role: 'admin', create: false });
  });

  it('creates an admin record when the email is in the admins list', () => {
    expect(decideRole({ existingRole: null, email: 'boss@lab.org', emailInAdmins: true })).toEqual({ role: 'admin', create: true });
  });

  it('creates a user record otherwise, including a missing email', () => {
    expect(decideRole({ existingRole: null, email: 'someone@lab.org', emailInAdmins: false })).toEqual({ role: 'user', create: true });
    expect(decideRole({ existingRole: undefined, email: null, emailInAdmins: true })).toEqual({ role: 'user', create: true });
    expect(decideRole({ existingRole: null, email: '  ', emailInAdmins: true })).toEqual({ role: 'user', create: true });
  });
});

describe('can (the role table)', () => {
  // One row per line of the role table: [capability, signed out, user, admin]
  const table: Array<[Capability, boolean, boolean, boolean]> = [
    [Capability.ViewPublicPages, true, true, true],
    [Capability.EnterShell, false, true, true],
    [Capability.Browse, false, true, true],
    [Capability.OpenModels, false, true, true],
    [Capability.SeeHiddenModels, false, false, true],
    [Capability.UploadAndToggleVisibility, false, false, true],
    [Capability.AddModelPage, false, false, true],
    [Capability.AdminPaths, false, false, true],
    [Capability.ManageCatalog, false, false, true],
    [Capability.ManageUsers, false, false, true],
  ];

  it('covers every row of the table', () => {
    expect(table.map((row) => row[0]).sort()).toEqual([...ALL_CAPABILITIES].sort());
  });

  it.each(table)('%s: signed out %s, user %s, admin %s', (capability, signedOut, user, admin) => {
    expect(can(null, capability)).toBe(signedOut);
    expect(can(undefined, capability)).toBe(signedOut);
    expect(can('user', capability)).toBe(user);
    expect(can('admin', capability)).toBe(admin);
  });

  it('treats an unknown role as no role', () => {
    expect(can('owner' as Role, Capability.Browse)).toBe(false);
    expect(can('owner' as Role, Capability.ViewPublicPages)).toBe(true);
  });
});

describe('visibleModelsFor (non-admins see only models that are not hidden)', () => {
  const models = [{ id: 'a', visible: true }, { id: 'b', visible: false }, { id: 'c' }];
  it('hides hidden models from users and signed-out visitors; missing visible counts as visible', () => {
    expect(visibleModelsFor('user', models).map((m) => m.id)).toEqual(['a', 'c']);
    expect(visibleModelsFor(null, models).map((m) => m.id)).toEqual(['a', 'c']);
    expect(visibleModelsFor('admin', models).map((m) => m.id)).toEqual(['a', 'b', 'c']);
  });
});

describe('routeAccess (no role: to /login; a non-admin on an admin path or Add Model: to /projects)', () => {
  it('lets everyone see / and /login', () => {
    for (const role of [null, 'user', 'admin'] as const) {
      expect(routeAccess(role, '/')).toEqual({ allow: true });
      expect(routeAccess(role, '/login')).toEqual({ allow: true });
    }
  });

  it('sends a visitor without a role to /login from any shell route', () => {
    for (const path of [
      '/catalog',
      '/models',
      '/projects',
      '/projects/map',
      '/projects/p1',
      '/projects/p1/add-model',
      '/admin',
      '/admin/users',
    ]) {
      expect(routeAccess(null, path)).toEqual({ allow: false, redirectTo: '/login' });
    }
  });

  it('silently redirects a user from /admin paths and the Add Model page to /projects', () => {
    expect(routeAccess('user', '/admin')).toEqual({ allow: false, redirectTo: '/projects' });
    expect(routeAccess('user', '/admin/model-management')).toEqual({ allow: false, redirectTo: '/projects' });
    expect(routeAccess('user', '/projects/p1/add-model')).toEqual({ allow: false, redirectTo: '/projects' });
    expect(routeAccess('user', '/projects/p1')).toEqual({ allow: true });
    expect(routeAccess('user', '/administrator')).toEqual({ allow: true });
  });

  it('lets an admin in everywhere', () => {
    expect(routeAccess('admin', '/admin/projects/p1')).toEqual({ allow: true });
    expect(routeAccess('admin', '/projects/p1/add-model')).toEqual({ allow: true });
  });
});

describe('roleBadge (the role shown in the shell footer)', () => {
  it('shows the role in upper case, green for admin and blue otherwise', () => {
    expect(roleBadge('admin')).toEqual({ label: 'ADMIN', color: 'green' });
    expect(roleBadge('user')).toEqual({ label: 'USER', color: 'blue' });
  });
});

describe('findingRights: admins do everything, users create and edit their own findings', () => {
  it('admins do everything; users create and edit their own; signed out or without a role nothing', () => {
    const admin = findingRights('admin', 'a1');
    expect([admin.create, admin.remove, admin.align, admin.edit({ author_uid: 'someone' })]).toEqual([true, true, true, true]);
    const user = findingRights('user', 'u1');
    expect([user.create, user.remove, user.align]).toEqual([true, false, false]);
    expect(user.edit({ author_uid: 'u1' })).toBe(true);
    expect(user.edit({ author_uid: 'a1' })).toBe(false);
    for (const none of [findingRights(null, 'x'), findingRights('user', null)]) {
      expect([none.create, none.remove, none.align, none.edit({ author_uid: 'x' })]).toEqual([false, false, false, false]);
    }
  });
});
