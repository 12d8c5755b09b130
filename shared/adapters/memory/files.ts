/**
 * File-store port of the in-memory backend: uploads with progress and
 * cancel (Blobs, and platform sources whose `input` is an async iterable of bytes such as Node's
 * `fs.ReadStream`, or a web `ReadableStream`), batches of small files (all or none), one-level
 * listings, metadata, deletion and download links, under the embedded backend's rules: storage
 * paths of `shared/paths.ts` (`validateModelFilePath`), writes for admins and the service
 * principal only, reads for signed-in callers with a role, a hidden model's files read as missing
 * by a non-admin; access errors in their storage flavour (the storage service's codes: unauthenticated, unauthorized, object-not-found).
 *
 * Every model file whose path calls for a content check (`contentKindOfPath`: the splat, the GLB,
 * camera metadata, photos and thumbnails) is checked before it is stored, as the
 * embedded server does (photos on their header only: no decoder here); a refused file rejects
 * with `invalid-argument` and the check's problem, and nothing of the upload or batch is stored.
 *
 * Download links are `data:` URLs carrying the file's bytes (base64): any browser or Node `fetch`
 * reads them without credentials, but there is no server behind them, so no token to check, no
 * HTTP range requests, and no revocation when a model is hidden.
 */
import { usesResumableUpload, UPLOAD_BATCH_MAX_BYTES, UPLOAD_BATCH_MAX_FILES } from '@shared/constants.js';
import { assertStoredContent, bytesSource } from '@shared/content-check/index.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { checkUploadTarget, checkUploadTargets, fileNameOf } from '@shared/paths.js';
import type {
  BatchUploadItem,
  BatchUploadOptions,
  FileStorePort,
  FolderListing,
  StoredFile,
  UploadOptions,
  UploadSource,
} from '@shared/ports/files.js';
import type { MemorySession } from './identity.js';
import { authorizeFileRead, isAdmin, isHiddenModelPath, requireAdmin, toStorageError } from '@shared/rules/document-rules.js';
import type { DocumentLookup } from '@shared/rules/document-rules.js';
import type { MemoryFile, MemoryStore } from './store.js';
import { toStoredFile } from './store.js';

/** Bytes acknowledged per progress report of an upload (1 MiB). */
const PROGRESS_CHUNK_BYTES = 1024 * 1024;
/** Longest accepted storage path, in characters (as the embedded backend). */
const MAX_PATH_LENGTH = 1024;

const canceled = (cause?: unknown): AppError => new AppError(ErrorCode.Canceled, 'The upload was canceled', { cause });
const notFound = (path: string): AppError => new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });

/** True when `value` contains a C0 control character or DEL. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Checks a storage path of a read or a delete: relative, '/'-separated, no empty, '.' or '..'
 * segment, no backslash or control character, at most 1024 characters.
 * @returns the path unchanged
 * @throws AppError `invalid-argument`
 */
function checkStoragePath(path: unknown): string {
  const bad = (reason: string): AppError =>
    new AppError(ErrorCode.InvalidArgument, `Invalid storage path: ${reason}`, { context: { path } });
  if (typeof path !== 'string' || path.length === 0) throw bad('empty');
  if (path.length > MAX_PATH_LENGTH) throw bad('too long');
  if (path.startsWith('/') || path.includes('\\') || hasControlCharacter(path)) throw bad('forbidden character');
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) throw bad('empty, . or .. segment');
  return path;
}

/** '' for the root, else the folder as a checked path ending in '/'. */
function normalizeFolder(folder: string): string {
  if (folder === '' || folder === '/') return '';
  return `${checkStoragePath(folder.replace(/\/+$/, ''))}/`;
}

/**
 * True for a Blob (a browser `File`, a Node Blob, jsdom's Blob): anything with `size`, `type` and
 * `slice` and no platform `input`, so a Blob of another realm (jsdom's in Node) counts too.
 */
function isBlob(source: unknown): source is Blob {
  if (typeof source !== 'object' || source === null || 'input' in source) return false;
  const blob = source as Partial<Blob>;
  return typeof blob.size === 'number' && typeof blob.slice === 'function' && typeof blob.type === 'string';
}

/** The bytes of a Blob: `arrayBuffer()`, or a FileReader where Blobs lack it (jsdom). */
function blobBytes(blob: Blob): Promise<Uint8Array> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer().then((buffer) => new Uint8Array(buffer));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Destroys a platform source's input (an `fs.ReadStream`), as the port promises the store consumes it. */
function destroyInput(source: UploadSource): void {
  if (!isBlob(source)) (source as { input?: { destroy?: () => void } | null }).input?.destroy?.();
}

/** The chunks of an upload source, as byte arrays. */
async function* chunksOf(source: UploadSource): AsyncGenerator<Uint8Array> {
  if (isBlob(source)) {
    for (let offset = 0; offset < source.size; offset += PROGRESS_CHUNK_BYTES) {
      yield await blobBytes(source.slice(offset, offset + PROGRESS_CHUNK_BYTES));
    }
    return;
  }
  const input = source.input;
  if (isBlob(input)) {
    yield* chunksOf(input);
    return;
  }
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    yield new Uint8Array(input instanceof ArrayBuffer ? input : input.slice());
    return;
  }
  if (typeof input === 'object' && input !== null && typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function') {
    for await (const chunk of input as AsyncIterable<Uint8Array | string>) {
      yield typeof chunk === 'string' ? new TextEncoder().encode(chunk) : new Uint8Array(chunk);
    }
    return;
  }
  if (typeof input === 'object' && input !== null && typeof (input as ReadableStream<Uint8Array>).getReader === 'function') {
    const reader = (input as ReadableStream<Uint8Array>).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield new Uint8Array(value);
    }
  }
  throw new AppError(
    ErrorCode.InvalidArgument,
    'Unsupported upload source: a Blob, or { size, input } with an async-iterable or readable-stream input',
  );
}

/** Joins byte arrays. */
function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.byteLength === length) return parts[0]!;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

/** Runs a storage call, converting access errors to their storage codes. */
async function storage<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toStorageError(error);
  }
}

/** FileStorePort of the in-memory backend. */
export class MemoryFiles implements FileStorePort {
  private readonly lookup: DocumentLookup;

  /**
   * @param store the shared state (files, and the models read by the hidden-model rule)
   * @param session this client's session (who calls)
   */
  constructor(
    private readonly store: MemoryStore,
    private readonly session: MemorySession,
  ) {
    this.lookup = (collection, id) => store.readDocument(collection, id);
  }

  async upload(path: string, source: UploadSource, options: UploadOptions = {}): Promise<StoredFile> {
    checkUploadTarget(path, source);
    if (options.signal?.aborted) {
      destroyInput(source);
      throw canceled();
    }
    await this.store.tick();
    try {
      await storage(() => requireAdmin(this.session.principal()));
    } catch (error) {
      destroyInput(source);
      throw error;
    }
    const total = source.size;
    const parts: Uint8Array[] = [];
    let received = 0;
    options.onProgress?.({ bytesTransferred: 0, totalBytes: total });
    try {
      for await (const chunk of chunksOf(source)) {
        if (options.signal?.aborted) throw canceled(options.signal.reason);
        parts.push(chunk);
        received += chunk.byteLength;
        if (usesResumableUpload(total)) options.onProgress?.({ bytesTransferred: Math.min(received, total), totalBytes: total });
        await this.store.tick();
      }
      if (options.signal?.aborted) throw canceled(options.signal.reason);
    } finally {
      destroyInput(source);
    }
    const bytes = concat(parts, received);
    await assertStoredContent(path, bytesSource(bytes, fileNameOf(path)));
    const [stored] = this.store.putFiles([{ path, bytes }]);
    if (!usesResumableUpload(total) || received !== total) {
      options.onProgress?.({ bytesTransferred: stored!.size, totalBytes: stored!.size });
    }
    return stored!;
  }

  async uploadBatch(items: readonly BatchUploadItem[], options: BatchUploadOptions = {}): Promise<StoredFile[]> {
    checkUploadTargets(items);
    if (options.signal?.aborted) {
      for (const item of items) destroyInput(item.source);
      throw canceled();
    }
    const bad = (reason: string): AppError => new AppError(ErrorCode.InvalidArgument, `Invalid file batch: ${reason}`);
    await this.store.tick();
    try {
      await storage(() => requireAdmin(this.session.principal()));
      if (items.length === 0) throw bad('no files');
      if (items.length > UPLOAD_BATCH_MAX_FILES) throw bad(`more than ${UPLOAD_BATCH_MAX_FILES} files`);
      if (new Set(items.map((item) => item.path)).size !== items.length) throw bad('a path is listed twice');
      const big = items.find((item) => usesResumableUpload(item.source.size));
      if (big) {
        throw new AppError(ErrorCode.InvalidArgument, `${big.path}: only files up to 256 KB go in a batch`, {
          context: { path: big.path },
        });
      }
      const bytes = items.reduce((sum, item) => sum + item.source.size, 0);
      if (bytes > UPLOAD_BATCH_MAX_BYTES) throw bad(`more than ${UPLOAD_BATCH_MAX_BYTES} bytes in all`);
    } catch (error) {
      for (const item of items) destroyInput(item.source);
      throw error;
    }
    const total = items.reduce((sum, item) => sum + item.source.size, 0);
    options.onProgress?.({ bytesTransferred: 0, totalBytes: total });
    const entries: Array<{ path: string; bytes: Uint8Array }> = [];
    for (const item of items) {
      const parts: Uint8Array[] = [];
      let length = 0;
      try {
        for await (const chunk of chunksOf(item.source)) {
          parts.push(chunk);
          length += chunk.byteLength;
        }
      } finally {
        destroyInput(item.source);
      }
      entries.push({ path: item.path, bytes: concat(parts, length) });
    }
    if (options.signal?.aborted) throw canceled(options.signal.reason);
    for (const entry of entries) await assertStoredContent(entry.path, bytesSource(entry.bytes, fileNameOf(entry.path)));
    const stored = this.store.putFiles(entries);
    options.onProgress?.({ bytesTransferred: total, totalBytes: total });
    return stored;
  }

  async list(folder: string): Promise<FolderListing> {
    await this.store.tick();
    return storage(() => {
      const principal = this.session.principal();
      const prefix = normalizeFolder(folder);
      // a hidden model's folder lists as a missing one (empty) to whoever may not see the model
      if (authorizeFileRead(principal, prefix.replace(/\/+$/, ''), this.lookup) === 'withheld') return { items: [], prefixes: [] };
      const hide = isAdmin(principal) ? () => false : (p: string): boolean => isHiddenModelPath(p, this.lookup);
      const items: StoredFile[] = [];
      const prefixes = new Set<string>();
      for (const file of this.store.filesUnder(prefix)) {
        const rest = file.path.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash === -1) items.push(toStoredFile(file));
        else prefixes.add(`${prefix}${rest.slice(0, slash)}/`);
      }
      return { items, prefixes: [...prefixes].filter((p) => !hide(p)) };
    });
  }

  async getMetadata(path: string): Promise<StoredFile> {
    await this.store.tick();
    return storage(() => toStoredFile(this.readable(path)));
  }

  async delete(path: string): Promise<void> {
    await this.store.tick();
    return storage(() => {
      requireAdmin(this.session.principal());
      checkStoragePath(path);
      if (!this.store.removeFile(path)) throw notFound(path);
    });
  }

  /**
   * By default a `data:` URL with the file's content type and bytes: it works in any tab or
   * `fetch` without credentials, carries no token and stays valid after the file changes (see the
   * module comment); the store's `downloadUrl` option may make another.
   */
  async getDownloadUrl(path: string): Promise<string> {
    await this.store.tick();
    return storage(() => this.store.downloadUrl(this.readable(path)));
  }

  /** The stored file at `path`, when the caller may read it (a hidden model's file reads as missing to whoever may not see the model). */
  private readable(path: string): MemoryFile {
    checkStoragePath(path);
    if (authorizeFileRead(this.session.principal(), path, this.lookup) === 'withheld') throw notFound(path);
    const file = this.store.file(path);
    if (!file) throw notFound(path);
    return file;
  }
}
