/**
 * CatalogPort over the Admin SDK's Firestore. The Admin SDK acts
 * as the service principal: security rules do not apply, so every document is readable,
 * hidden models included (the CLI is an admin tool).
 */
import type { DocumentSnapshot, Firestore, QueryDocumentSnapshot, Transaction } from 'firebase-admin/firestore';
import { AppError, ErrorCode } from '@shared/errors.js';
import type {
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
import { abortedError, attemptsOf, BufferedTransaction } from '@shared/adapters/transaction.js';
import {
  projectSummariesByCounts,
  subscribeProjectSummariesByCounts,
  type SummaryPollOptions,
} from '@shared/adapters/project-summaries.js';
import type { CollectionName, CollectionTypes } from '@shared/types.js';
import type { DocsListener, ErrorListener } from '@shared/adapters/common.js';
import { buildAdminQuery, fromFirestore, toFirestore } from './convert.js';
import { firestoreError } from './errors.js';

function withId<T>(snapshot: DocumentSnapshot | QueryDocumentSnapshot): WithId<T> {
  return { ...(fromFirestore(snapshot.data() ?? {}) as T), id: snapshot.id };
}

/** CatalogPort of the firebase-admin adapter. */
export class AdminCatalog implements CatalogPort {
  private readonly listeners = new Set<Unsubscribe>();

  /**
   * @param db the Admin SDK Firestore instance
   * @param summaryOptions how often live project summaries poll the model count
   */
  constructor(
    private readonly db: Firestore,
    private readonly summaryOptions: SummaryPollOptions = {},
  ) {}

  async get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null> {
    try {
      const snapshot = await this.db.collection(collection).doc(id).get();
      return snapshot.exists ? withId<CollectionTypes[C]>(snapshot) : null;
    } catch (error) {
      throw firestoreError(error, `get ${collection}/${id}`);
    }
  }

  async query<C extends CollectionName>(collection: C, query?: Query): Promise<WithId<CollectionTypes[C]>[]> {
    const q = buildAdminQuery(this.db.collection(collection), query);
    try {
      const snapshot = await q.get();
      return snapshot.docs.map((doc) => withId<CollectionTypes[C]>(doc));
    } catch (error) {
      throw firestoreError(error, `query ${collection}`);
    }
  }

  async count(collection: CollectionName, query?: Query): Promise<number> {
    const q = buildAdminQuery(this.db.collection(collection), query);
    try {
      const snapshot = await q.count().get();
      return snapshot.data().count;
    } catch (error) {
      throw firestoreError(error, `count ${collection}`);
    }
  }

  /**
   * CatalogPort.projectSummaries: one `count()` aggregation per project, the flagged reference
   * models in one query and a get of a reference named elsewhere (`@shared/adapters/project-summaries.ts`).
   * The service principal reads every model, hidden ones included, so they count.
   */
  projectSummaries(): Promise<ProjectSummary[]> {
    return projectSummariesByCounts(this);
  }

  /** CatalogPort.subscribeProjectSummaries: as the portal's Firebase adapter (listeners on projects and on the model written last, a polled model count). */
  subscribeProjectSummaries(onNext: (summaries: ProjectSummary[]) => void, onError?: ErrorListener): Unsubscribe {
    const stop = subscribeProjectSummariesByCounts(this, () => this.projectSummaries(), onNext, onError, this.summaryOptions);
    const unsubscribe = (): void => {
      this.listeners.delete(unsubscribe);
      stop();
    };
    this.listeners.add(unsubscribe);
    return unsubscribe;
  }

  async add<C extends CollectionName>(collection: C, data: WriteData<CollectionTypes[C]>): Promise<string> {
    const ref = this.db.collection(collection).doc();
    try {
      await ref.create(toFirestore(data as Record<string, unknown>));
      return ref.id;
    } catch (error) {
      throw firestoreError(error, `add to ${collection}`);
    }
  }

  async set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): Promise<void> {
    try {
      await this.db
        .collection(collection)
        .doc(id)
        .set(toFirestore(data as Record<string, unknown>), { merge: options?.merge ?? false });
    } catch (error) {
      throw firestoreError(error, `set ${collection}/${id}`);
    }
  }

  async update(collection: CollectionName, id: string, data: UpdateData): Promise<void> {
    try {
      await this.db.collection(collection).doc(id).update(toFirestore(data, 'update'));
    } catch (error) {
      throw firestoreError(error, `update ${collection}/${id}`);
    }
  }

  async delete(collection: CollectionName, id: string): Promise<void> {
    try {
      await this.db.collection(collection).doc(id).delete();
    } catch (error) {
      throw firestoreError(error, `delete ${collection}/${id}`);
    }
  }

  async batch(ops: WriteOp[]): Promise<void> {
    const batch = this.db.batch();
    for (const op of ops) {
      const ref = this.db.collection(op.collection).doc(op.id);
      if (op.op === 'create') batch.create(ref, toFirestore(op.data));
      else if (op.op === 'set') batch.set(ref, toFirestore(op.data), { merge: op.merge ?? false });
      else if (op.op === 'update') batch.update(ref, toFirestore(op.data, 'update'));
      else batch.delete(ref);
    }
    try {
      await batch.commit();
    } catch (error) {
      throw firestoreError(error, `batch of ${ops.length} writes`);
    }
  }

  /**
   * CatalogPort.transaction over the Admin SDK's `runTransaction` (the server locks what the work
   * reads and the SDK runs the work again when Firestore aborts it). The work's writes are
   * buffered and put on the SDK's transaction (create, set, update, delete) when it returns.
   * Giving up after `maxAttempts` (Firestore's ABORTED) is `aborted`.
   */
  async transaction<T>(work: (tx: CatalogTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    const maxAttempts = attemptsOf(options);
    try {
      return await this.db.runTransaction(
        async (sdk: Transaction) => {
          const tx = new BufferedTransaction({
            read: async (collection, id) => {
              const snapshot = await sdk.get(this.db.collection(collection).doc(id));
              return { doc: snapshot.exists ? withId<Record<string, unknown>>(snapshot) : null, version: null };
            },
          });
          const result = await work(tx);
          for (const op of tx.ops) {
            const ref = this.db.collection(op.collection).doc(op.id);
            if (op.op === 'create') sdk.create(ref, toFirestore(op.data));
            else if (op.op === 'set') sdk.set(ref, toFirestore(op.data), { merge: op.merge ?? false });
            else if (op.op === 'update') sdk.update(ref, toFirestore(op.data, 'update'));
            else sdk.delete(ref);
          }
          return result;
        },
        { maxAttempts },
      );
    } catch (error) {
      const mapped = firestoreError(error, 'transaction');
      if (mapped.code === ErrorCode.Aborted && !(error instanceof AppError)) throw abortedError(maxAttempts, error);
      throw mapped;
    }
  }

  // CatalogPort.subscribe (the return type, an Unsubscribe, is checked by `implements`)
  subscribe<C extends CollectionName>(collection: C, query: Query | undefined, onNext: DocsListener<C>, onError?: ErrorListener) {
    const q = buildAdminQuery(this.db.collection(collection), query);
    const stop = q.onSnapshot(
      (snapshot) => onNext(snapshot.docs.map((doc) => withId<CollectionTypes[C]>(doc))),
      (error) => onError?.(firestoreError(error, `live query on ${collection}`)),
    );
    const unsubscribe = (): void => {
      this.listeners.delete(unsubscribe);
      stop();
    };
    this.listeners.add(unsubscribe);
    return unsubscribe;
  }

  /** Stops every live query. */
  close(): void {
    for (const stop of [...this.listeners]) stop();
  }
}

/** Thrown by calls the service principal cannot make. */
export function unsupported(what: string): AppError {
  return new AppError(
    ErrorCode.FailedPrecondition,
    `${what} is not available with the firebase-admin adapter (it acts as the service account).`,
  );
}
