/**
 * The web-sized copies of a Firebase deployment: what `catalog serve` does after it stores a
 * splat (its SPZ copy, and a large capture's preview), done after the splat's content check
 * passed (the rules are `shared/workflows/stored-web-copies.ts`'s). Not triggers of their own:
 * steps of the content checks' two functions (`content-checks.ts`), which see the splat stored
 * and the record that names it:
 *
 * - {@link webCopyAfterCheck}: the splat's check passed at the finalized generation;
 * - {@link webCopyForRecord}: a model record names a splat for the first time (the splat was
 *   uploaded before its record, as the portal does), or its refusal was cleared.
 *
 * Web-sized GLBs and thumbnails are not made here: their makers need sharp (libvips, a native
 * module the bundle cannot carry); docs/FUNCTIONS.md says what that would take.
 */
import { logger } from 'firebase-functions';
import type { StoredObjectVersion } from '@shared/ports/stored-file-checks.js';
import type { ModelData } from '@shared/types.js';
import type { StoredWebCopyOutcome } from '@shared/workflows/stored-web-copies.js';
import { makeStoredWebSplat, webSplatForRecord } from '@shared/workflows/stored-web-copies.js';
import { adminBucket, adminFirestore } from './admin.js';
import { firebaseStoredFileChecks } from './firebase-stored-file-checks.js';
import { firebaseStoredWebCopies } from './firebase-web-copies.js';

/** The ports over the functions' app and a bucket (default: the project's default bucket). */
function ports(bucketName?: string) {
  const db = adminFirestore();
  const bucket = adminBucket(bucketName);
  return firebaseStoredWebCopies(db, bucket, firebaseStoredFileChecks(db, bucket));
}

/** Logs what a copy step did: made or found impossible at info/warn level, the rest at debug. */
function logOutcome(path: string, outcome: StoredWebCopyOutcome | null): void {
  if (outcome === null) return;
  if (outcome.outcome === 'made' || outcome.outcome === 'already-made') {
    const { record } = outcome;
    const fields = {
      path,
      sourceGeneration: record.sourceGeneration,
      outcome: outcome.outcome,
      copy: record.copy,
      preview: record.preview,
      wrote: outcome.update,
    };
    if (record.problem !== null) logger.warn(`web-sized copy of ${path} not made: ${record.problem}`, fields);
    else logger.info(`web-sized copy of ${path}: ${outcome.outcome}`, fields);
  } else logger.debug(`web-sized copy of ${path}: ${outcome.outcome}`, { path });
}

/**
 * The copy step after a stored file's check: for a model's `.ply` or `.splat` that passed, the
 * copy of that generation (see `makeStoredWebSplat`).
 * @param bucketName the event's bucket
 * @param object the finalized object's path, generation and size
 * @throws the storage and database errors (the event is then delivered again)
 */
export async function webCopyAfterCheck(bucketName: string | undefined, object: StoredObjectVersion): Promise<StoredWebCopyOutcome> {
  const outcome = await makeStoredWebSplat(ports(bucketName), object);
  logOutcome(object.path, outcome);
  return outcome;
}

/**
 * The copy step after a model record's write (see `webSplatForRecord`).
 * @param before the record before the write (null when created)
 * @param after the record after it (null when deleted)
 * @throws the storage and database errors (the event is then delivered again)
 */
export async function webCopyForRecord(before: ModelData | null, after: ModelData | null): Promise<StoredWebCopyOutcome | null> {
  const outcome = await webSplatForRecord(ports(), before, after);
  logOutcome(String(after?.files?.splatPath ?? ''), outcome);
  return outcome;
}
