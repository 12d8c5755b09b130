/**
 * The local adapter's connection capability (`Backend.connection`, so the portal rides out a server that stops and comes back): 'offline'
 * when the embedded server stops, 'online' again by itself when it is back on the same port; a
 * live query subscribed while the server is down waits instead of failing, and every live query
 * delivers fresh data after the restart; a request that reaches the server while the stream waits
 * to reconnect reconnects it at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend, ConnectionState } from '@shared/ports/index.js';
import type { Project } from '@shared/types.js';
import { startServer, type RunningServer } from '../../cli/src/server/index.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

/** Resolves when `check` is true (polled every 50 ms); rejects after `timeoutMs`. */
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('local adapter: connection state and live queries across a server restart', () => {
  let embedded: EmbeddedServer;
  let running: RunningServer | null = null;
  let client: Backend;

  beforeAll(async () => {
    embedded = await startEmbeddedServer({ prefix: 'connection' });
    running = embedded.server;
    client = createLocalBackend({ baseUrl: embedded.url, serviceKey: embedded.serviceKey });
  });

  afterAll(async () => {
    await client?.close();
    await running?.close().catch(() => undefined);
    await embedded?.stop();
  });

  it('goes offline when the server stops and online by itself when it is back; live queries catch up', { timeout: 60_000 }, async () => {
    const connection = client.connection;
    expect(connection, 'the local adapter has the connection capability').toBeDefined();
    if (!connection) return;
    const states: ConnectionState[] = [];
    const stopWatching = connection.subscribe((state) => states.push(state));
    expect(states).toEqual(['online']);

    const seen: string[][] = [];
    const errors: Error[] = [];
    const stopFirst = client.catalog.subscribe(
      'projects',
      undefined,
      (docs) => seen.push((docs as Project[]).map((p) => p.structure_id)),
      (error) => errors.push(error),
    );
    await until(() => seen.length === 1, 10_000, 'the first result');
    expect(seen[0]).toEqual([]);

    await running?.close();
    running = null;
    await until(() => connection.state === 'offline', 10_000, "'offline'");
    expect(states.at(-1)).toBe('offline');

    // Subscribed while the server is down: no error, it waits.
    const late: string[][] = [];
    const stopLate = client.catalog.subscribe(
      'projects',
      undefined,
      (docs) => late.push((docs as Project[]).map((p) => p.structure_id)),
      (error) => errors.push(error),
    );
    // Down for 3.5 s: the stream has retried after 1 s and 3 s (back-off doubling); its next try is at 7 s.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(late).toEqual([]);
    expect(errors).toEqual([]);

    // Written while the client cannot see it: the restarted server has it, the client catches up.
    running = await startServer({ dataDir: embedded.dataDir, port: embedded.server.port });
    const writer = createLocalBackend({ baseUrl: embedded.url, serviceKey: embedded.serviceKey });
    await writer.catalog.add('projects', { name: 'After restart', structure_id: 'RST-001', description: 'written after the restart' });
    await writer.close();
    // A request of this client reaches the server: the stream reconnects at once, not at its next try (≈3.5 s away).
    expect(connection.state).toBe('offline');
    expect(await client.catalog.count('projects')).toBe(1);
    await until(() => connection.state === 'online', 2_000, "'online' within 2 s of a request reaching the server");
    await until(() => seen.at(-1)?.[0] === 'RST-001', 10_000, 'fresh data on the first subscription');
    await until(() => late.at(-1)?.[0] === 'RST-001', 10_000, 'data on the subscription made while down');
    expect(errors).toEqual([]);
    expect(states.filter((state, i) => state !== states[i - 1])).toEqual(['online', 'offline', 'online']);

    stopFirst();
    stopLate();
    stopWatching();
  });

  it('reads a live query once when it subscribes, and still sees a write made right after', { timeout: 30_000 }, async () => {
    const queries: string[] = [];
    const counting = createLocalBackend({
      baseUrl: embedded.url,
      serviceKey: embedded.serviceKey,
      fetch: (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (new URL(url).pathname.startsWith('/v1/query/')) queries.push(url);
        return globalThis.fetch(input, init);
      },
    });
    try {
      const seen: number[] = [];
      const stop = counting.catalog.subscribe('projects', undefined, (docs) => seen.push(docs.length));
      await until(() => seen.length === 1, 10_000, 'the first result');
      // The stream's `ready` has come (the query waited for it): nothing more is read.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(queries).toHaveLength(1);
      const before = seen[0] ?? 0;
      await embedded.service.catalog.add('projects', { name: 'Right after', structure_id: 'RST-002', description: '' });
      await until(() => seen.at(-1) === before + 1, 10_000, 'the write right after subscribing');
      expect(queries).toHaveLength(2);
      stop();
    } finally {
      await counting.close();
    }
  });
});
