/**
 * File routes of the embedded backend: one-shot uploads of small
 * files, resumable tus uploads (`@tus/server` + `@tus/file-store` at `UPLOADS_PATH`), listing,
 * metadata, deletion, and token-protected downloads with HTTP range support. Every upload route
 * stores through {@link FileStore.adoptMany}, which runs the content checks first: a
 * refused file answers 400 `invalid-argument` with the check's problem and nothing is stored.
 * The web-sized copies of a stored splat (PLY or .splat) and of a stored GLB are made here too
 * (`routes.webSplat`, `routes.webGlb`, each in a worker thread: the server keeps answering).
 */
import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { FileStore as TusFileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { ERRORS, EVENTS, isPathInsideDirectory } from '@tus/utils';
import type { Upload } from '@tus/utils';
import { z } from 'zod';
import { UPLOAD_BATCH_MAX_BYTES, UPLOAD_BATCH_MAX_FILES } from '@shared/constants.js';
import { downloadHeaders } from '@shared/content-type.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { StoredFile, WebGlbOutcome, WebSplatOutcome } from '@shared/ports/files.js';
import type { ApiContext } from './api.js';
import { parse, parseRequest, serveRoute } from './api.js';
import { FILE_BATCH_PARTS, fileBatchEntrySchema, REPAIR_GRACE_MS, routes, UPLOAD_EXPIRY_MS, UPLOADS_PATH } from '@shared/wire/routes.js';
import {
  MODEL_FILE_BASE_NAME,
  parseModelPath,
  validateModelFilePath,
  webGlbPath,
  webSplatPath,
  webSplatPreviewPath,
} from '@shared/paths.js';
import { compressGlbFile } from '../lib/web-glb.js';
import { compressSplatFile, PREVIEW_GAUSSIANS } from '../lib/web-splat.js';
import type { FileStore } from './file-store.js';
import { assertPlainStoredFile } from './data-secrets.js';
import { validateStoragePath } from './file-store.js';
import { authorizeFileRead, isAdmin, isHiddenModelPath, requireAdmin, toStorageError, withheldFile } from '@shared/rules/document-rules.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { errorResponse } from './http-errors.js';

/** Largest body of a one-shot upload in bytes (files above 256 KB are uploaded resumably; some slack). */
export const SIMPLE_UPLOAD_LIMIT = 1024 * 1024;
/** Largest resumable upload in bytes (64 GiB). */
const MAX_UPLOAD_SIZE = 64 * 1024 ** 3;
/**
 * Write buffer of a resumable upload's file stream in bytes (1 MiB). Node's default (16 KiB)
 * makes one write per 64 KiB socket chunk; buffering lets the stream coalesce them (writev),
 * which measured 1.7–1.9 s instead of 3.0–3.1 s for 1 GiB on loopback here.
 */
const UPLOAD_WRITE_BUFFER = 1024 * 1024;

/**
 * `@tus/file-store`'s FileStore with a larger write buffer: its `write` opens the file stream
 * with Node's default 16 KiB buffer and offers no option for it. Same contract as the parent:
 * appends `readable` at `offset` and resolves with the new offset; on a broken stream the
 * bytes already written stay (the next HEAD reports them, so the client resumes after them).
 */
class BufferedTusFileStore extends TusFileStore {
  /**
   * Uploads finished and moved into storage whose request has not been answered yet, by id. A
   * creation-with-upload POST reads its upload back after the finish hook (for its expiry
   * header), when the bytes have moved to storage and the record is gone; without this it
   * answered 404 for a file it had stored.
   */
  readonly finished = new Map<string, Upload>();

  override async getUpload(id: string): Promise<Upload> {
    return this.finished.get(id) ?? super.getUpload(id);
  }

  override async write(readable: NodeJS.ReadableStream, fileId: string, offset: number): Promise<number> {
    const file = join(this.directory, fileId);
    if (!isPathInsideDirectory(this.directory, file)) throw ERRORS.FILE_NOT_FOUND;
    const target = createWriteStream(file, { flags: 'r+', start: offset, highWaterMark: UPLOAD_WRITE_BUFFER });
    try {
      await pipeline(readable, target);
    } catch {
      throw ERRORS.FILE_WRITE_ERROR;
    }
    return offset + target.bytesWritten;
  }
}

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
 * The upload id of a tus request URL (`{UPLOADS_PATH}/{id}`), or null for the creation
 * request (`POST {UPLOADS_PATH}`) and anything else.
 */
function uploadIdOf(url: string): string | null {
  const path = url.split('?')[0] ?? '';
  if (!path.startsWith(`${UPLOADS_PATH}/`)) return null;
  const id = path.slice(UPLOADS_PATH.length + 1);
  if (id === '' || id.includes('/')) return null;
  try {
    return decodeURIComponent(id);
  } catch {
    return id; // malformed escapes: tus answers it as an unknown upload
  }
}

/** A tus hook failure: tus sends `status_code` and `body` to the client. */
function tusFailure(error: unknown): { status_code: number; body: string } {
  const { status, body } = errorResponse(toStorageError(error));
  return { status_code: status, body: JSON.stringify(body) };
}

/** Largest `manifest` field of a batch upload in bytes (64 KiB). */
const BATCH_MANIFEST_LIMIT = 64 * 1024;

const batchManifestSchema = z
  .array(fileBatchEntrySchema.extend({ size: fileBatchEntrySchema.shape.size.max(SIMPLE_UPLOAD_LIMIT) }))
  .min(1)
  .max(UPLOAD_BATCH_MAX_FILES)
  .refine((entries) => entries.reduce((sum, entry) => sum + entry.size, 0) <= UPLOAD_BATCH_MAX_BYTES, {
    message: `more than ${UPLOAD_BATCH_MAX_BYTES} bytes in all`,
  });

/**
 * Reads a batch upload (`routes.fileBatch`, multipart/form-data): first a `manifest` field
 * (JSON `[{path, size, contentType?}]`), then one `file` part per manifest entry, in order.
 * Every part is checked against its entry (size) and held in memory (the manifest may list
 * at most UPLOAD_BATCH_MAX_BYTES in all, so that is what a batch can cost the server); only when
 * all arrived are they stored, all or none ({@link FileStore.putMany}).
 * @returns the stored files, in manifest order
 * @throws AppError `invalid-argument` (bad manifest or path, a missing, extra or wrong-sized
 *   part, a part over 1 MiB, more than UPLOAD_BATCH_MAX_FILES files or UPLOAD_BATCH_MAX_BYTES bytes)
 */
async function receiveBatch(request: FastifyRequest, files: FileStore): Promise<StoredFile[]> {
  // From its manifest until it is stored, a batch is an upload in progress for storage repairs.
  const held: Array<() => void> = [];
  try {
    return await readAndStoreBatch(request, files, (paths) => held.push(files.hold(paths)));
  } finally {
    for (const release of held) release();
  }
}

/** {@link receiveBatch}'s work; `onManifest` gets the batch's paths once its manifest is read. */
async function readAndStoreBatch(request: FastifyRequest, files: FileStore, onManifest: (paths: string[]) => void): Promise<StoredFile[]> {
  const bad = (reason: string): AppError => new AppError(ErrorCode.InvalidArgument, `Invalid file batch: ${reason}`);
  let manifest: z.infer<typeof batchManifestSchema> | null = null;
  const bodies: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname !== FILE_BATCH_PARTS.manifest || manifest !== null) throw bad(`unexpected field '${part.fieldname}'`);
        let raw: unknown;
        try {
          raw = JSON.parse(String(part.value));
        } catch {
          throw bad('the manifest is not JSON');
        }
        manifest = parse(batchManifestSchema, raw, 'file batch manifest');
        for (const entry of manifest) validateModelFilePath(entry.path);
        if (new Set(manifest.map((entry) => entry.path)).size !== manifest.length) throw bad('a path is listed twice');
        onManifest(manifest.map((entry) => entry.path));
        continue;
      }
      if (manifest === null) throw bad('the manifest must come before the files');
      const entry = manifest[bodies.length];
      if (entry === undefined) throw bad('more files than the manifest lists');
      const body = await part.toBuffer();
      if (body.length !== entry.size) throw bad(`${entry.path} has ${body.length} bytes, the manifest says ${entry.size}`);
      bodies.push(body);
    }
  } catch (error) {
    // @fastify/multipart's limit errors (too many files, file too large) are request errors.
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('FST_')) throw bad((error as Error).message);
    throw error;
  }
  if (manifest === null) throw bad('no manifest');
  if (bodies.length !== manifest.length) throw bad(`${manifest.length} files listed, ${bodies.length} sent`);
  return files.putMany(manifest.map((entry, i) => ({ path: entry.path, body: bodies[i], contentType: entry.contentType })));
}

/**
 * Makes the web-sized copy (SPZ) of a stored splat in a worker thread and stores it at
 * `webSplatPath(uuid)`, replacing any copy there; for a capture of more than
 * `PREVIEW_ABOVE_GAUSSIANS` (400,000) Gaussians also its preview (the `PREVIEW_GAUSSIANS` most
 * important Gaussians, SH degree 0) at `webSplatPreviewPath(uuid)`. Both are written to temporary
 * files and adopted (content-checked as SPZ) while their paths are held from storage repairs.
 * @param path the splat's storage path, `models/{uuid}/model.ply` or `models/{uuid}/model.splat`
 * @returns the stored copy's metadata and the preview's (null for a smaller capture)
 * @throws AppError `invalid-argument` (another path, or a splat that cannot be read),
 *   `storage/object-not-found` (no PLY stored there), `internal` (the worker died)
 */
export async function makeWebSplat(files: FileStore, path: string): Promise<WebSplatOutcome> {
  const parsed = parseModelPath(validateStoragePath(path));
  if (parsed === null || (parsed.rest !== `${MODEL_FILE_BASE_NAME}.ply` && parsed.rest !== `${MODEL_FILE_BASE_NAME}.splat`)) {
    const from = `models/{uuid}/${MODEL_FILE_BASE_NAME}.ply or .splat`;
    throw new AppError(ErrorCode.InvalidArgument, `A web-sized splat is made from ${from}, not ${path}`, {
      context: { path },
    });
  }
  files.metadata(path);
  const temp = files.tempFile();
  // a web-sized copy being made is an upload in progress for storage repairs
  const previewTemp = files.tempFile();
  const release = files.hold([webSplatPath(parsed.uuid), webSplatPreviewPath(parsed.uuid)]);
  try {
    const result = await compressSplatFile(files.diskPath(path), temp, parsed.rest, {
      preview: { output: previewTemp, gaussians: PREVIEW_GAUSSIANS },
    });
    const { size } = await stat(temp);
    const file = await files.adopt(webSplatPath(parsed.uuid), temp, size, null);
    const preview =
      result.preview === null ? null : await files.adopt(webSplatPreviewPath(parsed.uuid), previewTemp, result.preview.bytes, null);
    return { file, preview };
  } finally {
    release();
    await rm(temp, { force: true });
    await rm(previewTemp, { force: true });
  }
}

/**
 * Makes the web-sized copy of a stored GLB in a worker thread (`compressGlbFile`: textures at most
 * 2048 px as WebP, meshopt geometry) and stores it at `webGlbPath(uuid)`, replacing any copy
 * there, when it is at least 2× smaller than the original; else stores nothing (a copy stored
 * before stays).
 * @param path the GLB's storage path, `models/{uuid}/model.glb`
 * @returns the stored copy's metadata, or `file: null` with why none was kept
 * @throws AppError `invalid-argument` (another path, or a GLB the copy cannot read),
 *   `storage/object-not-found` (no GLB stored there), `internal` (the worker died)
 */
export async function makeWebGlb(files: FileStore, path: string): Promise<WebGlbOutcome> {
  const parsed = parseModelPath(validateStoragePath(path));
  if (parsed === null || parsed.rest !== `${MODEL_FILE_BASE_NAME}.glb`) {
    throw new AppError(ErrorCode.InvalidArgument, `A web-sized GLB is made from models/{uuid}/${MODEL_FILE_BASE_NAME}.glb, not ${path}`, {
      context: { path },
    });
  }
  files.metadata(path);
  const temp = files.tempFile();
  // a web-sized copy being made is an upload in progress for storage repairs
  const release = files.hold([webGlbPath(parsed.uuid)]);
  try {
    const result = await compressGlbFile(files.diskPath(path), temp);
    if (result.skipped !== null) return { file: null, skipped: result.skipped };
    return { file: await files.adopt(webGlbPath(parsed.uuid), temp, result.bytes, null), skipped: null };
  } finally {
    release();
    await rm(temp, { force: true });
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
  const datastore = new BufferedTusFileStore({ directory: join(ctx.dataDir, 'uploads'), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: MAX_UPLOAD_SIZE,
    // No '*': only the portal's own origins (tus answers any Origin with '*' by default).
    allowedOrigins: isAllowedOrigin,
    // Authorisation: admins and the service key only, on every tus request (create, offset, patch, terminate).
    onIncomingRequest: async (req) => {
      try {
        requireAdmin(await ctx.principalFromHeader(req.headers.get('authorization')));
      } catch (error) {
        throw tusFailure(error);
      }
    },
    onUploadCreate: async (_req, upload) => {
      try {
        validateModelFilePath(upload.metadata?.path);
      } catch (error) {
        throw tusFailure(error);
      }
      return { metadata: upload.metadata };
    },
    onUploadFinish: async (_req, upload) => {
      const path = upload.metadata?.path as string;
      try {
        await files.adopt(path, join(datastore.directory, upload.id), upload.offset, upload.metadata?.contentType);
        datastore.finished.set(upload.id, upload);
        return {};
      } catch (error) {
        throw tusFailure(error);
      } finally {
        await datastore.configstore.delete(upload.id);
      }
    },
  });
  // Answered: a finished upload is no longer read back (see BufferedTusFileStore.finished).
  tus.on(EVENTS.POST_FINISH, (_req, _res, upload) => datastore.finished.delete(upload.id));

  /** Requests being handled now, by upload id (a PATCH streaming bytes, a HEAD, the finish). */
  const tusRequests = new Map<string, number>();
  /**
   * The unfinished resumable uploads a storage repair leaves alone: `in-flight` while a request
   * of theirs runs, `resumable` while they have not expired and their bytes were written within
   * the grace period. Expired uploads are left out (tus deletes them).
   * @param graceMs the grace period in ms
   * @returns their storage paths and reasons
   */
  const tusUploads = async (graceMs: number): Promise<{ path: string; reason: 'in-flight' | 'resumable' }[]> => {
    const ids = (await datastore.configstore.list?.()) ?? [];
    const now = Date.now();
    const found = await Promise.all(
      ids.map(async (id) => {
        const info = await datastore.configstore.get(id);
        const path = info?.metadata?.path;
        if (typeof path !== 'string') return null;
        if (tusRequests.has(id)) return { path, reason: 'in-flight' as const };
        const created = info?.creation_date ? Date.parse(info.creation_date) : Number.NaN;
        if (!Number.isNaN(created) && now - created > UPLOAD_EXPIRY_MS) return null;
        const written = await stat(join(datastore.directory, id)).then(
          (stats) => stats.mtimeMs,
          () => null,
        );
        return written !== null && now - written < graceMs ? { path, reason: 'resumable' as const } : null;
      }),
    );
    return found.filter((upload) => upload !== null);
  };

  app.register(async (scope) => {
    // tus reads the raw request stream itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      reply.hijack();
      const id = uploadIdOf(request.url);
      if (id !== null) tusRequests.set(id, (tusRequests.get(id) ?? 0) + 1);
      try {
        await tus.handle(request.raw, reply.raw);
      } finally {
        if (id !== null) {
          const left = (tusRequests.get(id) ?? 1) - 1;
          if (left > 0) tusRequests.set(id, left);
          else tusRequests.delete(id);
        }
      }
    };
    scope.all(UPLOADS_PATH, handle);
    scope.all(`${UPLOADS_PATH}/*`, handle);
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
  const requireService = async (request: FastifyRequest): Promise<void> => {
    const principal = await ctx.principal(request);
    requireAdmin(principal);
    if (principal.kind !== 'service') throw new AppError(ErrorCode.PermissionDenied, 'Missing permission: service key required');
  };
  /** The grace period a scan or repair asked for (default REPAIR_GRACE_MS) and the live tus uploads. */
  const scanOptions = async (request: FastifyRequest, route: typeof routes.storageScan | typeof routes.storageRepair) => {
    const graceMs = parseRequest(route, 'query', request.query).graceMs ?? REPAIR_GRACE_MS;
    return { graceMs, uploads: await tusUploads(graceMs) };
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
