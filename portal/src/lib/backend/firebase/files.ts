/**
 * FileStorePort over Cloud Storage for Firebase: uploads with
 * `uploadBytesResumable` progress above 256 KB (`uploadBytes`, one multipart POST, below),
 * cancel through an AbortSignal, one-level listings, metadata, deletion and download URLs.
 */
import { deleteObject, getDownloadURL, getMetadata, list as listPage, ref, uploadBytes, uploadBytesResumable } from 'firebase/storage';
import type { FirebaseStorage, FullMetadata, ListResult } from 'firebase/storage';
import { usesResumableUpload } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FileStorePort, FolderListing, StoredFile, UploadOptions, UploadSource } from '@shared/ports/index.js';
import { mapStorageError } from './errors.js';
import { checkUploadTarget } from '@shared/paths.js';

function stored(metadata: FullMetadata): StoredFile {
  return { path: metadata.fullPath, size: metadata.size, contentType: metadata.contentType ?? null, updated: metadata.updated ?? null };
}

/** FileStorePort of the portal's Firebase adapter. */
export class FirebaseFiles implements FileStorePort {
  /** @param storage the Storage instance (default bucket) */
  constructor(private readonly storage: FirebaseStorage) {}

  async upload(path: string, source: UploadSource, options: UploadOptions = {}): Promise<StoredFile> {
    checkUploadTarget(path, source);
    const { signal, onProgress } = options;
    if (signal?.aborted) throw new AppError(ErrorCode.Canceled, 'Upload canceled');
    if (!(source instanceof Blob)) throw new AppError(ErrorCode.InvalidArgument, 'The portal uploads Blobs (browser Files) only');
    const target = ref(this.storage, path);
    const metadata = options.contentType || source.type ? { contentType: options.contentType || source.type } : undefined;
    if (!usesResumableUpload(source.size)) {
      try {
        const result = await uploadBytes(target, source, metadata);
        if (signal?.aborted) {
          await deleteObject(target).catch(() => undefined);
          throw new AppError(ErrorCode.Canceled, 'Upload canceled');
        }
        onProgress?.({ bytesTransferred: source.size, totalBytes: source.size });
        return stored(result.metadata);
      } catch (error) {
        throw mapStorageError(error);
      }
    }
    const task = uploadBytesResumable(target, source, metadata);
    const abort = (): void => {
      task.cancel();
    };
    signal?.addEventListener('abort', abort, { once: true });
    try {
      await new Promise<void>((resolve, reject) => {
        task.on(
          'state_changed',
          (snapshot) => onProgress?.({ bytesTransferred: snapshot.bytesTransferred, totalBytes: snapshot.totalBytes }),
          reject,
          () => resolve(),
        );
      });
      return stored(task.snapshot.metadata);
    } catch (error) {
      throw mapStorageError(error);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  async list(folder: string): Promise<FolderListing> {
    const prefix = folder.replace(/\/+$/, '');
    const items: StoredFile[] = [];
    const prefixes: string[] = [];
    let pageToken: string | undefined;
    try {
      do {
        const page: ListResult = await listPage(
          ref(this.storage, prefix),
          pageToken ? { maxResults: 1000, pageToken } : { maxResults: 1000 },
        );
        const metas = await Promise.all(page.items.map((item) => getMetadata(item)));
        items.push(...metas.map(stored));
        prefixes.push(...page.prefixes.map((p) => `${p.fullPath}/`));
        pageToken = page.nextPageToken;
      } while (pageToken);
    } catch (error) {
      throw mapStorageError(error);
    }
    items.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return { items, prefixes: prefixes.sort() };
  }

  async getMetadata(path: string): Promise<StoredFile> {
    try {
      return stored(await getMetadata(ref(this.storage, path)));
    } catch (error) {
      throw mapStorageError(error);
    }
  }

  async delete(path: string): Promise<void> {
    try {
      await deleteObject(ref(this.storage, path));
    } catch (error) {
      throw mapStorageError(error);
    }
  }

  async getDownloadUrl(path: string): Promise<string> {
    try {
      return await getDownloadURL(ref(this.storage, path));
    } catch (error) {
      throw mapStorageError(error);
    }
  }
}
