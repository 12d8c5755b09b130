/**
 * `catalog serve`: the embedded backend. One Node process, no cloud account: documents in SQLite,
 * files on disk, email/password identity, the role table (who may read and write what) on every
 * request, live updates over Server-Sent Events, resumable uploads (tus), range downloads, change
 * maps computed in the background (`change-map-jobs.ts`), and the built portal with SPA fallback.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import fastifyCompress from '@fastify/compress';
import fastifyCors from '@fastify/cors';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { registerApi } from './api.js';
import { serveRoute } from './serve-route.js';
import { isApiPath, routes } from '@shared/wire/routes.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { ensureServiceKey, IdentityService } from './auth.js';
import { ChangeMapJobs } from './change-map-jobs.js';
import { assertPortalKeepsOutOfData } from './data-secrets.js';
import { openDatabase } from './db.js';
import { DocumentStore } from './documents/store.js';
import { ChangeHub } from './events.js';
import { FileStore } from './file-store.js';
import { registerFileRoutes } from './files-api.js';
import { errorResponse } from './http-errors.js';
import { checkBodyShape, contentSecurityPolicy, isEarlyAuthPath } from './limits.js';
import { resolvePrincipal } from './rules.js';
import type { Principal } from '@shared/rules/document-rules.js';

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
  /**
   * External viewer base URL returned by `routes.config` (`GET /v1/config`); default env `CATALOG_VIEWER_URL`; none
   * (null): the portal's built-in viewer answers the links.
   */
  viewerUrl?: string | null;
  /** Hosts of the landing page's two experimental tool cards (env `CATALOG_SPLAT_VIEWER_URL`, `CATALOG_DUAL_VIEWER_URL`); none: the built-in viewer. */
  toolViewerUrls?: { splatViewer?: string | null; dualViewer?: string | null };
  /** Google Maps JavaScript API key given to the portal (default env `CATALOG_MAPS_API_KEY`; none: the key-less map). */
  mapsApiKey?: string | null;
  /** Raster tile URL template of the portal's key-less map (default env `CATALOG_MAP_TILES_URL`; none: OpenStreetMap's). */
  mapTilesUrl?: string | null;
  /** Log requests (pino, to stdout). Default false. */
  logger?: boolean;
  /**
   * Compute change maps in the background when a capture's inputs change (change-map-jobs.ts).
   * Default true; false leaves them to `catalog models changes`, and the jobs route answers null.
   */
  changeMaps?: boolean;
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

/** The origins a browser shows for this server: its bound address, and `localhost` for a loopback one. */
function ownOrigins(host: string, port: number): string[] {
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost' || host === '0.0.0.0' || host === '::';
  const names = loopback ? ['127.0.0.1', 'localhost', '[::1]'] : [host.includes(':') ? `[${host}]` : host];
  return names.map((name) => `http://${name}:${port}`);
}

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
  if (options.portalDir) assertPortalKeepsOutOfData(resolve(options.portalDir), dataDir);
  const host = options.host ?? '127.0.0.1';
  const requestedPort = options.port ?? 8787;
  const viewerUrl = options.viewerUrl ?? (process.env.CATALOG_VIEWER_URL || null);
  const splatViewerUrl = options.toolViewerUrls?.splatViewer ?? (process.env.CATALOG_SPLAT_VIEWER_URL || null);
  const dualViewerUrl = options.toolViewerUrls?.dualViewer ?? (process.env.CATALOG_DUAL_VIEWER_URL || null);
  const mapsApiKey = options.mapsApiKey ?? (process.env.CATALOG_MAPS_API_KEY || null);
  const mapTilesUrl = options.mapTilesUrl ?? (process.env.CATALOG_MAP_TILES_URL || null);
  const urlFor = (port: number): string => {
    const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
  };

  const db = openDatabase(join(dataDir, 'catalog.db'));
  const computeChangeMaps = options.changeMaps ?? true;
  const events = new ChangeHub();
  const identity = new IdentityService(db, dataDir);
  const files = new FileStore(db, dataDir);
  // Hiding or deleting a model revokes the download links handed out for its files (new tokens,
  // in the same transaction); admins get fresh links from /v1/download-url.
  // Writes that change what a capture's change map is computed from queue its job (change-map-jobs.ts).
  const documents = new DocumentStore(
    db,
    (collections, written) => {
      events.publish(collections);
      if (computeChangeMaps) changeMapJobs.written(written);
    },
    (change) => {
      if (
        change.collection === 'models' &&
        change.before &&
        change.before.visible !== false &&
        (change.after === null || change.after.visible === false)
      ) {
        const uuid = typeof change.before.uuid === 'string' && change.before.uuid !== '' ? change.before.uuid : change.id;
        files.rotateTokens(`models/${uuid}/`);
      }
    },
  );
  const changeMapJobs = new ChangeMapJobs({
    documents,
    files,
    publish: () => events.publish(['changeMaps']),
    log: (message) => app.log.warn(message),
  });
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

  // maxParamLength: Firestore document ids may be 1500 bytes; longer ones get the id rule's 400, not a 414.
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT,
    forceCloseConnections: true,
    routerOptions: { maxParamLength: 2048 },
    // A URL Fastify cannot decode (a malformed %-escape) is refused in the API's error format.
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = errorResponse(new AppError(ErrorCode.InvalidArgument, `Invalid request: ${error.message}`));
      void (reply as FastifyReply).code(status).send(body);
    },
  });

  // JSON bodies: secure-json-parse refuses `__proto__` and `constructor.prototype` keys, with a message saying so.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
    if (typeof text !== 'string' || text.trim() === '')
      return done(new AppError(ErrorCode.InvalidArgument, 'Invalid JSON body: empty'), undefined);
    try {
      done(null, secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      const reason = /prototype|constructor/i.test((error as Error).message)
        ? "a '__proto__' or 'constructor.prototype' key is not allowed"
        : 'not valid JSON';
      done(new AppError(ErrorCode.InvalidArgument, `Invalid JSON body: ${reason}`), undefined);
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = errorResponse(error);
    if (status >= 500) request.log.error(error);
    return reply.code(status).send(body);
  });

  // Security headers on every response (the portal's CSP: scripts from 'self' only, plus what the
  // viewer needs — WASM, blob workers — and Google Maps when a key is set); no framing anywhere.
  // Plain HTTP on loopback: no HSTS.
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(mapTilesUrl) },
    hsts: false,
    crossOriginEmbedderPolicy: false,
    // Download links (`?token=`) are opened by the built-in viewer and, when configured, an external one.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  });
  // CORS: the portal is served from this origin, so only this server's own origins (and a
  // configured external viewer's, for downloads) may read responses cross-origin.
  const allowedOrigins = new Set<string>();
  await app.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowedOrigins.has(origin)),
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });

  // Compressed responses for text-like bodies only — JSON answers, the portal's scripts,
  // styles and pages, WASM — when the client accepts br or gzip; never model files, photos or
  // other stored binaries (already compressed or not worth it), nor partial (range) responses,
  // nor the live-update stream (hijacked, written raw). Large query answers come compressed
  // from the API itself (kept per answer) and pass through.
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    customTypes: /^(application\/(json|javascript|wasm|manifest\+json)|text\/|image\/svg\+xml)/,
  });
  // Who calls is decided before a body is read: a bad or expired token is refused here.
  app.addHook('onRequest', async (request) => {
    if (request.headers.authorization && isEarlyAuthPath(request.method, request.url)) await principal(request);
  });
  // Parsed JSON bodies: nesting and key names bounded before any route looks at them.
  app.addHook('preValidation', async (request) => {
    checkBodyShape(request.body);
  });

  const portalDir = options.portalDir ? resolve(options.portalDir) : null;
  await app.register(fastifyStatic, portalDir ? { root: portalDir, wildcard: true } : { root: files.root, serve: false });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (portalDir && (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(path)) {
      return reply.sendFile('index.html', portalDir);
    }
    return reply.code(404).send({ error: { code: 'not-found', message: `No route ${request.method} ${path}` } });
  });

  serveRoute(app, routes.config, async () => ({ viewerUrl, mapsApiKey, splatViewerUrl, dualViewerUrl, mapTilesUrl }));

  const ctx = { documents, identity, events, principal, files, dataDir, principalFromHeader, changeMapJobs };
  registerApi(app, ctx);
  const tus = registerFileRoutes(app, ctx, (origin) => allowedOrigins.has(origin));

  try {
    await app.listen({ port: requestedPort, host });
  } catch (error) {
    await changeMapJobs.close();
    events.close();
    db.close();
    throw error;
  }
  const port = (app.server.address() as AddressInfo).port;
  const url = urlFor(port);
  for (const origin of ownOrigins(host, port)) allowedOrigins.add(origin);
  if (viewerUrl) {
    try {
      allowedOrigins.add(new URL(viewerUrl).origin);
    } catch {
      // not a URL: no origin to allow
    }
  }
  ensureServiceKey(dataDir, url);
  void tus.cleanUpExpiredUploads().catch(() => undefined);
  // The jobs store change maps through this server's own API, as the service: every rule applies.
  if (computeChangeMaps) changeMapJobs.start(createLocalBackend({ baseUrl: url, serviceKey: serviceKey.key }));

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    serviceKeyPath: serviceKey.path,
    close() {
      closing ??= (async () => {
        await changeMapJobs.close();
        events.close();
        await app.close();
        db.close();
      })();
      return closing;
    },
  };
}
