/**
 * CatalogPort over the Firestore web SDK. The security rules
 * (firestore.rules) enforce the role table; this adapter adds what rules cannot: a non-admin's
 * model queries filter `visible == true` (rules reject unfiltered ones), and a hidden model read
 * by a non-admin comes back as null, as the port says. A finding of a hidden model
 * read by a non-admin comes back as null too, and a non-admin's query of one model's findings
 * (`modelId ==`), which the rules refuse when that model is hidden, as no findings — as the
 * other backends withhold them.
 */
import {
  addDoc,
  collection as collectionRef,
  deleteDoc,
  doc,
  getCountFromServer,
  getDoc,
  getDocs,
  onSnapshot,
  query as sdkQuery,
  runTransaction,
  setDoc,
  updateDoc,
  writeBatch,
} from 'firebase/firestore';
import type { DocumentSnapshot, Firestore, Transaction } from 'firebase/firestore';
import { AppError, ErrorCode } from '@shared/errors.js';
import type {
  AuthUser,
  CatalogPort,
  CatalogTransaction,
  ProjectSummary,
  Query,
  TransactionOptions,
  UpdateData,
  Unsubscribe,
  WithId,
  WriteData,
  WriteOp,
} from '@shared/ports/index.js';
import { abortedError, attemptsOf, backoffMs, BufferedTransaction } from '@shared/adapters/transaction.js';
import type { CollectionName, CollectionTypes, Role } from '@shared/types.js';
import type { DocsListener, ErrorListener } from '@shared/adapters/common.js';
import { MODEL_FIELDS } from '@shared/rules/document-rules.js';
import {
  projectSummariesByCounts,
  subscribeProjectSummariesByCounts,
  type SummaryPollOptions,
} from '@shared/adapters/project-summaries.js';
import { buildConstraints, fromFirestore, toFirestore } from './convert.js';
import { mapFirestoreError } from './errors.js';

function withId<T>(snapshot: DocumentSnapshot): WithId<T> {
  return { ...(fromFirestore(snapshot.data({ serverTimestamps: 'estimate' }) ?? {}) as T), id: snapshot.id };
}

/** CatalogPort of the portal's Firebase adapter. */
export class FirebaseCatalog implements CatalogPort {
  private readonly roles = new Map<string, Promise<Role | null>>();

  /**
   * @param db the Firestore instance
   * @param currentUser who is signed in (for the role of model reads)
   * @param summaryOptions how often live project summaries poll the model count (tests shorten it)
   */
  constructor(
    private readonly db: Firestore,
    private readonly currentUser: () => AuthUser | null,
    private readonly summaryOptions: SummaryPollOptions = {},
  ) {}

  /** Forgets cached roles (call on sign-in/out and after role changes). */
  resetRoles(): void {
    this.roles.clear();
  }

  /** The caller's role from users/{uid} (cached per uid); null when signed out or without a record. */
  private role(): Promise<Role | null> {
    const user = this.currentUser();
    if (user === null) return Promise.resolve(null);
    let cached = this.roles.get(user.uid);
    if (!cached) {
      cached = getDoc(doc(this.db, 'users', user.uid)).then(
        (snapshot) => {
          const role = snapshot.get('role') as unknown;
          return role === 'admin' || role === 'user' ? role : null;
        },
        () => null,
      );
      cached.then((role) => {
        if (role === null) this.roles.delete(user.uid);
      });
      this.roles.set(user.uid, cached);
    }
    return cached;
  }

  /** True when reads of `collection` must be limited to visible models. */
  private async onlyVisible(collection: CollectionName): Promise<boolean> {
    return collection === 'models' && (await this.role()) !== 'admin';
  }

  async get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null> {
    try {
      const snapshot = await getDoc(doc(this.db, collection, id));
      return snapshot.exists() ? withId<CollectionTypes[C]>(snapshot) : null;
    } catch (error) {
      const mapped = mapFirestoreError(error);
      // A hidden model (or a document read with it) is denied by the rules; for a reader with a role the port answers null.
      if (await this.withheldDocument(collection, mapped)) return null;
      throw mapped;
    }
  }

  /**
   * True when a refused get is of a document the rules withhold from a reader with a role: a
   * hidden model, or a finding or an alignment read with a hidden (or missing) model. The other
   * backends answer such a read with null, as for a missing document.
   */
  private async withheldDocument(collection: CollectionName, error: AppError): Promise<boolean> {
    if ((collection !== 'models' && MODEL_FIELDS[collection] === undefined) || error.code !== ErrorCode.PermissionDenied) return false;
    return (await this.role()) !== null;
  }

  /**
   * True when a refused query is one model's findings, or one pair's alignment, asked by a reader
   * with a role: the rules refuse it only when a model it names is hidden from the reader, whom
   * the port answers with none.
   */
  private async withheldFindings(collection: CollectionName, query: Query | undefined, error: AppError): Promise<boolean> {
    const fields = MODEL_FIELDS[collection];
    if (fields === undefined || error.code !== ErrorCode.PermissionDenied) return false;
    const where = query?.where ?? [];
    if (!fields.every((name) => where.some(([field, op]) => field === name && op === '=='))) return false;
    return (await this.role()) !== null;
  }

  async query<C extends CollectionName>(collection: C, query?: Query): Promise<WithId<CollectionTypes[C]>[]> {
    const constraints = buildConstraints(query, await this.onlyVisible(collection));
    if (constraints === null) return [];
    try {
      const snapshot = await getDocs(sdkQuery(collectionRef(this.db, collection), ...constraints));
      return snapshot.docs.map((d) => withId<CollectionTypes[C]>(d));
    } catch (error) {
      const mapped = mapFirestoreError(error);
      if (await this.withheldFindings(collection, query, mapped)) return [];
      throw mapped;
    }
  }

  async count(collection: CollectionName, query?: Query): Promise<number> {
    const constraints = buildConstraints(query, await this.onlyVisible(collection));
    if (constraints === null) return 0;
    try {
      const snapshot = await getCountFromServer(sdkQuery(collectionRef(this.db, collection), ...constraints));
      return snapshot.data().count;
    } catch (error) {
      const mapped = mapFirestoreError(error);
      if (await this.withheldFindings(collection, query, mapped)) return 0;
      throw mapped;
    }
  }

  /**
   * CatalogPort.projectSummaries: one `count()` aggregation per project through {@link count}
   * (with `visible == true` for a non-admin, which firestore.rules require of a user's model list
   * and count), the flagged reference models in one query, and a get of a reference named
   * elsewhere (null for a hidden one read by a non-admin). See `@shared/adapters/project-summaries.ts`.
   */
  projectSummaries(): Promise<ProjectSummary[]> {
    return projectSummariesByCounts(this);
  }

  /**
   * CatalogPort.subscribeProjectSummaries: read again when the projects change, when a model is
   * written (the newest `last_updated`), and when the number of models the caller may read changes
   * (polled: a deletion, or a model hidden from a non-admin, is seen at the next poll).
   */
  subscribeProjectSummaries(onNext: (summaries: ProjectSummary[]) => void, onError?: ErrorListener): Unsubscribe {
    return subscribeProjectSummariesByCounts(this, () => this.projectSummaries(), onNext, onError, this.summaryOptions);
  }

  async add<C extends CollectionName>(collection: C, data: WriteData<CollectionTypes[C]>): Promise<string> {
    try {
      const ref = await addDoc(collectionRef(this.db, collection), toFirestore(data as Record<string, unknown>));
      return ref.id;
    } catch (error) {
      throw mapFirestoreError(error);
    }
  }

  async set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): Promise<void> {
    try {
      await setDoc(doc(this.db, collection, id), toFirestore(data as Record<string, unknown>), { merge: options?.merge ?? false });
    } catch (error) {
      throw mapFirestoreError(error);
    } finally {
      if (collection === 'users') this.resetRoles();
    }
  }

  async update(collection: CollectionName, id: string, data: UpdateData): Promise<void> {
    try {
      await updateDoc(doc(this.db, collection, id), toFirestore(data, 'update'));
    } catch (error) {
      throw mapFirestoreError(error);
    } finally {
      if (collection === 'users') this.resetRoles();
    }
  }

  async delete(collection: CollectionName, id: string): Promise<void> {
    try {
      await deleteDoc(doc(this.db, collection, id));
    } catch (error) {
      throw mapFirestoreError(error);
    }
  }

  async batch(ops: WriteOp[]): Promise<void> {
    try {
      if (ops.some((op) => op.op === 'create')) {
        // The web SDK's batches have no create: a transaction reads the targets first.
        await runTransaction(this.db, async (tx) => {
          for (const op of ops) {
            if (op.op !== 'create') continue;
            const existing = await tx.get(doc(this.db, op.collection, op.id));
            if (existing.exists()) throw new AppError(ErrorCode.AlreadyExists, `${op.collection}/${op.id} already exists`);
          }
          for (const op of ops) {
            const ref = doc(this.db, op.collection, op.id);
            if (op.op === 'create') tx.set(ref, toFirestore(op.data));
            else if (op.op === 'set') tx.set(ref, toFirestore(op.data), { merge: op.merge ?? false });
            else if (op.op === 'update') tx.update(ref, toFirestore(op.data, 'update'));
            else tx.delete(ref);
          }
        });
        return;
      }
      const batch = writeBatch(this.db);
      for (const op of ops) {
        const ref = doc(this.db, op.collection, op.id);
        if (op.op === 'set') batch.set(ref, toFirestore(op.data), { merge: op.merge ?? false });
        else if (op.op === 'update') batch.update(ref, toFirestore(op.data, 'update'));
        else if (op.op === 'delete') batch.delete(ref);
      }
      await batch.commit();
    } catch (error) {
      throw mapFirestoreError(error);
    } finally {
      if (ops.some((op) => op.collection === 'users')) this.resetRoles();
    }
  }

  /**
   * CatalogPort.transaction over the SDK's `runTransaction` (optimistic: the commit carries the
   * versions read, and fails when one changed). The work's writes are buffered and put on the
   * SDK's transaction when it returns; a create whose target the work did not read is read first
   * (the SDK's transactions have no create: a set after reading it absent carries the "must not
   * exist" precondition). A hidden model or a finding of one reads as null to a non-admin, as
   * {@link get}.
   *
   * Each attempt is one SDK attempt; a conflict runs the work again after this product's jittered
   * back-off (the SDK's starts at a second, which 20 writers of one model would wait many times):
   * Firestore's `aborted`, `failed-precondition` (a read went stale) and `already-exists` (a
   * document read as absent was created meanwhile), and a permission-denied while a document the
   * attempt read has changed since (read again outside the transaction): Firestore evaluates a
   * commit's rules against the documents as they are then, so a stale commit can be refused by
   * the rules before its versions are compared. A refusal with every read unchanged is the rules'
   * answer. A call the server cancelled (`cancelled`: the Firestore emulator does so to a busy
   * transaction's stream) is run again too, as the SDK's own retries treat it as transient.
   * Giving up after `maxAttempts` is `aborted`.
   */
  async transaction<T>(work: (tx: CatalogTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    const maxAttempts = attemptsOf(options);
    let wroteUsers = false;
    try {
      for (let attempt = 1; ; attempt += 1) {
        /** What this attempt read: JSON of each document (null: none), by `collection/id`. */
        const seen = new Map<string, { collection: CollectionName; id: string; json: string | null }>();
        try {
          return await runTransaction(
            this.db,
            async (sdk) => {
              const tx = new BufferedTransaction({
                read: async (collection, id) => {
                  const found = await this.readIn(sdk, collection, id);
                  seen.set(`${collection}/${id}`, { collection, id, json: found === null ? null : JSON.stringify(found) });
                  return { doc: found, version: null };
                },
              });
              const result = await work(tx);
              await this.applyWrites(sdk, tx);
              wroteUsers = tx.ops.some((op) => op.collection === 'users');
              return result;
            },
            { maxAttempts: 1 },
          );
        } catch (error) {
          if (error instanceof AppError) throw error;
          const code = (error as { code?: unknown } | null)?.code;
          const conflict =
            code === 'aborted' ||
            code === 'failed-precondition' ||
            code === 'already-exists' ||
            code === 'cancelled' ||
            (code === 'permission-denied' && (await this.changedSince(seen)));
          if (!conflict) throw mapFirestoreError(error);
          if (attempt >= maxAttempts) throw abortedError(attempt, error);
          await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
        }
      }
    } finally {
      if (wroteUsers) this.resetRoles();
    }
  }

  /** True when a document a transaction read reads differently now (outside the transaction, as {@link get}). */
  private async changedSince(seen: ReadonlyMap<string, { collection: CollectionName; id: string; json: string | null }>): Promise<boolean> {
    for (const { collection, id, json } of seen.values()) {
      // a read that fails now tells nothing: the refusal stands
      const now = await this.get(collection, id).catch(() => undefined);
      if (now !== undefined && (now === null ? null : JSON.stringify(now)) !== json) return true;
    }
    return false;
  }

  /** A transaction's read: as {@link get} (a hidden model or its finding is null to a reader with a role). */
  private async readIn(sdk: Transaction, collection: CollectionName, id: string): Promise<Record<string, unknown> | null> {
    try {
      const snapshot = await sdk.get(doc(this.db, collection, id));
      return snapshot.exists() ? withId<Record<string, unknown>>(snapshot) : null;
    } catch (error) {
      const mapped = mapFirestoreError(error);
      if (await this.withheldDocument(collection, mapped)) return null;
      throw mapped;
    }
  }

  /** Puts a transaction's buffered writes on the SDK's transaction (creates checked against what was read, or read now). */
  private async applyWrites(sdk: Transaction, tx: BufferedTransaction): Promise<void> {
    for (const op of tx.ops) {
      if (op.op !== 'create') continue;
      const state = tx.readState(op.collection, op.id);
      const found = state.read ? state.found : (await sdk.get(doc(this.db, op.collection, op.id))).exists();
      if (found) throw new AppError(ErrorCode.AlreadyExists, `${op.collection}/${op.id} already exists`, { context: { id: op.id } });
    }
    for (const op of tx.ops) {
      const ref = doc(this.db, op.collection, op.id);
      if (op.op === 'create') sdk.set(ref, toFirestore(op.data));
      else if (op.op === 'set') sdk.set(ref, toFirestore(op.data), { merge: op.merge ?? false });
      else if (op.op === 'update') sdk.update(ref, toFirestore(op.data, 'update'));
      else sdk.delete(ref);
    }
  }

  // CatalogPort.subscribe (the return type, an Unsubscribe, is checked by `implements`)
  subscribe<C extends CollectionName>(collection: C, query: Query | undefined, onNext: DocsListener<C>, onError?: ErrorListener) {
    let stop: Unsubscribe | null = null;
    let closed = false;
    void this.onlyVisible(collection)
      .then((onlyVisible) => {
        if (closed) return;
        const constraints = buildConstraints(query, onlyVisible);
        if (constraints === null) {
          onNext([]);
          return;
        }
        stop = onSnapshot(
          sdkQuery(collectionRef(this.db, collection), ...constraints),
          (snapshot) => onNext(snapshot.docs.map((d) => withId<CollectionTypes[C]>(d))),
          (error) => {
            const mapped = mapFirestoreError(error);
            // a hidden model's findings: none for a non-admin (Firestore ends the listener)
            void this.withheldFindings(collection, query, mapped).then((withheld) => (withheld ? onNext([]) : onError?.(mapped)));
          },
        );
      })
      .catch((error: unknown) => onError?.(mapFirestoreError(error)));
    return () => {
      closed = true;
      stop?.();
    };
  }
}
