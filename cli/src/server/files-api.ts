/**
 * File routes of the embedded backend: one-shot uploads of small files, batches of them,
 * resumable uploads (`tus-uploads.ts`), downloads by token with HTTP range support, deletion,
 * metadata, download links and listing, the web-sized copies (`web-copies.ts`) and the storage
 * scan and repair `catalog doctor` runs. Every upload route stores through
 * {@link FileStore.adoptMany}, which runs the content checks first: a refused file answers 400
 * `invalid-argument` with the check's problem and nothing is stored. Access follows the role
 * table: writes are for admins, and a hidden model's files read as missing to whoever may not see it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { Server as TusServer } from '@tus/server';
import { UPLOAD_BATCH_MAX_FILES } from '@shared/constants.js';
import { downloadHeaders } from '@shared/content-type.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateModelFilePath } from '@shared/paths.js';
import { REPAIR_GRACE_MS, routes } from '@shared/wire/routes.js';
import {
  authorizeFileRead,
  isAdmin,
  isHiddenModelPath,
  requireAdmin,
  requireServiceKey,
  toStorageError,
  withheldFile,
} from '@shared/rules/document-rules.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { assertPlainStoredFile } from './data-secrets.js';
import type { FileStore } from './file-store.js';
import type { ApiContext } from './serve-route.js';
import { parseRequest, serveRoute } from './serve-route.js';
import { BATCH_MANIFEST_LIMIT, receiveBatch, SIMPLE_UPLOAD_LIMIT } from './small-uploads.js';
import { validateStoragePath } from './storage-path.js';
import { registerTusUploads } from './tus-uploads.js';
import { makeWebGlb, makeWebSplat } from './web-copies.js';

/** What the file routes need besides the JSON routes' context. */
export interface FilesContext extends ApiContext {
  files: FileStore;
  dataDir: string;
  /** Resolves a caller from a raw Authorization header (tus hooks see no Fastify request). */
  principalFromHeader(header: string | null): Promise<Principal>;
}

const storagePathOf = (request: FastifyRequest): string => validateStoragePath((request.params as Record<string, string>)['*']);

/** Runs a file route, converting access errors to their storage codes. */
async function storage<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toStorageError(error);
  }
}

/**
 * Registers the file routes and the tus upload endpoint.
 * @param isAllowedOrigin which browser origins get CORS headers on tus replies (the portal's own)
 * @returns the tus server (its expired uploads are cleaned on start)
 */
export function registerFileRoutes(app: FastifyInstance, ctx: FilesContext, isAllowedOrigin: (origin: string) => boolean): TusServer {
  const { files, documents } = ctx;

  // ---- resumable uploads (tus) ---------------------------------------------------------------
  const { tus, liveUploads } = registerTusUploads(app, {
    files,
    dataDir: ctx.dataDir,
    principalFromHeader: (header) => ctx.principalFromHeader(header),
    isAllowedOrigin,
  });

  /** Route hook: writes to storage are for admins, decided before the body is read. */
  const adminGate = async (request: FastifyRequest): Promise<void> =>
    storage(async () => {
      requireAdmin(await ctx.principal(request));
    });

  // ---- one-shot upload, download, delete -----------------------------------------------------
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: SIMPLE_UPLOAD_LIMIT }, (_request, body, done) => done(null, body));

    serveRoute(
      scope,
      routes.putFile,
      async (request) =>
        storage(async () => {
          requireAdmin(await ctx.principal(request));
          const path = validateModelFilePath(storagePathOf(request));
          const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const contentType = request.headers['x-catalog-content-type'] ?? request.headers['content-type'];
          return { file: await files.put(path, body, typeof contentType === 'string' ? contentType : null) };
        }),
      { onRequest: adminGate },
    );

    serveRoute(
      scope,
      routes.deleteFile,
      async (request, reply) =>
        storage(async () => {
          requireAdmin(await ctx.principal(request));
          await files.delete(storagePathOf(request));
          return reply.code(204).send();
        }),
      { onRequest: adminGate },
    );

    serveRoute(
      scope,
      routes.download,
      async (request, reply) =>
        storage(async () => {
          const path = storagePathOf(request);
          const { token } = parseRequest(routes.download, 'query', request.query);
          if (!token) throw new AppError(ErrorCode.StorageUnauthenticated, 'A download token is required');
          if (!files.checkToken(path, token)) throw new AppError(ErrorCode.StorageUnauthorized, 'Invalid download token');
          files.metadata(path);
          // The type comes from the path, not from the stored row (older rows kept the uploader's
          // word, which could be text/html); an unknown kind is an attachment.
          const { contentType, disposition } = downloadHeaders(path);
          if (disposition !== null) reply.header('content-disposition', disposition);
          reply
            .header('content-type', contentType)
            .header('cache-control', 'private, max-age=0')
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "sandbox; default-src 'none'");
          // Only a regular file reached without a link (never a link to the data folder's secrets).
          await assertPlainStoredFile(files.root, path);
          return reply.sendFile(path, files.root, {
            contentType: false,
            dotfiles: 'allow',
            index: false,
            cacheControl: false,
            acceptRanges: true,
          });
        }),
      // Stored files go out as stored: byte ranges and Content-Length stay exact, and
      // splats, meshes and photos are mostly compressed already.
      { compress: false },
    );
  });

  // ---- batch of small files (multipart) -------------------------------------------------------
  app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fields: 1,
        fieldSize: BATCH_MANIFEST_LIMIT,
        files: UPLOAD_BATCH_MAX_FILES,
        fileSize: SIMPLE_UPLOAD_LIMIT,
        parts: UPLOAD_BATCH_MAX_FILES + 1,
      },
    });
    serveRoute(
      scope,
      routes.fileBatch,
      async (request) =>
        storage(async () => {
          requireAdmin(await ctx.principal(request));
          return { files: await receiveBatch(request, files) };
        }),
      { onRequest: adminGate },
    );
  });

  // ---- web-sized splat (admins and the service key) --------------------------------------------
  serveRoute(app, routes.webSplat, async (request) =>
    storage(async () => {
      requireAdmin(await ctx.principal(request));
      const { path } = parseRequest(routes.webSplat, 'body', request.body ?? {});
      return await makeWebSplat(files, path);
    }),
  );

  // ---- web-sized GLB (admins and the service key) ----------------------------------------------
  serveRoute(app, routes.webGlb, async (request) =>
    storage(async () => {
      requireAdmin(await ctx.principal(request));
      const { path } = parseRequest(routes.webGlb, 'body', request.body ?? {});
      return await makeWebGlb(files, path);
    }),
  );

  // ---- storage consistency (service key only: `catalog doctor`) -------------------------------
  const requireService = async (request: FastifyRequest): Promise<void> => requireServiceKey(await ctx.principal(request));
  /** The grace period a scan or repair asked for (default REPAIR_GRACE_MS) and the live tus uploads. */
  const scanOptions = async (request: FastifyRequest, route: typeof routes.storageScan | typeof routes.storageRepair) => {
    const graceMs = parseRequest(route, 'query', request.query).graceMs ?? REPAIR_GRACE_MS;
    return { graceMs, uploads: await liveUploads(graceMs) };
  };
  serveRoute(app, routes.storageScan, async (request) => {
    await requireService(request);
    return files.scan(await scanOptions(request, routes.storageScan));
  });
  serveRoute(app, routes.storageRepair, async (request) => {
    await requireService(request);
    return files.repairScan(await scanOptions(request, routes.storageRepair));
  });

  // ---- metadata, links, listing --------------------------------------------------------------
  // A hidden model's files read as missing to whoever may not see the model (404, an empty folder).
  serveRoute(app, routes.fileMeta, async (request) =>
    storage(async () => {
      const path = storagePathOf(request);
      if (authorizeFileRead(await ctx.principal(request), path, documents.lookup) === 'withheld') throw withheldFile(path);
      return { file: files.metadata(path) };
    }),
  );

  serveRoute(app, routes.downloadUrl, async (request) =>
    storage(async () => {
      const path = storagePathOf(request);
      if (authorizeFileRead(await ctx.principal(request), path, documents.lookup) === 'withheld') throw withheldFile(path);
      return { url: routes.download.path(path, files.token(path)) };
    }),
  );

  serveRoute(app, routes.list, async (request) =>
    storage(async () => {
      const principal = await ctx.principal(request);
      const { prefix } = parseRequest(routes.list, 'query', request.query);
      const folder = prefix ?? '';
      const access = authorizeFileRead(principal, folder.replace(/\/+$/, ''), documents.lookup);
      const hide = isAdmin(principal) ? undefined : (p: string): boolean => isHiddenModelPath(p, documents.lookup);
      // listed first all the same, so that a bad folder is refused alike in both
      const listing = files.list(folder, hide);
      return access === 'withheld' ? { items: [], prefixes: [] } : listing;
    }),
  );

  return tus;
}
