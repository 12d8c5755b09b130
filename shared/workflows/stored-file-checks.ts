/**
 * The content checks of files after they are stored, where no server of ours receives the
 * uploads (Firebase: Cloud Storage stores whatever bytes a client sends; the Cloud Functions in
 * `functions/src/` run these rules on each stored file and on each model write). They run the
 * check the embedded server runs before it stores a file (`checkStoredContent`), and, since the
 * file is stored already, refuse the model instead of the upload:
 *
 * - Every check is recorded with the Cloud Storage generation it read. A second delivery of the
 *   same event finds that generation recorded and checks nothing again; a new generation (the
 *   file written again) is checked again. A record is never replaced by one of an older generation.
 * - A model is refused while a file it names (or its web-sized copy) is refused at its latest
 *   recorded generation: `contentRefusal` lists each such file with the check's message, and the
 *   model is hidden (`visible: false`, the field the security rules hide models from users by),
 *   its download links revoked. Hiding goes ahead even for a project's reference model: a file
 *   that is not what its name says is never served.
 * - When no named file is refused any more (each replaced by a file that passes, or no longer
 *   named), `contentRefusal` is cleared and `visible` is put back as it was before the refusal.
 * - A file the model does not name yet (uploaded before its record is written) is checked and
 *   recorded only; the model write that names it applies the record.
 *
 * Later slices (web-sized copies, thumbnails, change maps made on Firebase) are further steps
 * after a file passes; they belong beside these rules, not inside them.
 */
import pLimit from 'p-limit';
import { checkStoredContent, CONTENT_CHECKS_VERSION, contentKindOfPath } from '../content-check/index.js';
import { AppError, ErrorCode } from '../errors.js';
import { fileNameOf, modelFolder, parseModelPath } from '../paths.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { UpdateData } from '../ports/catalog.js';
import type { ModelChecksWrite, StoredFileCheck, StoredFileChecksPort, StoredObjectVersion } from '../ports/stored-file-checks.js';
import type { ContentRefusal, Model, ModelData, RefusedStoredFile } from '../types.js';
import { referencedPaths } from './model-storage-paths.js';

/** What checked, as recorded with each check. */
export const STORED_CHECKER = `catalog content checks ${CONTENT_CHECKS_VERSION}`;

/** Stored files of one model write checked at once. */
export const STORED_CHECK_CONCURRENCY = 4;

/** Options of the stored-file checks. */
export interface StoredFileChecksOptions {
  /** The time now as ISO 8601 (default the clock): a check's `checkedAt`, a refusal's `refusedAt`. */
  now?: () => string;
}

/**
 * Orders two Cloud Storage generations (whole numbers as decimal strings).
 * @returns negative when `a` is older than `b`, 0 when equal, positive when newer
 * @throws SyntaxError when either is not a whole number
 */
export function compareGenerations(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * The stored files of a model whose content is checked: the files its record names (splat, GLB,
 * camera metadata, photos, thumbnails) and its web-sized copies (what the viewer loads), each
 * once, in that order; assets are not checked.
 * @param model the record (its `files` may be absent)
 * @returns storage paths
 */
export function checkedPathsOf(model: Pick<ModelData, 'files'>): string[] {
  const f = model.files ?? {};
  const copies = [f.webSplatPath, f.webSplatPreviewPath, f.webGlbPath].filter((p): p is string => typeof p === 'string' && p !== '');
  return [...new Set([...referencedPaths(model), ...copies])].filter((path) => contentKindOfPath(path) !== null);
}

/**
 * The refusal a model should carry given the latest checks: its previous entries still named,
 * each replaced by the latest check of its path (kept when refused, dropped when it passes), plus
 * the named paths whose latest check is refused.
 * @param model the model as read
 * @param checks latest recorded checks by path (any subset of the model's paths)
 * @param now the time of a new refusal (ISO 8601)
 * @returns the fields to write (`contentRefusal`, `visible`, `last_updated`), or null when the
 *   model already says so
 */
export function refusalUpdate(model: Model, checks: ReadonlyMap<string, StoredFileCheck>, now: string): UpdateData | null {
  const named = new Set(checkedPathsOf(model));
  const previous: ContentRefusal | null = model.contentRefusal ?? null;
  const entries = new Map<string, RefusedStoredFile>();
  for (const file of previous?.files ?? []) if (named.has(file.path)) entries.set(file.path, file);
  for (const [path, check] of checks) {
    if (!named.has(path)) continue;
    const kept = entries.get(path);
    if (kept && compareGenerations(kept.generation, check.generation) > 0) continue;
    if (check.verdict === 'refused') entries.set(path, { path, generation: check.generation, problem: check.problem ?? '' });
    else entries.delete(path);
  }
  const files = [...entries.values()];
  if (files.length === 0) {
    if (previous === null) return null;
    return { contentRefusal: null, visible: previous.visibleBefore, last_updated: SERVER_TIMESTAMP };
  }
  const unchanged =
    previous !== null &&
    model.visible === false &&
    previous.files.length === files.length &&
    previous.files.every((file, i) => {
      const now = files[i]!;
      return file.path === now.path && file.generation === now.generation && file.problem === now.problem;
    });
  if (unchanged) return null;
  const contentRefusal: ContentRefusal = {
    files,
    visibleBefore: previous?.visibleBefore ?? model.visible !== false,
    refusedAt: previous?.refusedAt ?? now,
  };
  return { contentRefusal, visible: false, last_updated: SERVER_TIMESTAMP };
}

/**
 * Checks one version of a stored file as the embedded server checks a received one.
 * @returns the check to record, or null when that generation is no longer stored (a later event covers what replaced it)
 * @throws the read error when the bytes cannot be read for another reason
 */
async function checkVersion(port: StoredFileChecksPort, object: StoredObjectVersion, now: () => string): Promise<StoredFileCheck | null> {
  const parsed = parseModelPath(object.path);
  if (parsed === null) return null;
  try {
    const stored = await checkStoredContent(object.path, port.open(object, fileNameOf(object.path)));
    if (stored === null) return null;
    return {
      path: object.path,
      modelId: parsed.uuid,
      generation: object.generation,
      size: object.size,
      kind: stored.kind,
      verdict: stored.check.verdict,
      problem: stored.check.problem,
      checkedAt: now(),
      checker: STORED_CHECKER,
    };
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.ObjectNotFound || error.code === ErrorCode.NotFound)) return null;
    throw error;
  }
}

/**
 * Applies the latest checks of `paths` (and of the paths the model is refused for) to a model,
 * then revokes its download links when this call hid it (after the model is hidden, so no user
 * can fetch a new link in between), or when it is refused for one of `paths` and nothing changed:
 * a second delivery, which follows a revocation that may have failed (it only costs admins their
 * links). Further refused files of a model already hidden revoke nothing (a folder of thousands
 * of bad photos is revoked once, not once a photo).
 */
async function applyChecks(
  port: StoredFileChecksPort,
  modelId: string,
  paths: readonly string[],
  now: () => string,
): Promise<{ write: ModelChecksWrite | null; refusedPaths: string[] }> {
  let refusal: ContentRefusal | null | undefined;
  const write = await port.updateModel(
    modelId,
    (model) => [...new Set([...paths, ...(model.contentRefusal?.files ?? []).map((file) => file.path)])],
    (model, checks) => {
      const update = refusalUpdate(model, checks, now());
      refusal = update === null ? (model.contentRefusal ?? null) : (update.contentRefusal as ContentRefusal | null);
      return update;
    },
  );
  const refusedPaths = (refusal?.files ?? []).map((file) => file.path).filter((path) => paths.includes(path));
  const hid = write !== null && write.update.visible === false && write.before.visible !== false;
  if (hid || (write === null && refusedPaths.length > 0)) await port.revokeDownloadUrls(`${modelFolder(modelId)}/`);
  return { write, refusedPaths };
}

/** What {@link checkStoredFile} did. */
export type StoredFileOutcome =
  /** The path calls for no check (an asset, a path outside a model folder). */
  | { outcome: 'not-checked' }
  /** A later generation is stored or recorded: its own event checks it. */
  | { outcome: 'superseded' }
  /**
   * 'checked': this generation was checked and recorded now; 'already-checked': it was recorded
   * before (a second delivery), and only its effect on the model was applied again.
   */
  | {
      outcome: 'checked' | 'already-checked';
      check: StoredFileCheck;
      /** What was written to the model (null: no model, the model does not name the file, or nothing to change). */
      write: ModelChecksWrite | null;
      /** True when the model is refused for this file (hidden; its links revoked when this hid it, or on a second delivery). */
      refused: boolean;
    };

/**
 * The check of a stored file when Cloud Storage reports it written (an object finalized): checks
 * that generation unless it is recorded already, records it, and applies it to the model of its
 * folder when the model names the file (see the module's rules).
 * @param port the stored-file checks' ports
 * @param object the path, generation and size the event reports
 * @param options the clock
 * @returns what was done
 * @throws the storage and database errors of the ports (the event is then delivered again)
 */
export async function checkStoredFile(
  port: StoredFileChecksPort,
  object: StoredObjectVersion,
  options: StoredFileChecksOptions = {},
): Promise<StoredFileOutcome> {
  const now = options.now ?? (() => new Date().toISOString());
  const parsed = parseModelPath(object.path);
  if (parsed === null || contentKindOfPath(object.path) === null) return { outcome: 'not-checked' };
  const recorded = (await port.recordedChecks([object.path])).get(object.path) ?? null;
  const order = recorded === null ? -1 : compareGenerations(recorded.generation, object.generation);
  if (order > 0) return { outcome: 'superseded' };
  let check: StoredFileCheck;
  if (recorded !== null && order === 0) check = recorded;
  else {
    const fresh = await checkVersion(port, object, now);
    if (fresh === null) return { outcome: 'superseded' };
    await port.recordCheck(fresh);
    check = fresh;
  }
  const outcome = order === 0 ? 'already-checked' : 'checked';
  // A passing file changes a model only when it is refused (this file may be one it is refused
  // for): most files skip the transaction. The record is written first, so a refusal decided
  // meanwhile reads it.
  if (check.verdict !== 'refused' && !(await port.readModel(parsed.uuid))?.contentRefusal) {
    return { outcome, check, write: null, refused: false };
  }
  const { write, refusedPaths } = await applyChecks(port, parsed.uuid, [object.path], now);
  return { outcome, check, write, refused: refusedPaths.length > 0 };
}

/** What {@link checkModelRecordFiles} did. */
export interface ModelRecordOutcome {
  /** The newly named files checked now (their generation was not recorded). */
  checked: StoredFileCheck[];
  /** Newly named files not stored yet: their own event checks them. */
  notStored: string[];
  /** What was written to the model, or null. */
  write: ModelChecksWrite | null;
  /** The newly named files the model is refused for. */
  refused: string[];
}

/**
 * The checks due when a model record is written: each file it names now and did not name before
 * (all of them when it is created) is checked unless its current generation is recorded (a file
 * uploaded before its record, whose own event found no model to apply to), and the latest checks
 * are applied to the model; a refused file it no longer names is dropped from its refusal. A write
 * that names no new file and leaves the refusal's files named (most writes, the checks' own
 * included) costs no read.
 * @param port the stored-file checks' ports
 * @param modelId the model's document id
 * @param before the record before the write (null when created)
 * @param after the record after it (null when deleted: nothing to do)
 * @param options the clock
 * @returns what was checked and written
 * @throws the storage and database errors of the ports (the event is then delivered again)
 */
export async function checkModelRecordFiles(
  port: StoredFileChecksPort,
  modelId: string,
  before: ModelData | null,
  after: ModelData | null,
  options: StoredFileChecksOptions = {},
): Promise<ModelRecordOutcome> {
  const outcome: ModelRecordOutcome = { checked: [], notStored: [], write: null, refused: [] };
  if (after === null) return outcome;
  const now = options.now ?? (() => new Date().toISOString());
  const named = checkedPathsOf(after);
  const namedBefore = new Set(before === null ? [] : checkedPathsOf(before));
  const added = named.filter((path) => !namedBefore.has(path));
  const unnamedRefusals = (after.contentRefusal?.files ?? []).some((file) => !named.includes(file.path));
  if (added.length === 0 && !unnamedRefusals) return outcome;
  const recorded = await port.recordedChecks(added);
  const limit = pLimit(STORED_CHECK_CONCURRENCY);
  const oneGlb = pLimit(1);
  let anyRefused = false;
  await Promise.all(
    added.map((path) =>
      limit(async () => {
        const object = await port.stat(path);
        if (object === null) {
          outcome.notStored.push(path);
          return;
        }
        const known = recorded.get(path);
        if (known && compareGenerations(known.generation, object.generation) >= 0) {
          anyRefused ||= known.verdict === 'refused';
          return;
        }
        // a GLB is read whole into the validator: one at a time (a model's GLB and its web-sized copy)
        const check = await (contentKindOfPath(path) === 'glb'
          ? oneGlb(() => checkVersion(port, object, now))
          : checkVersion(port, object, now));
        if (check === null) return;
        await port.recordCheck(check);
        outcome.checked.push(check);
        anyRefused ||= check.verdict === 'refused';
      }),
    ),
  );
  if (anyRefused || after.contentRefusal) {
    const { write, refusedPaths } = await applyChecks(port, modelId, added, now);
    outcome.write = write;
    outcome.refused = refusedPaths;
  }
  return outcome;
}
