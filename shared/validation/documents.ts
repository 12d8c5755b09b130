/**
 * The check of a document as a backend stores it: its collection's schema
 * (`document-schemas.ts`), the rules that tie its fields together, and its key rule, with every
 * problem reported in the form's words or one naming the field. What a backend stores is the
 * output of this check, never the input it was sent (`shared/rules/stored-documents.ts` on the
 * embedded and memory backends; `firestore.rules` holds the same field rules as far as rules
 * can), and `catalog import` checks every exported document with it before writing anything.
 *
 * Pure TypeScript, usable without a backend. Rules that need other documents or the caller
 * (a finding's model and follow-up, server times, authorship, Public ID uniqueness) are the
 * backends' (`shared/rules/`).
 */
import type { z } from 'zod';
import { AlignmentMessages } from '../alignment.js';
import { AnnotationMessages, annotationShapeProblem } from '../annotations.js';
import { ChangeMapMessages } from '../change-map-document.js';
import { parseChangeValuesPath } from '../paths.js';
import type { CollectionName, CollectionTypes } from '../types.js';
import { DocumentMessages } from './document-messages.js';
import { DOCUMENT_SCHEMAS } from './document-schemas.js';

/** A document of each collection, in words (for messages). */
const DOCUMENT_NAMES: { readonly [C in CollectionName]: string } = {
  annotations: 'a finding',
  alignments: 'an alignment',
  changeMaps: 'a change map',
  models: 'a model',
  projects: 'a project',
  users: 'a user record',
  admins: 'an admins entry',
};

/** Timestamp fields by their last path segment (for their message). */
const TIMESTAMP_FIELDS = new Set([
  'created_at',
  'last_updated',
  'uploaded_at',
  'updated_at',
  'registered_at',
  'added_at',
  'checkedAt',
  'computed_at',
  'cameraMetadataUploadedAt',
]);

/** The alignment methods (`AlignmentData.method`), to tell a known method from a field problem of its own. */
const ALIGNMENT_METHODS: ReadonlySet<unknown> = new Set(['same-frame', '3-point', 'icp']);

/** A problem of a stored document: its message, where it is, and every field it depends on. */
export interface DocumentProblem {
  message: string;
  /** Where the problem is (field names and array indices from the document's root; [] for the document). */
  path: Array<string | number>;
  /** The values the problem depends on, as paths (one for a field's own problem). */
  depends: Array<Array<string | number>>;
}

/** The problems zod found, each with our message: an explicit rule message as it is, else one naming the field. */
function problemsOf(collection: CollectionName, issues: readonly z.core.$ZodIssue[]): DocumentProblem[] {
  const what = DOCUMENT_NAMES[collection];
  return issues.map((issue) => {
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    if (issue.code === 'unrecognized_keys') {
      return { message: DocumentMessages.unknownFields(what, issue.keys), path, depends: issue.keys.map((key) => [...path, key]) };
    }
    const fields = issue.code === 'custom' ? (issue.params as { fields?: string[] } | undefined)?.fields : undefined;
    const depends = fields ? fields.map((f) => [f]) : [path];
    return { message: issue.message, path, depends };
  });
}

/** The per-parse error map: a message naming the field for issues whose schema gives none. */
function fieldMessages(collection: CollectionName): z.core.$ZodErrorMap {
  const what = DOCUMENT_NAMES[collection];
  return (issue) => {
    if (issue.code === 'unrecognized_keys') return undefined;
    const path = (issue.path ?? []).filter((p): p is string | number => typeof p !== 'symbol');
    const last = path[path.length - 1];
    if (typeof last === 'string' && TIMESTAMP_FIELDS.has(last)) return DocumentMessages.timestampInvalid(path.join('.'));
    if (path[0] === 'metadata' && (last === 'annotationsCount' || last === 'annotationsSeq')) return DocumentMessages.counterInvalid;
    return DocumentMessages.fieldInvalid(what, path.length > 0 ? path.join('.') : 'document');
  };
}

/**
 * The rules of a collection that tie fields together, checked on the raw data whatever its
 * fields' own problems (so that a write cannot slip a misfit past a problem it did not cause): a
 * finding's kind, measure and up against its points ({@link annotationShapeProblem}), a
 * follow-up of another model and a change region against another model on a finding of one
 * point; an alignment of two different models with the pairs its method takes, and a `previous`
 * (what an 'icp' alignment replaced) only on an 'icp' alignment, with the pairs its own method
 * takes; a change map of two different models whose values file is named after its reference
 * model (`models/{uuid}/changes/{referenceModelId}.bin`). A field that is not of its own type is
 * left to its field rule.
 */
function crossProblems(collection: CollectionName, data: Record<string, unknown>): DocumentProblem[] {
  const problems: DocumentProblem[] = [];
  if (collection === 'annotations') {
    const shape = annotationShapeProblem(data);
    if (shape !== null) problems.push({ message: shape.message, path: [shape.field], depends: shape.fields.map((f) => [f]) });
    const link = data.followUpOf as { modelId?: unknown } | null | undefined;
    if (typeof link === 'object' && link !== null && link.modelId === data.modelId) {
      problems.push({ message: AnnotationMessages.followUpInvalid, path: ['followUpOf'], depends: [['followUpOf'], ['modelId']] });
    }
    const region = data.changeRegion as { referenceModelId?: unknown } | null | undefined;
    if (typeof region === 'object' && region !== null && region.referenceModelId === data.modelId) {
      problems.push({
        message: AnnotationMessages.changeRegionInvalid,
        path: ['changeRegion'],
        depends: [['changeRegion'], ['modelId']],
      });
    }
    if (typeof region === 'object' && region !== null && Array.isArray(data.points) && data.points.length !== 1) {
      problems.push({ message: AnnotationMessages.changeRegionPoint, path: ['changeRegion'], depends: [['changeRegion'], ['points']] });
    }
  }
  if (collection === 'alignments') {
    if (typeof data.modelId === 'string' && data.modelId === data.referenceModelId) {
      problems.push({ message: AlignmentMessages.sameModel, path: ['modelId'], depends: [['modelId'], ['referenceModelId']] });
    }
    if (Array.isArray(data.pairs) && ALIGNMENT_METHODS.has(data.method)) {
      if (data.pairs.length !== (data.method === '3-point' ? 3 : 0)) {
        problems.push({ message: DocumentMessages.alignmentPairs, path: ['pairs'], depends: [['pairs'], ['method']] });
      }
    }
    // What an 'icp' alignment replaced: only on an 'icp' alignment, itself holding the pairs its method takes.
    const previous = data.previous as { method?: unknown; pairs?: unknown } | null | undefined;
    if (typeof previous === 'object' && previous !== null) {
      const misplaced = ALIGNMENT_METHODS.has(data.method) && data.method !== 'icp';
      const pairsWrong =
        Array.isArray(previous.pairs) &&
        (previous.method === '3-point' || previous.method === 'same-frame') &&
        previous.pairs.length !== (previous.method === '3-point' ? 3 : 0);
      if (misplaced || pairsWrong) {
        problems.push({ message: DocumentMessages.alignmentPrevious, path: ['previous'], depends: [['previous'], ['method']] });
      }
    }
  }
  if (collection === 'changeMaps') {
    if (typeof data.modelId === 'string' && data.modelId === data.referenceModelId) {
      problems.push({ message: ChangeMapMessages.sameModel, path: ['modelId'], depends: [['modelId'], ['referenceModelId']] });
    }
    if (typeof data.valuesPath === 'string' && typeof data.referenceModelId === 'string') {
      if (parseChangeValuesPath(data.valuesPath)?.referenceModelId !== data.referenceModelId) {
        problems.push({ message: ChangeMapMessages.valuesPath, path: ['valuesPath'], depends: [['valuesPath'], ['referenceModelId']] });
      }
    }
  }
  return problems;
}

/** The key rule of a collection: the problem when `id` does not fit the parsed document, else null. */
function keyProblem(collection: CollectionName, id: string, data: Record<string, unknown>): DocumentProblem | null {
  switch (collection) {
    case 'annotations':
      return id === `${String(data.modelId)}_${String(data.seq)}`
        ? null
        : { message: AnnotationMessages.keyInvalid, path: ['seq'], depends: [['modelId'], ['seq']] };
    case 'alignments':
      return id === `${String(data.referenceModelId)}__${String(data.modelId)}`
        ? null
        : { message: DocumentMessages.alignmentKey, path: ['modelId'], depends: [['modelId'], ['referenceModelId']] };
    case 'changeMaps':
      return id === `${String(data.referenceModelId)}__${String(data.modelId)}`
        ? null
        : { message: ChangeMapMessages.key, path: ['modelId'], depends: [['modelId'], ['referenceModelId']] };
    case 'users':
      return data.uid === id ? null : { message: DocumentMessages.userKey, path: ['uid'], depends: [['uid']] };
    case 'admins':
      return data.email === undefined || data.email === id
        ? null
        : { message: DocumentMessages.adminKey, path: ['email'], depends: [['email']] };
    default:
      return null;
  }
}

/** The result of {@link parseStoredDocument}: the document to store, or every problem (the first is the one to report). */
export type StoredDocumentResult<T> = { ok: true; value: T } | { ok: false; message: string; path: string; problems: DocumentProblem[] };

/**
 * Checks a document as it is to be stored (or as an export holds it) against its collection's
 * schema ({@link DOCUMENT_SCHEMAS}), the rules that tie its fields together (a finding's kind,
 * measure and up against its points, a follow-up of another model, a change region against
 * another model on a finding of one point; an alignment of two models with the pairs its method
 * takes and a `previous` only when it is 'icp'; a change map of two models with its values file named after
 * the reference) and its key rule: a finding at `{modelId}_{seq}`, an alignment and a change map
 * at `{referenceModelId}__{modelId}`, a user record at its uid, an admins entry at its email.
 * Timestamps are in the ports' form (ISO strings, no server-time sentinels).
 * @param collection the collection
 * @param id the document's id
 * @param data the document's data
 * @returns `{ok: true, value}` with the schema's output (a new object; only known keys), or
 *   `{ok: false, message, path, problems}`: the first problem's message (the form's where one
 *   exists, e.g. 'Finding title is required') and dotted path, and every problem found
 */
export function parseStoredDocument<C extends CollectionName>(
  collection: C,
  id: string,
  data: unknown,
): StoredDocumentResult<CollectionTypes[C]> {
  const result = DOCUMENT_SCHEMAS[collection].safeParse(data, { error: fieldMessages(collection) });
  const problems = result.success ? [] : problemsOf(collection, result.error.issues);
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const raw = data as Record<string, unknown>;
    problems.push(...crossProblems(collection, raw));
    const key = keyProblem(collection, id, raw);
    if (key !== null) problems.push(key);
  }
  if (problems.length === 0) return { ok: true, value: result.data as CollectionTypes[C] };
  const first = problems[0]!;
  return { ok: false, message: first.message, path: first.path.join('.'), problems };
}
