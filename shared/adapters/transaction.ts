/**
 * Transactions by optimistic concurrency, for the backends we run ourselves (the local adapter
 * over `catalog serve`, the in-memory backend): the work's reads remember each document's version
 * (an opaque string, null for "no document"), its writes are buffered, and the commit sends the
 * writes with those versions as preconditions; the backend refuses the whole commit with `aborted`
 * when one no longer holds, and the work runs again after a jittered exponential back-off. The
 * Firebase adapters use their SDK's transactions instead (same port, same `aborted` at the end).
 */
import { AppError, ErrorCode, isAppError } from '../errors.js';
import type { CatalogTransaction, TransactionOptions, UpdateData, WithId, WriteData, WriteOp } from '../ports/catalog.js';
import { TRANSACTION_ATTEMPTS } from '../ports/catalog.js';
import type { CollectionName, CollectionTypes } from '../types.js';
import type { Precondition } from '../wire/catalog.js';

/** A document read for a transaction: its data with its id (null: none the caller may read) and its version (null likewise). */
export interface VersionedRead {
  doc: Record<string, unknown> | null;
  version: string | null;
}

/** How a backend reads and commits for {@link runOptimisticTransaction}. */
export interface OptimisticBackend {
  /**
   * Reads one document as the caller may see it, with its version.
   * @throws the backend's read errors (`permission-denied`…)
   */
  read(collection: CollectionName, id: string): Promise<VersionedRead>;
  /**
   * Commits writes atomically if every precondition holds (checked first).
   * @throws AppError `aborted` when one does not hold (nothing written), or the batch's errors
   */
  commit(ops: WriteOp[], preconditions: Precondition[]): Promise<void>;
}

/** First back-off before a retry, in ms (then doubled per attempt, up to {@link BACKOFF_MAX_MS}). */
const BACKOFF_START_MS = 4;
/** Longest back-off before a retry, in ms. */
const BACKOFF_MAX_MS = 250;

/**
 * The pause before attempt `attempt + 1`: "full jitter", a uniform draw below an exponentially
 * growing cap, so that writers who collided do not collide again in step.
 * @param attempt the attempt that just failed, 1 or more
 * @returns milliseconds
 */
export function backoffMs(attempt: number): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** Math.min(attempt - 1, 16));
  return Math.random() * cap;
}

/**
 * The error of a transaction that gave up.
 * @param attempts how many times it ran
 * @param last the last conflict (kept as the cause)
 */
export function abortedError(attempts: number, last?: unknown): AppError {
  return new AppError(
    ErrorCode.Aborted,
    `The transaction was aborted after ${attempts} attempt${attempts === 1 ? '' : 's'}: other writes kept changing what it read. Try again.`,
    { cause: last, context: { attempts } },
  );
}

/** The attempts an options object asks for (at least 1, whole). */
export function attemptsOf(options: TransactionOptions | undefined): number {
  const wanted = options?.maxAttempts ?? TRANSACTION_ATTEMPTS;
  return Number.isFinite(wanted) ? Math.max(1, Math.floor(wanted)) : TRANSACTION_ATTEMPTS;
}

const key = (collection: CollectionName, id: string): string => `${collection}/${id}`;

/**
 * One attempt's handle (`CatalogTransaction`): its reads go through `read` and are remembered with
 * their versions, reads after a write are refused, and writes are buffered in `ops` for the
 * adapter to commit (the local and memory adapters as a batch with preconditions, the Firebase
 * adapters onto their SDK's transaction).
 */
export class BufferedTransaction implements CatalogTransaction {
  /** What was read, by `collection/id`, with the version read (null: no document, or a backend without versions). */
  readonly reads = new Map<string, Precondition>();
  /** The buffered writes, in order. */
  readonly ops: WriteOp[] = [];
  /** The documents that were read and found, by `collection/id`. */
  private readonly found = new Set<string>();

  /** @param backend reads one document with its version (`read` of {@link OptimisticBackend}) */
  constructor(private readonly backend: Pick<OptimisticBackend, 'read'>) {}

  /**
   * What this transaction read of one document.
   * @returns `read`: whether it read it; `found`: whether that read found a document
   */
  readState(collection: CollectionName, id: string): { read: boolean; found: boolean } {
    return { read: this.reads.has(key(collection, id)), found: this.found.has(key(collection, id)) };
  }

  async get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null> {
    if (this.ops.length > 0) {
      throw new AppError(ErrorCode.FailedPrecondition, 'A transaction must do all its reads before its writes', {
        context: { collection, id },
      });
    }
    const { doc, version } = await this.backend.read(collection, id);
    const k = key(collection, id);
    const earlier = this.reads.get(k);
    // The same document read twice with two versions: what the work saw is already inconsistent.
    if (earlier && earlier.version !== version) {
      throw new AppError(ErrorCode.Aborted, `${collection}/${id} changed between two reads of one transaction`);
    }
    this.reads.set(k, { collection, id, version });
    if (doc !== null) this.found.add(k);
    else this.found.delete(k);
    return doc as WithId<CollectionTypes[C]> | null;
  }

  create<C extends CollectionName>(collection: C, id: string, data: WriteData<CollectionTypes[C]>): CatalogTransaction {
    this.ops.push({ op: 'create', collection, id, data: data as Record<string, unknown> });
    return this;
  }

  set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): CatalogTransaction {
    this.ops.push({ op: 'set', collection, id, data: data as Record<string, unknown>, merge: options?.merge ?? false });
    return this;
  }

  update(collection: CollectionName, id: string, data: UpdateData): CatalogTransaction {
    this.ops.push({ op: 'update', collection, id, data });
    return this;
  }

  delete(collection: CollectionName, id: string): CatalogTransaction {
    this.ops.push({ op: 'delete', collection, id });
    return this;
  }
}

/**
 * Runs `work` as an optimistic transaction (the `CatalogPort.transaction` of the local and memory
 * adapters): each attempt reads through `backend.read`, buffers its writes, and commits them with
 * the versions it read as preconditions (a work that read something and wrote nothing still
 * commits, to check that its reads were consistent). An attempt that fails with `aborted` (a
 * precondition failed, or one document read twice with two versions) is run again after
 * {@link backoffMs}; any other error ends the transaction as it is.
 * @param backend how to read with versions and commit with preconditions
 * @param work the transaction's work (may run several times)
 * @param options `maxAttempts` (default {@link TRANSACTION_ATTEMPTS})
 * @returns what the committed attempt's work returned
 * @throws AppError `aborted` after `maxAttempts` conflicts; otherwise what the work or the commit threw
 */
export async function runOptimisticTransaction<T>(
  backend: OptimisticBackend,
  work: (tx: CatalogTransaction) => Promise<T>,
  options?: TransactionOptions,
): Promise<T> {
  const attempts = attemptsOf(options);
  let last: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    const tx = new BufferedTransaction(backend);
    try {
      const result = await work(tx);
      if (tx.ops.length > 0 || tx.reads.size > 0) await backend.commit(tx.ops, [...tx.reads.values()]);
      return result;
    } catch (error) {
      if (!isAppError(error, ErrorCode.Aborted)) throw error;
      last = error;
    }
    if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, backoffMs(attempt)));
  }
  throw abortedError(attempts, last);
}
