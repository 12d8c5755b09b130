/**
 * Catalog port: the document database, with Firestore's semantics so that the Firebase adapter is a
 * thin mapping. Collections and document shapes are those of `shared/types.ts`. Reads are filtered
 * by the role table on the server: a non-admin never receives a hidden model, whichever call it
 * makes.
 */
import type { CollectionName, CollectionTypes } from '../types.js';
import type { Unsubscribe } from './identity.js';

/** A document's data with its id. */
export type WithId<T> = T & { id: string };

/** Scalar values usable in filters. */
export type FilterValue = string | number | boolean | null;

/**
 * A field filter. Field paths may be dotted (`metadata.captureDate`). Only equality and
 * inequality are part of the contract (the product needs no range queries).
 */
export type WhereClause = [field: string, op: '==' | '!=', value: FilterValue];

/** An ordering; missing fields sort first ascending, as in Firestore they are left out (documented difference). */
export type OrderClause = [field: string, direction?: 'asc' | 'desc'];

/** A query over one collection. */
export interface Query {
  where?: WhereClause[];
  orderBy?: OrderClause[];
  /** Maximum number of documents, 1 or more. */
  limit?: number;
}

/** Sentinel replaced by the backend's clock (ISO timestamp) when written. */
export interface ServerTimestamp {
  readonly $serverTimestamp: true;
}

/** The server-time sentinel (Firestore's `serverTimestamp()`). */
export const SERVER_TIMESTAMP: ServerTimestamp = Object.freeze({ $serverTimestamp: true as const });

/** True when `value` is the {@link SERVER_TIMESTAMP} sentinel (also after a JSON round trip). */
export function isServerTimestamp(value: unknown): value is ServerTimestamp {
  return typeof value === 'object' && value !== null && (value as { $serverTimestamp?: unknown }).$serverTimestamp === true;
}

/** Data for a create/set: any top-level field may be the server-time sentinel. */
export type WriteData<T> = { [K in keyof T]?: T[K] | ServerTimestamp };

/**
 * A partial update. Keys are field paths, dotted for nested fields
 * (`{'metadata.captureDate': '2025-06-01', last_updated: SERVER_TIMESTAMP}`); a value replaces
 * the field at that path. `null` stores null (it does not delete the field).
 */
export type UpdateData = Record<string, unknown>;

/** One write of an atomic batch. */
export type WriteOp =
  | { op: 'create'; collection: CollectionName; id: string; data: Record<string, unknown> }
  | { op: 'set'; collection: CollectionName; id: string; data: Record<string, unknown>; merge?: boolean }
  | { op: 'update'; collection: CollectionName; id: string; data: UpdateData }
  | { op: 'delete'; collection: CollectionName; id: string };

/**
 * The handle a transaction's work gets ({@link CatalogPort.transaction}), with Firestore's rules:
 * every `get` comes before the first write; writes are buffered and committed together when the
 * work returns, and only if no document the work read was changed by someone else meanwhile.
 */
export interface CatalogTransaction {
  /**
   * Reads one document as the caller may see it (a hidden model, or a finding of one, reads as
   * null to a non-admin), and remembers what was read: the commit fails over to another attempt
   * when it has changed by then.
   * @throws AppError `failed-precondition` when called after a write of this transaction,
   *   `permission-denied` / `unauthenticated` as {@link CatalogPort.get}
   */
  get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null>;
  /** Buffers the creation of a document (the commit fails with `already-exists` when it exists). */
  create<C extends CollectionName>(collection: C, id: string, data: WriteData<CollectionTypes[C]>): CatalogTransaction;
  /** Buffers a create-or-replace (with `merge`, of the given fields only), as {@link CatalogPort.set}. */
  set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): CatalogTransaction;
  /** Buffers an update of fields (the commit fails with `not-found` when the document is missing). */
  update(collection: CollectionName, id: string, data: UpdateData): CatalogTransaction;
  /** Buffers a delete (a missing document is no error). */
  delete(collection: CollectionName, id: string): CatalogTransaction;
}

/** Options of {@link CatalogPort.transaction}. */
export interface TransactionOptions {
  /** Most attempts before giving up with `aborted`, 1 or more (default {@link TRANSACTION_ATTEMPTS}). */
  maxAttempts?: number;
}

/**
 * Default attempts of a transaction: enough for 20 writers of one document at once, each
 * conflict costing one attempt of the losers, with jittered back-off spreading them out.
 */
export const TRANSACTION_ATTEMPTS = 30;

/**
 * What the project screens show of a project's models (the catalog home's counts and Featured
 * Projects, the project list's cards and table, the map's markers and stat cards), without
 * reading the models themselves: one entry per project the caller may read.
 */
export interface ProjectSummary {
  /** The project's id. */
  projectId: string;
  /**
   * The project's models the caller may read, 0 or more: hidden models count for callers who may
   * see them (admins, the service key) and never for the others.
   */
  modelCount: number;
  /**
   * The storage path of the project's reference model's thumbnail (the first of its
   * `files.thumbnails`), or null: no reference model, one without a thumbnail, or one the caller
   * may not read (a hidden reference, for a non-admin). The reference model is the one named by
   * the project's `reference_model_id` (when it belongs to the project), else the first, in
   * publicId order, of its models flagged `isReference`.
   */
  referenceThumbnailPath: string | null;
}

export interface CatalogPort {
  /**
   * Reads one document.
   * @returns the document with its id, or null when it does not exist (or is a hidden model and
   *   the caller is not an admin)
   * @throws AppError `permission-denied` / `unauthenticated`
   */
  get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null>;

  /** Runs a query; with no query, every readable document of the collection (unordered). */
  query<C extends CollectionName>(collection: C, query?: Query): Promise<WithId<CollectionTypes[C]>[]>;

  /** Counts the documents a query would return (the caller's visibility applies). */
  count(collection: CollectionName, query?: Query): Promise<number>;

  /**
   * Creates a document with an auto id (20 characters, as Firestore's).
   * @returns the new id
   */
  add<C extends CollectionName>(collection: C, data: WriteData<CollectionTypes[C]>): Promise<string>;

  /**
   * Creates or replaces a document at `id`; with `merge`, only the given top-level fields are
   * replaced (nested objects are merged deeply, as Firestore's `set(…, {merge: true})`).
   */
  set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): Promise<void>;

  /**
   * Updates fields of an existing document.
   * @throws AppError `not-found` when the document does not exist
   */
  update(collection: CollectionName, id: string, data: UpdateData): Promise<void>;

  /** Deletes a document; deleting a missing document succeeds (as Firestore). */
  delete(collection: CollectionName, id: string): Promise<void>;

  /**
   * Applies writes atomically: all or none.
   * @throws AppError `not-found` (update of a missing doc), `already-exists` (create of an
   *   existing one), `permission-denied`; nothing is written then
   */
  batch(ops: WriteOp[]): Promise<void>;

  /**
   * Runs `work` as a transaction (Firestore's semantics): its reads (`tx.get`, all before its
   * writes) and buffered writes commit atomically, and only when no document it read changed
   * before the commit; otherwise the whole work runs again (so it may run several times and must
   * not have other side effects), after a jittered back-off, up to `maxAttempts` times. The
   * writes go through the same rules as {@link batch}.
   * @param work reads, decides and buffers writes; its result is returned after the commit
   * @returns what the last (committed) run of `work` returned
   * @throws AppError `aborted` when every attempt met a conflicting write; whatever else `work`
   *   throws (nothing is written then, and it is not retried); the commit's errors as {@link batch}
   */
  transaction<T>(work: (tx: CatalogTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;

  /**
   * The summary of every project the caller may read ({@link ProjectSummary}): its model count
   * and its reference model's thumbnail, read without the model documents (the answer grows with
   * the projects, not with the models).
   * @returns one entry per readable project, ordered by project id (projects without models
   *   included, with a count of 0)
   * @throws AppError `permission-denied` / `unauthenticated` (a caller without a role)
   */
  projectSummaries(): Promise<ProjectSummary[]>;

  /**
   * Live {@link projectSummaries}: `onNext` is called with every summary first, then again
   * whenever a write elsewhere (a model added, moved, hidden or deleted; a project added, removed
   * or given another reference) changes them. How soon depends on the backend: at once on the
   * embedded and in-memory backends; on Firestore, which cannot count live, see its adapter.
   * Errors after subscribing go to `onError`, which ends the subscription.
   * @returns stops the updates
   */
  subscribeProjectSummaries(onNext: (summaries: ProjectSummary[]) => void, onError?: (error: Error) => void): Unsubscribe;

  /**
   * Live query. `onNext` is called with the full result first, then
   * again whenever a write elsewhere changes it. Errors after subscribing go to `onError`.
   */
  subscribe<C extends CollectionName>(
    collection: C,
    query: Query | undefined,
    onNext: (docs: WithId<CollectionTypes[C]>[]) => void,
    onError?: (error: Error) => void,
  ): Unsubscribe;
}
