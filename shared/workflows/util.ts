import { guessContentType } from '../content-type.js';
import pLimit from 'p-limit';
import { UPLOAD_BATCH_MAX_BYTES, UPLOAD_BATCH_MAX_FILES, usesResumableUpload } from '../constants.js';
import { AppError, ErrorCode } from '../errors.js';
import type { FileStorePort, StoredFile, UploadProgress, UploadSource } from '../ports/files.js';
import type { Backend } from '../ports/index.js';
import type { Model } from '../types.js';

/** The ports the model-file workflows use: the catalog (the model's record) and the file store. */
export type FilesBackend = Pick<Backend, 'catalog' | 'files'>;

/**
 * Reads a model's record.
 * @param backend the catalog port
 * @param modelId the model's id
 * @returns the model
 * @throws AppError `not-found` ('Model {id} not found', context `{modelId}`)
 */
export async function getModel(backend: Pick<Backend, 'catalog'>, modelId: string): Promise<Model> {
  const model = await backend.catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
  return model;
}

/** A model's storage uuid (its folder `models/{uuid}/`): its `uuid`, or its id for a record without one. */
export const uuidOf = (model: Model): string => model.uuid || model.id;

/** Throws AppError `invalid-argument` carrying a validator's message, or returns its value. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!result.ok) throw new AppError(ErrorCode.InvalidArgument, result.message);
  return result.value;
}

/**
 * Every file path under `folder` (recursively, through sub-folder prefixes).
 * @param files the file-store port
 * @param folder a folder path such as `models/{uuid}` (with or without a trailing '/')
 * @returns storage paths of every file found, in listing order
 */
export async function listFilesDeep(files: FileStorePort, folder: string): Promise<string[]> {
  const listing = await files.list(folder);
  const paths = listing.items.map((item) => item.path);
  for (const prefix of listing.prefixes) paths.push(...(await listFilesDeep(files, prefix)));
  return paths;
}

/**
 * Deletes the given files, ignoring files already gone.
 * @returns the paths that could not be deleted (other errors)
 */
export async function deleteFilesQuietly(files: FileStorePort, paths: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const path of paths) {
    try {
      await files.delete(path);
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.ObjectNotFound)) failed.push(path);
    }
  }
  return failed;
}

/** Per-file status. */
export type FileStatus = 'waiting' | 'uploading' | 'completed' | 'error';

/** Files sent at once by the upload workflows (a small file costs a few round trips; 4 hide them). */
export const FILE_UPLOAD_CONCURRENCY = 4;

/** Batches of small files sent at once by {@link uploadFiles} (each is held in memory while sent). */
export const UPLOAD_BATCHES_IN_FLIGHT = 1;

/** One file of an upload plan. */
export interface FileUpload {
  /** The key reported to `onFile` (e.g. 'splat', `images/{name}`). */
  key: string;
  /** Storage path to write. */
  path: string;
  source: UploadSource;
  contentType?: string;
}

/** One request's worth of an upload plan: a single file, or a batch of small files. */
interface UploadUnit {
  batch: boolean;
  items: FileUpload[];
}

/**
 * Groups a plan into units of work: each file above the resumable threshold alone; when the
 * store has `uploadBatch`, consecutive small files together, up to {@link UPLOAD_BATCH_MAX_FILES}
 * files and {@link UPLOAD_BATCH_MAX_BYTES} bytes per unit (one request instead of one per file).
 */
function uploadUnits(files: FileStorePort, plan: readonly FileUpload[]): UploadUnit[] {
  if (typeof files.uploadBatch !== 'function') return plan.map((item) => ({ batch: false, items: [item] }));
  const units: UploadUnit[] = [];
  let batch: FileUpload[] = [];
  let bytes = 0;
  const flush = (): void => {
    if (batch.length > 0) units.push({ batch: true, items: batch });
    batch = [];
    bytes = 0;
  };
  for (const item of plan) {
    const size = item.source.size;
    if (usesResumableUpload(size)) {
      units.push({ batch: false, items: [item] });
      continue;
    }
    if (batch.length >= UPLOAD_BATCH_MAX_FILES || bytes + size > UPLOAD_BATCH_MAX_BYTES) flush();
    batch.push(item);
    bytes += size;
  }
  flush();
  return units;
}

/**
 * Uploads a plan of files, at most `concurrency` requests at once, reporting each file's status.
 * Small files (up to 256 KB) go in batches when the store has `uploadBatch` (each batch all or
 * none; its files report 'uploading' together and 'completed' together); every other file in
 * its own upload. The first failure stops the rest: files not started stay 'waiting', files in
 * flight are canceled and reported 'error'. Every file stored completely is appended to
 * `uploaded` as it lands, also when the whole upload fails, so that the caller can remove them.
 * @param files the file-store port
 * @param plan the files to send, in the order to start them
 * @param uploaded receives the storage path of every file stored
 * @param options.concurrency uploads (single files or batches) at once (default {@link FILE_UPLOAD_CONCURRENCY})
 * @param options.signal aborting cancels every upload
 * @param options.onFile per-file status, progress in bytes
 * @returns the stored metadata of each file, by key
 * @throws the first upload error (AppError `storage/canceled` when `signal` was aborted)
 */
export async function uploadFiles(
  files: FileStorePort,
  plan: readonly FileUpload[],
  uploaded: string[],
  options: {
    concurrency?: number;
    signal?: AbortSignal;
    onFile?: (key: string, status: FileStatus, progress?: UploadProgress) => void;
  } = {},
): Promise<Map<string, StoredFile>> {
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const limit = pLimit(Math.max(1, options.concurrency ?? FILE_UPLOAD_CONCURRENCY));
  // A batch holds up to UPLOAD_BATCH_MAX_BYTES in memory (several copies inside fetch) while it
  // is sent: one at a time, beside the large files (measured: two at once pushed the CLI's peak
  // RSS over 150 MB in `npm run bench:upload` for no clear gain in time).
  const batchLimit = pLimit(UPLOAD_BATCHES_IN_FLIGHT);
  const stored = new Map<string, StoredFile>();
  let failure: { error: unknown } | undefined;
  const store = async ({ batch, items }: UploadUnit): Promise<StoredFile[]> => {
    if (batch) {
      const batchItems = items.map((item) => ({
        path: item.path,
        source: item.source,
        contentType: item.contentType ?? guessContentType(item.path),
      }));
      return (files as Required<Pick<FileStorePort, 'uploadBatch'>>).uploadBatch(batchItems, { signal: stop.signal });
    }
    const [item] = items;
    return [
      await files.upload(item.path, item.source, {
        contentType: item.contentType ?? guessContentType(item.path),
        signal: stop.signal,
        onProgress: (progress) => options.onFile?.(item.key, 'uploading', progress),
      }),
    ];
  };
  const send = async (unit: UploadUnit): Promise<void> => {
    if (stop.signal.aborted) return;
    for (const item of unit.items) options.onFile?.(item.key, 'uploading', { bytesTransferred: 0, totalBytes: item.source.size });
    try {
      const results = await store(unit);
      unit.items.forEach((item, i) => {
        const file = results[i];
        uploaded.push(item.path);
        stored.set(item.key, file);
        options.onFile?.(item.key, 'completed', { bytesTransferred: file.size, totalBytes: file.size });
      });
    } catch (error) {
      for (const item of unit.items) options.onFile?.(item.key, 'error');
      // The first real failure wins over the cancels it causes in the other files.
      if (failure === undefined) failure = { error };
      stop.abort(error);
    }
  };
  try {
    // A batch waits for its turn before it takes one of the `concurrency` slots, so that waiting
    // batches never hold up the large files behind them.
    await Promise.all(
      uploadUnits(files, plan).map((unit) => (unit.batch ? batchLimit(() => limit(() => send(unit))) : limit(() => send(unit)))),
    );
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  if (options.signal?.aborted) throw new AppError(ErrorCode.Canceled, 'The upload was canceled', { cause: options.signal.reason });
  if (failure !== undefined) throw failure.error;
  return stored;
}
