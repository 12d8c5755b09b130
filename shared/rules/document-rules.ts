/**
 * The role table of SPEC.md §6 as the backends we run ourselves enforce it on every call — the
 * embedded backend (`cli/src/server/`) and the in-memory one (`shared/adapters/memory/`) both
 * import these decisions, so they are written once. Every decision is asked of `shared/roles.ts`
 * (`can()`, `decideRole()`), the table `shared/access-table.ts` states as rows.
 * - projects need Browse, models OpenModels, hidden models SeeHiddenModels (a hidden model is
 *   withheld from others, never refused by name);
 * - `users` and `admins` need ManageUsers; without it a caller reads only their own
 *   `users/{uid}` record and their own email's `admins` entry (both read at sign-in, §4);
 * - writes of projects and models need ManageCatalog, of users and admins ManageUsers; a
 *   signed-in caller without it may write only their own `users/{uid}`, with the role §4's
 *   resolution gives ('user', or 'admin' when their email is in `admins`); nobody changes their
 *   own role;
 * - the §5 map-URL rule and the location ranges (latitude −90..90, longitude −180..180, issue 17)
 *   hold for every writer;
 * - a model's Public ID has Edit's format and is unique within its project (issue 16), checked
 *   whenever a write creates a model or changes its publicId or projectId.
 * The service principal (the embedded backend's service key) acts as 'admin'. Pure TypeScript:
 * the documents are read through a {@link DocumentLookup}, whatever stores them.
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import { FormMessages, ValidationMessages } from '@shared/messages.js';
import type { WriteOp } from '@shared/ports/catalog.js';
import { Capability, can, decideRole, isHiddenModel } from '@shared/roles.js';
import type { CollectionName, Role } from '@shared/types.js';
import { PUBLIC_ID_PATTERN, publicIdInUse } from '@shared/validation/models.js';
import { isHttpUrl, locationCoordinatesProblem } from '@shared/validation/project-form.js';

/** A document's data: a JSON object. */
type Json = Record<string, unknown>;

/** Who makes a call: signed out, the service principal, or a signed-in account with its record's role. */
export type Principal = { kind: 'anon' } | { kind: 'service' } | { kind: 'user'; uid: string; email: string; role: Role | null };

/** Restrictions the role table adds to a read (every field set, so nothing inherited changes a scope). */
export interface ReadScope {
  /** Leave out models with `visible === false`. */
  hideHidden: boolean;
  /** Only the document with this id may be returned. */
  onlyId: string | undefined;
}

/** One write about to be applied, with the document before and after (null: absent). */
export interface PendingChange {
  op: WriteOp['op'];
  collection: CollectionName;
  id: string;
  before: Json | null;
  after: Json | null;
}

/** What the rules read of the store: one document by id. */
export type DocumentLookup = (collection: CollectionName, id: string) => Json | null;

/**
 * The role a principal acts with in the §6 table: 'admin' for the service principal, the
 * record's role for a signed-in account, null when signed out or without a record.
 */
export function roleOf(principal: Principal): Role | null {
  if (principal.kind === 'service') return 'admin';
  return principal.kind === 'user' ? principal.role : null;
}

/** True when the principal may manage the catalog (§6 ManageCatalog: the service principal and admins). */
export function isAdmin(principal: Principal): boolean {
  return can(roleOf(principal), Capability.ManageCatalog);
}

/** The capability that writing a collection takes (§6): ManageUsers for users and admins, else ManageCatalog. */
function writeCapability(collection: CollectionName): Capability {
  return collection === 'users' || collection === 'admins' ? Capability.ManageUsers : Capability.ManageCatalog;
}

const denied = (what: string): AppError => new AppError(ErrorCode.PermissionDenied, `Missing permission: ${what}`);

/** Refuses signed-out callers. @throws AppError `unauthenticated` */
export function requireSignedIn(principal: Principal): asserts principal is Exclude<Principal, { kind: 'anon' }> {
  if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
}

/** Requires an admin or the service principal. @throws AppError `unauthenticated` / `permission-denied` */
export function requireAdmin(principal: Principal): void {
  requireSignedIn(principal);
  if (!isAdmin(principal)) throw denied('admin role required');
}

/**
 * What a caller may read of a collection.
 * @returns the restriction to apply to queries and gets
 * @throws AppError `unauthenticated` (signed out) / `permission-denied` (no role)
 */
export function readScope(principal: Principal, collection: CollectionName): ReadScope {
  requireSignedIn(principal);
  const role = roleOf(principal);
  if (collection === 'users' || collection === 'admins') {
    if (can(role, Capability.ManageUsers)) return { hideHidden: false, onlyId: undefined };
    if (principal.kind !== 'user') throw denied(`read ${collection}`);
    return { hideHidden: false, onlyId: collection === 'users' ? principal.uid : principal.email };
  }
  const needed = collection === 'models' ? Capability.OpenModels : Capability.Browse;
  if (!can(role, needed)) throw denied(`read ${collection}${role === null ? ' (no role)' : ''}`);
  return { hideHidden: collection === 'models' && !can(role, Capability.SeeHiddenModels), onlyId: undefined };
}

/**
 * Filters a single-document read.
 * @param doc the stored document (any shape with its `data`), or null when missing
 * @returns the document, or null when it is missing or a hidden model the caller may not see
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function filterGet<D extends { data: Json }>(principal: Principal, collection: CollectionName, id: string, doc: D | null): D | null {
  const scope = readScope(principal, collection);
  if (scope.onlyId !== undefined && scope.onlyId !== id) throw denied(`read ${collection}/${id}`);
  if (doc && scope.hideHidden && doc.data.visible === false) return null;
  return doc;
}

/**
 * Decides what can be decided of a write from its target alone (before its data is looked at):
 * signed-out callers are refused, and a non-admin may only create or set their own
 * `users/{uid}` record. {@link authorizeWrite} then checks the computed document.
 * @param target the write's kind, collection and id (undefined for an auto-id create)
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function preAuthorizeWrite(
  principal: Principal,
  target: { op: WriteOp['op']; collection: CollectionName; id: string | undefined },
): void {
  requireSignedIn(principal);
  if (can(roleOf(principal), writeCapability(target.collection))) return;
  if (principal.kind !== 'user' || target.collection !== 'users' || target.id !== principal.uid) {
    throw denied(`write ${target.collection}/${target.id ?? '(new)'}`);
  }
  if (target.op === 'delete') throw denied('delete own user record');
}

/**
 * Authorises one computed write of a commit: a non-admin's own `users/{uid}` record keeps its uid,
 * email and role; a first record takes role 'user' or the role §4's resolution gives.
 * @param lookup reads the `admins` allowlist
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function authorizeWrite(principal: Principal, change: PendingChange, lookup: DocumentLookup): void {
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
  if (after.role === 'user') return;
  const resolved = decideRole({ existingRole: null, email: principal.email, emailInAdmins: lookup('admins', principal.email) !== null });
  if (after.role === resolved.role) return;
  throw denied('self-assign this role');
}

/**
 * Content rules every stored document is held to, whoever writes it (SPEC.md §5 project form:
 * the map URL is an http(s) URL; issue 17: lat and lng are null/absent or numbers within
 * −90..90 and −180..180, checked when a write creates the project or changes lat or lng, so a
 * project stored before the rule stays editable).
 * @throws AppError `invalid-argument` with the form's message ('Latitude must be between -90 and
 *   90', 'Longitude must be between -180 and 180', 'Latitude must be a number.', …)
 */
export function checkDocumentContent(change: PendingChange): void {
  if (change.collection !== 'projects' || change.after === null) return;
  const location = change.after.location;
  if (location === null || typeof location !== 'object') return;
  // Checked when a write sets coordinates (a project stored before the rule stays editable otherwise).
  const before = change.before?.location as { lat?: unknown; lng?: unknown } | null | undefined;
  const after = location as { lat?: unknown; lng?: unknown };
  const coordinatesChanged = !before || typeof before !== 'object' || before.lat !== after.lat || before.lng !== after.lng;
  const coordinates = coordinatesChanged ? locationCoordinatesProblem(location) : null;
  if (coordinates !== null) throw new AppError(ErrorCode.InvalidArgument, coordinates, { context: { location } });
  const mapUrl = (location as Json).mapUrl;
  if (mapUrl === undefined || mapUrl === null || mapUrl === '') return;
  if (typeof mapUrl !== 'string' || !isHttpUrl(mapUrl.trim())) {
    throw new AppError(ErrorCode.InvalidArgument, FormMessages.projectMapUrlInvalid);
  }
}

/**
 * Finds models by project and Public ID in the state a commit has reached so far (earlier writes
 * of the same batch included).
 * @param projectId the project's id
 * @param publicId the Public ID, exactly
 * @returns the ids of every such model (any order)
 */
export type ModelsWithPublicId = (projectId: string, publicId: string) => string[];

/**
 * The Public ID rule of every model write (issue 16; SPEC.md §5 Edit model's format), whoever
 * writes: when a write creates a `models` document or changes its `publicId` or `projectId`, the
 * Public ID must match PUBLIC_ID_PATTERN and no other model of the same project may have it.
 * Writes that leave both fields as they were pass, so models stored before the rule stay editable.
 * @param change the computed write
 * @param modelsWithPublicId looks up the models of a project with a Public ID, in the commit's current state
 * @throws AppError `invalid-argument` (ValidationMessages.publicIdPattern) or `already-exists`
 *   (`publicIdInUse(publicId)`, context `{publicId, modelId}` of the other model)
 */
export function checkModelPublicId(change: PendingChange, modelsWithPublicId: ModelsWithPublicId): void {
  if (change.collection !== 'models' || change.after === null) return;
  const { before, after } = change;
  const { publicId, projectId } = after;
  if (before !== null && before.publicId === publicId && before.projectId === projectId) return;
  if (typeof publicId !== 'string' || !PUBLIC_ID_PATTERN.test(publicId)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.publicIdPattern, { context: { publicId } });
  }
  if (typeof projectId !== 'string') return;
  const other = modelsWithPublicId(projectId, publicId).find((id) => id !== change.id);
  if (other !== undefined) throw new AppError(ErrorCode.AlreadyExists, publicIdInUse(publicId), { context: { publicId, modelId: other } });
}

/** True when `path` lies in the folder of a hidden model (`models/{uuid}/…`). */
export function isHiddenModelPath(path: string, lookup: DocumentLookup): boolean {
  const match = /^models\/([^/]+)(\/|$)/.exec(path);
  if (!match) return false;
  const model = lookup('models', match[1]!);
  return model !== null && model !== undefined && isHiddenModel(model);
}

/**
 * Authorises reading a stored file's metadata, a listing or a link: signed-in callers with a
 * role; a non-admin may not read the files of a hidden model.
 * @throws AppError `unauthenticated` / `permission-denied` (callers map them to storage codes)
 */
export function authorizeFileRead(principal: Principal, path: string, lookup: DocumentLookup): void {
  requireSignedIn(principal);
  const role = roleOf(principal);
  if (!can(role, Capability.OpenModels)) throw denied('read files (no role)');
  if (!can(role, Capability.SeeHiddenModels) && isHiddenModelPath(path, lookup)) throw denied('read files of a hidden model');
}

/**
 * Access errors in their storage flavour (SPEC.md §8), for the file operations: `unauthenticated`
 * and `auth/user-token-expired` → `storage/unauthenticated`, `permission-denied` → `storage/unauthorized`, `not-found` →
 * `storage/object-not-found`; anything else unchanged.
 * @param error what a file operation threw
 * @returns a new AppError with the storage code (the original as its cause), or `error` itself
 */
export function toStorageError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const mapped: Partial<Record<ErrorCode, ErrorCode>> = {
    [ErrorCode.Unauthenticated]: ErrorCode.StorageUnauthenticated,
    [ErrorCode.UserTokenExpired]: ErrorCode.StorageUnauthenticated,
    [ErrorCode.PermissionDenied]: ErrorCode.StorageUnauthorized,
    [ErrorCode.NotFound]: ErrorCode.ObjectNotFound,
  };
  const code = mapped[error.code];
  return code ? new AppError(code, error.message, { cause: error, context: error.context }) : error;
}
