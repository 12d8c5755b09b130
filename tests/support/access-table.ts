/**
 * The document-access table, a test fixture: who may get, list, create, update and delete what, as
 * data — the role table per collection, role resolution at sign-in (the `admins` allowlist) and
 * the rule that a project's map URL is an http(s) URL. Every row is decided from the role table of
 * `shared/roles.ts` ({@link can}, {@link decideRole}); nothing here restates it. Every backend is
 * tested against these rows — `firestore.rules` on the Firestore emulator
 * (tests/rules/role-table.test.ts), the embedded server (`catalog serve`,
 * tests/contract/access-table.test.ts) and the in-memory backend
 * (tests/contract/memory-access-table.test.ts) — so they cannot drift.
 *
 * What "allow" and "deny" mean on each backend:
 * - **allow**: the caller receives exactly what an unrestricted read returns (get, list), or the
 *   write is committed (create, update, delete).
 * - **deny**: Firestore refuses the request (permission-denied). The embedded server refuses it
 *   (401 signed out, 403 no permission, 400 for the map-URL rule or a collection the catalog does
 *   not name), or — for reads only — withholds: a hidden model a non-admin asks for by id reads as
 *   missing (200 `{doc: null}`), and a query returns only what the caller may read (so not the
 *   full answer). Firestore cannot narrow a query; it refuses every query that could return a
 *   document the caller may not read. Hidden means hidden: a write addressed to a document the
 *   caller cannot read (a hidden model, a finding or an alignment of one, or a document that
 *   does not exist) is refused on the embedded server as for a missing document (404
 *   `not-found` for an update), so that no refusal tells a hidden document from a missing one.
 *
 * Pure TypeScript (no Firebase, no Node built-ins), so every test project can load it.
 */
import type { Query } from '@shared/ports/catalog.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import { Capability, can, decideRole } from '@shared/roles.js';
import type { CollectionName, Role } from '@shared/types.js';

// ---------------------------------------------------------------------------------------------
// Principals and the fixture
// ---------------------------------------------------------------------------------------------

/**
 * Who calls (the role table's columns, plus an email in the admins list before its first sign-in):
 * - 'signed-out': no identity;
 * - 'no-role': signed in, no `users/{uid}` record yet (a first sign-in);
 * - 'allowlisted': signed in, no record yet, email in the `admins` allowlist;
 * - 'user' / 'admin': signed in with a record of that role.
 */
export type AccessPrincipal = 'signed-out' | 'no-role' | 'allowlisted' | 'user' | 'admin';

/** Every principal, in the order of the table. */
export const ACCESS_PRINCIPALS: readonly AccessPrincipal[] = ['signed-out', 'no-role', 'allowlisted', 'user', 'admin'];

/** A signed-in principal's identity and the role of its `users/{uid}` record (null: no record). */
export interface AccessIdentity {
  /** The identity's uid (also the id of its `users` record). */
  uid: string;
  /** The identity's email, lower case (the key of its `admins` entry, if any). */
  email: string;
  /** The role stored in `users/{uid}` by {@link ACCESS_FIXTURE}, or null when there is no record. */
  record: Role | null;
}

/** The identities of the signed-in principals (fixed uids: the tests create accounts with them). */
export const ACCESS_IDENTITIES: Readonly<Record<Exclude<AccessPrincipal, 'signed-out'>, AccessIdentity>> = {
  'no-role': { uid: 'access-norole', email: 'norole@access.test', record: null },
  allowlisted: { uid: 'access-boss', email: 'boss@access.test', record: null },
  user: { uid: 'access-user', email: 'user@access.test', record: 'user' },
  admin: { uid: 'access-admin', email: 'admin@access.test', record: 'admin' },
};

/**
 * A collection of a row: the catalog's four (projects, models, users, admins), the findings' two
 * (annotations, alignments) and the change maps (changeMaps), or 'unnamed' standing for any
 * collection the catalog does not name (closed to everyone).
 */
export type AccessCollection = CollectionName | 'unnamed';

/** One stored document: collection, id and data. */
export interface AccessDoc {
  collection: CollectionName;
  id: string;
  data: Record<string, unknown>;
}

/** An email in the allowlist that belongs to none of the principals. */
const OTHER_ALLOWLISTED = 'chief@access.test';

/** A finding's data (`AnnotationData`) on model `modelId` of project p1, numbered `seq`, by `author`. */
function findingData(modelId: string, seq: number, author: AccessIdentity): Record<string, unknown> {
  return {
    modelId,
    projectId: 'p1',
    seq,
    kind: 'point',
    points: [{ x: 1, y: 2, z: 3 }],
    measure: null,
    up: null,
    title: 'Rust on the girder',
    note: '',
    category: 'corrosion',
    severity: 3,
    status: 'open',
    photos: [],
    author_uid: author.uid,
    author_email: author.email,
    created_at: '2025-01-01T00:00:00.000Z',
    last_updated: '2025-01-01T00:00:00.000Z',
    followUpOf: null,
  };
}

/** An alignment's data (`AlignmentData`): `modelId` declared in the frame of `referenceModelId`, project p1. */
function alignmentData(referenceModelId: string, modelId: string): Record<string, unknown> {
  return {
    referenceModelId,
    modelId,
    projectId: 'p1',
    matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
    method: 'same-frame',
    pairs: [],
    rmsError: 0,
    created_by: ACCESS_IDENTITIES.admin.uid,
  };
}

/** A change map's data (`ChangeMapData`): capture `modelId` against reference `referenceModelId`, project p1. */
function changeMapData(referenceModelId: string, modelId: string): Record<string, unknown> {
  const identity = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  return {
    referenceModelId,
    modelId,
    projectId: 'p1',
    valuesPath: `models/${modelId}/changes/${referenceModelId}.bin`,
    inputs: {
      modelFile: `models/${modelId}/model.ply (100 bytes, uploaded ?)`,
      referenceFile: 'none (? bytes, uploaded ?)',
      alignment: null,
    },
    registration: { matrix: identity, rmsError: 0.01, iterations: 10, pairs: 90 },
    levelOfDetection: 0.03,
    pointCount: 100,
    referencePointCount: 120,
    histogram: { min: -0.5, max: 0.5, counts: [1, 97, 2] },
    regions: [
      { id: 1, side: 'capture', centroid: [1, 2, 3], min: [0, 1, 2], max: [2, 3, 4], count: 3, meanDistance: 0.3, maxDistance: 0.45 },
    ],
    computed_by: ACCESS_IDENTITIES.admin.uid,
  };
}

/**
 * The documents every row runs against (write before the rows; restore a document after an
 * allowed write changed it): the user's and the admin's records, two allowlist entries (the
 * allowlisted principal's and another), a project, a visible, a hidden and a legacy model (no
 * `visible` field: counts as visible), and two findings of the visible model (the
 * admin's `shown_1`, the user's `shown_2`), one of the hidden model (`hidden_1`), with the models'
 * finding counts and numbers to match, and an alignment of the legacy model to the visible one;
 * (hidden means hidden) an alignment of the hidden model to the visible one and one of the
 * legacy model to the hidden one; and the change maps of the same three pairs.
 */
export const ACCESS_FIXTURE: readonly AccessDoc[] = [
  {
    collection: 'users',
    id: ACCESS_IDENTITIES.user.uid,
    data: { uid: ACCESS_IDENTITIES.user.uid, email: ACCESS_IDENTITIES.user.email, role: 'user' },
  },
  {
    collection: 'users',
    id: ACCESS_IDENTITIES.admin.uid,
    data: { uid: ACCESS_IDENTITIES.admin.uid, email: ACCESS_IDENTITIES.admin.email, role: 'admin' },
  },
  { collection: 'admins', id: ACCESS_IDENTITIES.allowlisted.email, data: { email: ACCESS_IDENTITIES.allowlisted.email } },
  { collection: 'admins', id: OTHER_ALLOWLISTED, data: { email: OTHER_ALLOWLISTED } },
  { collection: 'projects', id: 'p1', data: { name: 'Tower', structure_id: 'TWR-001' } },
  {
    collection: 'models',
    id: 'shown',
    data: {
      uuid: 'shown',
      publicId: 'S-1',
      name: 'Shown',
      projectId: 'p1',
      visible: true,
      metadata: { annotationsCount: 2, annotationsSeq: 2 },
    },
  },
  {
    collection: 'models',
    id: 'hidden',
    data: {
      uuid: 'hidden',
      publicId: 'H-1',
      name: 'Hidden',
      projectId: 'p1',
      visible: false,
      metadata: { annotationsCount: 1, annotationsSeq: 1 },
    },
  },
  { collection: 'models', id: 'legacy', data: { uuid: 'legacy', publicId: 'L-1', name: 'Legacy', projectId: 'p1' } },
  { collection: 'annotations', id: 'shown_1', data: findingData('shown', 1, ACCESS_IDENTITIES.admin) },
  { collection: 'annotations', id: 'shown_2', data: findingData('shown', 2, ACCESS_IDENTITIES.user) },
  { collection: 'annotations', id: 'hidden_1', data: findingData('hidden', 1, ACCESS_IDENTITIES.admin) },
  {
    collection: 'alignments',
    id: 'shown__legacy',
    data: {
      referenceModelId: 'shown',
      modelId: 'legacy',
      projectId: 'p1',
      matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
      method: 'same-frame',
      pairs: [],
      rmsError: 0,
      created_by: ACCESS_IDENTITIES.admin.uid,
    },
  },
  { collection: 'alignments', id: 'shown__hidden', data: alignmentData('shown', 'hidden') },
  { collection: 'alignments', id: 'hidden__legacy', data: alignmentData('hidden', 'legacy') },
  { collection: 'changeMaps', id: 'shown__legacy', data: changeMapData('shown', 'legacy') },
  { collection: 'changeMaps', id: 'shown__hidden', data: changeMapData('shown', 'hidden') },
  { collection: 'changeMaps', id: 'hidden__legacy', data: changeMapData('hidden', 'legacy') },
];

/** The collections of the fixture and the table (every collection a row may write). */
export const ACCESS_COLLECTIONS: readonly CollectionName[] = [
  'users',
  'admins',
  'projects',
  'models',
  'annotations',
  'alignments',
  'changeMaps',
];

// ---------------------------------------------------------------------------------------------
// Requests and rows
// ---------------------------------------------------------------------------------------------

/**
 * The operations of a row: Firestore's get, list, create, update, delete, and 'batch' (several
 * writes committed atomically: a Firestore `WriteBatch`, the server's `POST /v1/batch`, the
 * port's `batch`), for rules that bind writes together (a finding and its model's count).
 */
export type AccessOp = 'get' | 'list' | 'create' | 'update' | 'delete' | 'batch';

/**
 * One write of a 'batch' request: a create at `id` (Firestore `batch.set` of a missing document,
 * server op 'create'), an update of fields (dotted paths allowed; `batch.update`, op 'update'),
 * or a delete.
 */
export type AccessBatchOp =
  | { op: 'create'; collection: CollectionName; id: string; data: Record<string, unknown> }
  | { op: 'update'; collection: CollectionName; id: string; data: Record<string, unknown> }
  | { op: 'delete'; collection: CollectionName; id: string };

/**
 * One request, backend-neutral:
 * - get: read `collection/id`;
 * - list: run `query` on `collection`;
 * - create: write `data` as a new document, at `id` (Firestore `set`, server `PUT`) or at an
 *   automatic id when `id` is absent (Firestore `add`, server `POST`);
 * - update: change the fields of `data` (keys may be dotted field paths; Firestore `update`,
 *   server `PATCH`), or with `merge` merge `data` into the document (Firestore
 *   `set(…, {merge: true})`, server `PUT` with `merge: true`; plain keys only);
 * - delete: remove `collection/id`;
 * - batch: commit `ops` atomically (all or none); `collection` names the row's subject.
 */
export type AccessRequest =
  | { op: 'get'; collection: AccessCollection; id: string }
  | { op: 'list'; collection: AccessCollection; query: Query }
  | { op: 'create'; collection: AccessCollection; id?: string; data: Record<string, unknown> }
  | { op: 'update'; collection: AccessCollection; id: string; data: Record<string, unknown>; merge?: boolean }
  | { op: 'delete'; collection: AccessCollection; id: string }
  | { op: 'batch'; collection: AccessCollection; ops: AccessBatchOp[] };

/** One row of the table: who asks what, and whether it is allowed (see the module comment). */
export interface AccessRow {
  /** Who calls. */
  principal: AccessPrincipal;
  /** The document or case, in words ('a hidden model', 'own record with role admin'…). */
  case: string;
  /** The request. */
  request: AccessRequest;
  /** The decision. */
  expect: 'allow' | 'deny';
  /** The rule or capability that decides it, in words. */
  why: string;
}

/** What a case needs to know about a principal to decide. */
interface Subject {
  principal: AccessPrincipal;
  identity: AccessIdentity | null;
  /** The role the principal acts with (read from the record at sign-in; null when signed out or no record). */
  role: Role | null;
}

/** A case: its request and decision for each principal it applies to. */
interface CaseTemplate {
  collection: AccessCollection;
  case: string;
  why: string;
  /** Principals the case applies to (default all). */
  applies?: (s: Subject) => boolean;
  request: (s: Subject) => AccessRequest;
  allow: (s: Subject) => boolean;
}

const USER = ACCESS_IDENTITIES.user;
const ADMIN = ACCESS_IDENTITIES.admin;
const signedIn = (s: Subject): s is Subject & { identity: AccessIdentity } => s.identity !== null;
const hasRecord = (s: Subject): boolean => s.identity?.record != null;
const inAllowlist = (email: string): boolean => ACCESS_FIXTURE.some((d) => d.collection === 'admins' && d.id === email);
/** Another user's record: the user's, or the admin's for the user. */
const otherRecord = (s: Subject): AccessIdentity => (s.principal === 'user' ? ADMIN : USER);
const own = (s: Subject): AccessIdentity => s.identity ?? USER;

/**
 * The findings user rule (docs/ARCHITECTURE.md "Findings"): who may add findings — everyone who may
 * open models (as the finding's author, with the model's count and number bump in the same batch).
 */
const mayAddFindings = (s: Subject): boolean => can(s.role, Capability.OpenModels);
/** Who may write any finding, delete findings, write alignments and change maps and change a model otherwise: ManageCatalog. */
const mayManageFindings = (s: Subject): boolean => can(s.role, Capability.ManageCatalog);

/** The query of one pair's alignment: `referenceModelId ==` and `modelId ==` (what the viewer asks). */
function alignmentPair(referenceModelId: string, modelId: string): NonNullable<Query['where']> {
  return [
    ['referenceModelId', '==', referenceModelId],
    ['modelId', '==', modelId],
  ];
}

/**
 * A batch creating finding `{modelId}_{seq}` by `author` with its model's update to
 * `metadata.annotationsCount` = `count` and `metadata.annotationsSeq` = `seq` (what
 * `createAnnotation` writes: its times as the server-time sentinel, which runners send as their
 * backend's own, Firestore's `serverTimestamp()`), plus any `extraModelFields` in the same update.
 */
function findingWithCount(
  modelId: string,
  seq: number,
  count: number,
  author: AccessIdentity,
  extraModelFields: Record<string, unknown> = {},
  findingFields: Record<string, unknown> = {},
): AccessRequest {
  return {
    op: 'batch',
    collection: 'annotations',
    ops: [
      {
        op: 'create',
        collection: 'annotations',
        id: `${modelId}_${seq}`,
        data: { ...findingData(modelId, seq, author), created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP, ...findingFields },
      },
      {
        op: 'update',
        collection: 'models',
        id: modelId,
        data: { 'metadata.annotationsCount': count, 'metadata.annotationsSeq': seq, ...extraModelFields },
      },
    ],
  };
}

/**
 * Role resolution and the role table for one's own `users/{uid}` record written with role
 * `role`: an admin writes any record; nobody changes the role of an existing own record; without a
 * record one registers as 'user', or as what role resolution at sign-in gives (admin when the
 * email is in the allowlist).
 */
function mayWriteOwnRole(s: Subject, role: Role): boolean {
  if (!signedIn(s)) return false;
  if (can(s.role, Capability.ManageUsers)) return true;
  if (s.identity.record !== null) return s.identity.record === role;
  return (
    role === 'user' ||
    decideRole({ existingRole: null, email: s.identity.email, emailInAdmins: inAllowlist(s.identity.email) }).role === role
  );
}

const CASES: readonly CaseTemplate[] = [
  // ---- projects: Browse to read, ManageCatalog to write; an http(s) map URL for every writer --
  {
    collection: 'projects',
    case: 'a project',
    why: 'role table: Browse',
    request: () => ({ op: 'get', collection: 'projects', id: 'p1' }),
    allow: (s) => can(s.role, Capability.Browse),
  },
  {
    collection: 'projects',
    case: 'all projects, by name',
    why: 'role table: Browse',
    request: () => ({ op: 'list', collection: 'projects', query: { orderBy: [['name', 'asc']] } }),
    allow: (s) => can(s.role, Capability.Browse),
  },
  {
    collection: 'projects',
    case: 'a new project (automatic id)',
    why: 'role table: Create, edit, delete projects',
    request: () => ({ op: 'create', collection: 'projects', data: { name: 'New', structure_id: 'NEW-001' } }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },
  {
    collection: 'projects',
    case: 'a new project with an https map URL',
    why: 'role table: Create projects; the map URL is a URL',
    request: () => ({
      op: 'create',
      collection: 'projects',
      data: { name: 'Linked', location: { lat: 1, lng: 2, mapUrl: 'https://maps.example/x' } },
    }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },
  {
    collection: 'projects',
    case: 'a new project with a javascript: map URL',
    why: 'the map URL must be a URL (http(s) only, for everyone)',
    request: () => ({ op: 'create', collection: 'projects', data: { name: 'Evil', location: { mapUrl: 'javascript:alert(1)' } } }),
    allow: () => false,
  },
  {
    collection: 'projects',
    case: 'rename a project',
    why: 'role table: Edit projects',
    request: () => ({ op: 'update', collection: 'projects', id: 'p1', data: { name: 'Renamed' } }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },
  {
    collection: 'projects',
    case: "a project's map URL set to javascript:",
    why: 'the map URL must be a URL (http(s) only, for everyone)',
    request: () => ({ op: 'update', collection: 'projects', id: 'p1', data: { 'location.mapUrl': ' JaVaScRiPt:alert(1)' } }),
    allow: () => false,
  },
  {
    collection: 'projects',
    case: 'a project',
    why: 'role table: Delete projects',
    request: () => ({ op: 'delete', collection: 'projects', id: 'p1' }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },

  // ---- models: OpenModels to read, SeeHiddenModels for hidden ones, admin writes --------------
  {
    collection: 'models',
    case: 'a visible model',
    why: 'role table: Open models',
    request: () => ({ op: 'get', collection: 'models', id: 'shown' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'models',
    case: "a model without 'visible' (counts as visible)",
    why: 'role table: Open models; a missing visible field counts as visible',
    request: () => ({ op: 'get', collection: 'models', id: 'legacy' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'models',
    case: 'a hidden model',
    why: 'role table: See hidden models',
    request: () => ({ op: 'get', collection: 'models', id: 'hidden' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'models',
    case: "visible models, by publicId (a non-admin's query)",
    why: 'role table: Open models; non-admins see only models that are not hidden',
    request: () => ({ op: 'list', collection: 'models', query: { where: [['visible', '==', true]], orderBy: [['publicId', 'asc']] } }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'models',
    case: "a project's models, hidden ones included",
    why: 'role table: See hidden models',
    request: () => ({ op: 'list', collection: 'models', query: { where: [['projectId', '==', 'p1']], orderBy: [['publicId', 'asc']] } }),
    allow: (s) => can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'models',
    case: 'hidden models (visible == false)',
    why: 'role table: See hidden models',
    request: () => ({ op: 'list', collection: 'models', query: { where: [['visible', '==', false]] } }),
    allow: (s) => can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'models',
    case: 'a new model',
    why: 'role table: Upload models',
    request: () => ({
      op: 'create',
      collection: 'models',
      id: 'new',
      data: { uuid: 'new', publicId: 'N-1', name: 'New', projectId: 'p1', visible: true },
    }),
    allow: (s) => can(s.role, Capability.UploadAndToggleVisibility),
  },
  {
    collection: 'models',
    case: 'hide a model',
    why: 'role table: Hide or show models',
    request: () => ({
      op: 'update',
      collection: 'models',
      id: 'shown',
      data: { visible: false, last_updated: '2025-01-01T00:00:00.000Z' },
    }),
    allow: (s) => can(s.role, Capability.UploadAndToggleVisibility),
  },
  {
    collection: 'models',
    case: 'show a hidden model',
    why: 'role table: Hide or show models',
    request: () => ({ op: 'update', collection: 'models', id: 'hidden', data: { visible: true } }),
    allow: (s) => can(s.role, Capability.UploadAndToggleVisibility),
  },
  {
    collection: 'models',
    case: 'rename a model',
    why: 'role table: Edit models',
    request: () => ({ op: 'update', collection: 'models', id: 'shown', data: { name: 'Renamed' } }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },
  {
    collection: 'models',
    case: 'a model',
    why: 'role table: Delete models',
    request: () => ({ op: 'delete', collection: 'models', id: 'shown' }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },

  // ---- users: own record (role resolution), everything else ManageUsers ----------------------
  {
    collection: 'users',
    case: 'own record (read at sign-in, also before it exists)',
    why: "role resolution at sign-in; role table: roles are read from the user's record",
    applies: signedIn,
    request: (s) => ({ op: 'get', collection: 'users', id: own(s).uid }),
    allow: signedIn,
  },
  {
    collection: 'users',
    case: "another user's record",
    why: 'role table: Register users; promote to admin',
    request: (s) => ({ op: 'get', collection: 'users', id: otherRecord(s).uid }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: "users by email (another user's)",
    why: 'role table: Register users; users are looked up by email',
    request: (s) => ({ op: 'list', collection: 'users', query: { where: [['email', '==', otherRecord(s).email]] } }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: 'every user record (the User Management list)',
    why: 'role table: Register users; promote to admin (the list of accounts, to find a UID)',
    request: () => ({ op: 'list', collection: 'users', query: {} }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: "own record with role 'user' (registration at first sign-in)",
    why: 'role resolution at sign-in: a record with role user is created',
    applies: signedIn,
    request: (s) => ({ op: 'create', collection: 'users', id: own(s).uid, data: { uid: own(s).uid, email: own(s).email, role: 'user' } }),
    allow: (s) => mayWriteOwnRole(s, 'user'),
  },
  {
    collection: 'users',
    case: "own record with role 'admin' (role escalation unless allowlisted)",
    why: 'role resolution at sign-in: admin only when the email is in admins; role table: promote to admin',
    applies: signedIn,
    request: (s) => ({ op: 'create', collection: 'users', id: own(s).uid, data: { uid: own(s).uid, email: own(s).email, role: 'admin' } }),
    allow: (s) => mayWriteOwnRole(s, 'admin'),
  },
  {
    collection: 'users',
    case: "own record with someone else's email",
    why: "the own record is the signed-in identity's; role table: Register users",
    applies: signedIn,
    request: (s) => ({
      op: 'create',
      collection: 'users',
      id: own(s).uid,
      data: { uid: own(s).uid, email: 'someone@access.test', role: 'user' },
    }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: 'register a new user',
    why: 'role table: Register users with role user or admin',
    request: () => ({
      op: 'create',
      collection: 'users',
      id: 'access-new',
      data: { uid: 'access-new', email: 'new@access.test', role: 'user' },
    }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: "own role changed to 'admin' (role escalation)",
    why: 'role table: Promote to admin (admins only)',
    applies: hasRecord,
    request: (s) => ({ op: 'update', collection: 'users', id: own(s).uid, data: { role: 'admin' } }),
    allow: (s) => mayWriteOwnRole(s, 'admin'),
  },
  {
    collection: 'users',
    case: "own role merged to 'admin' (role escalation)",
    why: 'role table: Promote to admin (admins only)',
    applies: hasRecord,
    request: (s) => ({ op: 'update', collection: 'users', id: own(s).uid, data: { role: 'admin' }, merge: true }),
    allow: (s) => mayWriteOwnRole(s, 'admin'),
  },
  {
    collection: 'users',
    case: "own record's note",
    why: "the user record's 'note'; a user with a role keeps their own note",
    applies: hasRecord,
    request: (s) => ({ op: 'update', collection: 'users', id: own(s).uid, data: { note: 'mine', updated_at: '2025-01-01T00:00:00.000Z' } }),
    allow: (s) => can(s.role, Capability.EnterShell),
  },
  {
    collection: 'users',
    case: "another user's role set to 'admin' (promote)",
    why: 'role table: Promote to admin',
    request: (s) => ({ op: 'update', collection: 'users', id: otherRecord(s).uid, data: { role: 'admin' } }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: 'own record',
    why: 'role table: user management is admin-only',
    applies: signedIn,
    request: (s) => ({ op: 'delete', collection: 'users', id: own(s).uid }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'users',
    case: "another user's record",
    why: 'role table: user management is admin-only',
    request: (s) => ({ op: 'delete', collection: 'users', id: otherRecord(s).uid }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },

  // ---- admins: the allowlist; one's own entry is read at sign-in ------------------------------
  {
    collection: 'admins',
    case: "own email's allowlist entry (read at sign-in, present or not)",
    why: 'role resolution at sign-in reads the admins list',
    applies: signedIn,
    request: (s) => ({ op: 'get', collection: 'admins', id: own(s).email }),
    allow: signedIn,
  },
  {
    collection: 'admins',
    case: "another email's allowlist entry",
    why: 'role table: Promote to admin',
    request: () => ({ op: 'get', collection: 'admins', id: OTHER_ALLOWLISTED }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'admins',
    case: 'the allowlist',
    why: 'role table: Promote to admin',
    request: () => ({ op: 'list', collection: 'admins', query: {} }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'admins',
    case: 'add own email to the allowlist',
    why: 'role table: Promote to admin (admins only)',
    request: (s) => ({
      op: 'create',
      collection: 'admins',
      id: own(s).email === ACCESS_IDENTITIES.allowlisted.email ? 'added@access.test' : own(s).email,
      data: { email: own(s).email },
    }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'admins',
    case: 'an allowlist entry',
    why: 'role table: Promote to admin (admins only)',
    request: () => ({ op: 'update', collection: 'admins', id: OTHER_ALLOWLISTED, data: { note: 'changed' } }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },
  {
    collection: 'admins',
    case: 'an allowlist entry',
    why: 'role table: Promote to admin (admins only)',
    request: () => ({ op: 'delete', collection: 'admins', id: OTHER_ALLOWLISTED }),
    allow: (s) => can(s.role, Capability.ManageUsers),
  },

  // ---- findings: OpenModels reads (hidden models' findings: SeeHiddenModels); a user
  // ---- adds their own with the count batch and edits their own content; admins do the rest ----
  {
    collection: 'annotations',
    case: 'a finding of a visible model',
    why: 'findings are read with their model (role table: Open models)',
    request: () => ({ op: 'get', collection: 'annotations', id: 'shown_1' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'annotations',
    case: 'a finding of a hidden model',
    why: 'findings are read with their model (role table: See hidden models)',
    request: () => ({ op: 'get', collection: 'annotations', id: 'hidden_1' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'annotations',
    case: "a visible model's findings (modelId ==)",
    why: 'findings are read with their model (role table: Open models)',
    request: () => ({ op: 'list', collection: 'annotations', query: { where: [['modelId', '==', 'shown']] } }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'annotations',
    case: "a hidden model's findings (modelId ==)",
    why: 'findings are read with their model (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'annotations', query: { where: [['modelId', '==', 'hidden']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'annotations',
    case: "a project's findings, hidden models' included (projectId ==)",
    why: 'findings are read with their model (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'annotations', query: { where: [['projectId', '==', 'p1']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'annotations',
    case: "own finding with the model's count and number bump in the same batch (createAnnotation)",
    why: 'findings user rule: users add findings on models they can open, as their author',
    request: (s) => findingWithCount('shown', 3, 3, own(s)),
    allow: mayAddFindings,
  },
  {
    collection: 'annotations',
    case: 'a finding without the count bump',
    why: "findings user rule: a user's finding comes with its model's count bump",
    request: (s) => ({ op: 'create', collection: 'annotations', id: 'shown_3', data: findingData('shown', 3, own(s)) }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: 'a finding authored as someone else, with the count bump',
    why: "findings user rule: a user's finding has their own uid as author_uid",
    request: (s) => findingWithCount('shown', 3, 3, otherRecord(s)),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: "own finding with someone else's author_email, with the count bump",
    why: "findings user rule: a user's finding names them as its author",
    request: (s) => findingWithCount('shown', 3, 3, own(s), {}, { author_email: otherRecord(s).email }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: 'own finding with severity 9, with the count bump',
    why: 'a finding holds the form rules (severity 1–5), for everyone',
    request: (s) => findingWithCount('shown', 3, 3, own(s), {}, { severity: 9 }),
    allow: () => false,
  },
  {
    collection: 'annotations',
    case: "the user's finding's title emptied",
    why: 'a finding holds the form rules (a title is required), for everyone',
    request: () => ({ op: 'update', collection: 'annotations', id: 'shown_2', data: { title: '   ' } }),
    allow: () => false,
  },
  {
    collection: 'annotations',
    case: 'a finding numbered out of sequence (shown_5), with a matching bump',
    why: "findings user rule: a user's finding takes the model's next number, id {modelId}_{seq}",
    request: (s) => findingWithCount('shown', 5, 3, own(s)),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: 'a finding of a hidden model, with the count bump',
    why: 'findings user rule: users add findings only on models they can open (role table: See hidden models)',
    request: (s) => findingWithCount('hidden', 2, 2, own(s)),
    allow: (s) => mayAddFindings(s) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'annotations',
    case: 'own finding with a count bump that also renames the model',
    why: 'findings user rule: the count bump changes nothing else on the model (role table: Edit models)',
    request: (s) => findingWithCount('shown', 3, 3, own(s), { name: 'Renamed' }),
    allow: mayManageFindings,
  },
  {
    collection: 'models',
    case: "a model's finding count and number raised without a finding",
    why: "findings user rule: a user's count change is bound to the finding it counts",
    request: () => ({
      op: 'update',
      collection: 'models',
      id: 'shown',
      data: { 'metadata.annotationsCount': 3, 'metadata.annotationsSeq': 3 },
    }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: "the user's finding's content (title, severity, last_updated)",
    why: 'findings user rule: users edit the content of their own findings',
    request: () => ({
      op: 'update',
      collection: 'annotations',
      id: 'shown_2',
      data: { title: 'Rust, spreading', severity: 4, last_updated: SERVER_TIMESTAMP },
    }),
    allow: (s) => mayManageFindings(s) || (mayAddFindings(s) && s.identity?.uid === USER.uid),
  },
  {
    collection: 'annotations',
    case: "the admin's finding's content (someone else's for a user)",
    why: 'findings user rule: users edit only their own findings',
    request: () => ({ op: 'update', collection: 'annotations', id: 'shown_1', data: { title: 'Not mine' } }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: "the user's finding given to another author (author_uid)",
    why: 'findings user rule: users edit only the content fields',
    request: () => ({ op: 'update', collection: 'annotations', id: 'shown_2', data: { author_uid: ADMIN.uid } }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: "the user's finding",
    why: 'findings user rule: deleting a record of a defect is an admin decision',
    request: () => ({ op: 'delete', collection: 'annotations', id: 'shown_2' }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: "the user's finding deleted with the count lowered (deleteAnnotation's batch)",
    why: 'findings user rule: deleting a record of a defect is an admin decision',
    request: () => ({
      op: 'batch',
      collection: 'annotations',
      ops: [
        { op: 'delete', collection: 'annotations', id: 'shown_2' },
        { op: 'update', collection: 'models', id: 'shown', data: { 'metadata.annotationsCount': 1 } },
      ],
    }),
    allow: mayManageFindings,
  },

  // ---- hidden means hidden: a write to a hidden document is refused as one to a missing document
  // ---- (pairs: the hidden one, and one that does not exist), for whoever may not see hidden models
  {
    collection: 'annotations',
    case: "a finding at a hidden model's next number taken already (hidden_1 exists), with the count bump",
    why: 'hidden means hidden: refused as on a model that does not exist (role table: See hidden models)',
    applies: (s) => !can(s.role, Capability.SeeHiddenModels),
    request: (s) => findingWithCount('hidden', 1, 2, own(s)),
    allow: () => false,
  },
  {
    collection: 'annotations',
    case: 'a finding of a model that does not exist (absent_1), with the count bump',
    why: 'hidden means hidden: the pair of the row above (role table: Open models)',
    applies: (s) => !can(s.role, Capability.SeeHiddenModels),
    request: (s) => findingWithCount('absent', 1, 1, own(s)),
    allow: () => false,
  },
  {
    collection: 'annotations',
    case: "a hidden model's finding's title (hidden_1)",
    why: 'hidden means hidden: a user edits only findings they can read (role table: See hidden models)',
    request: () => ({ op: 'update', collection: 'annotations', id: 'hidden_1', data: { title: 'Seen' } }),
    allow: mayManageFindings,
  },
  {
    collection: 'annotations',
    case: 'a finding that does not exist (absent_1): its title',
    why: 'hidden means hidden: the pair of the row above',
    applies: (s) => !can(s.role, Capability.SeeHiddenModels),
    request: () => ({ op: 'update', collection: 'annotations', id: 'absent_1', data: { title: 'Seen' } }),
    allow: () => false,
  },
  {
    collection: 'models',
    case: 'rename a hidden model',
    why: 'hidden means hidden: refused to users as for a model that does not exist (role table: Edit models)',
    request: () => ({ op: 'update', collection: 'models', id: 'hidden', data: { name: 'Renamed' } }),
    allow: (s) => can(s.role, Capability.ManageCatalog),
  },
  {
    collection: 'models',
    case: 'rename a model that does not exist',
    why: 'hidden means hidden: the pair of the row above',
    applies: (s) => !can(s.role, Capability.SeeHiddenModels),
    request: () => ({ op: 'update', collection: 'models', id: 'absent', data: { name: 'Renamed' } }),
    allow: () => false,
  },
  {
    collection: 'models',
    case: "a hidden model's finding count and number raised without a finding",
    why: "hidden means hidden; findings user rule: a user's count change is bound to the finding it counts",
    request: () => ({
      op: 'update',
      collection: 'models',
      id: 'hidden',
      data: { 'metadata.annotationsCount': 2, 'metadata.annotationsSeq': 2 },
    }),
    allow: mayManageFindings,
  },
  {
    collection: 'alignments',
    case: 'an alignment whose model is hidden: its error',
    why: 'hidden means hidden; findings user rule: admins only write alignments',
    request: () => ({ op: 'update', collection: 'alignments', id: 'shown__hidden', data: { rmsError: 0.5 } }),
    allow: mayManageFindings,
  },

  // ---- alignments: OpenModels reads with both models (a hidden one: SeeHiddenModels), admin writes
  {
    collection: 'alignments',
    case: 'an alignment',
    why: 'alignments are read with the models they align (role table: Open models)',
    request: () => ({ op: 'get', collection: 'alignments', id: 'shown__legacy' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'alignments',
    case: 'an alignment whose model is hidden',
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'get', collection: 'alignments', id: 'shown__hidden' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: 'an alignment whose reference model is hidden',
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'get', collection: 'alignments', id: 'hidden__legacy' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: 'no alignment yet of two models one can open (read as absent)',
    why: 'alignments are read with the models they align (role table: Open models)',
    request: () => ({ op: 'get', collection: 'alignments', id: 'legacy__shown' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'alignments',
    case: "a pair's alignment (referenceModelId == and modelId ==, the viewer's query)",
    why: 'alignments are read with the models they align (role table: Open models)',
    request: () => ({ op: 'list', collection: 'alignments', query: { where: alignmentPair('shown', 'legacy') } }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'alignments',
    case: "a pair's alignment whose model is hidden (both ids ==)",
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'alignments', query: { where: alignmentPair('shown', 'hidden') } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: "a pair's alignment whose reference model is hidden (both ids ==)",
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'alignments', query: { where: alignmentPair('hidden', 'legacy') } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: "a reference model's alignments, one of them with a hidden model (referenceModelId == only)",
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'alignments', query: { where: [['referenceModelId', '==', 'shown']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: "a project's alignments, hidden models' included (projectId ==)",
    why: 'hidden means hidden: alignments are read with both models they align (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'alignments', query: { where: [['projectId', '==', 'p1']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'alignments',
    case: 'a new alignment',
    why: 'findings user rule: an alignment re-frames every finding carried across; admins only',
    request: () => ({
      op: 'create',
      collection: 'alignments',
      id: 'legacy__shown',
      data: {
        referenceModelId: 'legacy',
        modelId: 'shown',
        projectId: 'p1',
        matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
        method: 'same-frame',
        pairs: [],
        rmsError: 0,
        created_by: 'x',
      },
    }),
    allow: mayManageFindings,
  },
  {
    collection: 'alignments',
    case: "an alignment's error",
    why: 'findings user rule: an alignment re-frames every finding carried across; admins only',
    request: () => ({ op: 'update', collection: 'alignments', id: 'shown__legacy', data: { rmsError: 0.5 } }),
    allow: mayManageFindings,
  },
  {
    collection: 'alignments',
    case: "an alignment replaced by the change map's registration ('icp', accepting it)",
    why: 'findings user rule: an alignment re-frames every finding carried across, whichever way it is made; admins only',
    request: () => ({
      op: 'update',
      collection: 'alignments',
      id: 'shown__legacy',
      data: {
        method: 'icp',
        matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0.02, -0.01, 0, 1],
        rmsError: 0.004,
        previous: { method: 'same-frame', matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], pairs: [], rmsError: 0 },
      },
    }),
    allow: mayManageFindings,
  },
  {
    collection: 'alignments',
    case: 'an alignment',
    why: 'findings user rule: an alignment re-frames every finding carried across; admins only',
    request: () => ({ op: 'delete', collection: 'alignments', id: 'shown__legacy' }),
    allow: mayManageFindings,
  },

  // ---- changeMaps: read as alignments (OpenModels with both models, a hidden one: SeeHiddenModels), admin writes
  {
    collection: 'changeMaps',
    case: 'a change map',
    why: 'change maps are read with both models they compare (role table: Open models)',
    request: () => ({ op: 'get', collection: 'changeMaps', id: 'shown__legacy' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'changeMaps',
    case: 'a change map whose capture is hidden',
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'get', collection: 'changeMaps', id: 'shown__hidden' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: 'a change map whose reference model is hidden',
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'get', collection: 'changeMaps', id: 'hidden__legacy' }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: 'no change map yet of two models one can open (read as absent)',
    why: 'change maps are read with both models they compare (role table: Open models)',
    request: () => ({ op: 'get', collection: 'changeMaps', id: 'legacy__shown' }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'changeMaps',
    case: "a pair's change map (referenceModelId == and modelId ==)",
    why: 'change maps are read with both models they compare (role table: Open models)',
    request: () => ({ op: 'list', collection: 'changeMaps', query: { where: alignmentPair('shown', 'legacy') } }),
    allow: (s) => can(s.role, Capability.OpenModels),
  },
  {
    collection: 'changeMaps',
    case: "a pair's change map whose capture is hidden (both ids ==)",
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'changeMaps', query: { where: alignmentPair('shown', 'hidden') } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: "a pair's change map whose reference model is hidden (both ids ==)",
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'changeMaps', query: { where: alignmentPair('hidden', 'legacy') } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: "a reference model's change maps, one of them of a hidden capture (referenceModelId == only)",
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'changeMaps', query: { where: [['referenceModelId', '==', 'shown']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: "a project's change maps, hidden models' included (projectId ==)",
    why: 'hidden means hidden: change maps are read with both models they compare (role table: See hidden models)',
    request: () => ({ op: 'list', collection: 'changeMaps', query: { where: [['projectId', '==', 'p1']] } }),
    allow: (s) => can(s.role, Capability.OpenModels) && can(s.role, Capability.SeeHiddenModels),
  },
  {
    collection: 'changeMaps',
    case: 'a new change map',
    why: 'a change map is computed from two captures and their alignment: admins (and the service key) only',
    request: () => ({ op: 'create', collection: 'changeMaps', id: 'legacy__shown', data: changeMapData('legacy', 'shown') }),
    allow: mayManageFindings,
  },
  {
    collection: 'changeMaps',
    case: "a change map's level of detection",
    why: 'a change map is computed from two captures and their alignment: admins (and the service key) only',
    request: () => ({ op: 'update', collection: 'changeMaps', id: 'shown__legacy', data: { levelOfDetection: 0.05 } }),
    allow: mayManageFindings,
  },
  {
    collection: 'changeMaps',
    case: 'a change map whose capture is hidden: its level of detection',
    why: 'hidden means hidden; a change map is written by admins only',
    request: () => ({ op: 'update', collection: 'changeMaps', id: 'shown__hidden', data: { levelOfDetection: 0.05 } }),
    allow: mayManageFindings,
  },
  {
    collection: 'changeMaps',
    case: 'a change map',
    why: 'a change map is computed from two captures and their alignment: admins (and the service key) only',
    request: () => ({ op: 'delete', collection: 'changeMaps', id: 'shown__legacy' }),
    allow: mayManageFindings,
  },

  // ---- any collection the spec does not name: closed ------------------------------------------
  {
    collection: 'unnamed',
    case: 'a document',
    why: 'only the collections the catalog names are open; anything else is closed',
    request: () => ({ op: 'get', collection: 'unnamed', id: 'x' }),
    allow: () => false,
  },
  {
    collection: 'unnamed',
    case: 'all documents',
    why: 'only the collections the catalog names are open; anything else is closed',
    request: () => ({ op: 'list', collection: 'unnamed', query: {} }),
    allow: () => false,
  },
  {
    collection: 'unnamed',
    case: 'a new document',
    why: 'only the collections the catalog names are open; anything else is closed',
    request: () => ({ op: 'create', collection: 'unnamed', id: 'x', data: { a: 1 } }),
    allow: () => false,
  },
];

function subjectOf(principal: AccessPrincipal): Subject {
  const identity = principal === 'signed-out' ? null : ACCESS_IDENTITIES[principal];
  return { principal, identity, role: identity?.record ?? null };
}

/**
 * Builds the table: every case for every principal it applies to, decided by the role table.
 * @returns the rows, grouped by collection, then case, then principal (in {@link ACCESS_PRINCIPALS} order)
 */
export function buildAccessTable(): AccessRow[] {
  const rows: AccessRow[] = [];
  for (const template of CASES) {
    for (const principal of ACCESS_PRINCIPALS) {
      const subject = subjectOf(principal);
      if (template.applies && !template.applies(subject)) continue;
      rows.push({
        principal,
        case: template.case,
        request: template.request(subject),
        expect: template.allow(subject) ? 'allow' : 'deny',
        why: template.why,
      });
    }
  }
  return rows;
}

/** The table of {@link buildAccessTable}, built once. */
export const ACCESS_TABLE: readonly AccessRow[] = buildAccessTable();

/**
 * A row's one-line name for test reports: `principal op collection: case → allow|deny`.
 * @param row a row of the table
 */
export function accessRowName(row: AccessRow): string {
  return `${row.principal} ${row.request.op} ${row.request.collection}: ${row.case} → ${row.expect}`;
}
