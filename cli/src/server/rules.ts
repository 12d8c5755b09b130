/**
 * The role table of SPEC.md §6, enforced by the embedded backend on every request. Every decision
 * is asked of `shared/roles.ts` (`can()`, `decideRole()`), the same table the portal's route
 * guards use and the shared access table (shared/access-table.ts) tests both backends against:
 * - projects need Browse, models OpenModels, hidden models SeeHiddenModels (otherwise a hidden
 *   model is withheld, never refused by name);
 * - `users` and `admins` need ManageUsers; without it a caller reads only their own
 *   `users/{uid}` record and their own email's `admins` entry (both read at sign-in, §4);
 * - writes of projects and models need ManageCatalog, of users and admins ManageUsers; a
 *   signed-in caller without it may write only their own `users/{uid}`, with the role §4's
 *   resolution gives ('user', or 'admin' when their email is in `admins`); nobody changes their
 *   own role.
 * The service key acts as 'admin'.
 */
import { timingSafeEqual } from 'node:crypto';
import { AppError, ErrorCode } from '@shared/errors.js';
import { FormMessages } from '@shared/messages.js';
import { Capability, can, decideRole } from '@shared/roles.js';
import { isHttpUrl } from '@shared/validation/project-form.js';
import type { CollectionName, Role } from '@shared/types.js';
import type { IdentityService } from './auth.js';
import type { DocumentStore, PendingChange, ReadScope, StoredDoc } from './documents.js';

/** Who makes a request. */
export type Principal =
  | { kind: 'anon' }
  | { kind: 'service' }
  | { kind: 'user'; uid: string; email: string; role: Role | null };

/**
 * The role a principal acts with in the §6 table: 'admin' for the service key, the record's role
 * for a signed-in user, null when signed out or without a role.
 */
export function roleOf(principal: Principal): Role | null {
  if (principal.kind === 'service') return 'admin';
  return principal.kind === 'user' ? principal.role : null;
}

/** True when the principal may manage the catalog (§6 ManageCatalog: the service key and admins). */
export function isAdmin(principal: Principal): boolean {
  return can(roleOf(principal), Capability.ManageCatalog);
}

/** The capability that writing a collection takes (§6): ManageUsers for users and admins, else ManageCatalog. */
function writeCapability(collection: CollectionName): Capability {
  return collection === 'users' || collection === 'admins' ? Capability.ManageUsers : Capability.ManageCatalog;
}

/**
 * Resolves the caller of a request from its `Authorization: Bearer …` header: the service key,
 * a valid ID token (role read from `users/{uid}.role`), or anonymous when there is no header.
 * @throws AppError `unauthenticated` / `auth/user-token-expired` for a bad or expired token
 */
export async function resolvePrincipal(
  header: string | null | undefined,
  deps: { serviceKey: string; identity: IdentityService; documents: DocumentStore },
): Promise<Principal> {
  if (!header) return { kind: 'anon' };
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  if (!match) throw new AppError(ErrorCode.Unauthenticated, 'Malformed Authorization header');
  const token = match[1]!;
  const given = Buffer.from(token);
  const expected = Buffer.from(deps.serviceKey);
  if (given.length === expected.length && timingSafeEqual(given, expected)) return { kind: 'service' };
  const { uid, email } = await deps.identity.verifyIdToken(token);
  const role = deps.documents.get('users', uid)?.data.role;
  return { kind: 'user', uid, email, role: role === 'admin' || role === 'user' ? role : null };
}

/** Refuses signed-out callers. @throws AppError `unauthenticated` */
export function requireSignedIn(principal: Principal): asserts principal is Exclude<Principal, { kind: 'anon' }> {
  if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
}

const denied = (what: string): AppError => new AppError(ErrorCode.PermissionDenied, `Missing permission: ${what}`);

/** Requires an admin or the service key. @throws AppError `unauthenticated` / `permission-denied` */
export function requireAdmin(principal: Principal): void {
  requireSignedIn(principal);
  if (!isAdmin(principal)) throw denied('admin role required');
}

/**
 * What a caller may read of a collection in a query.
 * @returns the restriction to apply
 * @throws AppError `unauthenticated` (signed out) / `permission-denied` (no role)
 */
export function readScope(principal: Principal, collection: CollectionName): ReadScope {
  requireSignedIn(principal);
  const role = roleOf(principal);
  // Every field is set (own properties), so nothing inherited can change a scope.
  const scope = (hideHidden: boolean, onlyId: string | undefined): ReadScope => ({ hideHidden, onlyId });
  if (collection === 'users' || collection === 'admins') {
    if (can(role, Capability.ManageUsers)) return scope(false, undefined);
    if (principal.kind !== 'user') throw denied(`read ${collection}`);
    return scope(false, collection === 'users' ? principal.uid : principal.email);
  }
  const needed = collection === 'models' ? Capability.OpenModels : Capability.Browse;
  if (!can(role, needed)) throw denied(`read ${collection}${role === null ? ' (no role)' : ''}`);
  return scope(collection === 'models' && !can(role, Capability.SeeHiddenModels), undefined);
}

/**
 * Filters a single-document read.
 * @returns the document, or null when it is missing or a hidden model the caller may not see
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function filterGet(principal: Principal, collection: CollectionName, id: string, doc: StoredDoc | null): StoredDoc | null {
  const scope = readScope(principal, collection);
  if (typeof scope.onlyId === 'string' && scope.onlyId !== id) throw denied(`read ${collection}/${id}`);
  if (doc && scope.hideHidden === true && doc.data.visible === false) return null;
  return doc;
}

/**
 * Decides what can be decided of a write from its target alone, before its data is looked at
 * or the write is computed: signed-out callers are refused (401), and a non-admin may only
 * create or set their own `users/{uid}` record (403 for anything else, deletes included).
 * {@link authorizeWrite} then checks the computed document.
 * @param target the write's kind, collection and document id (the id is undefined for an auto-id create)
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function preAuthorizeWrite(principal: Principal, target: { op: PendingChange['op']; collection: CollectionName; id: string | undefined }): void {
  requireSignedIn(principal);
  if (can(roleOf(principal), writeCapability(target.collection))) return;
  if (principal.kind !== 'user' || target.collection !== 'users' || target.id !== principal.uid) {
    throw denied(`write ${target.collection}/${target.id ?? '(new)'}`);
  }
  if (target.op === 'delete') throw denied('delete own user record');
}

/**
 * Authorises one write of a commit (see `DocumentStore.commit`).
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function authorizeWrite(principal: Principal, change: PendingChange, documents: DocumentStore): void {
  requireSignedIn(principal);
  if (can(roleOf(principal), writeCapability(change.collection))) return;
  if (principal.kind !== 'user') throw denied('write');
  if (change.collection !== 'users' || change.id !== principal.uid) throw denied(`write ${change.collection}/${change.id}`);
  const { before, after } = change;
  if (!after) throw denied('delete own user record');
  if (after.uid !== undefined && after.uid !== principal.uid) throw denied('user record uid must be the caller');
  if (after.email !== undefined && after.email !== null && String(after.email).toLowerCase() !== principal.email) {
    throw denied('user record email must be the caller');
  }
  const previousRole = before?.role;
  if (previousRole === 'admin' || previousRole === 'user') {
    if (after.role !== previousRole) throw denied('change own role');
    return;
  }
  // Self-registration (§4): role 'user', or the role resolution gives ('admin' when the email is allowlisted).
  if (after.role === 'user') return;
  const resolved = decideRole({ existingRole: null, email: principal.email, emailInAdmins: documents.get('admins', principal.email) !== null });
  if (after.role === resolved.role) return;
  throw denied('self-assign this role');
}

/**
 * Authorises reading a stored file's metadata, listing or link: signed-in users with a role;
 * a non-admin may not read the files of a hidden model (`models/{uuid}/…`).
 * @throws AppError `unauthenticated` / `permission-denied` (callers map them to storage codes)
 */
export function authorizeFileRead(principal: Principal, path: string, documents: DocumentStore): void {
  requireSignedIn(principal);
  const role = roleOf(principal);
  if (!can(role, Capability.OpenModels)) throw denied('read files (no role)');
  if (!can(role, Capability.SeeHiddenModels) && isHiddenModelPath(path, documents)) throw denied('read files of a hidden model');
}

/** True when `path` lies in the folder of a hidden model (`models/{uuid}/…`). */
export function isHiddenModelPath(path: string, documents: DocumentStore): boolean {
  const match = /^models\/([^/]+)(\/|$)/.exec(path);
  if (!match) return false;
  return documents.get('models', match[1]!)?.data.visible === false;
}

/**
 * Content rules the server holds every stored document to, whoever writes it (SPEC.md §5
 * project form: the map URL is a URL; only http(s) ones are links a browser may follow).
 * @throws AppError `invalid-argument` with the form's message
 */
export function checkDocumentContent(change: PendingChange): void {
  if (change.collection !== 'projects' || change.after === null) return;
  const location = change.after.location;
  if (location === null || typeof location !== 'object') return;
  const mapUrl = (location as Record<string, unknown>).mapUrl;
  if (mapUrl === undefined || mapUrl === null || mapUrl === '') return;
  if (typeof mapUrl !== 'string' || !isHttpUrl(mapUrl.trim())) throw new AppError(ErrorCode.InvalidArgument, FormMessages.projectMapUrlInvalid);
}
