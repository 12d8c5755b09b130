/**
 * Live queries re-run on change ("live updates"): the adapters whose
 * backend only says *which collections changed* — the embedded backend's client
 * (`shared/adapters/local/catalog.ts`, told by its event stream) and the in-memory backend
 * (`shared/adapters/memory/catalog.ts`, told by its store) — keep their `subscribe` calls here.
 * Each subscription re-runs its query when asked, overlapping runs coalesce into one more run,
 * `onNext` is called only when the result (as JSON) changed, and an error ends the subscription
 * as a Firestore listener's does. Pure TypeScript.
 */
import type { Query } from '@shared/ports/catalog.js';
import type { CollectionName } from '@shared/types.js';

/** One live query and its run state. */
export interface LiveSubscription {
  collection: CollectionName;
  query: Query | undefined;
  onNext: (docs: never[]) => void;
  onError?: (error: Error) => void;
  /** The JSON of the last result passed to onNext (null before the first). */
  last: string | null;
  closed: boolean;
  running: boolean;
  /** Set when a run was asked for while one was under way. */
  again: boolean;
  /**
   * A derived live read (e.g. the project summaries): what it runs instead of the query, and the
   * collections whose changes re-run it. Absent for a plain query on `collection`.
   */
  derived?: { read: () => Promise<unknown[]>; watches: readonly CollectionName[] };
}

/** The set of live queries of one catalog client. */
export class LiveQueries {
  private readonly subs = new Set<LiveSubscription>();

  /**
   * @param runQuery runs a subscription's query, or its derived read (`sub.derived.read`), with the
   *   caller's rights at that moment
   * @param onEmpty called when the last subscription is dropped (e.g. to close an event stream)
   */
  constructor(
    private readonly runQuery: (collection: CollectionName, query: Query | undefined, sub: LiveSubscription) => Promise<unknown[]>,
    private readonly onEmpty: () => void = () => undefined,
  ) {}

  /** How many subscriptions are open. */
  get size(): number {
    return this.subs.size;
  }

  /**
   * Registers a subscription without running it (call {@link run} next).
   * @returns the subscription, to pass to {@link run} and {@link drop}
   */
  add(
    collection: CollectionName,
    query: Query | undefined,
    onNext: (docs: never[]) => void,
    onError: ((error: Error) => void) | undefined,
  ): LiveSubscription {
    const sub: LiveSubscription = { collection, query, onNext, onError, last: null, closed: false, running: false, again: false };
    this.subs.add(sub);
    return sub;
  }

  /**
   * Registers a derived live read without running it (call {@link run} next): `read` runs
   * instead of a query, when asked and whenever one of `watches` changes.
   * @param watches the collections it reads from (at least one)
   * @returns the subscription, to pass to {@link run} and {@link drop}
   */
  addDerived(
    watches: readonly [CollectionName, ...CollectionName[]],
    read: () => Promise<unknown[]>,
    onNext: (values: never[]) => void,
    onError: ((error: Error) => void) | undefined,
  ): LiveSubscription {
    const sub = this.add(watches[0], undefined, onNext, onError);
    sub.derived = { read, watches };
    return sub;
  }

  /** Closes a subscription; calls `onEmpty` when it was the last one. */
  drop(sub: LiveSubscription): void {
    sub.closed = true;
    this.subs.delete(sub);
    if (this.subs.size === 0) this.onEmpty();
  }

  /**
   * Re-runs a subscription's query (coalescing overlapping runs); calls onNext when the result
   * changed. A failing query drops the subscription and calls its onError once.
   * @returns when the run (and any coalesced re-run) is over; never rejects
   */
  async run(sub: LiveSubscription): Promise<void> {
    if (sub.running) {
      sub.again = true;
      return;
    }
    sub.running = true;
    try {
      do {
        sub.again = false;
        const docs = await this.runQuery(sub.collection, sub.query, sub);
        if (sub.closed) return;
        const key = JSON.stringify(docs);
        if (key !== sub.last) {
          sub.last = key;
          sub.onNext(docs as never[]);
        }
      } while (sub.again && !sub.closed);
    } catch (error) {
      // As Firestore listeners: an error ends the subscription.
      if (!sub.closed) {
        this.drop(sub);
        sub.onError?.(error instanceof Error ? error : new Error(String(error)));
      }
    } finally {
      sub.running = false;
    }
  }

  /**
   * Re-runs the subscriptions on the given collections. A change to `models` also re-runs the
   * subscriptions on `annotations` (which findings a non-admin reads follows their
   * models' visibility).
   * @param collections the collections that changed, or null for every subscription
   */
  rerun(collections: readonly string[] | null): void {
    const touched = collections?.includes('models') ? [...collections, 'annotations'] : collections;
    this.rerunWhere((sub) => !touched || (sub.derived?.watches ?? [sub.collection]).some((c) => touched.includes(c)));
  }

  /**
   * Re-runs the subscriptions `which` selects.
   * @param which called once per open subscription; true re-runs it
   */
  rerunWhere(which: (sub: LiveSubscription) => boolean): void {
    for (const sub of [...this.subs]) if (which(sub)) void this.run(sub);
  }

  /** Closes every subscription (without calling `onEmpty`). */
  closeAll(): void {
    for (const sub of [...this.subs]) sub.closed = true;
    this.subs.clear();
  }
}
