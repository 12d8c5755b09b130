/**
 * Resumable uploads of the embedded backend: the tus endpoint at `UPLOADS_PATH` (`@tus/server`
 * over `@tus/file-store` in `<dataDir>/uploads/`), for admins and the service key only. A
 * finished upload is stored through {@link FileStore.adopt}, which runs the content checks first:
 * a refused file answers 400 `invalid-argument` with the check's problem and nothing is stored.
 * It also tells the storage repair which unfinished uploads it must leave alone.
 */
import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FileStore as TusFileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { ERRORS, EVENTS, isPathInsideDirectory } from '@tus/utils';
import type { Upload } from '@tus/utils';
import { validateModelFilePath } from '@shared/paths.js';
import { requireAdmin, toStorageError } from '@shared/rules/document-rules.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { UPLOAD_EXPIRY_MS, UPLOADS_PATH } from '@shared/wire/routes.js';
import type { FileStore } from './file-store.js';
import { errorResponse } from './http-errors.js';

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

/** An unfinished resumable upload a storage repair leaves alone: its storage path and why. */
export interface LiveUpload {
  path: string;
  reason: 'in-flight' | 'resumable';
}

/** What {@link registerTusUploads} gives back. */
export interface TusUploads {
  /** The tus server (its expired uploads are cleaned on start). */
  tus: TusServer;
  /**
   * The unfinished resumable uploads a storage repair leaves alone: `in-flight` while a request
   * of theirs runs, `resumable` while they have not expired and their bytes were written within
   * the grace period. Expired uploads are left out (tus deletes them).
   * @param graceMs the grace period in ms
   * @returns their storage paths and reasons
   */
  liveUploads(graceMs: number): Promise<LiveUpload[]>;
}

/**
 * Registers the tus endpoint (`UPLOADS_PATH` and `UPLOADS_PATH/*`, every method) on `app`:
 * every tus request (create, offset, patch, terminate) is for admins and the service key only;
 * an upload's `path` metadata must be a model file's path; a finished upload is adopted into
 * storage (content-checked) and its tus record removed.
 * @param app the Fastify instance
 * @param options.files the server's file store
 * @param options.dataDir the data folder (unfinished uploads live in `<dataDir>/uploads/`)
 * @param options.principalFromHeader resolves a caller from a raw Authorization header (tus hooks see no Fastify request)
 * @param options.isAllowedOrigin which browser origins get CORS headers on tus replies (the portal's own)
 * @returns the tus server and the live uploads a storage repair must leave alone
 */
export function registerTusUploads(
  app: FastifyInstance,
  options: {
    files: FileStore;
    dataDir: string;
    principalFromHeader(header: string | null): Promise<Principal>;
    isAllowedOrigin: (origin: string) => boolean;
  },
): TusUploads {
  const { files } = options;
  const datastore = new BufferedTusFileStore({
    directory: join(options.dataDir, 'uploads'),
    expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS,
  });
  const tus = new TusServer({
    path: UPLOADS_PATH,
    datastore,
    relativeLocation: true,
    maxSize: MAX_UPLOAD_SIZE,
    // No '*': only the portal's own origins (tus answers any Origin with '*' by default).
    allowedOrigins: options.isAllowedOrigin,
    // Authorisation: admins and the service key only, on every tus request (create, offset, patch, terminate).
    onIncomingRequest: async (req) => {
      try {
        requireAdmin(await options.principalFromHeader(req.headers.get('authorization')));
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
  const liveUploads = async (graceMs: number): Promise<LiveUpload[]> => {
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

  return { tus, liveUploads };
}
