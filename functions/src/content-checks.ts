/**
 * The content checks of a Firebase deployment, as Cloud Functions (2nd gen): what `catalog
 * serve` does to each uploaded model file, done after Cloud Storage stored it (the rules are
 * `shared/workflows/stored-file-checks.ts`'s):
 *
 * - `checkStoredModelFile`: an object finalized under `models/{uuid}/` is checked (its bytes
 *   streamed from Storage, that generation only), the check recorded, and the model refused and
 *   hidden when it names a refused file (or shown again when its last refused file is fixed);
 * - `checkModelRecordFiles`: a model document written: the files it names for the first time are
 *   checked unless their current generation is recorded (a file uploaded before its record), and
 *   applied to the model; a refused file it no longer names is dropped from its refusal.
 *
 * Both are idempotent (a re-delivered event finds its generation recorded and changes nothing),
 * so they are retried on failure.
 */
import { logger } from 'firebase-functions';
import { onDocumentWritten } from 'firebase-functions/v2/firestore';
import type { EventHandlerOptions } from 'firebase-functions/v2/options';
import { onObjectFinalized } from 'firebase-functions/v2/storage';
import { fromFirestoreData } from '@shared/adapters/common.js';
import { MODELS_ROOT } from '@shared/paths.js';
import type { ModelData } from '@shared/types.js';
import { checkModelRecordFiles as checkRecordFiles, checkStoredFile } from '@shared/workflows/stored-file-checks.js';
import { adminBucket, adminFirestore } from './admin.js';
import { firebaseStoredFileChecks } from './firebase-stored-file-checks.js';
import { webCopyAfterCheck, webCopyForRecord } from './web-copies.js';

/**
 * How the checks (and the web-sized copies made after them) run: 4 GiB and one event at a time
 * per instance (a GLB is read whole into the glTF validator, up to 512 MiB; a splat's copy holds
 * the splat, its working files and the copy in memory-backed /tmp beside the copy maker's 700 MiB
 * at its peak, up to a 1.5 GiB splat of 8 million Gaussians), up to 9 minutes (a large GLB from
 * Storage; a splat's copy took 42 s per million Gaussians on a 2-core shared machine), at most 20
 * instances, retried when they fail (both are idempotent). The region is left to the Firebase CLI,
 * which deploys an event function to its data source's region (the bucket's, the database's).
 */
export const CHECK_OPTIONS = {
  memory: '4GiB',
  timeoutSeconds: 540,
  concurrency: 1,
  maxInstances: 20,
  retry: true,
} as const satisfies EventHandlerOptions;

/** A Timestamp of any copy of the SDK (no instanceof). */
const isTimestamp = (value: unknown): value is { toDate(): Date } =>
  value !== null && typeof value === 'object' && typeof (value as { toDate?: unknown }).toDate === 'function';

/** A Firestore snapshot's data in the ports' form (times as ISO strings), or null when it does not exist. */
function modelOf(snapshot: { exists: boolean; data(): Record<string, unknown> | undefined }): ModelData | null {
  return snapshot.exists ? (fromFirestoreData(snapshot.data() ?? {}, isTimestamp) as ModelData) : null;
}

/** Checks a file stored in the default bucket under `models/` (see the module's notes). */
export const checkStoredModelFile = onObjectFinalized(CHECK_OPTIONS, async (event) => {
  const { name, generation, size } = event.data;
  if (!name || !name.startsWith(`${MODELS_ROOT}/`)) return;
  const port = firebaseStoredFileChecks(adminFirestore(), adminBucket(event.bucket));
  const outcome = await checkStoredFile(port, { path: name, generation: String(generation), size: Number(size) });
  if (outcome.outcome === 'checked' || outcome.outcome === 'already-checked') {
    const { check } = outcome;
    const fields = { path: name, generation: check.generation, outcome: outcome.outcome, verdict: check.verdict, refused: outcome.refused };
    if (check.verdict === 'refused') logger.warn(`content check refused ${name}: ${check.problem}`, fields);
    else logger.info(`content check passed ${name}`, fields);
    // a splat that passed gets its web-sized copy (its model re-read there: a refused one gets none)
    if (check.verdict !== 'refused' && !outcome.refused) {
      await webCopyAfterCheck(event.bucket, { path: name, generation: check.generation, size: check.size });
    }
  } else logger.debug(`content check of ${name}: ${outcome.outcome}`, { path: name, generation: String(generation) });
});

/** Checks the files a model record names for the first time (see the module's notes). */
export const checkModelRecordFiles = onDocumentWritten({ ...CHECK_OPTIONS, document: 'models/{modelId}' }, async (event) => {
  const change = event.data;
  if (!change) return;
  const port = firebaseStoredFileChecks(adminFirestore(), adminBucket());
  const before = modelOf(change.before);
  const after = modelOf(change.after);
  const outcome = await checkRecordFiles(port, event.params.modelId, before, after);
  if (outcome.checked.length > 0 || outcome.write !== null) {
    logger.info(`content checks of model ${event.params.modelId}`, {
      modelId: event.params.modelId,
      checked: outcome.checked.map((check) => ({ path: check.path, generation: check.generation, verdict: check.verdict })),
      notStored: outcome.notStored,
      refused: outcome.refused,
      wrote: outcome.write?.update ?? null,
    });
  }
  // a splat named for the first time (uploaded before its record) gets its web-sized copy
  await webCopyForRecord(before, after);
});
