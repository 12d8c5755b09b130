/**
 * Catalog port over the embedded backend (SPEC.md §7 document database), with live queries:
 * one Server-Sent-Events stream per client says which collections changed; each active
 * subscription re-runs its query on that collection and calls `onNext` only when the result
 * changed. The stream is read with fetch + eventsource-parser (so it can send the
 * Authorization header), with keep-alives from the server and reconnects with back-off.
 */
import { createParser } from 'eventsource-parser';
import type { CatalogPort, Query, UpdateData, WithId, WriteData, WriteOp } from '@shared/ports/catalog.js';
import type { Unsubscribe } from '@shared/ports/identity.js';
import type { CollectionName, CollectionTypes } from '@shared/types.js';
import type { DocsListener, ErrorListener } from '@shared/adapters/common.js';
import { errorFromResponse, routePath } from './http.js';
import { changeEventSchema, LIVE_EVENTS, routes } from '@shared/wire/routes.js';
import type { Transport } from './http.js';
import { LiveQueries } from '@shared/adapters/live-queries.js';
import type { LocalIdentity } from './identity.js';

const RECONNECT_START_MS = 1000;
const RECONNECT_MAX_MS = 30_000;

/** CatalogPort of the local adapter. */
export class LocalCatalog implements CatalogPort {
  private readonly live = new LiveQueries(
    (collection, query) => this.query(collection, query),
    () => this.stopStream(),
  );
  private stream: AbortController | null = null;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private reconnectDelay = RECONNECT_START_MS;
  private readonly stopAuthWatch: Unsubscribe;
  private authSeen = false;

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
      if (this.live.size > 0) this.restartStream();
    });
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

  // CatalogPort.subscribe (the return type, an Unsubscribe, is checked by `implements`)
  subscribe<C extends CollectionName>(collection: C, query: Query | undefined, onNext: DocsListener<C>, onError?: ErrorListener) {
    const sub = this.live.add(collection, query, onNext as (docs: never[]) => void, onError);
    if (!this.stream) this.startStream();
    void this.live.run(sub);
    return () => this.live.drop(sub);
  }

  private startStream(): void {
    const controller = new AbortController();
    this.stream = controller;
    void this.readStream(controller);
  }

  private stopStream(): void {
    this.stream?.abort();
    this.stream = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }

  private restartStream(): void {
    this.stopStream();
    this.reconnectDelay = RECONNECT_START_MS;
    this.startStream();
  }

  private async readStream(controller: AbortController): Promise<void> {
    try {
      const authorization = await this.identity.authorization();
      if (!authorization || controller.signal.aborted) {
        // Signed out: queries fail on their own; nothing to listen to until the auth state changes.
        if (this.stream === controller) this.stream = null;
        return;
      }
      const response = await this.transport.fetchFn(`${this.transport.baseUrl}${routePath(routes.events, [])}`, {
        headers: { authorization, accept: 'text/event-stream' },
        signal: controller.signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) throw errorFromResponse(response.status, await response.text(), 'data');
      const parser = createParser({
        onEvent: (event) => {
          if (event.event === LIVE_EVENTS.ready) {
            this.reconnectDelay = RECONNECT_START_MS;
            this.live.rerun(null); // catch up on changes missed while disconnected
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
    if (controller.signal.aborted || this.stream !== controller || this.live.size === 0) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.stream === controller && this.live.size > 0) this.startStream();
    }, delay);
  }

  /** Ends every subscription and the live stream. */
  close(): void {
    this.stopAuthWatch();
    this.live.closeAll();
    this.stopStream();
  }
}
