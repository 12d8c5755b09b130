/**
 * File routes of the embedded backend (SPEC.md §7 file storage): one-shot uploads of small
 * files, resumable tus uploads (`@tus/server` + `@tus/file-store` under `/v1/uploads`), listing,
 * metadata, deletion, and token-protected downloads with HTTP range support.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FileStore as TusFileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { ERRORS, isPathInsideDirectory } from '@tus/utils';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import type { ApiContext } from './api.js';
import { parse } from './api.js';
import type { FileStore } from './file-store.js';
import { validateStoragePath } from './file-store.js';
import { errorResponse, toStorageError } from './http-errors.js';
import { authorizeFileRead, isAdmin, isHiddenModelPath, requireAdmin } from './rules.js';
import type { Principal } from './rules.js';

/** Largest body of a one-shot upload in bytes (the resumable threshold of SPEC.md §9 is 256 KB; some slack). */
export const SIMPLE_UPLOAD_LIMIT = 1024 * 1024;
/** Largest resumable upload in bytes (64 GiB). */
const MAX_UPLOAD_SIZE = 64 * 1024 ** 3;
/** Unfinished resumable uploads expire after this many milliseconds (24 h). */
const UPLOAD_EXPIRY_MS = 24 * 3600 * 1000;
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

/** A tus hook failure: tus sends `status_code` and `body` to the client. */
function tusFailure(error: unknown): { status_code: number; body: string } {
  const { status, body } = errorResponse(toStorageError(error));
  return { status_code: status, body: JSON.stringify(body) };
}

/**
 * Registers the file routes and the tus upload endpoint.
 * @returns the tus server (its expired uploads are cleaned on start)
 */
export function registerFileRoutes(app: FastifyInstance, ctx: FilesContext): TusServer {
  const { files, documents } = ctx;

  // ---- resumable uploads (tus) ---------------------------------------------------------------
  const datastore = new BufferedTusFileStore({ directory: join(ctx.dataDir, 'uploads'), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS });
  const tus = new TusServer({
    path: '/v1/uploads',
    datastore,
    relativeLocation: true,
    maxSize: MAX_UPLOAD_SIZE,
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
        validateStoragePath(upload.metadata?.path);
      } catch (error) {
        throw tusFailure(error);
      }
      return { metadata: upload.metadata };
    },
    onUploadFinish: async (_req, upload) => {
      const path = upload.metadata?.path as string;
      try {
        await files.adopt(path, join(datastore.directory, upload.id), upload.offset, upload.metadata?.contentType);
        return {};
      } catch (error) {
        throw tusFailure(error);
      } finally {
        await datastore.configstore.delete(upload.id);
      }
    },
  });

  app.register(async (scope) => {
    // tus reads the raw request stream itself.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const handle = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    };
    scope.all('/v1/uploads', handle);
    scope.all('/v1/uploads/*', handle);
  });

  // ---- one-shot upload, download, delete -----------------------------------------------------
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: SIMPLE_UPLOAD_LIMIT }, (_request, body, done) => done(null, body));

    scope.put('/v1/files/*', async (request) =>
      storage(async () => {
        requireAdmin(await ctx.principal(request));
        const path = storagePathOf(request);
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const contentType = request.headers['x-catalog-content-type'] ?? request.headers['content-type'];
        return { file: await files.put(path, body, typeof contentType === 'string' ? contentType : null) };
      }),
    );

    scope.delete('/v1/files/*', async (request, reply) =>
      storage(async () => {
        requireAdmin(await ctx.principal(request));
        await files.delete(storagePathOf(request));
        return reply.code(204).send();
      }),
    );

    scope.get('/v1/files/*', async (request, reply) =>
      storage(async () => {
        const path = storagePathOf(request);
        const { token } = parse(z.object({ token: z.string().optional() }), request.query, 'download');
        if (!token) throw new AppError(ErrorCode.StorageUnauthenticated, 'A download token is required');
        if (!files.checkToken(path, token)) throw new AppError(ErrorCode.StorageUnauthorized, 'Invalid download token');
        const meta = files.metadata(path);
        reply
          .header('content-type', meta.contentType ?? 'application/octet-stream')
          .header('cache-control', 'private, max-age=0')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "sandbox; default-src 'none'");
        return reply.sendFile(path, files.root, { contentType: false, dotfiles: 'allow', index: false, cacheControl: false, acceptRanges: true });
      }),
    );
  });

  // ---- metadata, links, listing --------------------------------------------------------------
  app.get('/v1/file-meta/*', async (request) =>
    storage(async () => {
      const path = storagePathOf(request);
      authorizeFileRead(await ctx.principal(request), path, documents);
      return { file: files.metadata(path) };
    }),
  );

  app.get('/v1/download-url/*', async (request) =>
    storage(async () => {
      const path = storagePathOf(request);
      authorizeFileRead(await ctx.principal(request), path, documents);
      const encoded = path.split('/').map(encodeURIComponent).join('/');
      return { url: `/v1/files/${encoded}?token=${encodeURIComponent(files.token(path))}` };
    }),
  );

  app.get('/v1/list', async (request) =>
    storage(async () => {
      const principal = await ctx.principal(request);
      const { prefix } = parse(z.object({ prefix: z.string().optional() }), request.query, 'listing');
      const folder = prefix ?? '';
      authorizeFileRead(principal, folder.replace(/\/+$/, ''), documents);
      const hide = isAdmin(principal) ? undefined : (p: string): boolean => isHiddenModelPath(p, documents);
      return files.list(folder, hide);
    }),
  );

  return tus;
}
