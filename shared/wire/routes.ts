/**
 * The HTTP routes of the embedded backend (`catalog serve`), in one table: each
 * `/v1` route's method, its path pattern (as the server registers it, `:param` and `*`), a path
 * builder (what the client requests), and the zod schemas of its parameters, query string,
 * request body and reply. The one home of these contracts: the server (`cli/src/server`)
 * registers its routes from this table and parses requests with its schemas; the local adapter
 * (`shared/adapters/local`) builds its URLs from it and types its replies from the reply schemas.
 * No other module spells a `/v1` path.
 */
import { z } from 'zod';
import type { ErrorCode } from '../errors.js';
import type { ChangeMapJob } from '../ports/jobs.js';
import { CONFIG_PATH, runtimeConfigSchema } from './config.js';
import { collectionSchema, docIdSchema, preconditionSchema, querySchema, writeOpSchema } from './catalog.js';

/** Prefix of every route of the embedded backend's API. */
export const API_PREFIX = '/v1';

/** HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One route of the table.
 * - `name`: what the request is, for error messages (`Invalid <name>: …`);
 * - `pattern`: the path as the server registers it (`/v1/docs/:collection/:id`, `/v1/files/*`);
 * - `path(…)`: builds the path a client requests (parameters URL-encoded);
 * - `params`, `query`, `body`: schemas of the path parameters, query string and JSON body, when the route has them;
 * - `reply`: schema of the JSON reply; null for routes answering 204 without a body or with a stream.
 */
export interface RouteSpec {
  readonly name: string;
  readonly method: HttpMethod;
  readonly pattern: string;
  readonly path: (...args: never[]) => string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly reply: z.ZodType | null;
}

/** The JSON reply type of a route (`void` for one without a body). */
export type ReplyOf<R extends RouteSpec> = R['reply'] extends z.ZodType ? z.infer<R['reply']> : void;

/** The request body type of a route. */
export type BodyOf<R extends RouteSpec> = R['body'] extends z.ZodType ? z.input<R['body']> : never;

/** Keeps a route's literal types (and checks it against {@link RouteSpec}). */
const route = <const R extends RouteSpec>(spec: R): R => spec;

/**
 * Encodes a storage path for a URL, segment by segment (`models/a b/x.ply` → `models/a%20b/x.ply`).
 * @param path a storage path, '/'-separated
 * @returns the path with each segment URL-encoded
 */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

const seg = encodeURIComponent;

// ---- shapes -------------------------------------------------------------------------------------

/** A signed-in user as the identity routes report it. */
const userSchema = z.object({ uid: z.string(), email: z.string().nullable() });

/** An account with its disabled flag (admin account routes). */
const accountSchema = z.object({ uid: z.string(), email: z.string(), disabled: z.boolean() });

/** Tokens returned by sign-in and refresh; `expiresIn` in seconds. */
export const tokenGrantSchema = z.object({
  idToken: z.string(),
  refreshToken: z.string(),
  expiresIn: z.number(),
  user: z.object({ uid: z.string(), email: z.string() }),
});

/** Tokens returned by sign-in and refresh. */
export type TokenGrant = z.infer<typeof tokenGrantSchema>;

/** Sign-in and account-creation body: checked by the identity service itself (its codes), so any values pass here. */
const credentialsSchema = z.object({ email: z.unknown(), password: z.unknown() });

/** An account as `catalog export` writes it and `catalog import` reads it (with its scrypt hash). */
export const exportedAccountSchema = z.strictObject({
  uid: z.string().min(1),
  email: z.string().min(1),
  password_hash: z.string().startsWith('scrypt$'),
  disabled: z.boolean(),
});

/** A document on the wire: its data with its id (`WithId<…>` of `shared/ports/catalog.ts`). */
const docSchema = z.record(z.string(), z.unknown());

/** Path parameters of one document. */
const docParamsSchema = z.object({ collection: collectionSchema, id: docIdSchema });

/** Path parameters of one collection. */
const collectionParamsSchema = z.object({ collection: collectionSchema });

/** Body of a document write: the data, and for `PUT` whether it merges. */
const dataBodySchema = z.object({ data: z.record(z.string(), z.unknown()), merge: z.boolean().optional() });

/** Body of a query or count. */
const queryBodySchema = z.object({ query: querySchema.nullish() });

/** One project's summary (`ProjectSummary` of `shared/ports/catalog.ts`): its model count and reference thumbnail. */
export const projectSummarySchema = z.object({
  projectId: z.string(),
  modelCount: z.number().int().min(0),
  referenceThumbnailPath: z.string().nullable(),
});

/** A stored file's metadata (`StoredFile` of `shared/ports/files.ts`). */
export const storedFileSchema = z.object({
  path: z.string(),
  size: z.number(),
  contentType: z.string().nullish(),
  updated: z.string().nullish(),
});

/**
 * One entry of a file batch's `manifest` part (`routes.fileBatch`, multipart/form-data: the
 * `manifest` field, JSON, then one `file` part per entry in the same order); the server adds its
 * size limits.
 */
export const fileBatchEntrySchema = z.object({
  path: z.string(),
  size: z.number().int().min(0),
  contentType: z.string().max(200).optional(),
});

/** One entry of a file batch's manifest. */
export type FileBatchEntry = z.infer<typeof fileBatchEntrySchema>;

/** Names of a file batch's multipart parts. */
export const FILE_BATCH_PARTS = { manifest: 'manifest', file: 'file' } as const;

/** One folder level (`FolderListing` of `shared/ports/files.ts`). */
const folderListingSchema = z.object({ items: z.array(storedFileSchema), prefixes: z.array(z.string()) });

/** The path parameter of file routes: the storage path after the route's prefix. */
const wildcardParamsSchema = z.object({ '*': z.string() });

/**
 * Unfinished resumable (tus) uploads expire this long after they were created, in ms (24 h);
 * until then a client may resume one where it stopped.
 */
export const UPLOAD_EXPIRY_MS = 24 * 3600 * 1000;

/**
 * Default grace period of storage repairs (`catalog doctor --fix`), in ms: files younger than
 * this, in a folder without a record, are left alone as an upload in progress or resumable.
 * It equals {@link UPLOAD_EXPIRY_MS}: an interrupted upload can be resumed that long, and a
 * resumed `upload-many` reuses the files it stored before instead of sending them again.
 */
export const REPAIR_GRACE_MS = UPLOAD_EXPIRY_MS;

/** Query of the storage scan and repair: the grace period in whole ms (0: only transfers running now are left alone). */
const storageScanQuerySchema = z
  .object({
    graceMs: z
      .string()
      .regex(/^\d{1,13}$/, 'graceMs must be a whole number of milliseconds')
      .transform(Number)
      .optional(),
  })
  .strict();

/** `?graceMs=N`, or nothing for the server's default. */
const graceQuery = (graceMs: number | undefined): string => (graceMs === undefined ? '' : `?graceMs=${Math.max(0, Math.trunc(graceMs))}`);

/**
 * Why a storage repair left something alone: `in-flight` — a transfer or a store of it runs on
 * the server now (a batch being received, a file being moved into place and recorded, a
 * web-sized copy being made, a tus request); `resumable` — an unfinished tus upload to its
 * folder was written within the grace period; `recent` — it is younger than the grace period.
 */
export const leftAloneReasonSchema = z.enum(['in-flight', 'resumable', 'recent']);

/** One storage path a repair left alone, and why. */
const leftAloneSchema = z.object({ path: z.string(), reason: leftAloneReasonSchema });

/**
 * The storage scan's reply: `untracked` (files on disk without a file record) and `missing`
 * (file records without bytes) that a repair would remove, what it leaves alone and why, and
 * the model folders (`models/{uuid}/`) with an upload in progress or resumable.
 */
export const storageScanReplySchema = z.object({
  untracked: z.array(z.string()),
  missing: z.array(z.string()),
  leftAlone: z.array(leftAloneSchema),
  liveUploads: z.array(z.object({ uuid: z.string(), reason: z.enum(['in-flight', 'resumable']) })),
  graceMs: z.number(),
});

/** What the storage scan found. */
export type StorageScanReport = z.infer<typeof storageScanReplySchema>;

export { runtimeConfigSchema };

/**
 * A capture's change-map job on the embedded server (`ChangeMapJob` of `shared/ports/jobs.ts`):
 * its state, how far it is (0 to 1) and why it failed or was skipped.
 */
export const changeMapJobSchema = z.object({
  modelId: z.string(),
  referenceModelId: z.string().nullable(),
  state: z.enum(['queued', 'computing', 'done', 'failed', 'skipped']),
  fraction: z.number().min(0).max(1),
  message: z.string().nullable(),
  computations: z.number().int().min(0),
  updated_at: z.string(),
}) satisfies z.ZodType<ChangeMapJob>;

/** Data of a `change` event on the live stream: which collections changed. */
export const changeEventSchema = z.object({ collections: z.array(z.string()) });

/** Names of the live stream's events: `ready` once connected, `change` after each committed write. */
export const LIVE_EVENTS = { ready: 'ready', change: 'change' } as const;

/** The JSON error body `{ error: { code, message } }` of every failed API request (`code`: an {@link ErrorCode}). */
export interface ErrorBody {
  error: { code: ErrorCode; message: string };
}

// ---- the table ----------------------------------------------------------------------------------

/** Every route of the embedded backend's API. */
export const routes = {
  // identity
  signIn: route({
    name: 'sign-in',
    method: 'POST',
    pattern: '/v1/auth/sign-in',
    path: () => '/v1/auth/sign-in',
    body: credentialsSchema,
    reply: tokenGrantSchema,
  }),
  refresh: route({
    name: 'refresh',
    method: 'POST',
    pattern: '/v1/auth/refresh',
    path: () => '/v1/auth/refresh',
    body: z.object({ refreshToken: z.string() }),
    reply: tokenGrantSchema,
  }),
  signOut: route({
    name: 'sign-out',
    method: 'POST',
    pattern: '/v1/auth/sign-out',
    path: () => '/v1/auth/sign-out',
    body: z.object({ refreshToken: z.string().optional() }),
    reply: null,
  }),
  me: route({
    name: 'me',
    method: 'GET',
    pattern: '/v1/auth/me',
    path: () => '/v1/auth/me',
    reply: z.object({ user: userSchema.extend({ service: z.literal(true).optional() }), role: z.enum(['admin', 'user']).nullable() }),
  }),
  createAccount: route({
    name: 'account',
    method: 'POST',
    pattern: '/v1/auth/accounts',
    path: () => '/v1/auth/accounts',
    body: credentialsSchema,
    reply: z.object({ user: userSchema }),
  }),
  findAccount: route({
    name: 'lookup',
    method: 'GET',
    pattern: '/v1/auth/accounts',
    path: (email: string) => `/v1/auth/accounts?email=${seg(email)}`,
    query: z.object({ email: z.string() }),
    reply: z.object({ user: accountSchema.nullable() }),
  }),
  setAccountDisabled: route({
    name: 'account update',
    method: 'PATCH',
    pattern: '/v1/auth/accounts/:uid',
    path: (uid: string) => `/v1/auth/accounts/${seg(uid)}`,
    params: z.object({ uid: z.string().min(1) }),
    body: z.object({ disabled: z.boolean() }),
    reply: z.object({ user: accountSchema }),
  }),
  // account export/import (service key only: `catalog export` / `catalog import`)
  exportAccounts: route({
    name: 'accounts',
    method: 'GET',
    pattern: '/v1/admin/accounts',
    path: () => '/v1/admin/accounts',
    reply: z.object({ accounts: z.array(exportedAccountSchema) }),
  }),
  importAccounts: route({
    name: 'accounts',
    method: 'POST',
    pattern: '/v1/admin/accounts',
    path: () => '/v1/admin/accounts',
    body: z.object({ accounts: z.array(exportedAccountSchema).max(10_000) }),
    reply: z.object({ added: z.number() }),
  }),
  // documents
  getDoc: route({
    name: 'document',
    method: 'GET',
    pattern: '/v1/docs/:collection/:id',
    path: (collection: string, id: string) => `/v1/docs/${seg(collection)}/${seg(id)}`,
    params: docParamsSchema,
    // version: the document's version as the caller reads it (null when it reads no document), for a transaction's precondition
    reply: z.object({ doc: docSchema.nullable(), version: z.string().nullable().optional() }),
  }),
  addDoc: route({
    name: 'document',
    method: 'POST',
    pattern: '/v1/docs/:collection',
    path: (collection: string) => `/v1/docs/${seg(collection)}`,
    params: collectionParamsSchema,
    body: dataBodySchema,
    reply: z.object({ id: z.string() }),
  }),
  setDoc: route({
    name: 'document',
    method: 'PUT',
    pattern: '/v1/docs/:collection/:id',
    path: (collection: string, id: string) => `/v1/docs/${seg(collection)}/${seg(id)}`,
    params: docParamsSchema,
    body: dataBodySchema,
    reply: null,
  }),
  updateDoc: route({
    name: 'update',
    method: 'PATCH',
    pattern: '/v1/docs/:collection/:id',
    path: (collection: string, id: string) => `/v1/docs/${seg(collection)}/${seg(id)}`,
    params: docParamsSchema,
    body: dataBodySchema,
    reply: null,
  }),
  deleteDoc: route({
    name: 'document',
    method: 'DELETE',
    pattern: '/v1/docs/:collection/:id',
    path: (collection: string, id: string) => `/v1/docs/${seg(collection)}/${seg(id)}`,
    params: docParamsSchema,
    reply: null,
  }),
  query: route({
    name: 'query',
    method: 'POST',
    pattern: '/v1/query/:collection',
    path: (collection: string) => `/v1/query/${seg(collection)}`,
    params: collectionParamsSchema,
    body: queryBodySchema,
    reply: z.object({ docs: z.array(docSchema) }),
  }),
  count: route({
    name: 'query',
    method: 'POST',
    pattern: '/v1/count/:collection',
    path: (collection: string) => `/v1/count/${seg(collection)}`,
    params: collectionParamsSchema,
    body: queryBodySchema,
    reply: z.object({ count: z.number() }),
  }),
  // the summary of every project the caller may read: model counts and reference thumbnails, without the models
  projectSummaries: route({
    name: 'project summaries',
    method: 'GET',
    pattern: '/v1/project-summaries',
    path: () => '/v1/project-summaries',
    reply: z.object({ summaries: z.array(projectSummarySchema) }),
  }),
  batch: route({
    name: 'batch',
    method: 'POST',
    pattern: '/v1/batch',
    path: () => '/v1/batch',
    // preconditions: what a transaction read (`preconditionSchema`), checked before any write
    body: z.object({ ops: z.array(writeOpSchema).max(500), preconditions: z.array(preconditionSchema).max(500).optional() }),
    reply: null,
  }),
  // live updates: a Server-Sent-Events stream (events `ready` and `change`, data {@link changeEventSchema})
  events: route({ name: 'events', method: 'GET', pattern: '/v1/events', path: () => '/v1/events', reply: null }),
  // files
  putFile: route({
    name: 'upload',
    method: 'PUT',
    pattern: '/v1/files/*',
    path: (storagePath: string) => `/v1/files/${encodePath(storagePath)}`,
    params: wildcardParamsSchema,
    reply: z.object({ file: storedFileSchema }),
  }),
  deleteFile: route({
    name: 'file',
    method: 'DELETE',
    pattern: '/v1/files/*',
    path: (storagePath: string) => `/v1/files/${encodePath(storagePath)}`,
    params: wildcardParamsSchema,
    reply: null,
  }),
  download: route({
    name: 'download',
    method: 'GET',
    pattern: '/v1/files/*',
    path: (storagePath: string, token: string) => `/v1/files/${encodePath(storagePath)}?token=${seg(token)}`,
    params: wildcardParamsSchema,
    query: z.object({ token: z.string().optional() }),
    reply: null,
  }),
  fileBatch: route({
    name: 'file batch',
    method: 'POST',
    pattern: '/v1/file-batch',
    path: () => '/v1/file-batch',
    reply: z.object({ files: z.array(storedFileSchema) }),
  }),
  fileMeta: route({
    name: 'file',
    method: 'GET',
    pattern: '/v1/file-meta/*',
    path: (storagePath: string) => `/v1/file-meta/${encodePath(storagePath)}`,
    params: wildcardParamsSchema,
    reply: z.object({ file: storedFileSchema }),
  }),
  downloadUrl: route({
    name: 'download link',
    method: 'GET',
    pattern: '/v1/download-url/*',
    path: (storagePath: string) => `/v1/download-url/${encodePath(storagePath)}`,
    params: wildcardParamsSchema,
    reply: z.object({ url: z.string() }),
  }),
  list: route({
    name: 'listing',
    method: 'GET',
    pattern: '/v1/list',
    path: (prefix: string) => `/v1/list?prefix=${seg(prefix)}`,
    query: z.object({ prefix: z.string().optional() }),
    reply: folderListingSchema,
  }),
  // the web-sized copy (SPZ) of a stored splat (PLY or .splat), made by the server, with the preview of a large capture (admins and the service key)
  webSplat: route({
    name: 'web-sized splat',
    method: 'POST',
    pattern: '/v1/web-splat',
    path: () => '/v1/web-splat',
    body: z.object({ path: z.string() }),
    reply: z.object({ file: storedFileSchema, preview: storedFileSchema.nullable() }),
  }),
  // the web-sized copy of a stored GLB, made by the server and kept only when at least 2× smaller (admins and the service key)
  webGlb: route({
    name: 'web-sized GLB',
    method: 'POST',
    pattern: '/v1/web-glb',
    path: () => '/v1/web-glb',
    body: z.object({ path: z.string() }),
    reply: z.object({ file: storedFileSchema.nullable(), skipped: z.string().nullable() }),
  }),
  // a capture's change-map job (the server computes change maps by itself): signed-in readers of both models; null when none
  changeMapJob: route({
    name: 'change-map job',
    method: 'GET',
    pattern: '/v1/change-map-jobs/:modelId',
    path: (modelId: string) => `/v1/change-map-jobs/${seg(modelId)}`,
    params: z.object({ modelId: docIdSchema }),
    reply: z.object({ job: changeMapJobSchema.nullable() }),
  }),
  // storage consistency (service key only: `catalog doctor`); `graceMs` defaults to REPAIR_GRACE_MS
  storageScan: route({
    name: 'storage scan',
    method: 'GET',
    pattern: '/v1/admin/storage-scan',
    path: (graceMs?: number) => `/v1/admin/storage-scan${graceQuery(graceMs)}`,
    query: storageScanQuerySchema,
    reply: storageScanReplySchema,
  }),
  storageRepair: route({
    name: 'storage repair',
    method: 'POST',
    pattern: '/v1/admin/storage-scan/repair',
    path: (graceMs?: number) => `/v1/admin/storage-scan/repair${graceQuery(graceMs)}`,
    query: storageScanQuerySchema,
    reply: z.object({ removedFiles: z.number(), removedRows: z.number(), leftAlone: z.array(leftAloneSchema) }),
  }),
  // public runtime configuration of the portal
  config: route({ name: 'config', method: 'GET', pattern: CONFIG_PATH, path: () => CONFIG_PATH, reply: runtimeConfigSchema }),
} as const;

/**
 * The resumable-upload (tus 1.0) endpoint: `POST` creates an upload, `HEAD`/`PATCH`/`DELETE` on
 * `{UPLOADS_PATH}/{id}` read its offset, append bytes and terminate it (the tus protocol's own
 * headers, no JSON bodies).
 */
export const UPLOADS_PATH = '/v1/uploads';

/** Routes that need no caller (sign-in, token refresh, sign-out, config): the server never resolves one before the body. */
export const PUBLIC_ROUTES: readonly RouteSpec[] = [routes.signIn, routes.refresh, routes.signOut, routes.config];

/**
 * True when a request path (no query string) belongs to the API rather than to the portal's pages.
 * @param path the URL path, e.g. `/v1/docs/models/abc` or `/projects`
 */
export function isApiPath(path: string): boolean {
  return path === API_PREFIX || path.startsWith(`${API_PREFIX}/`);
}

/**
 * True when a request path is a file download (`/v1/files/…`), which carries its token in the URL.
 * @param path the URL path without query string
 */
export function isFilePath(path: string): boolean {
  return path.startsWith(routes.download.pattern.slice(0, -1));
}
