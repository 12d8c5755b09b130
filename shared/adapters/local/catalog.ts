/**
 * Catalog port over the embedded backend, with live queries:
 * one Server-Sent-Events stream per client says which collections changed; each active
 * subscription re-runs its query on that collection and calls `onNext` only when the result
 * changed. The stream is read with fetch + eventsource-parser (so it can send the
 * Authorization header), with keep-alives from the server and reconnects with back-off.
 *
 * Connection state ({@link ConnectionPort}): 'offline' when the stream drops
 * or any request gets no response, 'online' again when the stream is back (or, with no stream
 * wanted, when a request gets an answer). A request that reaches the server while the stream
 * waits to reconnect reconnects it at once. A live query whose run finds the server unreachable
 * does not end: it waits for the connection and runs again, and every live query re-runs when the
 * stream is back, so screens get fresh data after a server restart without remounting.
 *
 * One read per subscription (the portal read the 10,000-model query twice per screen):
 * a live query's first run waits (at most {@link READY_WAIT_MS}) for the stream's `ready`, so no
 * change can fall between its read and the stream; on `ready` only the runs that read before it
 * (a reconnect, a run that did not wait) are repeated.
 */
import { createParser } from 'eventsource-parser';
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
import type { ConnectionPort, ConnectionState } from '@shared/ports/index.js';
import { AppError, ErrorCode, isAppError } from '@shared/errors.js';
import type { CollectionName, CollectionTypes } from '@shared/types.js';
import type { DocsListener, ErrorListener } from '@shared/adapters/common.js';
import { errorFromResponse, routePath } from './http.js';
import { changeEventSchema, LIVE_EVENTS, routes } from '@shared/wire/routes.js';
import type { Transport } from './http.js';
import { LiveQueries, type LiveSubscription } from '@shared/adapters/live-queries.js';
import { runOptimisticTransaction } from '@shared/adapters/transaction.js';
import type { LocalIdentity } from './identity.js';

const RECONNECT_START_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** How long a live query's run waits for the event stream's `ready` before reading anyway (ms). */
const READY_WAIT_MS = 3000;

/** CatalogPort of the local adapter; also its {@link ConnectionPort} (`connection`). */
export class LocalCatalog implements CatalogPort {
  private readonly live = new LiveQueries(
    (collection, query, sub) => this.liveQuery(collection, query, sub),
    () => {
      if (!this.wantsStream()) this.stopStream();
    },
  );
  private stream: AbortController | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectDelay = RECONNECT_START_MS;
  private readonly stopAuthWatch: Unsubscribe;
  private readonly stopReachabilityWatch: () => void;
  private authSeen = false;
  private closed = false;
  private connectionState: ConnectionState = 'online';
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  /** Live-query runs waiting for the connection to come back. */
  private waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** `ready` events received so far (all streams of this client). */
  private readyCount = 0;
  /** Whether the current stream has said `ready`. */
  private streamReady = false;
  /** Runs waiting for the current stream's `ready`. */
  private readyWaiters: (() => void)[] = [];
  /** Per subscription, {@link readyCount} when its last read started. */
  private readonly readAt = new WeakMap<LiveSubscription, number>();

  /** The connection capability (`Backend.connection`): the live stream's state. */
  readonly connection: ConnectionPort = (() => {
    const watch = (listener: (state: ConnectionState) => void) => this.watchConnection(listener);
    const state = () => this.connectionState;
    return {
      get state() {
        return state();
      },
      subscribe: watch,
    };
  })();

  /**
   * @param transport HTTP transport to the server
   * @param identity gives the Authorization header; auth changes restart the live stream
   */
  constructor(
    private readonly transport: Transport,
    private readonly identity: LocalIdentity,
  ) {
    this.stopAuthWatch = identity.onAuthStateChanged(() => {
      // The first call reports the restored state; later calls are real changes.
      if (!this.authSeen) {
        this.authSeen = true;
        return;
      }
      if (this.wantsStream()) this.restartStream();
    });
    this.stopReachabilityWatch = transport.watchReachability((reachable) => this.onReachability(reachable));
  }

  async get<C extends CollectionName>(collection: C, id: string): Promise<WithId<CollectionTypes[C]> | null> {
    const result = await this.identity.call(routes.getDoc, [collection, id]);
    return result.doc as unknown as WithId<CollectionTypes[C]> | null;
  }

  async query<C extends CollectionName>(collection: C, query?: Query): Promise<WithId<CollectionTypes[C]>[]> {
    const result = await this.identity.call(routes.query, [collection], { json: { query: query ?? null } });
    return result.docs as unknown as WithId<CollectionTypes[C]>[];
  }

  async count(collection: CollectionName, query?: Query): Promise<number> {
    const result = await this.identity.call(routes.count, [collection], { json: { query: query ?? null }, check: true });
    return result.count;
  }

  /** CatalogPort.projectSummaries: `GET /v1/project-summaries` (one grouped query on the server). */
  async projectSummaries(): Promise<ProjectSummary[]> {
    const result = await this.identity.call(routes.projectSummaries, [], { check: true });
    return result.summaries;
  }

  /**
   * CatalogPort.subscribeProjectSummaries: a live read like a live query's, read again when the
   * stream says models or projects changed (and on reconnects, as live queries are).
   */
  subscribeProjectSummaries(onNext: (summaries: ProjectSummary[]) => void, onError?: ErrorListener): Unsubscribe {
    return this.watchDerived(['models', 'projects'], () => this.projectSummaries(), onNext, onError);
  }

  /**
   * A live read of something other than a query (the project summaries, a server job): `read`
   * runs at once, again whenever the event stream says one of `watches` changed, and on
   * reconnects, as a live query does; `onNext` gets its answer when it changed (compared as JSON).
   * @param watches the collections whose change events re-run it
   * @param read reads the value with the caller's rights at that moment
   * @param onNext called with each new value
   * @param onError called once when a read fails (the subscription has ended then)
   * @returns stops the live read
   */
  watchDerived<T extends unknown[]>(
    watches: readonly [CollectionName, ...CollectionName[]],
    read: () => Promise<T>,
    onNext: (value: T) => void,
    onError?: ErrorListener,
  ): Unsubscribe {
    const sub = this.live.addDerived(watches, read, onNext as unknown as (values: never[]) => void, onError);
    if (!this.stream) this.startStream();
    void this.live.run(sub);
    return () => this.live.drop(sub);
  }

  async add<C extends CollectionName>(collection: C, data: WriteData<CollectionTypes[C]>): Promise<string> {
    const result = await this.identity.call(routes.addDoc, [collection], { json: { data }, check: true });
    return result.id;
  }

  async set<C extends CollectionName>(
    collection: C,
    id: string,
    data: WriteData<CollectionTypes[C]>,
    options?: { merge?: boolean },
  ): Promise<void> {
    await this.identity.call(routes.setDoc, [collection, id], { json: { data, merge: options?.merge ?? false } });
  }

  async update(collection: CollectionName, id: string, data: UpdateData): Promise<void> {
    await this.identity.call(routes.updateDoc, [collection, id], { json: { data } });
  }

  async delete(collection: CollectionName, id: string): Promise<void> {
    await this.identity.call(routes.deleteDoc, [collection, id]);
  }

  async batch(ops: WriteOp[]): Promise<void> {
    if (ops.length === 0) return;
    await this.identity.call(routes.batch, [], { json: { ops } });
  }

  /**
   * CatalogPort.transaction by optimistic concurrency: reads ask the server for the document with
   * its version (`GET /v1/docs/…`), and the commit is one `POST /v1/batch` with those versions as
   * preconditions, which the server checks before any write (409 `aborted` when one changed);
   * a refused attempt runs again after a jittered back-off.
   */
  async transaction<T>(work: (tx: CatalogTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return runOptimisticTransaction(
      {
        read: async (collection, id) => {
          const result = await this.identity.call(routes.getDoc, [collection, id]);
          return { doc: result.doc, version: result.version ?? null };
        },
        commit: async (ops, preconditions) => {
          await this.identity.call(routes.batch, [], { json: { ops, preconditions } });
        },
      },
      work,
      options,
    );
  }

  // CatalogPort.subscribe (the return type, an Unsubscribe, is checked by `implements`)
  subscribe<C extends CollectionName>(collection: C, query: Query | undefined, onNext: DocsListener<C>, onError?: ErrorListener) {
    const sub = this.live.add(collection, query, onNext as (docs: never[]) => void, onError);
    if (!this.stream) this.startStream();
    void this.live.run(sub);
    return () => this.live.drop(sub);
  }

  /** The stream runs while live queries or connection listeners exist. */
  private wantsStream(): boolean {
    return !this.closed && (this.live.size > 0 || this.connectionListeners.size > 0);
  }

  private watchConnection(listener: (state: ConnectionState) => void): Unsubscribe {
    this.connectionListeners.add(listener);
    listener(this.connectionState);
    if (!this.stream && !this.reconnectTimer && !this.closed) this.startStream();
    return () => {
      this.connectionListeners.delete(listener);
      if (!this.wantsStream()) this.stopStream();
    };
  }

  private setConnection(state: ConnectionState): void {
    if (state === 'online') {
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) waiter.resolve();
    }
    if (state === this.connectionState) return;
    this.connectionState = state;
    for (const listener of [...this.connectionListeners]) listener(state);
  }

  /** What a request learned: no answer → offline; an answer while offline → reconnect the stream now (or online when none is wanted). */
  private onReachability(reachable: boolean): void {
    if (!reachable) {
      this.setConnection('offline');
      return;
    }
    if (this.connectionState === 'online') return;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
      this.reconnectDelay = RECONNECT_START_MS;
      this.startStream();
    } else if (!this.stream) {
      this.setConnection('online');
    }
  }

  /** Resolves when the connection is back; rejects when the client closes. */
  private whenOnline(): Promise<void> {
    if (this.connectionState === 'online') return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  /** A live query's run: an unreachable server does not end the subscription, the run waits for the connection and tries again. */
  private async liveQuery(collection: CollectionName, query: Query | undefined, sub: LiveSubscription): Promise<unknown[]> {
    await this.whenStreamReady();
    for (;;) {
      try {
        this.readAt.set(sub, this.readyCount);
        return await (sub.derived ? sub.derived.read() : this.query(collection, query));
      } catch (error) {
        if (this.closed || !isAppError(error, ErrorCode.Network)) throw error;
        if (!this.stream && !this.reconnectTimer) this.startStream();
        await this.whenOnline();
      }
    }
  }

  /** Resolves when the current stream has said `ready`, has ended or is offline, or after {@link READY_WAIT_MS}. */
  private whenStreamReady(): Promise<void> {
    if (!this.stream || this.streamReady || this.connectionState === 'offline') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, READY_WAIT_MS);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private releaseReadyWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const release of waiters) release();
  }

  private startStream(): void {
    const controller = new AbortController();
    this.stream = controller;
    this.streamReady = false;
    void this.readStream(controller);
  }

  private stopStream(): void {
    this.stream?.abort();
    this.stream = null;
    this.streamReady = false;
    this.releaseReadyWaiters();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private restartStream(): void {
    this.stopStream();
    this.reconnectDelay = RECONNECT_START_MS;
    this.startStream();
  }

  private async readStream(controller: AbortController): Promise<void> {
    // Whether the server answered the stream request with an error status (reachable, e.g. 401).
    let refused = false;
    try {
      const authorization = await this.identity.authorization();
      if (!authorization || controller.signal.aborted) {
        // Signed out: queries fail on their own; nothing to listen to until the auth state changes.
        if (this.stream === controller) this.stream = null;
        this.releaseReadyWaiters();
        return;
      }
      const response = await this.transport.fetchFn(`${this.transport.baseUrl}${routePath(routes.events, [])}`, {
        headers: { authorization, accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) {
        refused = true;
        throw errorFromResponse(response.status, await response.text(), 'data');
      }
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === LIVE_EVENTS.ready) {
            this.reconnectDelay = RECONNECT_START_MS;
            this.setConnection('online');
            this.readyCount += 1;
            this.streamReady = true;
            // Catch up on changes missed by reads made before this stream listened (a reconnect,
            // a run that did not wait); runs still waiting read after it and need nothing more.
            const ready = this.readyCount;
            this.live.rerunWhere((sub) => {
              const readAt = this.readAt.get(sub);
              return readAt !== undefined && readAt < ready;
            });
            this.releaseReadyWaiters();
          } else if (event.event === LIVE_EVENTS.change) {
            let collections: string[] | null = null;
            try {
              const parsed = changeEventSchema.safeParse(JSON.parse(event.data));
              if (parsed.success) collections = parsed.data.collections;
            } catch {
              // not JSON: re-run every subscription
            }
            this.live.rerun(collections);
          }
        },
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(value);
      }
    } catch {
      // connection failed or dropped: reconnect below
    }
    if (controller.signal.aborted || this.stream !== controller) return;
    this.streamReady = false;
    this.releaseReadyWaiters();
    if (!refused) this.setConnection('offline');
    if (!this.wantsStream()) {
      this.stream = null;
      return;
    }
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stream === controller && this.wantsStream()) this.startStream();
    }, delay);
  }

  /** Ends every subscription and the live stream. */
  close(): void {
    this.closed = true;
    this.stopAuthWatch();
    this.stopReachabilityWatch();
    this.live.closeAll();
    this.connectionListeners.clear();
    this.stopStream();
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter.reject(new AppError(ErrorCode.Canceled, 'The catalog client was closed'));
  }
}
