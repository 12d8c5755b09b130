/**
 * Live updates of the embedded backend: one Server-Sent-Events
 * stream per client (`GET /v1/events`) that says which collections changed; clients re-run
 * their subscribed queries on those collections. Events carry no document data, so they never
 * leak what the role table hides.
 */
import type { ServerResponse } from 'node:http';
import type { CollectionName } from '@shared/types.js';

/** Keep-alive comment interval in milliseconds. */
const KEEP_ALIVE_MS = 15_000;

/** Fan-out of change notifications to open event streams. */
export class ChangeHub {
  private readonly streams = new Set<ServerResponse>();
  private readonly timer: NodeJS.Timeout;

  constructor() {
    this.timer = setInterval(() => {
      for (const res of this.streams) res.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
    this.timer.unref();
  }

  /**
   * Takes over a raw response as an SSE stream: writes the headers, a retry hint and a `ready`
   * event, then `change` events (`data: {"collections":["models"]}`) until the client leaves.
   */
  attach(res: ServerResponse): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    res.write('event: ready\ndata: {}\n\n');
    this.streams.add(res);
    const drop = (): void => {
      this.streams.delete(res);
    };
    res.on('close', drop);
    res.on('error', drop);
  }

  /** Notifies every open stream that documents of these collections changed. */
  publish(collections: CollectionName[]): void {
    const message = `event: change\ndata: ${JSON.stringify({ collections })}\n\n`;
    for (const res of this.streams) res.write(message);
  }

  /** Ends every stream (server shutdown). */
  close(): void {
    clearInterval(this.timer);
    for (const res of this.streams) res.end();
    this.streams.clear();
  }
}
