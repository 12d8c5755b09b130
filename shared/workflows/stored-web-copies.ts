/**
 * The web-sized copies of splats stored where no server of ours receives the uploads (Firebase:
 * the Cloud Functions in `functions/src/` run these rules after a splat's content check passed,
 * and when a model record first names a splat). The embedded server makes the copy when it stores
 * the splat; here it is made from the stored file, with the same copy maker:
 *
 * - A `.ply` or `.splat` named as a model's splat (`files.splatPath`), whose content check passed
 *   at its current generation, gets its web-sized copy (SPZ) at `models/{uuid}/model.spz` and, for
 *   a capture of more than 400,000 Gaussians, a preview at `models/{uuid}/model.preview.spz`; the
 *   model records them as the embedded server does (`files.webSplatPath`/`webSplatSize`,
 *   `files.webSplatPreviewPath`/`webSplatPreviewSize`, null when there is no preview).
 * - One copy per generation of the splat: each copy is recorded with the generation it was made
 *   from; a second delivery finds it recorded and only makes sure the model names it; a new
 *   generation (the splat written again) is copied again and replaces it; a record is never
 *   replaced by one made from an older generation. A splat the copy maker cannot read is recorded
 *   with its problem and not tried again until it is written again.
 * - A refused model (a file refused by its content check, `contentRefusal`) gets no copy; nor does
 *   a splat that is not checked yet at that generation or that failed its check.
 * - A model written with a web-sized copy already named (the CLI makes it before it writes the
 *   record) gets none made here.
 */
import { AppError, ErrorCode, errorMessage } from '../errors.js';
import { MODEL_FILE_BASE_NAME, hasWebSplatCopy, parseModelPath } from '../paths.js';
import type { UpdateData } from '../ports/catalog.js';
import type { StoredObjectVersion } from '../ports/stored-file-checks.js';
import type { MadeWebSplat, StoredWebCopiesPort, StoredWebCopy } from '../ports/stored-web-copies.js';
import type { ModelData } from '../types.js';
import { compareGenerations } from './stored-file-checks.js';

/** What made a copy, as recorded with it. */
export const WEB_COPY_MAKER = 'catalog web-sized splat 1';

/** Options of the stored web-sized copies. */
export interface StoredWebCopiesOptions {
  /** The time now as ISO 8601 (default the clock): a copy's `madeAt`. */
  now?: () => string;
}

/** What {@link makeStoredWebSplat} did. */
export type StoredWebCopyOutcome =
  /** The path gets no copy (not a model's `model.ply` or `model.splat`). */
  | { outcome: 'not-copied' }
  /** No model names this splat (yet): the write of its record makes the copy. */
  | { outcome: 'not-named' }
  /** The model is refused, or the splat failed its check: no copy. */
  | { outcome: 'refused' }
  /** The splat is not checked at this generation yet: its check's event makes the copy. */
  | { outcome: 'not-checked' }
  /** A later generation of the splat is stored or copied: its own event copies it. */
  | { outcome: 'superseded' }
  /**
   * 'made': made from this generation now (or, with a `problem`, found impossible);
   * 'already-made': recorded before (a second delivery), only its effect on the model applied again.
   */
  | { outcome: 'made' | 'already-made'; record: StoredWebCopy; update: UpdateData | null };

/** True for the splat of a model folder: `models/{uuid}/model.ply` or `models/{uuid}/model.splat`. */
function isModelSplat(path: string): boolean {
  const parsed = parseModelPath(path);
  return parsed !== null && (parsed.rest === `${MODEL_FILE_BASE_NAME}.ply` || parsed.rest === `${MODEL_FILE_BASE_NAME}.splat`);
}

/**
 * The fields that make a model name the copy recorded for its splat, as the embedded server
 * writes them.
 * @param model the model as read
 * @param recorded the latest copy made from the splat
 * @returns the fields to write, or null when the model no longer names that splat, is refused,
 *   already names that copy, or no copy could be made
 */
export function webCopyUpdate(model: Pick<ModelData, 'files' | 'contentRefusal'>, recorded: StoredWebCopy | null): UpdateData | null {
  const files = model.files ?? {};
  if (recorded === null || recorded.copy === null || files.splatPath !== recorded.source || model.contentRefusal) return null;
  const want = {
    webSplatPath: recorded.copy.path,
    webSplatSize: recorded.copy.size,
    webSplatPreviewPath: recorded.preview?.path ?? null,
    webSplatPreviewSize: recorded.preview?.size ?? null,
  };
  const same = (Object.keys(want) as (keyof typeof want)[]).every((key) => (files[key] ?? null) === want[key]);
  if (same) return null;
  return Object.fromEntries(Object.entries(want).map(([key, value]) => [`files.${key}`, value]));
}

/**
 * Makes the web-sized copy of a stored splat after its content check (see the module's rules):
 * unless a copy of this generation (or a later one) is recorded, when the model names the splat,
 * is not refused, and the splat passed its check at this generation; records it and makes the
 * model name it.
 * @param port the stored web-sized copies' ports
 * @param object the splat's path, generation and size (a finalize event's, or the stored one's)
 * @param options the clock
 * @returns what was done
 * @throws the storage and database errors of the ports, and AppError `internal` when the copy
 *   maker's worker dies (the event is then delivered again)
 */
export async function makeStoredWebSplat(
  port: StoredWebCopiesPort,
  object: StoredObjectVersion,
  options: StoredWebCopiesOptions = {},
): Promise<StoredWebCopyOutcome> {
  if (!isModelSplat(object.path) || !hasWebSplatCopy(object.path)) return { outcome: 'not-copied' };
  const modelId = parseModelPath(object.path)!.uuid;
  const now = options.now ?? (() => new Date().toISOString());
  const recorded = await port.recordedWebCopy(object.path);
  const order = recorded === null ? -1 : compareGenerations(recorded.sourceGeneration, object.generation);
  if (order > 0) return { outcome: 'superseded' };
  let record: StoredWebCopy;
  let outcome: 'made' | 'already-made';
  if (recorded !== null && order === 0) {
    record = recorded;
    outcome = 'already-made';
  } else {
    const model = await port.readModel(modelId);
    if (model === null || model.files?.splatPath !== object.path) return { outcome: 'not-named' };
    if (model.contentRefusal) return { outcome: 'refused' };
    const check = (await port.recordedChecks([object.path])).get(object.path);
    if (check !== undefined && compareGenerations(check.generation, object.generation) > 0) return { outcome: 'superseded' };
    if (check === undefined || check.generation !== object.generation) return { outcome: 'not-checked' };
    if (check.verdict === 'refused') return { outcome: 'refused' };
    let made: MadeWebSplat | null = null;
    let problem: string | null = null;
    try {
      made = await port.makeWebSplat(object);
      if (made === null) return { outcome: 'superseded' };
    } catch (error) {
      // a splat the copy maker cannot read stays so until it is written again: recorded, not retried
      if (!(error instanceof AppError && error.code === ErrorCode.InvalidArgument)) throw error;
      problem = errorMessage(error);
    }
    record = {
      source: object.path,
      modelId,
      sourceGeneration: object.generation,
      copy: made?.copy ?? null,
      preview: made?.preview ?? null,
      problem,
      madeAt: now(),
      maker: WEB_COPY_MAKER,
    };
    if (!(await port.recordWebCopy(record))) return { outcome: 'superseded' };
    outcome = 'made';
  }
  const update = await port.updateModel(modelId, object.path, (model, latest) => webCopyUpdate(model, latest));
  return { outcome, record, update };
}

/**
 * The web-sized copy due when a model record is written: when the write names a splat that gets
 * a copy for the first time (the splat uploaded before its record, whose own event found no model
 * to name it) or clears the model's refusal, and the record names no copy made by its writer,
 * the stored splat is copied as {@link makeStoredWebSplat} does. Any other write costs nothing.
 * @param port the stored web-sized copies' ports
 * @param before the record before the write (null when created)
 * @param after the record after it (null when deleted: nothing to do)
 * @param options the clock
 * @returns what was done, or null when the write calls for no copy (or the splat is not stored)
 * @throws as {@link makeStoredWebSplat}
 */
export async function webSplatForRecord(
  port: StoredWebCopiesPort,
  before: Pick<ModelData, 'files' | 'contentRefusal'> | null,
  after: Pick<ModelData, 'files' | 'contentRefusal'> | null,
  options: StoredWebCopiesOptions = {},
): Promise<StoredWebCopyOutcome | null> {
  const splat = after?.files?.splatPath;
  if (after === null || typeof splat !== 'string' || !isModelSplat(splat) || !hasWebSplatCopy(splat) || after.contentRefusal) return null;
  const newlyNamed = before?.files?.splatPath !== splat;
  const unrefused = Boolean(before?.contentRefusal);
  if (!newlyNamed && !unrefused) return null;
  // a client that made the copy (the CLI) names it in the same write
  if (newlyNamed && typeof after.files?.webSplatPath === 'string' && after.files.webSplatPath !== '') return null;
  const object = await port.stat(splat);
  if (object === null) return null;
  return makeStoredWebSplat(port, object, options);
}
