/**
 * File-store port: the file storage (upload with progress and cancel, list a folder, metadata,
 * delete, download link). Paths are the storage paths
 * (`models/{uuid}/model.ply`, `models/{uuid}/images/…`), see `shared/paths.ts`.
 */

/**
 * What can be uploaded. A `Blob` (a browser `File`, or a Node `Blob`), or a platform source the
 * adapter knows how to stream: on Node, `{ size, input }` where `input` is an `fs.ReadStream`
 * opened on a path, so large files stream with flat memory and resumable uploads can re-read
 * from any offset.
 */
export type UploadSource = Blob | NativeUploadSource;

export interface NativeUploadSource {
  /** Total size in bytes. */
  size: number;
  /** Platform-specific input, passed to the upload library as is. */
  input: unknown;
  /** File name, for logs and content-type guessing. */
  name?: string;
  /**
   * Path of the local file, when there is one: lets callers look at the file (its modification
   * time) without touching `input`, which may open it. The store consumes `input`: it reads it
   * to its end or destroys it.
   */
  localPath?: string;
}

/** Progress of one upload. Both in bytes. */
export interface UploadProgress {
  bytesTransferred: number;
  totalBytes: number;
}

/** Storage upload task states. */
export type UploadTaskState = 'running' | 'paused' | 'success' | 'canceled' | 'error';

export interface UploadOptions {
  contentType?: string;
  /** Called as bytes are acknowledged by the server. */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting cancels the upload; the promise rejects with AppError `storage/canceled`. */
  signal?: AbortSignal;
}

/** One file of {@link FileStorePort.uploadBatch}. */
export interface BatchUploadItem {
  /** Storage path to write. */
  path: string;
  /** At most 256 KB (larger files are uploaded resumably). */
  source: UploadSource;
  contentType?: string;
}

/** Options of {@link FileStorePort.uploadBatch}. */
export interface BatchUploadOptions {
  /** Called as the batch's bytes are sent (totalBytes: the whole batch). */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting cancels the batch; the promise rejects with AppError `storage/canceled` and nothing is stored. */
  signal?: AbortSignal;
}

/** Metadata of a stored file. size in bytes; updated is an ISO timestamp. */
export interface StoredFile {
  path: string;
  size: number;
  contentType?: string | null;
  updated?: string | null;
}

/** What making a web-sized splat came to (`FileStorePort.makeWebSplat`). */
export interface WebSplatOutcome {
  /** The stored copy (`models/{uuid}/model.spz`). */
  file: StoredFile;
  /**
   * The stored preview (`models/{uuid}/model.preview.spz`), made for a capture of more than
   * 400,000 Gaussians; else null.
   */
  preview: StoredFile | null;
}

/** What making a web-sized GLB came to (`FileStorePort.makeWebGlb`). */
export interface WebGlbOutcome {
  /** The stored copy, or null when none was kept. */
  file: StoredFile | null;
  /** Why none was kept (e.g. 'the copy would be 7.9 MB of 10.2 MB, not 2× smaller'), else null. */
  skipped: string | null;
}

/** Result of listing one folder level (as Cloud Storage's list with delimiter '/'). */
export interface FolderListing {
  /** Files directly in the folder. */
  items: StoredFile[];
  /** Sub-folders, as paths ending in '/'. */
  prefixes: string[];
}

export interface FileStorePort {
  /**
   * Uploads `source` to `path`, replacing any file there. Files above 256 KB use a
   * resumable upload.
   * @returns the stored file's metadata
   * @throws AppError `storage/unauthorized` (non-admin), `storage/canceled`, `network`
   */
  upload(path: string, source: UploadSource, options?: UploadOptions): Promise<StoredFile>;

  /**
   * Optional: stores several small files (each at most 256 KB) in one request, all or none:
   * on any failure nothing of the batch is stored. Backends with a per-request cost worth
   * saving (the embedded backend) have it; the others (Firebase) leave it out, and callers
   * upload file by file ({@link import('../workflows/util.js').uploadFiles} does both).
   * @param items the files, at most `UPLOAD_BATCH_MAX_FILES` and `UPLOAD_BATCH_MAX_BYTES` (shared/constants.ts) in all
   * @returns the stored files' metadata, in the order of `items`
   * @throws AppError `invalid-argument` (a bad path, a file over 256 KB, too many files),
   *   `storage/unauthorized`, `storage/canceled`, `network`
   */
  uploadBatch?(items: readonly BatchUploadItem[], options?: BatchUploadOptions): Promise<StoredFile[]>;

  /** Lists one folder level. A missing folder lists as empty. */
  list(folder: string): Promise<FolderListing>;

  /**
   * Metadata of one file.
   * @throws AppError `storage/object-not-found`
   */
  getMetadata(path: string): Promise<StoredFile>;

  /**
   * Deletes one file.
   * @throws AppError `storage/object-not-found`
   */
  delete(path: string): Promise<void>;

  /**
   * Optional: makes every download link handed out for the files under `folder` stop working
   * (new download tokens), as when a model is hidden. The embedded backend does this itself on
   * the server when a model is hidden or deleted, so its adapter leaves this out; the
   * firebase-admin adapter has it (Firebase download tokens bypass the security rules); the web
   * SDK cannot change download tokens, so the portal's Firebase adapter leaves it out.
   * @param folder a folder path, e.g. `models/{uuid}/`
   * @returns how many files got a new token
   */
  revokeDownloadUrls?(folder: string): Promise<number>;

  /**
   * Optional: makes the web-sized copy of a stored splat (PLY or .splat), SPZ v3 at
   * `models/{uuid}/model.spz` ({@link import('../paths.js').webSplatPath}), on the machine that
   * holds the file. The embedded backend has it (its server compresses in a worker thread);
   * Firebase has no server of this product, so its adapters leave it out and the workflow uses
   * the platform's `compressSplat` (the CLI) or notes that none was made (the portal; `catalog
   * doctor --fix` makes it later). A capture of more than 400,000 Gaussians also gets its
   * preview, `models/{uuid}/model.preview.spz` ({@link import('../paths.js').webSplatPreviewPath}).
   * @param plyPath the stored splat (`models/{uuid}/model.ply` or `model.splat`)
   * @returns the stored SPZ's metadata and that of the preview (null for a smaller capture)
   * @throws AppError `storage/object-not-found`, `invalid-argument` (not a splat PLY),
   *   `storage/unauthorized`
   */
  makeWebSplat?(plyPath: string): Promise<WebSplatOutcome>;

  /**
   * Optional: makes the web-sized copy of a stored GLB, `models/{uuid}/model.web.glb`
   * ({@link import('../paths.js').webGlbPath}: geometry compressed with EXT_meshopt_compression,
   * textures resized to at most 2048 px and re-encoded as WebP), on the machine that holds the
   * file, and stores it only when it is at least 2× smaller than the original
   * ({@link import('../paths.js').webGlbRefusal}). The embedded backend has it (its server
   * compresses in a worker thread); the Firebase adapters leave it out (the workflow then uses
   * the platform's `compressGlb`, or notes that none was made).
   * @param glbPath the stored GLB (`models/{uuid}/model.glb`)
   * @returns the stored copy, or `file: null` with why none was kept
   * @throws AppError `storage/object-not-found`, `invalid-argument` (another path, or a GLB the
   *   copy cannot read), `storage/unauthorized`
   */
  makeWebGlb?(glbPath: string): Promise<WebGlbOutcome>;

  /**
   * A download/viewing link that works in a new browser tab without other credentials and
   * cannot be guessed (it carries an unguessable token). Supports HTTP range requests.
   * @throws AppError `storage/object-not-found`
   */
  getDownloadUrl(path: string): Promise<string>;
}
