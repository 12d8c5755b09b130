/**
 * Resumable, idempotent uploads for the CLI:
 * - a model's uuid (its storage folder) is derived from its identity, the publicId within the
 *   project, so that a re-run after an interruption writes to the same paths: tus resumes the
 *   interrupted file (its URL is kept in `<dataDir>/.upload-urls.json`), and files already
 *   stored completely are not sent again;
 * - a file-store decorator that skips a file already stored at its path with the same size and
 *   not older than the local file, and counts the bytes really sent.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import type {
  BatchUploadItem,
  BatchUploadOptions,
  FileStorePort,
  NativeUploadSource,
  StoredFile,
  UploadOptions,
  UploadSource,
} from '@shared/ports/files.js';
import { createPromiseCache } from '@shared/promise-cache.js';

/**
 * The uuid of the model `publicId` of project `projectId`: a name-based UUID (SHA-256, version
 * nibble 5), the same on every run.
 * @param projectId the project's id
 * @param publicId the model's public ID (trimmed)
 * @returns a UUID string `xxxxxxxx-xxxx-5xxx-yxxx-xxxxxxxxxxxx`
 */
export function stableModelUuid(projectId: string, publicId: string): string {
  const hex = createHash('sha256').update(`catalog-model\u0000${projectId}\u0000${publicId.trim()}`).digest('hex');
  const variant = ((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Byte counters of a {@link resumingFiles} store. All in bytes. */
export interface TransferCounters {
  /** Bytes sent over the network by this process. */
  sent: number;
  /** Bytes of files skipped because they were already stored. */
  skipped: number;
  /** Bytes not re-sent because an interrupted upload resumed past them. */
  resumed: number;
}

function localMtimeMs(source: UploadSource): number | null {
  const native = source as NativeUploadSource;
  // localPath first: reading `input` may open the file.
  const input = native.localPath === undefined ? (native.input as { path?: unknown } | undefined) : undefined;
  const path = native.localPath ?? (input && typeof input.path === 'string' ? input.path : null);
  if (path === null) return null;
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/**
 * A store consumes an upload's input (reads it to its end or destroys it): a skipped file's
 * already-open stream is destroyed. A source with `localPath` opens its stream only when `input`
 * is read, so it is left alone.
 */
function release(source: UploadSource): void {
  const native = source as NativeUploadSource;
  if (native.localPath !== undefined) return;
  (native.input as { destroy?: () => void } | undefined)?.destroy?.();
}

/**
 * Wraps a file store so that uploads are idempotent and their bytes counted:
 * a file already stored at its path (when the store was first listed: one listing per folder)
 * with the same size, stored after the local file was last modified, is not sent again (its metadata is returned and progress reported complete).
 * Resumed tus uploads report their starting offset as their first progress; what lies before it
 * is counted as `resumed`, not `sent`. When the inner store has `uploadBatch`, so has this one:
 * the files of a batch already stored are left out of the request.
 * @param inner the backend's file store
 * @returns the wrapping store and its live counters
 */
export function resumingFiles(inner: FileStorePort): { files: FileStorePort; counters: TransferCounters } {
  const counters: TransferCounters = { sent: 0, skipped: 0, resumed: 0 };
  // one listing per folder (not one request per file): what was stored before this process began
  const listings = createPromiseCache<Map<string, StoredFile>>();
  const storedAt = async (path: string): Promise<StoredFile | null> => {
    const folder = path.slice(0, path.lastIndexOf('/') + 1);
    const listing = await listings.get(folder, () => inner.list(folder).then((l) => new Map(l.items.map((item) => [item.path, item]))));
    return listing.get(path) ?? null;
  };
  /** The stored file when `source` is already at `path` (same size, stored after the local file changed); counts it as skipped. */
  const alreadyStored = async (path: string, source: UploadSource): Promise<StoredFile | null> => {
    const existing = await storedAt(path);
    if (existing === null || existing.size !== source.size) return null;
    const mtime = localMtimeMs(source);
    const updated = existing.updated ? Date.parse(existing.updated) : Number.NaN;
    if (mtime !== null && !Number.isNaN(updated) && updated < mtime) return null;
    release(source);
    counters.skipped += existing.size;
    return existing;
  };
  const files: FileStorePort = {
    list: (folder) => inner.list(folder),
    getMetadata: (path) => inner.getMetadata(path),
    delete: (path) => inner.delete(path),
    getDownloadUrl: (path) => inner.getDownloadUrl(path),
    async upload(path: string, source: UploadSource, options: UploadOptions = {}): Promise<StoredFile> {
      const existing = await alreadyStored(path, source);
      if (existing !== null) {
        options.onProgress?.({ bytesTransferred: existing.size, totalBytes: existing.size });
        return existing;
      }
      let first: number | null = null;
      const stored = await inner.upload(path, source, {
        ...options,
        onProgress: (progress) => {
          if (first === null) first = progress.bytesTransferred;
          options.onProgress?.(progress);
        },
      });
      const start = first ?? 0;
      counters.resumed += start;
      counters.sent += Math.max(0, stored.size - start);
      return stored;
    },
  };
  // the store makes web-sized splats and GLBs itself when it can (the embedded server)
  if (inner.makeWebSplat) files.makeWebSplat = inner.makeWebSplat.bind(inner);
  if (inner.makeWebGlb) files.makeWebGlb = inner.makeWebGlb.bind(inner);
  if (inner.uploadBatch) {
    const uploadBatch = inner.uploadBatch.bind(inner);
    files.uploadBatch = async (items: readonly BatchUploadItem[], options: BatchUploadOptions = {}): Promise<StoredFile[]> => {
      const results: Array<StoredFile | null> = await Promise.all(items.map((item) => alreadyStored(item.path, item.source)));
      const missing = items.filter((_, i) => results[i] === null);
      if (missing.length > 0) {
        const stored = await uploadBatch(missing, options);
        let next = 0;
        for (let i = 0; i < results.length; i++) if (results[i] === null) results[i] = stored[next++];
        counters.sent += stored.reduce((sum, file) => sum + file.size, 0);
      }
      return results as StoredFile[];
    };
  }
  return { files, counters };
}
