import { AppError, ErrorCode } from '../errors.js';
import type { Backend } from '../ports/index.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { FileStorePort, UploadProgress, UploadSource } from '../ports/files.js';
import { ProjectMessages, ValidationMessages } from '../messages.js';
import { publicIdInUse, validateAddModel } from '../validation/models.js';
import type { CatalogPort } from '../ports/catalog.js';
import { validateCameraMetadataFiles } from '../validation/camera.js';
import { parseCameraMetadata } from '../camera-metadata.js';
import { confirmTypedName } from '../validation/confirm.js';
import {
  assetPath,
  cameraMetadataPath,
  glbPath,
  hasWebSplatCopy,
  imagePath,
  modelFolder,
  splatPath,
  thumbnailPath,
  wantsWebGlbCopy,
} from '../paths.js';
import type { ContentPlatform } from '../content-check/platform.js';
import { byteSourceOf, checkUploadContent, makeWebGlb, makeWebSplat, thumbnailFromFirstPhoto } from './content.js';
import type { Model, ModelData, ModelType, ValidationReport } from '../types.js';
import { setReferenceModel } from './reference.js';
import { deleteModelsWithFindings } from './annotations.js';
import type { FileStatus, FileUpload } from './util.js';
import { deleteFilesQuietly, listFilesDeep, unwrap, uploadFiles } from './util.js';

/** Add-model upload stages, in order. */
export const ADD_MODEL_STAGES = ['preparing', 'uploading', 'processing', 'finalizing'] as const;
export type AddModelStage = (typeof ADD_MODEL_STAGES)[number];

export type { FileStatus } from './util.js';

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

/**
 * The Public ID rule of a project's models: no two models of one project share a Public ID (the
 * CLI finds a model by its Public ID within its project, and bulk uploads skip a Public ID the
 * project already has). Its format is checked by the forms' validators (`shared/validation/models.ts`).
 * @param catalog the catalog port
 * @param target.projectId the project the model is (or goes) in
 * @param target.publicId the Public ID, trimmed
 * @param target.exceptModelId the model being edited (its own Public ID is no clash)
 * @throws AppError `already-exists` ('Public ID … is already used in this project.', context `{publicId, modelId}`)
 */
export async function assertPublicIdFree(
  catalog: Pick<CatalogPort, 'query'>,
  target: { projectId: string; publicId: string; exceptModelId?: string },
): Promise<void> {
  const { projectId, publicId, exceptModelId } = target;
  const found = await catalog.query('models', {
    where: [
      ['projectId', '==', projectId],
      ['publicId', '==', publicId],
    ],
    limit: 2,
  });
  const clash = found.find((model) => model.id !== exceptModelId);
  if (clash) throw new AppError(ErrorCode.AlreadyExists, publicIdInUse(publicId), { context: { publicId, modelId: clash.id } });
}

/**
 * Deletes a model with its record and every file under `models/{uuid}/`. The typed
 * name must equal the model name (both trimmed). The record goes first (with
 * the project's reference_model_id cleared in the same batch when it was the reference); files
 * follow. The model is deleted once its record is: files that could not be deleted are returned
 * (not thrown), for the caller to report; `catalog doctor --fix` removes them later.
 *
 * @param backend catalog and file-store ports (admin or service)
 * @param modelId the model's id
 * @param confirmName the name the admin typed
 * @returns the deleted model's name, the number of files deleted and the paths left behind
 * @throws AppError `not-found`, `invalid-argument` ("Model name doesn't match. Deletion
 *   canceled."), and the record deletion's errors (then nothing was deleted)
 */
export async function deleteModel(
  backend: Pick<Backend, 'catalog' | 'files'>,
  modelId: string,
  confirmName: string,
): Promise<{ name: string; filesDeleted: number; filesNotDeleted: string[] }> {
  const { catalog, files } = backend;
  const model = await catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
  if (!confirmTypedName(confirmName, model.name)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.modelNameMismatch, { context: { modelId } });
  }
  const paths = await modelFilePaths(files, model);
  // The model's findings and alignments go first (the count stays exact at every commit); the
  // record goes in a transaction that re-reads it, so a finding added meanwhile goes too.
  const projectId = model.projectId;
  await deleteModelsWithFindings(catalog, [model], {
    alsoWrite: async (tx) => {
      if (!projectId) return;
      const project = await tx.get('projects', projectId);
      if (project !== null && project.reference_model_id === modelId) {
        tx.update('projects', project.id, { reference_model_id: null, last_updated: SERVER_TIMESTAMP });
      }
    },
  });
  const failed = await deleteFilesQuietly(files, [...paths]);
  return { name: model.name, filesDeleted: paths.size - failed.length, filesNotDeleted: failed };
}

/**
 * Every stored file of a model: what lies under its folder `models/{uuid}/` and every path its
 * record names (the set a delete must remove so that nothing is orphaned).
 * @param files the file store (listing)
 * @param model the model record
 * @returns the storage paths, without duplicates
 */
export async function modelFilePaths(
  files: FileStorePort,
  model: Pick<ModelData, 'files' | 'uuid'> & { id: string },
): Promise<Set<string>> {
  const paths = new Set(await listFilesDeep(files, modelFolder(model.uuid || model.id)));
  for (const path of referencedPaths(model)) paths.add(path);
  return paths;
}

/** Every storage path a model record refers to. */
export function referencedPaths(model: Pick<ModelData, 'files'>): string[] {
  const f = model.files ?? {};
  return [f.splatPath, f.glbPath, f.cameraMetadata, ...(f.images ?? []), ...(f.thumbnails ?? []), ...(f.assets ?? [])].filter(
    (p): p is string => typeof p === 'string' && p !== '',
  );
}

function planUploads(uuid: string, input: AddModelInput): FileUpload[] {
  const plan: FileUpload[] = [];
  const { splat, glb, cameraMetadata, images = [], thumbnails = [], assets = [] } = input.files;
  if (splat) {
    const ext = splat.name.toLowerCase().endsWith('.splat') ? 'splat' : 'ply';
    plan.push({ key: 'splat', path: splatPath(uuid, ext), source: splat.source, contentType: 'application/octet-stream' });
  }
  if (glb) plan.push({ key: 'glb', path: glbPath(uuid), source: glb.source, contentType: 'model/gltf-binary' });
  if (cameraMetadata) {
    plan.push({
      key: 'cameraMetadata',
      path: cameraMetadataPath(uuid),
      source: new Blob([cameraMetadata.text], { type: 'application/json' }),
      contentType: 'application/json',
    });
  }
  const folders: Array<[string, AddModelFile[], (uuid: string, name: string) => string]> = [
    ['images', images, imagePath],
    ['images_thumbnails', thumbnails, thumbnailPath],
    ['assets', assets, assetPath],
  ];
  for (const [folder, list, pathOf] of folders) {
    const seen = new Set<string>();
    for (const file of list) {
      const path = pathOf(uuid, file.name);
      if (seen.has(path)) throw new AppError(ErrorCode.InvalidArgument, `Duplicate file name in ${folder}: ${file.name}`);
      seen.add(path);
      plan.push({ key: `${folder}/${file.name}`, path, source: file.source, contentType: guessContentType(file.name) });
    }
  }
  return plan;
}

function buildModelRecord(
  uuid: string,
  input: AddModelInput,
  plan: FileUpload[],
  sizes: Map<string, number>,
  ownerUid: string | null,
): Record<string, unknown> {
  const pathOf = (key: string) => plan.find((p) => p.key === key)?.path ?? null;
  const under = (prefix: string) => plan.filter((p) => p.key.startsWith(`${prefix}/`)).map((p) => p.path);
  const data: Omit<ModelData, 'created_at' | 'last_updated' | 'uploaded_at'> = {
    uuid,
    publicId: input.publicId.trim(),
    name: input.name.trim(),
    projectId: input.projectId,
    isReference: false,
    modelType: input.modelType,
    owner_uid: ownerUid,
    visible: true,
    files: {
      splatPath: pathOf('splat'),
      splatSize: sizes.get('splat') ?? null,
      glbPath: pathOf('glb'),
      glbSize: sizes.get('glb') ?? null,
      cameraMetadata: pathOf('cameraMetadata'),
      images: under('images'),
      thumbnails: under('images_thumbnails'),
      assets: under('assets'),
    },
    metadata: { captureDate: input.captureDate ?? null, displayOrder: 0, annotationsCount: 0 },
  };
  return { ...data, created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP, uploaded_at: SERVER_TIMESTAMP };
}

async function readBack(backend: Pick<Backend, 'catalog'>, uuid: string): Promise<Model> {
  const model = await backend.catalog.get('models', uuid);
  if (model === null) throw new AppError(ErrorCode.Internal, `Model ${uuid} was not written`);
  return model;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError(ErrorCode.Canceled, 'Upload canceled');
}

function guessContentType(name: string): string | undefined {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    png: 'image/png',
    webp: 'image/webp',
    json: 'application/json',
    glb: 'model/gltf-binary',
    ply: 'application/octet-stream',
    splat: 'application/octet-stream',
  };
  return types[ext];
}
