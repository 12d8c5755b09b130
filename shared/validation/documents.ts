/**
 * The stored document of every collection (`shared/types.ts`) as a strict zod schema: unknown
 * keys are refused, every field has its exact type, and each problem is reported with the form's
 * message where a form has one (`AnnotationMessages`, `ValidationMessages`, `FormMessages`,
 * `AlignmentMessages`), else a message naming the field. What a backend stores is the output of
 * these schemas, never the input it was sent (`shared/rules/stored-documents.ts` on the embedded
 * and memory backends; `firestore.rules` holds the same field rules as far as rules can), and
 * `catalog import` checks every exported document with them before writing anything.
 *
 * Pure TypeScript, usable without a backend. Rules that need other documents or the caller
 * (a finding's model and follow-up, server times, authorship, Public ID uniqueness) are the
 * backends' (`shared/rules/`).
 */
import { z } from 'zod';
import { AlignmentMessages, isAlignmentMatrix } from '../alignment.js';
import { AnnotationMessages, annotationFieldSchemas, annotationShapeProblem } from '../annotations.js';
import { FormMessages, ValidationMessages } from '../messages.js';
import { MODEL_TYPES } from '../model-type.js';
import type { CollectionName, CollectionTypes, ModelType } from '../types.js';
import { PUBLIC_ID_PATTERN } from './models.js';
import { LATITUDE_RANGE, LONGITUDE_RANGE, isHttpUrl } from './project-form.js';
import { isEmail } from './result.js';

/** Messages of the stored-document rules that no form has. */
export const DocumentMessages = {
  /**
   * Fields a collection's documents do not have.
   * @param what the document in words ('a finding')
   * @param keys the unknown keys, as found
   */
  unknownFields: (what: string, keys: readonly string[]): string =>
    `Unknown field${keys.length === 1 ? '' : 's'} in ${what}: ${keys.map((k) => JSON.stringify(k)).join(', ')}`,
  /**
   * A field of the wrong type or form.
   * @param what the document in words
   * @param path the field's dotted path ('files.images.2')
   */
  fieldInvalid: (what: string, path: string): string => `Invalid ${path} in ${what}`,
  /**
   * A timestamp field that is not an ISO 8601 date-time.
   * @param path the field's dotted path
   */
  timestampInvalid: (path: string): string => `${path} must be an ISO 8601 date-time such as 2026-11-22T10:00:00.000Z, or null`,
  alignmentKey: 'An alignment is stored at {referenceModelId}__{modelId}, of two different models',
  alignmentPairs: "A 'same-frame' alignment has no point pairs and a '3-point' alignment exactly 3, each a model and a reference point",
  alignmentError: "An alignment's rmsError is a finite number of 0 or more",
  userKey: 'A user record is stored at its uid',
  adminKey: 'An admins entry is stored at its email address (lower case)',
  modelUuid: "A model's uuid is a document id (1 to 1,500 characters, no '/')",
  captureDateInvalid: 'Capture date must be a date (YYYY-MM-DD) or an ISO 8601 date-time, or null',
  counterInvalid: "A model's annotationsCount and annotationsSeq are whole numbers of 0 or more",
} as const;

/**
 * Control characters (C0, DEL, C1). Lengths below are UTF-16 units (`String.length`), as the
 * browser's inputs and Firestore rules' `size()` count them (zod's own string lengths count code
 * points).
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
/** A plain document-id-like text: 1–1,500 characters, no '/', no control characters. */
const idText = (message?: string) =>
  z
    .string(message ? { error: message } : undefined)
    .min(1, message)
    .refine((id) => id.length <= 1500, message)
    .refine((id) => !id.includes('/') && !CONTROL_CHARACTER.test(id), message);
/** A storage path or label: 1–1,024 characters without control characters. */
const pathText = z
  .string()
  .min(1)
  .refine((text) => text.length <= 1024)
  .refine((text) => !CONTROL_CHARACTER.test(text));
/** A whole number of 0 or more (sizes in bytes, counts). */
const count = z.number().int().min(0);

/**
 * A stored time: an ISO 8601 date-time (UTC `Z` or an offset, any fraction of a second), as the
 * backends' clocks write it (`2026-11-22T10:00:00.000Z`), or null.
 */
const timestamp = z.iso.datetime({ offset: true }).nullable();

/** A point in model units: exactly x, y and z, finite numbers. */
const point = z.strictObject({ x: z.number(), y: z.number(), z: z.number() });

/** `followUpOf`: null, or the original finding `{modelId}_{seq}` and that model's id. */
const followUpOf = z
  .strictObject(
    { annotationId: idText(AnnotationMessages.followUpInvalid), modelId: idText(AnnotationMessages.followUpInvalid) },
    { error: AnnotationMessages.followUpInvalid },
  )
  .refine(
    (link) => link.annotationId.startsWith(`${link.modelId}_`) && /^[1-9]\d*$/.test(link.annotationId.slice(link.modelId.length + 1)),
    {
      message: AnnotationMessages.followUpInvalid,
    },
  )
  .nullable();

/**
 * A finding's fields ('annotations', `AnnotationData`): the content fields of
 * {@link annotationFieldSchemas} in the form's order (so the first problem is the one the form
 * reports first), the model and number, the author (a uid of 1–128 characters without control
 * characters, an email address or null), the times and the follow-up link
 * (`{annotationId: '{modelId}_{seq}', modelId}`). `created_at`, `last_updated` and `followUpOf`
 * may be absent (findings stored before them); `up` may be absent (null). How the fields fit
 * together ({@link annotationShapeProblem}; a follow-up of another model) and the key
 * (`{modelId}_{seq}`) are {@link parseStoredDocument}'s to check.
 */
export const annotationDocumentSchema = z.strictObject({
  ...annotationFieldSchemas,
  up: annotationFieldSchemas.up.optional(),
  modelId: idText(AnnotationMessages.keyInvalid),
  projectId: idText(AnnotationMessages.keyInvalid).nullable(),
  seq: z.number({ error: AnnotationMessages.keyInvalid }).int(AnnotationMessages.keyInvalid).min(1, AnnotationMessages.keyInvalid),
  author_uid: z
    .string({ error: AnnotationMessages.authorInvalid })
    .min(1, AnnotationMessages.authorInvalid)
    .refine((uid) => uid.length <= 128, AnnotationMessages.authorInvalid)
    .refine((uid) => !CONTROL_CHARACTER.test(uid), AnnotationMessages.authorInvalid),
  author_email: z
    .string({ error: AnnotationMessages.authorInvalid })
    .refine((email) => email.length <= 254, AnnotationMessages.authorInvalid)
    .refine(isEmail, AnnotationMessages.authorInvalid)
    .nullable(),
  created_at: timestamp.optional(),
  last_updated: timestamp.optional(),
  followUpOf: followUpOf.optional(),
});

/**
 * An alignment's fields ('alignments', `AlignmentData`): two model ids, the project, a 4×4
 * column-major matrix of 16 finite numbers that is an invertible affine transform (last row
 * 0 0 0 1), the method, at most 3 pairs of points, a finite RMS error ≥ 0, who made it and when.
 * Two different models, the pairs the method takes (none for 'same-frame', exactly 3 for
 * '3-point') and the key (`{referenceModelId}__{modelId}`) are {@link parseStoredDocument}'s to check.
 */
export const alignmentDocumentSchema = z.strictObject({
  referenceModelId: idText(DocumentMessages.alignmentKey),
  modelId: idText(DocumentMessages.alignmentKey),
  projectId: idText().nullable(),
  matrix: z
    .array(z.number({ error: AlignmentMessages.matrixInvalid }), { error: AlignmentMessages.matrixInvalid })
    .length(16, AlignmentMessages.matrixInvalid)
    .refine(isAlignmentMatrix, AlignmentMessages.matrixInvalid),
  method: z.enum(['same-frame', '3-point'], { error: AlignmentMessages.methodInvalid }),
  pairs: z
    .array(z.strictObject({ model: point, reference: point }, { error: DocumentMessages.alignmentPairs }), {
      error: DocumentMessages.alignmentPairs,
    })
    .max(3, DocumentMessages.alignmentPairs),
  rmsError: z.number({ error: DocumentMessages.alignmentError }).min(0, DocumentMessages.alignmentError),
  created_by: pathText,
  created_at: timestamp.optional(),
});

/** A file check's common fields (`FileCheckBase`). */
const fileCheck = {
  fileName: z.string().max(1024),
  size: count,
  verdict: z.enum(['ok', 'warnings', 'refused']),
  problem: z.string().nullable(),
  warnings: z.array(z.string()).max(20),
};
const triple = z.tuple([z.number(), z.number(), z.number()]);

/** `ModelData.validation`: the content checks' report (`ValidationReport`), exactly as they write it. */
const validationReport = z.strictObject({
  version: z.literal(1),
  checkedAt: z.iso.datetime({ offset: true }),
  checker: z.string().max(1024),
  splat: z
    .strictObject({
      ...fileCheck,
      format: z.enum(['ply', 'splat']),
      encoding: z.enum(['binary_little_endian', 'ascii']).nullable(),
      gaussians: count,
      shDegree: z.number().int().min(0).max(3),
      boundingBox: z.strictObject({ min: triple, max: triple }).nullable(),
    })
    .nullable(),
  glb: z
    .strictObject({
      ...fileCheck,
      generator: z.string().nullable(),
      meshes: count,
      triangles: count,
      vertices: count,
      materials: count,
      textures: count,
      extensions: z.array(z.string()),
      validatorVersion: z.string(),
      issues: z.strictObject({ errors: count, warnings: count, infos: count, hints: count }),
    })
    .nullable(),
  cameraMetadata: z.strictObject({ ...fileCheck, cameras: count, withPhoto: count }).nullable(),
  photos: z
    .strictObject({
      count,
      bytes: count,
      verdict: z.enum(['ok', 'warnings', 'refused']),
      dimensions: z.array(z.strictObject({ width: count, height: count, count })),
      refused: z.array(z.strictObject({ fileName: z.string().max(1024), problem: z.string() })),
    })
    .nullable(),
  notes: z.array(z.string()),
});

/**
 * A model ('models', `ModelData`): the Public ID of the Edit form's format, a name that is not
 * blank, the model type, storage paths (1–1,024 characters without control characters) and
 * sizes (whole bytes), the metadata the workflows write (capture date, display order, the
 * finding count and number, the scale) and the content checks' report. `files` may be absent (a
 * record without files); everything optional in `ModelData` may be absent.
 */
export const modelDocumentSchema = z.strictObject({
  uuid: idText(DocumentMessages.modelUuid),
  publicId: z
    .string({ error: ValidationMessages.publicIdRequired })
    .min(1, ValidationMessages.publicIdRequired)
    .regex(PUBLIC_ID_PATTERN, ValidationMessages.publicIdPattern),
  name: z
    .string({ error: ValidationMessages.modelNameRequired })
    .refine((name) => name.trim() !== '', ValidationMessages.modelNameRequired),
  projectId: idText().nullable().optional(),
  isReference: z.boolean().optional(),
  modelType: z
    .enum(MODEL_TYPES as [ModelType, ...ModelType[]], { error: FormMessages.modelTypeInvalid })
    .nullable()
    .optional(),
  owner_uid: z.string().max(128).nullable().optional(),
  created_at: timestamp.optional(),
  last_updated: timestamp.optional(),
  uploaded_at: timestamp.optional(),
  visible: z.boolean().optional(),
  files: z
    .strictObject({
      splatPath: pathText.nullable().optional(),
      splatSize: count.nullable().optional(),
      glbPath: pathText.nullable().optional(),
      glbSize: count.nullable().optional(),
      cameraMetadata: pathText.nullable().optional(),
      images: z.array(pathText).optional(),
      thumbnails: z.array(pathText).optional(),
      assets: z.array(pathText).optional(),
      webSplatPath: pathText.nullable().optional(),
      webSplatSize: count.nullable().optional(),
      webSplatPreviewPath: pathText.nullable().optional(),
      webSplatPreviewSize: count.nullable().optional(),
      webGlbPath: pathText.nullable().optional(),
      webGlbSize: count.nullable().optional(),
    })
    .optional(),
  metadata: z
    .strictObject({
      captureDate: z
        .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: DocumentMessages.captureDateInvalid })
        .nullable()
        .optional(),
      displayOrder: z.number().optional(),
      annotationsCount: count.optional(),
      annotationsSeq: count.optional(),
      unitsPerMetre: z
        .number({ error: AnnotationMessages.unitsPerMetreInvalid })
        .positive(AnnotationMessages.unitsPerMetreInvalid)
        .nullable()
        .optional(),
    })
    .optional(),
  version: z
    .union([z.string().max(128), z.number()])
    .nullable()
    .optional(),
  description: z.string().nullable().optional(),
  validation: validationReport.nullable().optional(),
});

/** A coordinate of a project's location: null/absent or a finite number within its range (degrees). */
const coordinate = (range: { min: number; max: number }, invalidText: string, rangeText: string) =>
  z.number({ error: invalidText }).min(range.min, rangeText).max(range.max, rangeText).nullable().optional();

/**
 * A project ('projects', `ProjectData`): a name that is not blank, its texts, the reference model,
 * the location (coordinates within range, a map URL that is http(s) or empty) and its times.
 */
export const projectDocumentSchema = z.strictObject({
  name: z.string({ error: ValidationMessages.projectNameEmpty }).refine((name) => name.trim() !== '', ValidationMessages.projectNameEmpty),
  structure_id: z.string().optional(),
  description: z.string().optional(),
  slug: z.string().optional(),
  reference_model_id: idText().nullable().optional(),
  location: z
    .strictObject({
      lat: coordinate(LATITUDE_RANGE, FormMessages.projectLatitudeInvalid, FormMessages.projectLatitudeRange),
      lng: coordinate(LONGITUDE_RANGE, FormMessages.projectLongitudeInvalid, FormMessages.projectLongitudeRange),
      address: z.string().nullable().optional(),
      mapUrl: z
        .string({ error: FormMessages.projectMapUrlInvalid })
        .refine((url) => url === '' || isHttpUrl(url.trim()), FormMessages.projectMapUrlInvalid)
        .nullable()
        .optional(),
    })
    .nullable()
    .optional(),
  created_at: timestamp.optional(),
  last_updated: timestamp.optional(),
});

/** A user record ('users', `UserData`): its uid (the key), email, role, times, who created it, a note. */
export const userDocumentSchema = z.strictObject({
  uid: idText(DocumentMessages.userKey),
  email: z.string().max(320).nullable().optional(),
  role: z.enum(['admin', 'user']),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  registered_at: timestamp.optional(),
  created_by: z.string().max(128).nullable().optional(),
  note: z.string().nullable().optional(),
});

/** An admins allowlist entry ('admins', keyed by email): the email (the key), when it was added, a note. */
export const adminDocumentSchema = z.strictObject({
  email: z.string().max(320).optional(),
  added_at: timestamp.optional(),
  note: z.string().nullable().optional(),
});

/** The schema of each collection's stored documents. */
export const DOCUMENT_SCHEMAS: { readonly [C in CollectionName]: z.ZodType } = {
  annotations: annotationDocumentSchema,
  alignments: alignmentDocumentSchema,
  models: modelDocumentSchema,
  projects: projectDocumentSchema,
  users: userDocumentSchema,
  admins: adminDocumentSchema,
};

/** A document of each collection, in words (for messages). */
const DOCUMENT_NAMES: { readonly [C in CollectionName]: string } = {
  annotations: 'a finding',
  alignments: 'an alignment',
  models: 'a model',
  projects: 'a project',
  users: 'a user record',
  admins: 'an admins entry',
};

/** Timestamp fields by their last path segment (for their message). */
const TIMESTAMP_FIELDS = new Set(['created_at', 'last_updated', 'uploaded_at', 'updated_at', 'registered_at', 'added_at', 'checkedAt']);

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
 * finding's kind, measure and up against its points ({@link annotationShapeProblem}) and a
 * follow-up of another model; an alignment of two different models with the pairs its method
 * takes. A field that is not of its own type is left to its field rule.
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
  }
  if (collection === 'alignments') {
    if (typeof data.modelId === 'string' && data.modelId === data.referenceModelId) {
      problems.push({ message: AlignmentMessages.sameModel, path: ['modelId'], depends: [['modelId'], ['referenceModelId']] });
    }
    if (Array.isArray(data.pairs) && (data.method === '3-point' || data.method === 'same-frame')) {
      if (data.pairs.length !== (data.method === '3-point' ? 3 : 0)) {
        problems.push({ message: DocumentMessages.alignmentPairs, path: ['pairs'], depends: [['pairs'], ['method']] });
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
 * measure and up against its points, a follow-up of another model; an alignment of two models
 * with the pairs its method takes) and its key rule: a finding at `{modelId}_{seq}`, an alignment
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
