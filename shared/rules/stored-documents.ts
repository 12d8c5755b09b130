/**
 * Stored = validated: what the backends we run ourselves (the embedded server and the memory
 * backend) store of each write is the output of the collection's strict schema
 * (`shared/validation/document-schemas.ts`, checked by `parseStoredDocument`), never the data
 * they were sent, and the fields the server owns are the server's:
 * - every write that leaves a document in place holds its collection's schema (unknown keys
 *   refused, exact types, the key rules), whoever writes;
 * - a document stored before these rules stays editable: a write may leave its old problems where
 *   they are, but every problem the schema finds must lie in values the write did not change
 *   (and the document had them before); what the write changes is held to the rules;
 * - a non-admin's finding: `created_at` is the commit's time on create and never changes,
 *   `last_updated` is the commit's time on every write (both sent as the server-time sentinel,
 *   which the server resolves to one time per commit; any other value is refused), and a
 *   `followUpOf` names a finding that exists, that the writer may read (its model there and not
 *   hidden; refused with the same message as a missing one), on the model it names, of the same
 *   project; and a new or changed `changeRegion` names a change map of the finding's own model
 *   that exists and that the writer may read (its reference model there and not hidden; refused
 *   alike when missing or withheld).
 * Admins and the service key may keep given times (an import preserves them) and link any
 * follow-up or change region of the right form; the shapes stay exact for them too.
 */
import { AnnotationMessages, alignmentId } from '@shared/annotations.js';
import { isPlainObject } from '@shared/documents/merge.js';
import type { Json } from '@shared/documents/merge.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { isHiddenModel } from '@shared/roles.js';
import { parseStoredDocument } from '@shared/validation/documents.js';
import type { DocumentLookup, PendingChange, Principal } from './document-rules.js';
import { isAdmin } from './document-rules.js';

/** The value at `path` in `data` (undefined where the path leaves the document). */
function valueAt(data: unknown, path: ReadonlyArray<string | number>): unknown {
  let value = data;
  for (const part of path) {
    if (Array.isArray(value) && typeof part === 'number') value = value[part];
    else if (isPlainObject(value) && typeof part === 'string' && Object.hasOwn(value, part)) value = value[part];
    else return undefined;
  }
  return value;
}

/** True when two JSON values are equal (absent and undefined are equal; key order counts, as stored JSON is compared). */
function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The document a write stores: its collection's schema output ({@link parseStoredDocument}),
 * or — for a document stored before the rules, whose old problems the write leaves alone — the
 * computed document as it is; and, for a non-admin's finding, the server-owned fields checked.
 * @param principal who writes
 * @param change the computed write (before, after, the commit's time `now`)
 * @param lookup reads a document in the commit's current state (a follow-up's original, its model)
 * @returns the document to store (null for a delete)
 * @throws AppError `invalid-argument` with the first problem's message (the form's where it has
 *   one: 'Finding title is required', 'Status must be one of: …'; context `{collection, id, path}`)
 */
export function storedDocument(principal: Principal, change: PendingChange, lookup: DocumentLookup): Json | null {
  const { collection, id, before, after } = change;
  if (after === null) return null;
  const parsed = parseStoredDocument(collection, id, after);
  let stored: Json;
  if (parsed.ok) {
    stored = parsed.value as unknown as Json;
  } else {
    // A legacy document: only problems in values this write did not change (and that were there before) are kept.
    const own =
      before === null
        ? parsed.problems
        : parsed.problems.filter((problem) => problem.depends.some((path) => !sameValue(valueAt(before, path), valueAt(after, path))));
    if (own.length > 0) {
      const first = own[0]!;
      throw new AppError(ErrorCode.InvalidArgument, first.message, { context: { collection, id, path: first.path.join('.') } });
    }
    stored = after;
  }
  if (collection === 'annotations' && !isAdmin(principal)) checkFindingServerFields(change, stored, lookup);
  return stored;
}

const refuse = (message: string, id: string, path: string): AppError =>
  new AppError(ErrorCode.InvalidArgument, message, { context: { collection: 'annotations', id, path } });

/**
 * The fields of a non-admin's finding that the server owns (see the module comment): the times,
 * a follow-up link to a finding the writer may read, on the model it names, of the same project,
 * and a change region of a change map of the finding's model that the writer may read.
 * @throws AppError `invalid-argument` ({@link AnnotationMessages.serverTimeRequired},
 *   `createdAtChanged`, `followUpNotFound`, `changeRegionNotFound`)
 */
function checkFindingServerFields(change: PendingChange, stored: Json, lookup: DocumentLookup): void {
  const { before, id, now } = change;
  if (now === undefined) throw new AppError(ErrorCode.Internal, 'A finding write needs the commit time');
  if (before === null) {
    if (stored.created_at !== now) throw refuse(AnnotationMessages.serverTimeRequired, id, 'created_at');
  } else if (!sameValue(before.created_at, stored.created_at)) {
    throw refuse(AnnotationMessages.createdAtChanged, id, 'created_at');
  }
  if (stored.last_updated !== now) throw refuse(AnnotationMessages.serverTimeRequired, id, 'last_updated');
  checkFollowUp(change, stored, lookup);
  checkChangeRegion(change, stored, lookup);
}

/** A non-admin's new or changed follow-up link: to a finding they may read, on the model it names, of the same project. */
function checkFollowUp({ before, id }: PendingChange, stored: Json, lookup: DocumentLookup): void {
  const link = stored.followUpOf as { annotationId: string; modelId: string } | null | undefined;
  if (link === null || link === undefined || (before !== null && sameValue(before.followUpOf, link))) return;
  const original = lookup('annotations', link.annotationId);
  const model = original === null ? null : lookup('models', link.modelId);
  const readable =
    original !== null &&
    original.modelId === link.modelId &&
    (original.projectId ?? null) === (stored.projectId ?? null) &&
    model !== null &&
    !isHiddenModel(model);
  if (!readable) throw refuse(AnnotationMessages.followUpNotFound, id, 'followUpOf');
}

/**
 * A non-admin's new or changed change region: the change map of the finding's model against the
 * reference it names exists, and the reference is there and not hidden (a change map is read with
 * both its models; the finding's own model was checked by the write's rule).
 */
function checkChangeRegion({ before, id }: PendingChange, stored: Json, lookup: DocumentLookup): void {
  const region = stored.changeRegion as { referenceModelId: string } | null | undefined;
  if (region === null || region === undefined || (before !== null && sameValue(before.changeRegion, region))) return;
  const map = lookup('changeMaps', alignmentId(region.referenceModelId, String(stored.modelId)));
  const reference = map === null ? null : lookup('models', region.referenceModelId);
  if (reference === null || isHiddenModel(reference)) throw refuse(AnnotationMessages.changeRegionNotFound, id, 'changeRegion');
}
