/**
 * The role table as the backends we run ourselves enforce it on every call — the
 * embedded backend (`cli/src/server/`) and the in-memory one (`shared/adapters/memory/`) both
 * import these decisions, so they are written once. Every decision is asked of `shared/roles.ts`
 * (`can()`, `decideRole()`), which the test fixture `tests/support/access-table.ts` states as rows.
 * - projects need Browse, models OpenModels, hidden models SeeHiddenModels (a hidden model is
 *   withheld from others, never refused by name);
 * - `users` and `admins` need ManageUsers; without it a caller reads only their own
 *   `users/{uid}` record and their own email's `admins` entry (both read at sign-in);
 * - writes of projects and models need ManageCatalog, of users and admins ManageUsers; a
 *   signed-in caller without it may write only their own `users/{uid}`, with the role that sign-in's
 *   role resolution gives ('user', or 'admin' when their email is in `admins`); nobody changes their
 *   own role;
 * - the map-URL rule and the location ranges (latitude −90..90, longitude −180..180)
 *   hold for every writer;
 * - a model's Public ID has Edit's format and is unique within its project, checked
 *   whenever a write creates a model or changes its publicId or projectId.
 * - findings (`annotations`), `alignments` and `changeMaps` need OpenModels to read; a finding,
 *   an alignment or a change map is withheld from callers without SeeHiddenModels unless its model
 *   (both models) exists and is not hidden, as the model is. Hidden means hidden for writes too: a
 *   caller writes as if a document it may not read were absent, so no refusal tells that it
 *   exists. Admins write all three freely; a user (OpenModels) creates findings on models they can
 *   open as their own author, edits the content fields of their own findings, never deletes one
 *   and never writes an alignment or a change map. A non-admin's finding create must come in one
 *   commit with the model update that raises `metadata.annotationsCount` and
 *   `metadata.annotationsSeq` by one (the finding's `seq`, id `{modelId}_{seq}`) and changes
 *   nothing else; a non-admin writes a model in no other way ({@link authorizeBatch},
 *   docs/ARCHITECTURE.md "Findings").
 * The service principal (the embedded backend's service key) acts as 'admin'. Pure TypeScript:
 * the documents are read through a {@link DocumentLookup}, whatever stores them.
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import { FormMessages, ValidationMessages } from '@shared/messages.js';
import { parseChangeValuesPath } from '@shared/paths.js';
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
  /**
   * The fields naming the models a document is read with (a finding's `modelId`, an alignment's
   * and a change map's `referenceModelId` and `modelId`): a document is left out unless every
   * model they name exists and is not hidden (`visible !== false`). Empty: nothing left out.
   */
  modelFields: readonly string[];
}

/** The scope that restricts nothing (what the service principal and admins read). */
export const UNRESTRICTED_SCOPE: ReadScope = Object.freeze({ hideHidden: false, onlyId: undefined, modelFields: Object.freeze([]) });

/**
 * The fields of each collection's documents that name the models they are read with: a finding
 * goes with its model, an alignment with both models it aligns, a change map with its capture and
 * its reference. A reader who may not see hidden models reads such a document only while each of
 * those models exists and is not hidden, so hiding a model (or deleting it) withholds its
 * findings, alignments and change maps too.
 */
export const MODEL_FIELDS: Readonly<Partial<Record<CollectionName, readonly string[]>>> = Object.freeze({
  annotations: Object.freeze(['modelId']),
  alignments: Object.freeze(['referenceModelId', 'modelId']),
  changeMaps: Object.freeze(['referenceModelId', 'modelId']),
});

/** One write about to be applied, with the document before and after (null: absent). */
export interface PendingChange {
  op: WriteOp['op'];
  collection: CollectionName;
  id: string;
  before: Json | null;
  after: Json | null;
  /**
   * The commit's time (ISO), what its server-time sentinels were resolved to: a server-owned
   * time such as a user's finding's `last_updated` must equal it (shared/rules/stored-documents.ts).
   */
  now?: string;
}

/** What the rules read of the store: one document by id. */
export type DocumentLookup = (collection: CollectionName, id: string) => Json | null;

/**
 * The role a principal acts with in the role table: 'admin' for the service principal, the
 * record's role for a signed-in account, null when signed out or without a record.
 */
export function roleOf(principal: Principal): Role | null {
  if (principal.kind === 'service') return 'admin';
  return principal.kind === 'user' ? principal.role : null;
}

/** True when the principal may manage the catalog (ManageCatalog: the service principal and admins). */
export function isAdmin(principal: Principal): boolean {
  return can(roleOf(principal), Capability.ManageCatalog);
}

/** The capability that writing a collection takes: ManageUsers for users and admins, else ManageCatalog. */
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
 * Requires the service key itself, not only an admin: the operations that move accounts or
 * storage wholesale (`catalog export`/`import` of accounts, `catalog doctor`'s scans and repairs).
 * @throws AppError `unauthenticated` / `permission-denied` ('Missing permission: service key required')
 */
export function requireServiceKey(principal: Principal): void {
  requireAdmin(principal);
  if (principal.kind !== 'service') throw denied('service key required');
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
    if (can(role, Capability.ManageUsers)) return UNRESTRICTED_SCOPE;
    if (principal.kind !== 'user') throw denied(`read ${collection}`);
    return { ...UNRESTRICTED_SCOPE, onlyId: collection === 'users' ? principal.uid : principal.email };
  }
  const needed = collection === 'projects' ? Capability.Browse : Capability.OpenModels;
  if (!can(role, needed)) throw denied(`read ${collection}${role === null ? ' (no role)' : ''}`);
  const seesHidden = can(role, Capability.SeeHiddenModels);
  return {
    hideHidden: collection === 'models' && !seesHidden,
    onlyId: undefined,
    modelFields: seesHidden ? [] : (MODEL_FIELDS[collection] ?? []),
  };
}

/**
 * True when a document names, in one of `fields`, a model that is missing or hidden (or names
 * none there): what {@link ReadScope.modelFields} leaves out.
 * @param lookup reads the models (the store's current state)
 */
export function namesClosedModel(data: Json, fields: readonly string[], lookup: DocumentLookup): boolean {
  return fields.some((field) => {
    const modelId = data[field];
    if (typeof modelId !== 'string') return true;
    const model = lookup('models', modelId);
    return model === null || isHiddenModel(model);
  });
}

/**
 * True when a caller without SeeHiddenModels may not read this stored document because of the
 * hidden-model rule: a hidden model, or a finding, an alignment or a change map whose model
 * (either model) is hidden or missing. Callers with SeeHiddenModels (admins, the service principal) read them all.
 * @param data the stored document's data
 * @param lookup reads the models (the store's current state, a commit's state so far)
 */
export function withheldFrom(principal: Principal, collection: CollectionName, data: Json, lookup: DocumentLookup): boolean {
  if (can(roleOf(principal), Capability.SeeHiddenModels)) return false;
  if (collection === 'models') return isHiddenModel(data);
  const fields = MODEL_FIELDS[collection];
  return fields !== undefined && namesClosedModel(data, fields, lookup);
}

/**
 * What a write sees of the document it changes (hidden means hidden): a stored document the
 * caller may not read ({@link withheldFrom}) is seen as absent, so the write is decided — and
 * refused — exactly as one to a missing document (an update: 'Document … not found'; a create
 * or set: by the rules for a new document), and no answer tells that it exists. A store that
 * gets null here for a stored document must never write it: {@link withheldWrite}.
 * @param stored the stored document's data, or null when there is none
 * @param lookup reads the models (the commit's state so far)
 * @returns `stored`, or null when the caller may not read it
 */
export function writerView(principal: Principal, collection: CollectionName, stored: Json | null, lookup: DocumentLookup): Json | null {
  return stored !== null && withheldFrom(principal, collection, stored, lookup) ? null : stored;
}

/**
 * The refusal of a write that the rules would allow on a missing document but whose target
 * exists and is withheld from the caller ({@link writerView}): it is never written over.
 * @returns AppError `permission-denied` ('Missing permission: write {collection}/{id}')
 */
export function withheldWrite(collection: CollectionName, id: string): AppError {
  return denied(`write ${collection}/${id}`);
}

/**
 * Filters a single-document read.
 * @param doc the stored document (any shape with its `data`), or null when missing
 * @param lookup reads the models of a finding or an alignment (to withhold them with a hidden or missing model)
 * @returns the document, or null when it is missing, a hidden model, or a finding or an alignment
 *   of a hidden or missing model the caller may not see
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function filterGet<D extends { data: Json }>(
  principal: Principal,
  collection: CollectionName,
  id: string,
  doc: D | null,
  lookup: DocumentLookup,
): D | null {
  const scope = readScope(principal, collection);
  if (scope.onlyId !== undefined && scope.onlyId !== id) throw denied(`read ${collection}/${id}`);
  if (doc && scope.hideHidden && doc.data.visible === false) return null;
  if (doc && namesClosedModel(doc.data, scope.modelFields, lookup)) return null;
  return doc;
}

/** The fields of a finding its author (a non-admin) may change: its content, and `last_updated`. */
export const FINDING_CONTENT_FIELDS: readonly string[] = [
  'title',
  'note',
  'category',
  'severity',
  'status',
  'photos',
  'points',
  'kind',
  'measure',
  'up',
  'last_updated',
];

/** Every field a finding may have (`AnnotationData`, shared/types.ts). */
const FINDING_FIELDS: readonly string[] = [
  ...FINDING_CONTENT_FIELDS,
  'modelId',
  'projectId',
  'seq',
  'author_uid',
  'author_email',
  'created_at',
  'followUpOf',
  'changeRegion',
];

/** The model fields a non-admin's finding create changes: the count and the sequence, nothing else. */
const COUNT_FIELDS = ['annotationsCount', 'annotationsSeq'] as const;

/** Top-level keys whose values differ between two documents (by JSON value; absent ≠ present). */
function changedKeys(before: Json, after: Json): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/** A document's `metadata` as an object ({} when absent or not an object). */
function metadataOf(data: Json | null): Json {
  const metadata = data?.metadata;
  return metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) ? (metadata as Json) : {};
}

/** A whole number stored at `metadata[field]`, 0 when absent. */
function counter(data: Json | null, field: (typeof COUNT_FIELDS)[number]): number | null {
  const value = metadataOf(data)[field];
  if (value === undefined || value === null) return 0;
  return typeof value === 'number' && Number.isInteger(value) ? value : null;
}

/**
 * A non-admin's write of a finding, a model, an alignment or a change map, decided from its
 * before and after (the count binding across the commit is {@link authorizeBatch}'s).
 * @throws AppError `permission-denied`
 */
function authorizeUserFindingWrite(principal: Extract<Principal, { kind: 'user' }>, change: PendingChange, lookup: DocumentLookup): void {
  const { before, after, collection, id } = change;
  if (!can(principal.role, Capability.OpenModels)) throw denied(`write ${collection}/${id} (no role)`);
  if (collection === 'alignments') throw denied('write alignments (admins only)');
  if (collection === 'changeMaps') throw denied('write changeMaps (admins only)');
  if (collection === 'models') {
    // Only the count bump of a finding create (authorizeBatch binds it to the finding).
    if (before === null || after === null) throw denied(`write models/${id}`);
    if (isHiddenModel(before)) throw denied(`write models/${id}`);
    const outside = changedKeys(before, after).filter((key) => key !== 'metadata');
    const inside = changedKeys(metadataOf(before), metadataOf(after)).filter((key) => !(COUNT_FIELDS as readonly string[]).includes(key));
    if (outside.length > 0 || inside.length > 0 || (before.metadata !== undefined && after.metadata === undefined)) {
      throw denied(`write models/${id} (a user changes only a model's finding count, with the finding)`);
    }
    return;
  }
  // annotations
  if (after === null) throw denied('delete a finding (admins only)');
  const modelId = (before ?? after).modelId;
  const model = typeof modelId === 'string' ? lookup('models', modelId) : null;
  if (model === null || isHiddenModel(model)) throw denied(`write annotations/${id} (no such model)`);
  const unknown = Object.keys(after).filter((key) => !FINDING_FIELDS.includes(key));
  if (unknown.length > 0) throw denied(`write annotations/${id} (unknown fields ${unknown.join(', ')})`);
  if (before === null) {
    if (after.author_uid !== principal.uid) throw denied("create a finding as someone else (author_uid must be the caller's uid)");
    const email = after.author_email;
    if (email !== undefined && email !== null && String(email).toLowerCase() !== principal.email.toLowerCase()) {
      throw denied("create a finding with someone else's email (author_email must be the caller's or null)");
    }
    if ((after.projectId ?? null) !== (model.projectId ?? null)) throw denied("create a finding with another project than its model's");
    return;
  }
  if (before.author_uid !== principal.uid) throw denied("edit someone else's finding");
  const changed = changedKeys(before, after).filter((key) => !FINDING_CONTENT_FIELDS.includes(key));
  if (changed.length > 0) throw denied(`edit a finding's ${changed.join(', ')} (a user edits only its content)`);
}

/**
 * The count binding of a commit, after all its writes were computed and authorised
 * one by one, still inside the commit (a throw rolls everything back). For a non-admin, every
 * finding create must come with its model's update in the same commit: the finding's `seq` is the
 * model's `metadata.annotationsSeq` before the commit + 1, its id is `{modelId}_{seq}`, and the
 * model ends the commit with `annotationsSeq` = seq and `annotationsCount` = its count before + 1
 * (nothing else changed: {@link authorizeWrite}); and every model write of a non-admin is such an
 * update, for exactly one finding created in the same commit. Admins and the service principal
 * are not bound (they write models anyway; the shared workflows keep the count exact).
 * @param changes the commit's writes in order, each with the document before and after it
 * @throws AppError `permission-denied`
 */
export function authorizeBatch(principal: Principal, changes: readonly PendingChange[]): void {
  if (principal.kind !== 'user' || isAdmin(principal)) return;
  /** State of each document at the commit's start and end. */
  const states = new Map<string, { collection: CollectionName; id: string; start: Json | null; end: Json | null }>();
  for (const change of changes) {
    const key = `${change.collection}/${change.id}`;
    const state = states.get(key);
    if (state) state.end = change.after;
    else states.set(key, { collection: change.collection, id: change.id, start: change.before, end: change.after });
  }
  const created = new Map<string, Array<{ id: string; data: Json }>>();
  for (const state of states.values()) {
    if (state.collection !== 'annotations' || state.start !== null || state.end === null) continue;
    const modelId = String(state.end.modelId);
    created.set(modelId, [...(created.get(modelId) ?? []), { id: state.id, data: state.end }]);
  }
  for (const [modelId, findings] of created) {
    const model = states.get(`models/${modelId}`);
    if (!model || model.start === null || model.end === null) {
      throw denied(`create a finding without its model's count update (models/${modelId}) in the same batch`);
    }
    if (findings.length !== 1) throw denied(`create more than one finding of models/${modelId} in one batch`);
    const finding = findings[0]!;
    const seqBefore = counter(model.start, 'annotationsSeq');
    const countBefore = counter(model.start, 'annotationsCount');
    const seq = finding.data.seq;
    if (seqBefore === null || countBefore === null || seq !== seqBefore + 1) {
      throw denied(`a finding of models/${modelId} must be number ${seqBefore === null ? '?' : seqBefore + 1}`);
    }
    if (finding.id !== `${modelId}_${seq}`) throw denied(`a finding of models/${modelId} numbered ${seq} must be ${modelId}_${seq}`);
    if (counter(model.end, 'annotationsSeq') !== seq || counter(model.end, 'annotationsCount') !== countBefore + 1) {
      throw denied(`models/${modelId} must set annotationsSeq to ${seq} and annotationsCount to ${countBefore + 1}`);
    }
  }
  for (const state of states.values()) {
    if (state.collection === 'models' && !created.has(state.id)) {
      throw denied(`write models/${state.id} (a user changes a model's finding count only with the finding it counts)`);
    }
  }
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
  // A user creates and edits findings (at their `{modelId}_{seq}` id, never deletes) and
  // bumps a model's finding count; the data decides the rest (authorizeWrite, authorizeBatch).
  if (principal.kind === 'user' && can(principal.role, Capability.OpenModels) && target.id !== undefined && target.op !== 'delete') {
    if (target.collection === 'annotations') return;
    if (target.collection === 'models' && target.op !== 'create') return;
  }
  if (principal.kind !== 'user' || target.collection !== 'users' || target.id !== principal.uid) {
    throw denied(`write ${target.collection}/${target.id ?? '(new)'}`);
  }
  if (target.op === 'delete') throw denied('delete own user record');
}

/**
 * Authorises one computed write of a commit: a non-admin's own `users/{uid}` record keeps its uid,
 * email and role; a first record takes role 'user' or the role sign-in's resolution gives. A user's
 * finding write follows the findings rule (own author, content fields of own findings, no
 * delete, a model write only as a count bump, no alignments or change maps); the binding of a
 * finding create to its count bump is checked per commit by {@link authorizeBatch}.
 * @param lookup reads the `admins` allowlist and a finding's model (the commit's state so far)
 * @throws AppError `unauthenticated` / `permission-denied`
 */
export function authorizeWrite(principal: Principal, change: PendingChange, lookup: DocumentLookup): void {
  requireSignedIn(principal);
  if (can(roleOf(principal), writeCapability(change.collection))) return;
  if (principal.kind !== 'user') throw denied('write');
  const findingsRule: readonly CollectionName[] = ['annotations', 'alignments', 'changeMaps', 'models'];
  if (findingsRule.includes(change.collection)) {
    authorizeUserFindingWrite(principal, change, lookup);
    return;
  }
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
 * Content rules every stored document is held to, whoever writes it (project form:
 * the map URL is an http(s) URL; lat and lng are null/absent or numbers within
 * −90..90 and −180..180, checked when a write creates the project or changes lat or lng, so a
 * project stored before the rule stays editable). Every collection's fields, a finding's
 * included, are held to its stored-document schema by `storedDocument` (stored-documents.ts).
 * @throws AppError `invalid-argument` with the form's message ('Latitude must be between -90 and
 *   90', 'Longitude must be between -180 and 180', 'Latitude must be a number.'…)
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
 * The Public ID rule of every model write, whoever writes: when a write creates a `models` document
 * or changes its `publicId` or `projectId`, the Public ID must match PUBLIC_ID_PATTERN and no other
 * model of the same project may have it. Writes that leave both fields as they were pass, so models
 * stored before the rule stay editable.
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

/**
 * True when `path` lies in the folder of a hidden model (`models/{uuid}/…`), or is a change map's
 * values file (`models/{uuid}/changes/{referenceModelId}.bin`) whose reference model is hidden: the
 * values are read with both models, as their change map is.
 */
export function isHiddenModelPath(path: string, lookup: DocumentLookup): boolean {
  const match = /^models\/([^/]+)(\/|$)/.exec(path);
  if (!match) return false;
  const hidden = (id: string): boolean => {
    const model = lookup('models', id);
    return model !== null && model !== undefined && isHiddenModel(model);
  };
  if (hidden(match[1]!)) return true;
  const values = parseChangeValuesPath(path);
  return values !== null && hidden(values.referenceModelId);
}

/**
 * Authorises reading a stored file's metadata, a listing or a link: signed-in callers with a
 * role. A hidden model's files are withheld from callers without SeeHiddenModels as the model
 * is: they read as absent, never refused, so the answer is the same as for a model that does
 * not exist.
 * @returns 'withheld' when `path` lies in a hidden model's folder the caller may not see (answer
 *   as for a missing file, {@link withheldFile}, or an empty folder), else 'readable'
 * @throws AppError `unauthenticated` / `permission-denied` (no role; callers map them to storage codes)
 */
export function authorizeFileRead(principal: Principal, path: string, lookup: DocumentLookup): 'readable' | 'withheld' {
  requireSignedIn(principal);
  const role = roleOf(principal);
  if (!can(role, Capability.OpenModels)) throw denied('read files (no role)');
  return !can(role, Capability.SeeHiddenModels) && isHiddenModelPath(path, lookup) ? 'withheld' : 'readable';
}

/**
 * The answer to a read of a file withheld by {@link authorizeFileRead}: the one a missing file
 * gets, word for word.
 * @returns AppError `storage/object-not-found` ('No file at {path}', context `{path}`)
 */
export function withheldFile(path: string): AppError {
  return new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });
}

/**
 * Access errors in their storage flavour, for the file operations: `unauthenticated`
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
