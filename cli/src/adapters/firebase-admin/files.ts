/**
 * FileStorePort over Cloud Storage through the Admin SDK. Files above
 * 256 KB upload through a resumable session; Node read streams and Blobs both stream (flat
 * memory). Download links are Firebase download-token URLs (`firebaseStorageDownloadTokens`),
 * so they work in a browser tab without credentials and are not guessable.
 */
import { randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Bucket, File } from '@google-cloud/storage';
import { usesResumableUpload } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FileStorePort, FolderListing, StoredFile, UploadOptions, UploadSource } from '@shared/ports/index.js';
import { storageError } from './errors.js';
import { checkUploadTarget } from '@shared/paths.js';

/** Where download links point: the production endpoint or the Storage emulator. */
export function storageOrigin(env: NodeJS.ProcessEnv = process.env): string {
  const host = env.FIREBASE_STORAGE_EMULATOR_HOST || env.STORAGE_EMULATOR_HOST;
  if (!host) return 'https://firebasestorage.googleapis.com';
  return /^https?:\/\//.test(host) ? host.replace(/\/+$/, '') : `http://${host}`;
}

function metadataOf(file: File): StoredFile {
  const m = file.metadata;
  return {
    path: file.name,
    size: Number(m.size ?? 0),
    contentType: m.contentType ?? null,
    updated: m.updated ? new Date(m.updated).toISOString() : null,
  };
}

function toStream(source: UploadSource): { stream: Readable; size: number } {
  if (source instanceof Blob) return { stream: Readable.fromWeb(source.stream() as never), size: source.size };
  const input = source.input;
  if (input instanceof Readable) return { stream: input, size: source.size };
  throw new AppError(ErrorCode.InvalidArgument, 'Unsupported upload source: expected a Blob or a Node readable stream');
}

/** FileStorePort of the firebase-admin adapter. */
export class AdminFiles implements FileStorePort {
  /**
   * @param bucket the default bucket (`getStorage().bucket()`)
   * @param origin download-link origin, see {@link storageOrigin}
   */
  constructor(
    private readonly bucket: Bucket,
    private readonly origin: string = storageOrigin(),
  ) {}

  async upload(path: string, source: UploadSource, options: UploadOptions = {}): Promise<StoredFile> {
    checkUploadTarget(path, source);
    const { signal, onProgress } = options;
    if (signal?.aborted) throw new AppError(ErrorCode.Canceled, 'Upload canceled');
    const { stream, size } = toStream(source);
    const contentType = options.contentType ?? (source instanceof Blob && source.type ? source.type : undefined);
    const file = this.bucket.file(path);
    let sent = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        sent += chunk.length;
        onProgress?.({ bytesTransferred: Math.min(sent, size), totalBytes: size });
        callback(null, chunk);
      },
    });
    const target = file.createWriteStream({
      resumable: usesResumableUpload(size),
      contentType,
      metadata: { contentType, metadata: { firebaseStorageDownloadTokens: randomUUID() } },
      validation: false,
    });
    try {
      await pipeline(stream, counter, target, signal ? { signal } : {});
    } catch (error) {
      if (signal?.aborted) {
        await file.delete({ ignoreNotFound: true }).catch(() => undefined);
        throw new AppError(ErrorCode.Canceled, 'Upload canceled', { cause: error });
      }
      throw storageError(error, `upload ${path}`);
    }
    // The finished write stream leaves the stored object's resource on `file.metadata`: no extra request.
    return file.metadata?.size !== undefined ? metadataOf(file) : this.getMetadata(path);
  }

  async list(folder: string): Promise<FolderListing> {
    const prefix = folder === '' || folder.endsWith('/') ? folder : `${folder}/`;
    const items: StoredFile[] = [];
    const prefixes = new Set<string>();
    let pageToken: string | undefined;
    try {
      do {
        const [files, next, response] = await this.bucket.getFiles({
          prefix,
          delimiter: '/',
          autoPaginate: false,
          maxResults: 1000,
          pageToken,
        });
        for (const file of files) if (file.name !== prefix) items.push(metadataOf(file));
        for (const p of (response as { prefixes?: string[] } | undefined)?.prefixes ?? []) prefixes.add(p);
        pageToken = (next as { pageToken?: string } | null)?.pageToken;
      } while (pageToken);
    } catch (error) {
      throw storageError(error, `list ${prefix}`);
    }
    items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { items, prefixes: [...prefixes].sort() };
  }

  async getMetadata(path: string): Promise<StoredFile> {
    try {
      const file = this.bucket.file(path);
      await file.getMetadata();
      return metadataOf(file);
    } catch (error) {
      throw storageError(error, `metadata of ${path}`);
    }
  }

  async delete(path: string): Promise<void> {
    try {
      await this.bucket.file(path).delete();
    } catch (error) {
      throw storageError(error, `delete ${path}`);
    }
  }

  /**
   * Replaces the download token (`firebaseStorageDownloadTokens`) of every file under `folder`,
   * so links handed out before stop working (Firebase download-token URLs bypass the security
   * rules; a new token is the only way to revoke them).
   * @returns how many files got a new token
   * @throws AppError storage codes
   */
  async revokeDownloadUrls(folder: string): Promise<number> {
    const prefix = folder.endsWith('/') ? folder : `${folder}/`;
    try {
      const [files] = await this.bucket.getFiles({ prefix });
      await Promise.all(files.map((file) => file.setMetadata({ metadata: { firebaseStorageDownloadTokens: randomUUID() } })));
      return files.length;
    } catch (error) {
      throw storageError(error, `revoke download links under ${prefix}`);
    }
  }

  async getDownloadUrl(path: string): Promise<string> {
    const file = this.bucket.file(path);
    let token: string;
    try {
      const [metadata] = await file.getMetadata();
      const tokens = String((metadata.metadata as Record<string, unknown> | undefined)?.firebaseStorageDownloadTokens ?? '');
      token = tokens.split(',')[0] ?? '';
      if (token === '') {
        token = randomUUID();
        await file.setMetadata({ metadata: { firebaseStorageDownloadTokens: token } });
      }
    } catch (error) {
      throw storageError(error, `download link of ${path}`);
    }
    return `${this.origin}/v0/b/${encodeURIComponent(this.bucket.name)}/o/${encodeURIComponent(path)}?alt=media&token=${encodeURIComponent(token)}`;
  }
}
