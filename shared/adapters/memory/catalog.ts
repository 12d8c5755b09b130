/**
 * Catalog port of the in-memory backend: the embedded backend's
 * document API without HTTP. Requests are checked with the same wire schemas
 * (`shared/wire/catalog.ts`) and field-path rule, writes go through the same role table
 * (`shared/rules/document-rules.ts`) and commit atomically, and live subscriptions re-run their query when a write
 * (by any client of the store) changes their collection or this client's session changes,
 * calling `onNext` only when the result changed.
 */
import type { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateWriteOp } from '@shared/field-path.js';
import type {
  CatalogPort,
  CatalogTransaction,
  ProjectSummary,
  Query,
  TransactionOptions,
  UpdateData,
  WithId,
  WriteData,
  WriteOp,
} from '@shared/ports/catalog.js';
import type { Unsubscribe } from '@shared/ports/identity.js';
import type { CollectionName, CollectionTypes, ModelData, ProjectData } from '@shared/types.js';
import { summarizeProjects } from '@shared/projects.js';
import { collectionSchema, docIdSchema, preconditionSchema, querySchema, writeOpSchema } from '@shared/wire/catalog.js';
import type { Precondition } from '@shared/wire/catalog.js';
import { runOptimisticTransaction } from '@shared/adapters/transaction.js';
import { applyWrite } from '@shared/documents/merge.js';
import type { Principal, PendingChange } from '@shared/rules/document-rules.js';
import {
  authorizeBatch,
  authorizeWrite,
  checkDocumentContent,
  checkModelPublicId,
  filterGet,
  preAuthorizeWrite,
  readScope,
  requireSignedIn,
  withheldWrite,
  writerView,
} from '@shared/rules/document-rules.js';
import { storedDocument } from '@shared/rules/stored-documents.js';
import type { Json, MemoryDoc } from './documents.js';
import { runQuery, wireCopy } from './documents.js';
import { LiveQueries } from '@shared/adapters/live-queries.js';
import type { MemorySession } from './identity.js';
import type { MemoryStore } from './store.js';
import { randomId } from '@shared/random-id.js';

/**
 * Parses a request part with a wire schema, as the embedded server does.
 * @throws AppError `invalid-argument` ("Invalid <what>: <path> <message>")
 */
function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    const detail = issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'malformed';
    throw new AppError(ErrorCode.InvalidArgument, `Invalid ${what}: ${detail}`);
  }
  return result.data;
}

/** A query as the server reads it from the wire (orderBy directions default to 'asc'). */
function parseQuery(query: Query | undefined): Query {
  const raw = parse(querySchema.nullable().optional(), wireCopy(query) ?? null, 'query');
  if (!raw) return {};
  return {
    where: raw.where,
    orderBy: raw.orderBy?.map(([field, direction]) => [field, direction ?? 'asc'] as [string, 'asc' | 'desc']),
    limit: raw.limit,
  };
}

const withId = (doc: MemoryDoc): Record<string, unknown> => ({ ...wireCopy(doc.data), id: doc.id });

/**
 * A stored document's version for transactions' preconditions: a 53-bit hash (cyrb53) of its
 * JSON text, as the embedded server hashes its stored JSON (this backend is for tests; a hash
 * here needs no crypto module).
 * @param data the document's data
 * @returns 14 hex digits
 */
function memoryVersion(data: Json): string {
  const text = JSON.stringify(data);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, '0');
}

/** CatalogPort of the in-memory backend. */
export class MemoryCatalog implements CatalogPort {
  private readonly live = new LiveQueries((collection, query, sub) => (sub.derived ? sub.derived.read() : this.query(collection, query)));
  private readonly stopStore: Unsubscribe;
  private readonly stopSession: Unsubscribe;

  /**
   * @param store the shared state
   * @param session this client's session (who calls)
   */
  constructor(
    private readonly store: MemoryStore,
    private readonly session: MemorySession,
  ) {
    this.stopStore = store.onChange((collections) => this.live.rerun(collections));
    this.stopSession = session.onChange(() => this.live.rerun(null));
  }

  /** One document as the signed-in caller reads it (null when missing or withheld by the role table). */
  private async readAsCaller(collection: CollectionName, id: string): Promise<{ id: string; data: Json } | null> {
    await this.store.tick();
    const principal = this.session.principal();
    parse(collectionSchema, collection, 'collection');
    parse(docIdSchema, id, 'document id');
    const data = this.store.readDocument(collection, id);
    return filterGet(principal, collection, id, data ? { id, data } : null, (c, i) => this.store.readDocument(c, i));
  }

  async get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null> {
    const doc = await this.readAsCaller(collection, id);
    return (doc ? withId(doc) : null) as WithId<CollectionTypes[C]> | null;
  }

  async query<C extends CollectionName>(collection: C, query?: Query): Promise<WithId<CollectionTypes[C]>[]> {
    await this.store.tick();
    return this.runQuery(collection, query) as unknown as WithId<CollectionTypes[C]>[];
  }

  private runQuery(collection: CollectionName, query: Query | undefined): Record<string, unknown>[] {
    const principal = this.session.principal();
    requireSignedIn(principal);
    parse(collectionSchema, collection, 'collection');
    const parsed = parseQuery(query);
    return runQuery(this.store.documents(collection), parsed, readScope(principal, collection), (c, id) =>
      this.store.readDocument(c, id),
    ).map(withId);
  }

  async count(collection: CollectionName, query?: Query): Promise<number> {
    await this.store.tick();
    return this.runQuery(collection, query).length;
  }

  /** CatalogPort.projectSummaries: {@link summarizeProjects} over the projects and models the caller may read. */
  async projectSummaries(): Promise<ProjectSummary[]> {
    await this.store.tick();
    const projects = this.runQuery('projects', undefined) as unknown as WithId<ProjectData>[];
    const models = this.runQuery('models', undefined) as unknown as WithId<ModelData>[];
    return summarizeProjects(projects, models);
  }

  subscribeProjectSummaries(onNext: (summaries: ProjectSummary[]) => void, onError?: (error: Error) => void): Unsubscribe {
    const sub = this.live.addDerived(['models', 'projects'], () => this.projectSummaries(), onNext as (values: never[]) => void, onError);
    void this.live.run(sub);
    return () => this.live.drop(sub);
  }

  async add<C extends CollectionName>(collection: C, data: WriteData<CollectionTypes[C]>): Promise<string> {
    await this.store.tick();
    const principal = this.session.principal();
    parse(collectionSchema, collection, 'collection');
    preAuthorizeWrite(principal, { op: 'create', collection, id: undefined });
    const id = randomId(20);
    this.commit(principal, [{ op: 'create', collection, id, data: data as Record<string, unknown> }]);
    return id;
  }

  async set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): Promise<void> {
    await this.store.tick();
    this.single({ op: 'set', collection, id, data: data as Record<string, unknown>, merge: options?.merge ?? false });
  }

  async update(collection: CollectionName, id: string, data: UpdateData): Promise<void> {
    await this.store.tick();
    this.single({ op: 'update', collection, id, data });
  }

  async delete(collection: CollectionName, id: string): Promise<void> {
    await this.store.tick();
    this.single({ op: 'delete', collection, id });
  }

  /** One write of the document routes: decided by its target first, then committed. */
  private single(op: WriteOp): void {
    const principal = this.session.principal();
    parse(collectionSchema, op.collection, 'collection');
    parse(docIdSchema, op.id, 'document id');
    preAuthorizeWrite(principal, op);
    this.commit(principal, [parse(writeOpSchema, wireCopy(op), 'request') as WriteOp]);
  }

  async batch(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.store.tick();
    const principal = this.session.principal();
    requireSignedIn(principal);
    const parsed = ops.map((op, i) => parse(writeOpSchema, wireCopy(op), `batch op ${i}`) as WriteOp);
    this.commit(principal, parsed);
  }

  /**
   * CatalogPort.transaction by optimistic concurrency, as the local adapter's over the embedded
   * server: reads return each document's version as the caller reads it, and the commit checks
   * them as preconditions before any write ({@link checkPreconditions}).
   */
  async transaction<T>(work: (tx: CatalogTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return runOptimisticTransaction(
      {
        read: async (collection, id) => {
          const doc = await this.readAsCaller(collection, id);
          return doc ? { doc: withId(doc), version: memoryVersion(doc.data) } : { doc: null, version: null };
        },
        commit: async (ops, preconditions) => {
          await this.store.tick();
          const principal = this.session.principal();
          requireSignedIn(principal);
          const parsed = ops.map((op, i) => parse(writeOpSchema, wireCopy(op), `batch op ${i}`) as WriteOp);
          const checks = preconditions.map((p, i) => parse(preconditionSchema, wireCopy(p), `precondition ${i}`));
          this.commit(principal, parsed, checks);
        },
      },
      work,
      options,
    );
  }

  /**
   * A transaction's preconditions, as the embedded server checks them: each document, as this
   * caller may read it (a hidden model or a finding of one is absent to a non-admin), must still
   * have the version it was read with (null: none).
   * @throws AppError `aborted` (nothing written), the caller's read refusal (`permission-denied`)
   */
  private checkPreconditions(principal: Principal, checks: readonly Precondition[]): void {
    for (const { collection, id, version } of checks) {
      const data = this.store.readDocument(collection, id);
      const doc = filterGet(principal, collection, id, data ? { id, data } : null, (c, i) => this.store.readDocument(c, i));
      if ((doc ? memoryVersion(doc.data) : null) !== version) {
        throw new AppError(ErrorCode.Aborted, `Transaction aborted: ${collection}/${id} changed since it was read; nothing was written`, {
          context: { collection, id },
        });
      }
    }
  }

  /**
   * Commits writes atomically, as the embedded backend's `DocumentStore.commit`: every op is
   * decided by its target, the data checked by the shared rule, then each write is computed on
   * the state the earlier ops left (one server timestamp for the commit) and authorised with its
   * before and after, and the commit as a whole is held to the finding count binding
   * (`authorizeBatch`); only when all pass is anything stored.
   * @param preconditions a transaction's reads, checked before any write is computed
   * @throws AppError `aborted`, `already-exists`, `not-found`, `invalid-argument`, `permission-denied`, `unauthenticated`
   */
  private commit(principal: Principal, ops: WriteOp[], preconditions: readonly Precondition[] = []): void {
    for (const op of ops) preAuthorizeWrite(principal, op);
    this.checkPreconditions(principal, preconditions);
    const copies = ops.map((op) => wireCopy(op));
    for (const op of copies) validateWriteOp(op);
    const now = this.store.now();
    const pending = new Map<string, Json | null>();
    const key = (collection: CollectionName, id: string): string => `${collection}/${id}`;
    const current = (collection: CollectionName, id: string): Json | null => {
      const k = key(collection, id);
      return pending.has(k) ? pending.get(k)! : this.store.readDocument(collection, id);
    };
    /** The models of a project with a Public ID, the batch's earlier writes included. */
    const modelsWithPublicId = (projectId: string, publicId: string): string[] => {
      const models = new Map<string, Json | null>(this.store.documents('models').map((doc) => [doc.id, doc.data]));
      for (const [k, data] of pending) if (k.startsWith('models/')) models.set(k.slice('models/'.length), data);
      return [...models]
        .filter(([, data]) => data !== null && data.projectId === projectId && data.publicId === publicId)
        .map(([id]) => id);
    };
    const changes: Array<{ collection: CollectionName; id: string; after: Json | null }> = [];
    const computed: PendingChange[] = [];
    for (const op of copies) {
      const stored = current(op.collection, op.id);
      // Hidden means hidden: what the caller may not read is written as if absent (as the embedded server).
      const before = writerView(principal, op.collection, stored, current);
      const after = applyWrite(op, before, now);
      const change: PendingChange = { op: op.op, collection: op.collection, id: op.id, before, after, now };
      authorizeWrite(principal, change, current);
      checkDocumentContent(change);
      checkModelPublicId(change, modelsWithPublicId);
      // Stored = validated: the collection schema's output, not the data sent.
      change.after = storedDocument(principal, change, current);
      if (stored !== null && before === null) throw withheldWrite(op.collection, op.id);
      pending.set(key(op.collection, op.id), change.after);
      changes.push({ collection: op.collection, id: op.id, after: change.after });
      computed.push(change);
    }
    authorizeBatch(principal, computed);
    this.store.apply(changes);
  }

  subscribe<C extends CollectionName>(
    collection: C,
    query: Query | undefined,
    onNext: (docs: WithId<CollectionTypes[C]>[]) => void,
    onError?: (error: Error) => void,
  ): Unsubscribe {
    const sub = this.live.add(collection, query, onNext as (docs: never[]) => void, onError);
    void this.live.run(sub);
    return () => this.live.drop(sub);
  }

  /** Ends every subscription and stops listening to the store. */
  close(): void {
    this.stopStore();
    this.stopSession();
    this.live.closeAll();
  }
}
