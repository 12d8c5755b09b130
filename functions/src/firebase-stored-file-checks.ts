/**
 * The stored-file checks' ports (`shared/ports/stored-file-checks.ts`) on Firebase, through
 * firebase-admin as the functions' service account (no security rules): Cloud Storage objects read
 * by generation, a range at a time; each file's latest check in `fileChecks/{sha256 of its path}`
 * (a collection no client may read or write: firestore.rules has no grant for it but admins'
 * reads); models changed in Firestore transactions that also read those records.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Bucket } from '@google-cloud/storage';
import type { Firestore } from 'firebase-admin/firestore';
import { FieldValue } from 'firebase-admin/firestore';
import { fromFirestoreData, toFirestoreData } from '@shared/adapters/common.js';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { ModelChecksWrite, StoredFileCheck, StoredFileChecksPort, StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import type { Model } from '@shared/types.js';

/** The collection of the checks' records. */
export const FILE_CHECKS_COLLECTION = 'fileChecks';

/**
 * Bytes fetched per request while a check reads a stored file (8 MiB): the checks read 1 MiB at a
 * time, so a 512 MiB GLB takes 64 requests instead of 512, and at most this much is held besides
 * what the check itself keeps.
 */
export const READ_WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * Writes a record in one transaction unless the stored one was made from the same or a newer
 * Cloud Storage generation (generations are decimal strings of 64-bit numbers): a re-delivered
 * event, or one overtaken by a newer version of the object, writes nothing.
 * @param db the Firestore the record lives in
 * @param ref the record's document
 * @param generationOf the generation a stored record was made from, or null when there is none (or it is malformed)
 * @param record the record to write
 * @param generation the generation it was made from
 * @returns true when it was written
 */
export function recordUnlessNewer(
  db: Firestore,
  ref: FirebaseFirestore.DocumentReference,
  generationOf: (stored: FirebaseFirestore.DocumentData | undefined) => string | null,
  record: object,
  generation: string,
): Promise<boolean> {
  return db.runTransaction(async (tx) => {
    const recorded = generationOf((await tx.get(ref)).data());
    if (recorded !== null && BigInt(recorded) >= BigInt(generation)) return false;
    tx.set(ref, { ...record });
    return true;
  });
}

/** The document id of a path's record: the SHA-256 of the path in hex (a path may hold '/' and be longer than an id may be). */
export function checkRecordId(path: string): string {
  return createHash('sha256').update(path).digest('hex');
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
 * A stored object's generation as a byte source: reads go to that generation only (a later write
 * of the path makes them fail with `storage/object-not-found`), fetched {@link READ_WINDOW_BYTES}
 * ahead.
 */
function generationSource(bucket: Bucket, object: StoredObjectVersion, name: string): ByteSource {
  const file = bucket.file(object.path, { generation: object.generation });
  let window: { offset: number; bytes: Uint8Array } | null = null;
  return {
    name,
    size: object.size,
    async read(offset, length) {
      const end = Math.min(object.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      if (window === null || offset < window.offset || end > window.offset + window.bytes.byteLength) {
        const last = Math.min(object.size, Math.max(end, offset + READ_WINDOW_BYTES)) - 1;
        try {
          const [buffer] = await file.download({ start: offset, end: last, validation: false });
          window = { offset, bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength) };
        } catch (error) {
          if (isNotFound(error)) {
            throw new AppError(ErrorCode.ObjectNotFound, `No file at ${object.path} (generation ${object.generation})`, {
              cause: error,
              context: { path: object.path },
            });
          }
          throw error;
        }
      }
      return window.bytes.subarray(offset - window.offset, end - window.offset);
    },
  };
}

/**
 * The stored-file checks' ports over firebase-admin.
 * @param db the Firestore of the functions' app
 * @param bucket the bucket the files are in (the event's; the default bucket for model writes)
 */
export function firebaseStoredFileChecks(db: Firestore, bucket: Bucket): StoredFileChecksPort {
  const records = db.collection(FILE_CHECKS_COLLECTION);
  const recordRef = (path: string) => records.doc(checkRecordId(path));
  const checkOf = (data: Record<string, unknown> | undefined): StoredFileCheck | null =>
    data === undefined ? null : (fromFirestoreData(data, isTimestamp) as StoredFileCheck);

  return {
    async stat(path) {
      try {
        const [metadata] = await bucket.file(path).getMetadata();
        return { path, generation: String(metadata.generation), size: Number(metadata.size ?? 0) };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    open(object, name) {
      return generationSource(bucket, object, name);
    },

    async recordedChecks(paths) {
      const found = new Map<string, StoredFileCheck>();
      if (paths.length === 0) return found;
      const snapshots = await db.getAll(...paths.map(recordRef));
      for (const snapshot of snapshots) {
        const check = checkOf(snapshot.data());
        if (check) found.set(check.path, check);
      }
      return found;
    },

    recordCheck: (check) =>
      recordUnlessNewer(db, recordRef(check.path), (stored) => checkOf(stored)?.generation ?? null, check, check.generation),

    async readModel(modelId) {
      const snapshot = await db.collection('models').doc(modelId).get();
      return snapshot.exists ? ({ ...(fromFirestoreData(snapshot.data(), isTimestamp) as object), id: snapshot.id } as Model) : null;
    },

    async updateModel(modelId, pathsOf, decide): Promise<ModelChecksWrite | null> {
      const ref = db.collection('models').doc(modelId);
      return db.runTransaction(async (tx) => {
        const snapshot = await tx.get(ref);
        if (!snapshot.exists) return null;
        const model = { ...(fromFirestoreData(snapshot.data(), isTimestamp) as object), id: snapshot.id } as Model;
        const paths = pathsOf(model);
        const checks = new Map<string, StoredFileCheck>();
        if (paths.length > 0) {
          for (const recorded of await tx.getAll(...paths.map(recordRef))) {
            const check = checkOf(recorded.data());
            if (check) checks.set(check.path, check);
          }
        }
        const update = decide(model, checks);
        if (update === null) return null;
        tx.update(
          ref,
          toFirestoreData(update, 'update', () => FieldValue.serverTimestamp()),
        );
        return { before: model, update };
      });
    },

    // As the CLI's firebase-admin file store revokes links when a model is hidden: a new
    // `firebaseStorageDownloadTokens` on every file of the folder (a metadata update: no new
    // generation, so no check runs again).
    async revokeDownloadUrls(folder) {
      const [files] = await bucket.getFiles({ prefix: folder });
      await Promise.all(files.map((file) => file.setMetadata({ metadata: { firebaseStorageDownloadTokens: randomUUID() } })));
      return files.length;
    },
  };
}
