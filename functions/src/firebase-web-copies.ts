/**
 * The stored web-sized copies' ports (`shared/ports/stored-web-copies.ts`) on Firebase, through
 * firebase-admin as the functions' service account: the splat's generation downloaded to a
 * temporary folder (in Cloud Functions `/tmp` is memory: the function's memory is sized for it),
 * the copy made there by the embedded server's copy maker (`compressSplatFile`, a worker thread
 * running the SPZ library's WebAssembly) and uploaded beside the splat; each copy's record in
 * `webCopies/{sha256 of the splat's path}` (no client may read or write it: firestore.rules has no
 * grant for it); models changed in Firestore transactions that also read that record.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Bucket } from '@google-cloud/storage';
import type { Firestore } from 'firebase-admin/firestore';
import { FieldValue } from 'firebase-admin/firestore';
import { fromFirestoreData, toFirestoreData } from '@shared/adapters/common.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { fileNameOf, parseModelPath, webSplatPath, webSplatPreviewPath } from '@shared/paths.js';
import type { StoredFileChecksPort, StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import type { StoredWebCopiesPort, StoredWebCopy } from '@shared/ports/stored-web-copies.js';
import type { Model } from '@shared/types.js';
import { compressSplatFile, PREVIEW_GAUSSIANS, readSplatLayout } from '../../cli/src/lib/web-splat.js';
import { checkRecordId, recordUnlessNewer } from './firebase-stored-file-checks.js';

/** The collection of the copies' records. */
export const WEB_COPIES_COLLECTION = 'webCopies';

/**
 * The largest splat copied here, in bytes (1.5 GiB, about 6.5 million Gaussians of a degree-3
 * training PLY): in Cloud Functions the download and the copy's working files are held in memory
 * (`/tmp`), 1.4 bytes for each byte of a PLY at degree 3, beside the copy maker's own 700 MiB, and
 * the functions have 4 GiB (docs/FUNCTIONS.md says how this was measured). A larger splat is
 * recorded as not copied, with why, instead of failing the function again on every retry.
 */
export const WEB_SPLAT_MAX_SOURCE_BYTES = 1.5 * 1024 * 1024 * 1024;

/**
 * The most Gaussians copied here (8 million): the copy took 42 s a million (measured on a 2-core
 * shared machine, SH degree 3), and the functions stop at 540 s. A `.splat` (32 bytes a Gaussian)
 * or a low-degree PLY under {@link WEB_SPLAT_MAX_SOURCE_BYTES} may hold more; it is recorded as
 * not copied, with why, rather than timing out on every retry.
 */
export const WEB_SPLAT_MAX_GAUSSIANS = 8_000_000;

/** The worker script's file name beside the bundle (scripts/build-functions.mjs writes it). */
export const WEB_SPLAT_WORKER_FILE = 'web-splat-worker.mjs';

/**
 * The copy maker's worker script: the bundled one beside `lib/index.js` when this runs from the
 * bundle, else (the TypeScript sources, under tests) the CLI's own, which `compressSplatFile` finds.
 */
function bundledWorker(): string | undefined {
  const beside = typeof __dirname === 'string' ? join(__dirname, WEB_SPLAT_WORKER_FILE) : null;
  return beside !== null && existsSync(beside) ? beside : undefined;
}

/** A Timestamp of any copy of the SDK (no instanceof). */
const isTimestamp = (value: unknown): value is { toDate(): Date } =>
  value !== null && typeof value === 'object' && typeof (value as { toDate?: unknown }).toDate === 'function';

/** True for Cloud Storage's 404 (the object, or that generation of it, is not stored). */
function isNotFound(error: unknown): boolean {
  const status = (error as { code?: unknown } | null)?.code;
  return status === 404 || status === '404';
}

/**
 * The stored web-sized copies' ports over firebase-admin.
 * @param db the Firestore of the functions' app
 * @param bucket the bucket the splat is in
 * @param checks the stored-file checks' ports over the same database and bucket (stat, checks, models)
 */
export function firebaseStoredWebCopies(db: Firestore, bucket: Bucket, checks: StoredFileChecksPort): StoredWebCopiesPort {
  const records = db.collection(WEB_COPIES_COLLECTION);
  const recordRef = (source: string) => records.doc(checkRecordId(source));
  const recordOf = (data: Record<string, unknown> | undefined): StoredWebCopy | null =>
    data === undefined ? null : (fromFirestoreData(data, isTimestamp) as StoredWebCopy);

  /** Uploads a local file to `path` with a download token, as the clients' uploads have. */
  async function upload(local: string, path: string, sourceGeneration: string): Promise<StoredObjectVersion> {
    const [file] = await bucket.upload(local, {
      destination: path,
      resumable: false,
      metadata: {
        contentType: 'application/octet-stream',
        metadata: { firebaseStorageDownloadTokens: randomUUID(), sourceGeneration },
      },
    });
    const [metadata] = await file.getMetadata();
    return { path, generation: String(metadata.generation), size: Number(metadata.size ?? 0) };
  }

  return {
    stat: (path) => checks.stat(path),
    recordedChecks: (paths) => checks.recordedChecks(paths),
    readModel: (modelId) => checks.readModel(modelId),

    async recordedWebCopy(source) {
      return recordOf((await recordRef(source).get()).data());
    },

    recordWebCopy: (record) =>
      recordUnlessNewer(
        db,
        recordRef(record.source),
        (stored) => recordOf(stored)?.sourceGeneration ?? null,
        record,
        record.sourceGeneration,
      ),

    async makeWebSplat(source) {
      const parsed = parseModelPath(source.path);
      if (parsed === null) return null;
      if (source.size > WEB_SPLAT_MAX_SOURCE_BYTES) {
        const gib = (bytes: number) => `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
        throw new AppError(
          ErrorCode.InvalidArgument,
          `The web-sized copy is not made by the Cloud Functions: ${fileNameOf(source.path)} is ${gib(source.size)}, more than their ${gib(WEB_SPLAT_MAX_SOURCE_BYTES)}; 'catalog doctor --fix' makes it on a machine of yours.`,
          { context: { path: source.path, size: source.size } },
        );
      }
      const dir = await mkdtemp(join(tmpdir(), 'web-splat-'));
      try {
        const name = fileNameOf(source.path);
        const input = join(dir, name);
        try {
          await bucket.file(source.path, { generation: source.generation }).download({ destination: input, validation: false });
        } catch (error) {
          if (isNotFound(error)) return null;
          throw error;
        }
        const { count } = await readSplatLayout(input, name);
        if (count > WEB_SPLAT_MAX_GAUSSIANS) {
          throw new AppError(
            ErrorCode.InvalidArgument,
            `The web-sized copy is not made by the Cloud Functions: ${name} has ${count.toLocaleString('en-US')} Gaussians, more than their ${WEB_SPLAT_MAX_GAUSSIANS.toLocaleString('en-US')}; 'catalog doctor --fix' makes it on a machine of yours.`,
            { context: { path: source.path, count } },
          );
        }
        const output = join(dir, 'model.spz');
        const previewOutput = join(dir, 'model.preview.spz');
        const result = await compressSplatFile(input, output, name, {
          preview: { output: previewOutput, gaussians: PREVIEW_GAUSSIANS },
          worker: bundledWorker(),
        });
        // /tmp is memory in Cloud Functions: the splat is freed before the copies are uploaded
        await rm(input, { force: true });
        // a splat written again meanwhile: its own event makes its copy
        if ((await checks.stat(source.path))?.generation !== source.generation) return null;
        const copy = await upload(output, webSplatPath(parsed.uuid), source.generation);
        let preview: StoredObjectVersion | null = null;
        if (result.preview !== null) preview = await upload(previewOutput, webSplatPreviewPath(parsed.uuid), source.generation);
        else {
          await bucket
            .file(webSplatPreviewPath(parsed.uuid))
            .delete()
            .catch((error: unknown) => {
              if (!isNotFound(error)) throw error;
            });
        }
        return { copy, preview };
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async updateModel(modelId, source, decide) {
      const ref = db.collection('models').doc(modelId);
      return db.runTransaction(async (tx) => {
        const [snapshot, recorded] = await tx.getAll(ref, recordRef(source));
        if (!snapshot!.exists) return null;
        const model = { ...(fromFirestoreData(snapshot!.data(), isTimestamp) as object), id: snapshot!.id } as Model;
        const update = decide(model, recordOf(recorded!.data()));
        if (update === null) return null;
        tx.update(
          ref,
          toFirestoreData(update, 'update', () => FieldValue.serverTimestamp()),
        );
        return update;
      });
    },
  };
}
