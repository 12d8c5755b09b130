// One way to start an embedded backend for a test (the CLI, browser and workflow tests all use
// it): `startServer` on a free port in a fresh data folder, its service key read back, a service
// backend signed in with it, and optionally the demo catalog of `catalog seed`.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { inject } from 'vitest';
import { startServer, type RunningServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend } from '@shared/ports/index.js';
import { runCliOk } from './cli.js';
import { tempDir } from './paths.js';
import { testSeedArgs } from './seed-template.js';

/** A started embedded backend, its data folder and a service backend on it. */
export interface EmbeddedServer {
  /** The running server (`url`, `port`, `serviceKeyPath`, `close()`). */
  server: RunningServer;
  /** Base URL, e.g. `http://127.0.0.1:40123` (the same as `server.url`). */
  url: string;
  /** The temporary data folder (removed by `stop()`). */
  dataDir: string;
  /** The service key the server wrote to `<dataDir>/service-key.json`. */
  serviceKey: string;
  /** A backend signed in with the service key (reads hidden models too). */
  service: Backend;
  /** The environment with which the CLI reaches this server: `{ CATALOG_DATA_DIR: dataDir }`. */
  env: Record<string, string>;
  /** Closes the service backend and the server, then removes the data folder; never throws. */
  stop(): Promise<void>;
}

/**
 * Starts an embedded backend on a free port in a fresh temporary data folder.
 * @param options.prefix name of the data folder, `catalog-<prefix>-XXXXXX` (default 'data')
 * @param options.portalDir a built portal to serve (default none)
 * @param options.seed when true, the demo catalog `npm start` shows: a copy of the run's seeded
 *   template (tests/support/seed-template.ts, the browser tests' global setup) where there is one,
 *   else `catalog seed` run against the new server
 * @param options.mapTilesUrl the key-less map's tile URL template (`catalog serve --map-tiles-url`; default none)
 * @throws Error with the CLI's output when seeding fails
 */
export async function startEmbeddedServer(
  options: { prefix?: string; portalDir?: string | null; seed?: boolean; mapTilesUrl?: string | null; changeMaps?: boolean } = {},
): Promise<EmbeddedServer> {
  const dataDir = tempDir(options.prefix ?? 'data');
  const template = options.seed ? inject('seededDataDir') : undefined;
  if (template) cpSync(template, dataDir, { recursive: true });
  // Background change maps only where a test asks for them: they add files and documents after an
  // upload whenever their worker gets to it, which tests counting stored files cannot wait for.
  const server = await startServer({
    dataDir,
    port: 0,
    portalDir: options.portalDir ?? null,
    mapTilesUrl: options.mapTilesUrl ?? null,
    changeMaps: options.changeMaps ?? false,
  });
  const serviceKey = (JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string }).key;
  const service = createLocalBackend({ baseUrl: server.url, serviceKey });
  const stop = async (): Promise<void> => {
    await service.close().catch(() => undefined);
    await server.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  };
  if (options.seed && !template) {
    try {
      await runCliOk(testSeedArgs(dataDir), { env: { CATALOG_URL: server.url }, timeout: 120_000 });
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return { server, url: server.url, dataDir, serviceKey, service, env: { CATALOG_DATA_DIR: dataDir }, stop };
}
