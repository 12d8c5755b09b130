/**
 * The stored document of every collection (`shared/types.ts`) as a strict zod schema: unknown
 * keys are refused, every field has its exact type, and each problem is reported with the form's
 * message where a form has one (`AnnotationMessages`, `ValidationMessages`, `FormMessages`,
 * `AlignmentMessages`, `ChangeMapMessages`), else with {@link DocumentMessages}. The rules that tie fields together
 * and the key rules are checked beside them by `parseStoredDocument` (`documents.ts`).
 */
import { z } from 'zod';
import { AlignmentMessages, isAlignmentMatrix } from '../alignment.js';
import { AnnotationMessages, annotationFieldSchemas } from '../annotations.js';
import { CHANGE_MAP_HISTOGRAM_BINS_MAX, CHANGE_MAP_REGIONS_MAX, ChangeMapMessages } from '../change-map-document.js';
import { FormMessages, ValidationMessages } from '../messages.js';
import { MODEL_TYPES } from '../model-type.js';
import type { CollectionName, ModelType } from '../types.js';
import { DocumentMessages } from './document-messages.js';
import { PUBLIC_ID_PATTERN } from './models.js';
import { LATITUDE_RANGE, LONGITUDE_RANGE, isHttpUrl } from './project-form.js';
import { isEmail } from './result.js';

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
 * `changeRegion`: null, or the change region a finding was made from: the reference model's id, a
 * whole region number of 1 or more and a finite signed distance (model units).
 */
const findingChangeRegion = z
  .strictObject(
    {
      referenceModelId: idText(AnnotationMessages.changeRegionInvalid),
      regionId: z
        .number({ error: AnnotationMessages.changeRegionInvalid })
        .int(AnnotationMessages.changeRegionInvalid)
        .min(1, AnnotationMessages.changeRegionInvalid),
      maxDistance: z.number({ error: AnnotationMessages.changeRegionInvalid }),
    },
    { error: AnnotationMessages.changeRegionInvalid },
  )
  .nullable();

/**
 * A finding's fields ('annotations', `AnnotationData`): the content fields of
 * {@link annotationFieldSchemas} in the form's order (so the first problem is the one the form
 * reports first), the model and number, the author (a uid of 1–128 characters without control
 * characters, an email address or null), the times, the follow-up link
 * (`{annotationId: '{modelId}_{seq}', modelId}`) and the change region it was made from
 * (`{referenceModelId, regionId, maxDistance}`). `created_at`, `last_updated`, `followUpOf` and
 * `changeRegion` may be absent (findings stored before them); `up` may be absent (null). How the
 * fields fit together (`annotationShapeProblem`; a follow-up of another model, a change region
 * against another model on a finding of one point) and the key
 * (`{modelId}_{seq}`) are `parseStoredDocument`'s (documents.ts) to check.
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
  changeRegion: findingChangeRegion.optional(),
});

/** An alignment's matrix: 16 finite numbers, column-major, of an invertible affine transform (last row 0 0 0 1). */
const alignmentMatrix = z
  .array(z.number({ error: AlignmentMessages.matrixInvalid }), { error: AlignmentMessages.matrixInvalid })
  .length(16, AlignmentMessages.matrixInvalid)
  .refine(isAlignmentMatrix, AlignmentMessages.matrixInvalid);
/** An alignment's picked pairs: at most 3, each a model and a reference point. */
const alignmentPairs = z
  .array(z.strictObject({ model: point, reference: point }, { error: DocumentMessages.alignmentPairs }), {
    error: DocumentMessages.alignmentPairs,
  })
  .max(3, DocumentMessages.alignmentPairs);

/**
 * An 'icp' alignment's `previous` (`AlignmentPrevious`): the manual alignment it replaced, a
 * 'same-frame' or '3-point' one with its matrix, pairs and RMS error (the pairs its method takes
 * are `parseStoredDocument`'s to check).
 */
const alignmentPrevious = z.strictObject(
  {
    method: z.enum(['same-frame', '3-point'], { error: DocumentMessages.alignmentPrevious }),
    matrix: alignmentMatrix,
    pairs: alignmentPairs,
    rmsError: z.number({ error: DocumentMessages.alignmentError }).min(0, DocumentMessages.alignmentError),
  },
  { error: DocumentMessages.alignmentPrevious },
);

/**
 * An alignment's fields ('alignments', `AlignmentData`): two model ids, the project, a 4×4
 * column-major matrix of 16 finite numbers that is an invertible affine transform (last row
 * 0 0 0 1), the method ('same-frame', '3-point' or 'icp'), at most 3 pairs of points, a finite
 * RMS error ≥ 0, the manual alignment an 'icp' one replaced (`previous`, optional), who made it
 * and when. Two different models, the pairs the method takes (none for 'same-frame' and 'icp',
 * exactly 3 for '3-point'), a `previous` on an 'icp' alignment only, and the key
 * (`{referenceModelId}__{modelId}`) are `parseStoredDocument`'s (documents.ts) to check.
 */
export const alignmentDocumentSchema = z.strictObject({
  referenceModelId: idText(DocumentMessages.alignmentKey),
  modelId: idText(DocumentMessages.alignmentKey),
  projectId: idText().nullable(),
  matrix: alignmentMatrix,
  method: z.enum(['same-frame', '3-point', 'icp'], { error: AlignmentMessages.methodInvalid }),
  pairs: alignmentPairs,
  rmsError: z.number({ error: DocumentMessages.alignmentError }).min(0, DocumentMessages.alignmentError),
  previous: alignmentPrevious.nullable().optional(),
  created_by: pathText,
  created_at: timestamp.optional(),
});

/** A finite number (zod refuses NaN and ±Infinity), reported with `message`. */
const finite = (message: string) => z.number({ error: message });
/** A whole number of 0 or more, reported with `message`. */
const whole = (message: string) => z.number({ error: message }).int(message).min(0, message);
/** A 4×4 column-major matrix of an invertible affine transform (`isAlignmentMatrix`), reported with `message`. */
const affineMatrix = (message: string) =>
  z
    .array(z.number({ error: message }), { error: message })
    .length(16, message)
    .refine(isAlignmentMatrix, message);
/** A text of 1–1,024 characters without control characters, reported with `message` (a change map's file stamps, its method). */
const label = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .refine((text) => text.length <= 1024 && !CONTROL_CHARACTER.test(text), message);
/** A point of a change region as `[x, y, z]`, finite numbers. */
const regionPoint = z.tuple([finite(ChangeMapMessages.region), finite(ChangeMapMessages.region), finite(ChangeMapMessages.region)], {
  error: ChangeMapMessages.region,
});

/** One change region of a change map (`ChangeRegionData`). */
const changeRegion = z.strictObject(
  {
    id: z.number({ error: ChangeMapMessages.region }).int(ChangeMapMessages.region).min(1, ChangeMapMessages.region),
    side: z.enum(['capture', 'reference'], { error: ChangeMapMessages.region }),
    centroid: regionPoint,
    min: regionPoint,
    max: regionPoint,
    count: z.number({ error: ChangeMapMessages.region }).int(ChangeMapMessages.region).min(1, ChangeMapMessages.region),
    meanDistance: finite(ChangeMapMessages.region),
    maxDistance: finite(ChangeMapMessages.region),
  },
  { error: ChangeMapMessages.region },
);

/**
 * A change map's fields ('changeMaps', `ChangeMapData`): two model ids and the project, the
 * values file's path (1–1,024 characters), the inputs (two file stamps and the alignment used,
 * `{method, matrix}` with an invertible affine matrix, or null), the registration (an invertible
 * affine 4×4 column-major matrix, a finite RMS error ≥ 0, whole iterations and pairs), a finite
 * level of detection ≥ 0, whole point counts, a histogram of 1–{@link CHANGE_MAP_HISTOGRAM_BINS_MAX}
 * whole counts between finite `min` ≤ `max`, at most {@link CHANGE_MAP_REGIONS_MAX} regions, who
 * computed it and when. Two different models, the values path's form
 * (`models/{uuid}/changes/{referenceModelId}.bin`) and the key (`{referenceModelId}__{modelId}`)
 * are `parseStoredDocument`'s (documents.ts) to check.
 */
export const changeMapDocumentSchema = z.strictObject({
  referenceModelId: idText(ChangeMapMessages.key),
  modelId: idText(ChangeMapMessages.key),
  projectId: idText().nullable(),
  valuesPath: label(ChangeMapMessages.valuesPath),
  inputs: z.strictObject(
    {
      modelFile: label(ChangeMapMessages.inputs),
      referenceFile: label(ChangeMapMessages.inputs),
      alignment: z
        .strictObject(
          { method: label(ChangeMapMessages.inputs), matrix: affineMatrix(AlignmentMessages.matrixInvalid) },
          { error: ChangeMapMessages.inputs },
        )
        .nullable(),
    },
    { error: ChangeMapMessages.inputs },
  ),
  registration: z.strictObject(
    {
      matrix: affineMatrix(ChangeMapMessages.registrationMatrix),
      rmsError: finite(ChangeMapMessages.registration).min(0, ChangeMapMessages.registration),
      iterations: whole(ChangeMapMessages.registration),
      pairs: whole(ChangeMapMessages.registration),
    },
    { error: ChangeMapMessages.registration },
  ),
  levelOfDetection: finite(ChangeMapMessages.levelOfDetection).min(0, ChangeMapMessages.levelOfDetection),
  pointCount: whole(ChangeMapMessages.pointCounts),
  referencePointCount: whole(ChangeMapMessages.pointCounts),
  histogram: z
    .strictObject(
      {
        min: finite(ChangeMapMessages.histogram),
        max: finite(ChangeMapMessages.histogram),
        counts: z
          .array(whole(ChangeMapMessages.histogram), { error: ChangeMapMessages.histogram })
          .min(1, ChangeMapMessages.histogram)
          .max(CHANGE_MAP_HISTOGRAM_BINS_MAX, ChangeMapMessages.histogram),
      },
      { error: ChangeMapMessages.histogram },
    )
    .refine((histogram) => histogram.min <= histogram.max, ChangeMapMessages.histogram),
  regions: z.array(changeRegion, { error: ChangeMapMessages.region }).max(CHANGE_MAP_REGIONS_MAX, ChangeMapMessages.regionsMax),
  computed_by: pathText,
  computed_at: timestamp.optional(),
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
 * sizes (whole bytes), the camera metadata's upload time, the metadata the workflows write (capture
 * date, display order, the finding count and number, the scale), the content checks' report and the
 * refusal of a stored file that failed its check (`contentRefusal`: the refused paths with the
 * generation checked and the message, the visibility to put back, when). `files` may be absent (a
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
      cameraMetadataUploadedAt: timestamp.optional(),
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
  contentRefusal: z
    .strictObject({
      files: z
        .array(z.strictObject({ path: pathText, generation: z.string().regex(/^[0-9]{1,20}$/), problem: z.string().max(4096) }))
        .min(1),
      visibleBefore: z.boolean(),
      refusedAt: z.iso.datetime({ offset: true }),
    })
    .nullable()
    .optional(),
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
  changeMaps: changeMapDocumentSchema,
  models: modelDocumentSchema,
  projects: projectDocumentSchema,
  users: userDocumentSchema,
  admins: adminDocumentSchema,
};
