/**
 * `catalog serve`: the embedded backend (DESIGN.md §2). One Node process, no cloud account:
 * documents in SQLite, files on disk, email/password identity, the role table of SPEC.md §6 on
 * every request, live updates over Server-Sent Events, resumable uploads (tus), range downloads,
 * and the built portal with SPA fallback.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import type { FastifyRequest } from 'fastify';
import { registerApi } from './api.js';
import { ensureServiceKey, IdentityService } from './auth.js';
import { openDatabase } from './db.js';
import { DocumentStore } from './documents.js';
import { ChangeHub } from './events.js';
import { FileStore } from './file-store.js';
import { registerFileRoutes } from './files-api.js';
import { errorResponse } from './http-errors.js';
import { resolvePrincipal } from './rules.js';
import type { Principal } from './rules.js';
import { DEFAULT_VIEWER_URL } from '../../../shared/links.js';

/** Options of {@link startServer}. */
export interface ServerOptions {
  /** Data folder: `catalog.db`, `storage/`, `service-key.json`… Created when missing. */
  dataDir: string;
  /** TCP port; default 8787; 0 picks any free port. */
  port?: number;
  /** Interface to bind; default '127.0.0.1'. */
  host?: string;
  /** Built portal to serve (index.html fallback for client routes); null/undefined serves none. */
  portalDir?: string | null;
  /** Viewer base URL returned by `GET /v1/config`; default env `CATALOG_VIEWER_URL` or 'https://viewer.example.com'. */
  viewerUrl?: string;
  /** Google Maps JavaScript API key given to the portal (default env `CATALOG_MAPS_API_KEY`; none: the key-less map). */
  mapsApiKey?: string | null;
  /** Log requests (pino, to stdout). Default false. */
  logger?: boolean;
}

/** A running embedded backend. */
export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8787`. */
  url: string;
  /** The bound port. */
  port: number;
  /** Path of `<dataDir>/service-key.json`. */
  serviceKeyPath: string;
  /** Stops accepting requests, ends live streams, closes the database. */
  close(): Promise<void>;
}

/** Default viewer base URL (SPEC.md §7 external viewer links). */

/** JSON request-body limit in bytes (1 MiB, Firestore's document size limit). */
const BODY_LIMIT = 1024 * 1024;

/**
 * Starts the embedded backend.
 * @param options see {@link ServerOptions}
 * @returns the server's url, port, service-key path and `close()`
 * @throws when the data folder cannot be created or the port is taken (EADDRINUSE)
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 8787;
  const viewerUrl = options.viewerUrl ?? process.env.CATALOG_VIEWER_URL ?? DEFAULT_VIEWER_URL;
  const mapsApiKey = options.mapsApiKey ?? (process.env.CATALOG_MAPS_API_KEY || null);
  const urlFor = (port: number): string => {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
  };

  const db = openDatabase(join(dataDir, 'catalog.db'));
  const events = new ChangeHub();
  const documents = new DocumentStore(db, (collections) => events.publish(collections));
  const identity = new IdentityService(db, dataDir);
  const files = new FileStore(db, dataDir);
  const serviceKey = ensureServiceKey(dataDir, urlFor(requestedPort));

  const principalFromHeader = (header: string | null | undefined): Promise<Principal> =>
    resolvePrincipal(header, { serviceKey: serviceKey.key, identity, documents });
  const principals = new WeakMap<FastifyRequest, Promise<Principal>>();
  const principal = (request: FastifyRequest): Promise<Principal> => {
    let found = principals.get(request);
    if (!found) {
      found = principalFromHeader(request.headers.authorization);
      principals.set(request, found);
    }
    return found;
  };

  const app = Fastify({ logger: options.logger ?? false, bodyLimit: BODY_LIMIT, forceCloseConnections: true });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) request.log.error(error);
    return reply.code(status).send(body);
  });

  const portalDir = options.portalDir ? resolve(options.portalDir) : null;
  await app.register(fastifyStatic, portalDir ? { root: portalDir, wildcard: true } : { root: files.root, serve: false });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (portalDir && (request.method === 'GET' || request.method === 'HEAD') && path !== '/v1' && !path.startsWith('/v1/')) {
      return reply.sendFile('index.html', portalDir);
    }
    return reply.code(404).send({ error: { code: 'not-found', message: `No route ${request.method} ${path}` } });
  });

  app.get('/v1/config', async () => ({ viewerUrl, mapsApiKey }));

  const ctx = { documents, identity, events, principal, files, dataDir, principalFromHeader };
  registerApi(app, ctx);
  const tus = registerFileRoutes(app, ctx);

  try {
    await app.listen({ port: requestedPort, host });
  } catch (error) {
    events.close();
    db.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = urlFor(port);
  ensureServiceKey(dataDir, url);
  void tus.cleanUpExpiredUploads().catch(() => undefined);

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    serviceKeyPath: serviceKey.path,
    close() {
      closing ??= (async () => {
        events.close();
        await app.close();
        db.close();
      })();
      return closing;
    },
  };
}
