/**
 * Adding a model to a project: the add-model stages (preparing, uploading, processing,
 * finalizing), the content checks of every file, the web-sized copies, the record written last,
 * and the optional "reference model on add". What the files and the record are made of (storage
 * paths, record fields) is `add-model-plan.ts`'s.
 */
import { AppError, ErrorCode } from '../errors.js';
import type { Backend } from '../ports/index.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { UploadProgress, UploadSource } from '../ports/files.js';
import { ProjectMessages } from '../messages.js';
import { validateAddModel } from '../validation/models.js';
import { validateCameraMetadataFiles } from '../validation/camera.js';
import { parseCameraMetadata } from '../camera-metadata.js';
import { hasWebSplatCopy, wantsWebGlbCopy } from '../paths.js';
import type { ContentPlatform } from '../content-check/platform.js';
import { byteSourceOf, checkUploadContent, makeWebGlb, makeWebSplat, thumbnailFromFirstPhoto } from './content.js';
import type { Model, ModelType, ValidationReport } from '../types.js';
import { setReferenceModel } from './reference.js';
import { assertPublicIdFree } from './public-id.js';
import { buildModelRecord, planUploads } from './add-model-plan.js';
import type { FileStatus } from './util.js';
import { deleteFilesQuietly, unwrap, uploadFiles } from './util.js';

/** Add-model upload stages, in order. */
export const ADD_MODEL_STAGES = ['preparing', 'uploading', 'processing', 'finalizing'] as const;
export type AddModelStage = (typeof ADD_MODEL_STAGES)[number];

/** A file to upload: its source and original file name (the extension decides the splat path). */
export interface AddModelFile {
  source: UploadSource;
  name: string;
}

/** Input of {@link addModel}: the add-model form. */
export interface AddModelInput {
  projectId: string;
  publicId: string;
  name: string;
  modelType: ModelType;
  /** ISO date (YYYY-MM-DD) or null. */
  captureDate?: string | null;
  setAsReference: boolean;
  files: {
    splat?: AddModelFile;
    glb?: AddModelFile;
    /** Camera metadata JSON: its text (validated before anything is written) and file name. */
    cameraMetadata?: { text: string; name: string };
    images?: AddModelFile[];
    thumbnails?: AddModelFile[];
    assets?: AddModelFile[];
  };
}

/** Observers and decisions of {@link addModel}. */
export interface AddModelHooks {
  onStage?: (stage: AddModelStage) => void;
  /**
   * Per-file status. `key` is 'splat', 'glb', 'cameraMetadata' or `images/{name}`,
   * `images_thumbnails/{name}`, `assets/{name}`.
   */
  onFile?: (key: string, status: FileStatus, progress?: UploadProgress) => void;
  /**
   * Asked when the model is to be the reference and the project already has one ('This
   * project already has a reference model. Do you want to replace it?'). Resolving false keeps
   * the old reference; the new model is still created. Without this hook the answer is no.
   */
  confirmReplaceReference?: () => Promise<boolean>;
  /** Aborting cancels uploads; uploaded files are removed and nothing is recorded. */
  signal?: AbortSignal;
  /**
   * Refuse a Public ID another model of the project already has ({@link assertPublicIdFree}),
   * checked in the preparing stage, before anything is uploaded. On by default (one Public ID, one
   * `?id=` link, on every create path, the model-list upload included). `false` skips this
   * pre-check only: the embedded and in-memory backends refuse the clash when the record is written
   * (after the uploads).
   */
  uniquePublicId?: boolean;
  /**
   * The platform's help for the content checks, thumbnails and web-sized copies (the portal's
   * canvas and createImageBitmap, the CLI's node:fs, sharp, the SPZ library and gltf-transform). Without it Blobs are still
   * checked (photos on their header only) and no thumbnail or local web-sized copy is made.
   */
  content?: ContentPlatform;
  /**
   * The validation report of a caller that has just run the content checks on exactly these
   * files (the CLI's folder inspection, which refuses a folder with problems before it gets
   * here): the files are not read a second time, and this report is stored. The embedded
   * server still checks every file it receives.
   */
  checked?: ValidationReport;
  /** uid written as `owner_uid`. */
  ownerUid?: string | null;
  /** Model uuid to use (default: a new random UUID). */
  uuid?: string;
  /** Files uploaded at once (default FILE_UPLOAD_CONCURRENCY, 4). */
  fileConcurrency?: number;
  /**
   * Write the record only: the model type's required files are not asked for and nothing is
   * uploaded (the record lists no files). For a backend without file storage
   * (`capabilities.fileStorage` false: `catalog seed` on the Firebase emulators).
   */
  recordOnly?: boolean;
}

export interface AddModelResult {
  model: Model;
  /** True when the project's reference_model_id now points to this model. */
  referenceUpdated: boolean;
  /** Bytes uploaded in total. */
  bytesUploaded: number;
}

/**
 * Adds a model to a project, through the add-model stages, with the optional "reference model
 * on add" and the content checks of every file. Stages: preparing (validation of the form — Public ID
 * filled in, of letters, numbers, hyphens and underscores, and free in the project — of the
 * camera metadata, and of every file's content (shared/content-check/); the project lookup; a
 * thumbnail from the first photo when none is given; nothing is written on a failure),
 * uploading (each file to `models/{uuid}/…` with progress), processing (the web-sized copy of a
 * splat; that of a GLB of at least 8 MiB, kept only when at least 2× smaller, else a null
 * `files.webGlbPath` and a note; then the record with its validation report), finalizing (the record is written;
 * as the reference when asked).
 *
 * Reference handling: when the project has no reference, the model and the project's
 * reference_model_id are written in one batch. When it has one, the model is created first,
 * then `confirmReplaceReference` is asked; yes swaps the reference atomically
 * ({@link setReferenceModel}), no leaves the model as a non-reference.
 *
 * On any failure or cancel after uploads began, the files already uploaded are deleted, so no
 * orphan file and no half-created record remain.
 *
 * @param backend catalog and file-store ports (admin or service)
 * @param input the form values and files
 * @param hooks stage/file observers, the replace-reference question, cancel signal
 * @returns the created model, whether the reference was updated, and bytes uploaded
 * @throws AppError `invalid-argument` with the catalogue's message ('Please enter Public ID and Model
 *   Name.', 'Required file types are missing based on the selected model type.', 'Public ID can
 *   only contain letters, numbers, hyphens, and underscores', camera metadata messages such as
 *   'JSON format error: Camera 3: …') or the content checks' messages, one refused file a line
 *   ('This .glb is an HTML page, not a GLB file (scan.glb).'); `already-exists` ('Public ID … is
 *   already used in this project.'); `not-found` ('Project not found'); `storage/canceled`,
 *   upload and permission errors
 */
export async function addModel(
  backend: Pick<Backend, 'catalog' | 'files'>,
  input: AddModelInput,
  hooks: AddModelHooks = {},
): Promise<AddModelResult> {
  const { catalog, files } = backend;
  hooks.onStage?.('preparing');
  unwrap(
    validateAddModel({
      publicId: input.publicId,
      name: input.name,
      modelType: input.modelType,
      hasSplat: hooks.recordOnly === true || input.files.splat !== undefined,
      hasGlb: hooks.recordOnly === true || input.files.glb !== undefined,
    }),
  );
  if (input.files.cameraMetadata !== undefined) {
    unwrap(validateCameraMetadataFiles([{ name: input.files.cameraMetadata.name }]));
    unwrap(parseCameraMetadata(input.files.cameraMetadata.text));
  }
  const project = await catalog.get('projects', input.projectId);
  if (project === null) {
    throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { projectId: input.projectId } });
  }
  if (hooks.uniquePublicId !== false) await assertPublicIdFree(catalog, { projectId: input.projectId, publicId: input.publicId.trim() });
  let report: ValidationReport | null = null;
  let withThumbnail = input;
  if (!hooks.recordOnly) {
    const { splat, glb, cameraMetadata, images = [], thumbnails = [] } = input.files;
    report = hooks.checked
      ? structuredClone(hooks.checked)
      : await checkUploadContent({ splat, glb, cameraMetadata, images, thumbnails }, hooks.content);
    if (thumbnails.length === 0) {
      const made = await thumbnailFromFirstPhoto(images, hooks.content, report.notes);
      if (made !== null) withThumbnail = { ...input, files: { ...input.files, thumbnails: [made] } };
    }
  }
  throwIfAborted(hooks.signal);
  const uuid = hooks.uuid ?? globalThis.crypto.randomUUID();
  const plan = hooks.recordOnly ? [] : planUploads(uuid, withThumbnail);
  for (const item of plan) hooks.onFile?.(item.key, 'waiting');

  hooks.onStage?.('uploading');
  const uploaded: string[] = [];
  const sizes = new Map<string, number>();
  let bytesUploaded = 0;
  try {
    const stored = await uploadFiles(files, plan, uploaded, {
      concurrency: hooks.fileConcurrency,
      signal: hooks.signal,
      onFile: hooks.onFile,
    });
    for (const [key, file] of stored) {
      sizes.set(key, file.size);
      bytesUploaded += file.size;
    }

    hooks.onStage?.('processing');
    const data = buildModelRecord(uuid, input, plan, sizes, hooks.ownerUid ?? null);
    const splatUpload = plan.find((p) => p.key === 'splat');
    if (report !== null && splatUpload !== undefined && hasWebSplatCopy(splatUpload.path) && input.files.splat) {
      const ply = byteSourceOf(input.files.splat, hooks.content);
      const web = await makeWebSplat(files, uuid, splatUpload.path, ply, hooks.content, report.notes, hooks.signal);
      if (web !== null) {
        uploaded.push(web.file.path);
        const recordFiles = data.files as Record<string, unknown>;
        recordFiles.webSplatPath = web.file.path;
        recordFiles.webSplatSize = web.file.size;
        if (web.preview !== null) {
          uploaded.push(web.preview.path);
          recordFiles.webSplatPreviewPath = web.preview.path;
          recordFiles.webSplatPreviewSize = web.preview.size;
        }
      }
    }
    const glbUpload = plan.find((p) => p.key === 'glb');
    if (report !== null && glbUpload !== undefined && wantsWebGlbCopy(sizes.get('glb')) && input.files.glb) {
      const glb = byteSourceOf(input.files.glb, hooks.content);
      const web = await makeWebGlb(files, uuid, glbUpload.path, glb, hooks.content, report.notes, hooks.signal);
      if (web.made) {
        if (web.file !== null) uploaded.push(web.file.path);
        const recordFiles = data.files as Record<string, unknown>;
        recordFiles.webGlbPath = web.file?.path ?? null;
        recordFiles.webGlbSize = web.file?.size ?? null;
      }
    }
    if (report !== null) data.validation = report;

    hooks.onStage?.('finalizing');
    throwIfAborted(hooks.signal);
    const hasReference = typeof project.reference_model_id === 'string' && project.reference_model_id !== '';
    if (input.setAsReference && !hasReference) {
      await catalog.batch([
        { op: 'create', collection: 'models', id: uuid, data: { ...data, isReference: true } },
        {
          op: 'update',
          collection: 'projects',
          id: input.projectId,
          data: { reference_model_id: uuid, last_updated: SERVER_TIMESTAMP },
        },
      ]);
      return { model: await readBack(backend, uuid), referenceUpdated: true, bytesUploaded };
    }
    await catalog.batch([{ op: 'create', collection: 'models', id: uuid, data: { ...data, isReference: false } }]);
  } catch (error) {
    await deleteFilesQuietly(files, uploaded);
    throw error;
  }

  let referenceUpdated = false;
  if (input.setAsReference) {
    const replace = hooks.confirmReplaceReference ? await hooks.confirmReplaceReference() : false;
    if (replace) {
      await setReferenceModel(catalog, input.projectId, uuid);
      referenceUpdated = true;
    }
  }
  return { model: await readBack(backend, uuid), referenceUpdated, bytesUploaded };
}

/** The model just written, read back; AppError `internal` when it is not there. */
async function readBack(backend: Pick<Backend, 'catalog'>, uuid: string): Promise<Model> {
  const model = await backend.catalog.get('models', uuid);
  if (model === null) throw new AppError(ErrorCode.Internal, `Model ${uuid} was not written`);
  return model;
}

/** AppError `storage/canceled` ('Upload canceled') once `signal` has aborted. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError(ErrorCode.Canceled, 'Upload canceled');
}
