/**
 * Roles and permissions: role resolution at sign-in as a pure decision, the role
 * table as one `can(role, capability)`, and what a screen does when the answer is no.
 * `null` stands for "signed out or no role" everywhere.
 */
import type { ModelData, Role } from './types.js';

// ---------------------------------------------------------------------------------------------
// Role resolution at sign-in
// ---------------------------------------------------------------------------------------------

/** Input of {@link decideRole}: what the workflow read before deciding. */
export interface RoleDecisionInput {
  /** The role of the user's record in 'users', or null/undefined when there is no record. */
  existingRole: Role | null | undefined;
  /** The signed-in email; null/undefined/blank when the identity has none. */
  email: string | null | undefined;
  /** True when the email is a key of the 'admins' allowlist. */
  emailInAdmins: boolean;
}

/** The decision: the user's role and whether a user record with that role must be created. */
export interface RoleDecision {
  role: Role;
  create: boolean;
}

/**
 * Role resolution at sign-in: an existing record's role is used as is; otherwise a record is
 * created with role 'admin' when the email is in the admins list, else 'user' (also when the
 * email is missing, whatever `emailInAdmins` says).
 */
export function decideRole(input: RoleDecisionInput): RoleDecision {
  if (input.existingRole === 'admin' || input.existingRole === 'user') return { role: input.existingRole, create: false };
  const hasEmail = typeof input.email === 'string' && input.email.trim() !== '';
  return { role: hasEmail && input.emailInAdmins ? 'admin' : 'user', create: true };
}

/** True for the two roles ('admin', 'user'). */
export function isRole(value: unknown): value is Role {
  return value === 'admin' || value === 'user';
}

// ---------------------------------------------------------------------------------------------
// Role table
// ---------------------------------------------------------------------------------------------

/** The rows of the role table, one capability each. */
export const Capability = {
  /** Landing and login pages. */
  ViewPublicPages: 'view-public-pages',
  /** Any shell route (/catalog, /models, /projects…); signed out is redirected to /login. */
  EnterShell: 'enter-shell',
  /** Browse catalog, projects, map, project detail. */
  Browse: 'browse',
  /** Open models in the viewer and compare with the reference. */
  OpenModels: 'open-models',
  /** See models whose `visible` is false. */
  SeeHiddenModels: 'see-hidden-models',
  /** Upload models; hide or show models. */
  UploadAndToggleVisibility: 'upload-and-toggle-visibility',
  /** The Add Model page (/projects/{id}/add-model). */
  AddModelPage: 'add-model-page',
  /** Any /admin path. */
  AdminPaths: 'admin-paths',
  /** Create, edit, delete projects and models; manage model files. */
  ManageCatalog: 'manage-catalog',
  /** Register users with role user or admin; promote to admin. */
  ManageUsers: 'manage-users',
} as const;

export type Capability = (typeof Capability)[keyof typeof Capability];

/** Every capability, in the order of the table. */
export const ALL_CAPABILITIES: readonly Capability[] = Object.values(Capability);

const USER_CAPABILITIES: ReadonlySet<Capability> = new Set([
  Capability.ViewPublicPages,
  Capability.EnterShell,
  Capability.Browse,
  Capability.OpenModels,
]);

/**
 * The role table: whether `role` has `capability`.
 * - signed out / no role (`null`): landing and login pages only;
 * - 'user': also the shell, browsing, opening and comparing models;
 * - 'admin': everything.
 * Unknown role values are treated as no role.
 */
export function can(role: Role | null | undefined, capability: Capability): boolean {
  if (role === 'admin') return true;
  if (role === 'user') return USER_CAPABILITIES.has(capability);
  return capability === Capability.ViewPublicPages;
}

/**
 * True when a model is hidden (`visible === false`; a missing `visible` counts as visible).
 * @param model a model record (or its data)
 */
export function isHiddenModel(model: Pick<ModelData, 'visible'>): boolean {
  return model.visible === false;
}

/**
 * The models a role may see: admins see
 * all; others only models whose `visible` is not false (missing counts as visible).
 */
export function visibleModelsFor<T extends Pick<ModelData, 'visible'>>(role: Role | null | undefined, models: readonly T[]): T[] {
  if (can(role, Capability.SeeHiddenModels)) return [...models];
  return models.filter((m) => !isHiddenModel(m));
}

// ---------------------------------------------------------------------------------------------
// Route access
// ---------------------------------------------------------------------------------------------

/** What a route does for a role: render, or redirect (replacing history) to another path. */
export type RouteAccess = { allow: true } | { allow: false; redirectTo: '/login' | '/projects' };

function isUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

/** True for /projects/{id}/add-model (and with a trailing slash). */
function isAddModelPath(pathname: string): boolean {
  return /^\/projects\/[^/]+\/add-model\/?$/.test(pathname);
}

/** The public routes: / and /login. */
export function isPublicRoute(pathname: string): boolean {
  return pathname === '/' || pathname === '' || isUnder(pathname, '/login');
}

/**
 * Route guard:
 * - / and /login: everyone;
 * - any other (shell) route without a role: redirect to /login;
 * - /admin/* and /projects/{id}/add-model for a non-admin: silent redirect to /projects;
 * - everything else: allowed for 'user' and 'admin'.
 * @param role the resolved role, or null when signed out / no role
 * @param pathname the location's pathname (no query)
 */
export function routeAccess(role: Role | null | undefined, pathname: string): RouteAccess {
  if (isPublicRoute(pathname)) return { allow: true };
  if (!can(role, Capability.EnterShell)) return { allow: false, redirectTo: '/login' };
  if (isUnder(pathname, '/admin') && !can(role, Capability.AdminPaths)) return { allow: false, redirectTo: '/projects' };
  if (isAddModelPath(pathname) && !can(role, Capability.AddModelPage)) return { allow: false, redirectTo: '/projects' };
  return { allow: true };
}

/** The shell footer's role badge: the role in upper case, green for admin, blue otherwise. */
export function roleBadge(role: Role): { label: string; color: 'green' | 'blue' } {
  return { label: role.toUpperCase(), color: role === 'admin' ? 'green' : 'blue' };
}

/** What an account may do with findings and alignments (documented rule). */
export interface FindingRights {
  /** Record a finding (as its author) on a model it can open: OpenModels. */
  create: boolean;
  /** Edit a finding: any with ManageCatalog (admins), else only one it authored. */
  edit: (finding: { author_uid: string }) => boolean;
  /** Delete a finding: ManageCatalog (admins) only. */
  remove: boolean;
  /** Write an alignment of two captures ('Same frame', 'Align with 3 points', remove): ManageCatalog only. */
  align: boolean;
}

/**
 * The findings rule (docs/ARCHITECTURE.md, "Findings") as screens apply it, decided
 * by {@link can} like every other row of the role table: admins create, edit and delete any
 * finding and write alignments; users create findings and edit their own; only admins delete.
 * Both backends enforce the same rule server-side (`shared/rules/document-rules.ts`,
 * `firestore.rules`); a screen uses this only to hide what would be refused.
 * @param role the role the account acts with (null: signed out or no role: nothing allowed)
 * @param uid the account's uid (null when signed out)
 */
export function findingRights(role: Role | null | undefined, uid: string | null): FindingRights {
  const admin = can(role, Capability.ManageCatalog);
  const create = uid !== null && can(role, Capability.OpenModels);
  return {
    create,
    edit: (finding) => admin || (create && finding.author_uid === uid),
    remove: admin,
    align: admin,
  };
}
