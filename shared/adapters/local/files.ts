/**
 * File-store port over the embedded backend. Files up to 256 KB, as a Blob or a native stream, go
 * in one request; everything else uses a resumable tus upload (tus-js-client: XHR in the browser,
 * node:http in Node) with progress, cancel via AbortSignal (the partial upload is terminated on the
 * server) and, with a URL storage, resume across processes.
 */
import type * as Tus from 'tus-js-client';
import { usesResumableUpload } from '../../constants.js';
import { AppError, ErrorCode } from '../../errors.js';
import type {
  BatchUploadItem,
  BatchUploadOptions,
  FileStorePort,
  FolderListing,
  NativeUploadSource,
  StoredFile,
  WebGlbOutcome,
  WebSplatOutcome,
  UploadOptions,
  UploadSource,
} from '../../ports/files.js';
import { errorFromResponse, networkError } from './http.js';
import { FILE_BATCH_PARTS, routes, UPLOADS_PATH, type FileBatchEntry } from '../../wire/routes.js';
import type { Transport } from './http.js';
import type { LocalIdentity } from './identity.js';
import { checkUploadTarget, checkUploadTargets } from '../../paths.js';

/**
 * Bytes per tus PATCH request: no limit, one PATCH per file. The embedded server keeps the bytes
 * of a PATCH that breaks off (the next HEAD reports them), so resuming needs no chunking, and
 * each extra PATCH stalls the stream (1 GiB on loopback: 2.6–2.7 s unchunked, 3.5–3.7 s in
 * 16 MiB chunks, measured here).
 */
const CHUNK_SIZE = Number.POSITIVE_INFINITY;

const canceled = (cause?: unknown): AppError => new AppError(ErrorCode.Canceled, 'The upload was canceled', { cause });

/**
 * tus-js-client, loaded on the first resumable upload so that browsing never downloads it
 * (the bundler picks its browser or Node build).
 */
let tusModule: Promise<typeof Tus> | undefined;
const loadTus = (): Promise<typeof Tus> => (tusModule ??= import('tus-js-client'));

/** True when the loaded tus-js-client build is the Node one (it reads Buffers and streams, not Blobs). */
const isNodeBuild = (tus: typeof Tus): boolean => 'FileUrlStorage' in (tus as Record<string, unknown>);

interface NodeBufferCtor {
  from(data: ArrayBuffer): unknown;
}

/**
 * Reads a small native upload input (an async iterable of bytes, such as Node's fs.ReadStream)
 * into one byte array (sent as is: no Blob copy).
 * @returns the bytes, or null when the input is not async-iterable (it then goes through tus)
 */
async function readSmallStream(input: unknown): Promise<Uint8Array | null> {
  if (typeof input !== 'object' || input === null || typeof (input as AsyncIterable<unknown>)[Symbol.asyncIterator] !== 'function')
    return null;
  const parts: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of input as AsyncIterable<Uint8Array>) {
    parts.push(chunk);
    length += chunk.byteLength;
  }
  if (parts.length === 1) return parts[0];
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

/** True when `source` is a Blob (a browser `File`, a Node Blob) rather than a native source. */
const isBlobSource = (source: UploadSource): source is Blob => typeof Blob !== 'undefined' && source instanceof Blob;

/**
 * A file up to 256 KB as a body sent in one request: a Blob as it is, a native
 * stream read into memory.
 * @returns the body, or null when the file goes through a resumable upload
 */
async function smallBody(source: UploadSource): Promise<Blob | Uint8Array | null> {
  if (usesResumableUpload(source.size)) return null;
  return isBlobSource(source) ? source : readSmallStream(source.input);
}

/** Converts a tus-js-client failure to an AppError with a storage code. */
function tusError(error: unknown): AppError {
  const detailed = error as { originalResponse?: { getStatus(): number; getBody(): string } | null };
  const response = detailed?.originalResponse;
  if (response && response.getStatus() > 0) return errorFromResponse(response.getStatus(), response.getBody() ?? '', 'storage');
  return networkError(error, 'storage');
}

/** FileStorePort of the local adapter. */
export class LocalFiles implements FileStorePort {
  /**
   * @param transport HTTP transport to the server
   * @param identity gives the Authorization header of each request (also each tus request)
   * @param uploadUrlStorage tus-js-client UrlStorage for resuming uploads across processes, or undefined
   * @param uploadFileReader tus-js-client FileReader for resumable uploads, or undefined (tus-js-client's own)
   */
  constructor(
    private readonly transport: Transport,
    private readonly identity: LocalIdentity,
    private readonly uploadUrlStorage: unknown,
    private readonly uploadFileReader?: unknown,
  ) {}

  async upload(path: string, source: UploadSource, options: UploadOptions = {}): Promise<StoredFile> {
    checkUploadTarget(path, source);
    if (options.signal?.aborted) throw canceled();
    const isBlob = isBlobSource(source);
    const size = source.size;
    const contentType = options.contentType ?? (isBlob && source.type ? source.type : undefined);
    const small = await smallBody(source);
    if (small !== null) {
      options.onProgress?.({ bytesTransferred: 0, totalBytes: size });
      const result = await this.identity.call(routes.putFile, [path], {
        raw: small,
        headers: { 'content-type': 'application/octet-stream', ...(contentType ? { 'x-catalog-content-type': contentType } : {}) },
        signal: options.signal,
        flavour: 'storage',
        check: true,
      });
      options.onProgress?.({ bytesTransferred: size, totalBytes: size });
      return result.file;
    }
    const tus = await loadTus();
    let input: unknown;
    let name: string | undefined;
    if (isBlob) {
      // The Node build of tus-js-client reads Buffers, not Blobs.
      const NodeBuffer = (globalThis as { Buffer?: NodeBufferCtor }).Buffer;
      input = isNodeBuild(tus) && NodeBuffer ? NodeBuffer.from(await source.arrayBuffer()) : source;
      name = (source as { name?: string }).name;
    } else {
      input = (source as NativeUploadSource).input;
      name = (source as NativeUploadSource).name;
    }
    if (options.signal?.aborted) throw canceled();
    try {
      await this.tusUpload(tus, path, input, size, contentType, name, options);
    } finally {
      // tus-js-client reads a file stream's path through streams of its own: release this one.
      if (!isBlob) (input as { destroy?: () => void } | null)?.destroy?.();
    }
    const stored = await this.getMetadata(path);
    options.onProgress?.({ bytesTransferred: stored.size, totalBytes: stored.size });
    return stored;
  }

  /**
   * Stores small files in one multipart request (`routes.fileBatch`): a `manifest` field
   * (JSON: each file's path, size and content type) and then one `file` part per file, in the
   * same order. The server stores all of them or none. Blobs (a browser `File`, a Node file-backed
   * Blob) are sent as they are; a native stream is read into memory first (each at most 256 KB).
   */
  async uploadBatch(items: readonly BatchUploadItem[], options: BatchUploadOptions = {}): Promise<StoredFile[]> {
    checkUploadTargets(items);
    if (options.signal?.aborted) throw canceled();
    const form = new FormData();
    const manifest: FileBatchEntry[] = [];
    const parts: Blob[] = [];
    let total = 0;
    for (const item of items) {
      const body = await smallBody(item.source);
      if (body === null)
        throw new AppError(ErrorCode.InvalidArgument, `${item.path}: only files up to 256 KB go in a batch`, {
          context: { path: item.path },
        });
      const blob = body instanceof Blob ? body : new Blob([body as Uint8Array<ArrayBuffer>]);
      const contentType = item.contentType ?? (blob.type || undefined);
      manifest.push({ path: item.path, size: blob.size, ...(contentType ? { contentType } : {}) });
      parts.push(blob);
      total += blob.size;
    }
    form.append(FILE_BATCH_PARTS.manifest, JSON.stringify(manifest));
    parts.forEach((blob, i) => {
      const path = manifest[i].path;
      form.append(FILE_BATCH_PARTS.file, blob, path.slice(path.lastIndexOf('/') + 1));
    });
    options.onProgress?.({ bytesTransferred: 0, totalBytes: total });
    const result = await this.identity.call(routes.fileBatch, [], { raw: form, signal: options.signal, flavour: 'storage', check: true });
    options.onProgress?.({ bytesTransferred: total, totalBytes: total });
    return result.files;
  }

  private tusUpload(
    tus: typeof Tus,
    path: string,
    input: unknown,
    size: number,
    contentType: string | undefined,
    name: string | undefined,
    options: UploadOptions,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const urlStorage = this.uploadUrlStorage as Tus.UrlStorage | undefined;
      const baseFingerprint = tus.defaultOptions.fingerprint;
      const metadata: Record<string, string> = { path };
      if (contentType) metadata.contentType = contentType;
      if (name) metadata.filename = name;
      let settled = false;
      const finish = (error?: AppError): void => {
        if (settled) return;
        settled = true;
        options.signal?.removeEventListener('abort', onAbort);
        if (error) reject(error);
        else resolve();
      };
      const uploadOptions: Tus.UploadOptions = {
        endpoint: `${this.transport.baseUrl}${UPLOADS_PATH}`,
        metadata,
        uploadSize: size,
        chunkSize: CHUNK_SIZE,
        retryDelays: [0, 1000, 3000, 5000],
        removeFingerprintOnSuccess: true,
        storeFingerprintForResuming: urlStorage !== undefined,
        // The target path is part of the fingerprint: the same bytes sent to two paths are two uploads.
        fingerprint: async (file, opts) => {
          const base = await baseFingerprint(file, opts);
          return base ? `${base}|${this.transport.baseUrl}|${path}` : (null as unknown as string);
        },
        onBeforeRequest: async (request) => {
          const authorization = await this.identity.authorization();
          if (authorization) request.setHeader('Authorization', authorization);
        },
        onProgress: (sent, total) => options.onProgress?.({ bytesTransferred: sent, totalBytes: total }),
        onSuccess: () => finish(),
        onError: (error) => finish(tusError(error)),
      };
      if (urlStorage) uploadOptions.urlStorage = urlStorage;
      if (this.uploadFileReader) uploadOptions.fileReader = this.uploadFileReader as Tus.UploadOptions['fileReader'];
      const upload = new tus.Upload(input as Blob, uploadOptions);
      const onAbort = (): void => {
        // Terminate the partial upload on the server (DELETE), then report the cancel.
        void upload
          .abort(true)
          .catch(() => undefined)
          .then(() => finish(canceled()));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const start = async (): Promise<void> => {
        if (urlStorage) {
          const previous = await upload.findPreviousUploads().catch(() => []);
          if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
        }
        if (!settled) upload.start();
      };
      void start();
    });
  }

  /**
   * Has the server make the web-sized copy (SPZ) of a stored splat (PLY or .splat) (`routes.webSplat`):
   * the server compresses it in a worker thread and stores it at `webSplatPath(uuid)`,
   * and the preview of a capture of more than 400,000 Gaussians at `webSplatPreviewPath(uuid)`.
   * @param plyPath the stored PLY (`models/{uuid}/model.ply`)
   * @returns the stored SPZ's metadata and the preview's (null for a smaller capture)
   * @throws AppError `storage/object-not-found`, `invalid-argument` (another path, or not a
   *   splat PLY), `storage/unauthorized` (not an admin), `storage/unauthenticated`
   */
  async makeWebSplat(plyPath: string): Promise<WebSplatOutcome> {
    const result = await this.identity.call(routes.webSplat, [], { json: { path: plyPath }, flavour: 'storage', check: true });
    return { file: result.file, preview: result.preview };
  }

  /**
   * Has the server make the web-sized copy of a stored GLB (`routes.webGlb`): the server
   * compresses it in a worker thread and stores it at `webGlbPath(uuid)` when it is at least 2×
   * smaller than the original.
   * @param glbPath the stored GLB (`models/{uuid}/model.glb`)
   * @returns the stored copy, or `file: null` with why none was kept
   * @throws AppError `storage/object-not-found`, `invalid-argument` (another path, or a GLB the
   *   copy cannot read), `storage/unauthorized` (not an admin), `storage/unauthenticated`
   */
  async makeWebGlb(glbPath: string): Promise<WebGlbOutcome> {
    return this.identity.call(routes.webGlb, [], { json: { path: glbPath }, flavour: 'storage', check: true });
  }

  async list(folder: string): Promise<FolderListing> {
    return this.identity.call(routes.list, [folder], { flavour: 'storage' });
  }

  async getMetadata(path: string): Promise<StoredFile> {
    const result = await this.identity.call(routes.fileMeta, [path], { flavour: 'storage', check: true });
    return result.file;
  }

  async delete(path: string): Promise<void> {
    await this.identity.call(routes.deleteFile, [path], { flavour: 'storage' });
  }

  async getDownloadUrl(path: string): Promise<string> {
    const result = await this.identity.call(routes.downloadUrl, [path], { flavour: 'storage', check: true });
    return new URL(result.url, `${this.transport.baseUrl}/`).toString();
  }
}
