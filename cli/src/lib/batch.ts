/**
 * Bulk uploads (`catalog models upload-many`, and the single `models upload`): reading the batch
 * (manifest or `model.json` files), planning it against the backend (every local check first,
 * a model's identity is its publicId within the project), and uploading each model through the
 * `addModel` workflow with a stable uuid and a resuming file store (`resume.ts`), so that a
 * re-run after an interruption resumes, and a re-run after completion sends 0 bytes and
 * creates 0 records.
 */
import { existsSync, openAsBlob } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { extname, join, relative, resolve, sep } from 'node:path';
import pLimit from 'p-limit';
import { RESUMABLE_UPLOAD_THRESHOLD_BYTES } from '@shared/constants.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import type { ManifestEntry } from '@shared/manifest.js';
import { parseManifest, toManifestEntry } from '@shared/manifest.js';
import { ValidationMessages, addModelUploadError } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, ModelType, Project } from '@shared/types.js';
import { normaliseCaptureDate } from '@shared/validation/models.js';
import type { AddModelHooks, AddModelInput } from '@shared/workflows/index.js';
import { addModel } from '@shared/workflows/index.js';
import { nodeContentPlatform } from './content-platform.js';
import type { FolderInspection } from './folder.js';
import { folderUploadFiles, inspectModelFolder } from './folder.js';
import type { TransferCounters } from './resume.js';
import { resumingFiles, stableModelUuid } from './resume.js';

/** Manifest file names looked for in the batch directory when `--manifest` is not given. */
export const DEFAULT_MANIFESTS = ['manifest.json', 'manifest.csv'] as const;
/** Per-folder metadata file. */
export const MODEL_JSON = 'model.json';

/**
 * Reads the batch's entries: `manifestPath` when given, else `manifest.json`/`manifest.csv` in
 * `dir`, else every folder below `dir` holding a `model.json` (not descending further).
 * @param dir the batch directory
 * @param manifestPath an explicit manifest (CSV or JSON by extension)
 * @returns the entries and where they came from
 * @throws AppError `not-found` (no directory / manifest), `invalid-argument` (bad manifest)
 */
export async function readBatch(dir: string, manifestPath?: string): Promise<{ entries: ManifestEntry[]; source: string }> {
  const root = resolve(dir);
  if (!existsSync(root)) throw new AppError(ErrorCode.NotFound, `Not a folder: ${dir}`, { context: { dir: root } });
  const explicit = manifestPath ? resolve(manifestPath) : DEFAULT_MANIFESTS.map((m) => join(root, m)).find((p) => existsSync(p));
  if (explicit) {
    if (!existsSync(explicit))
      throw new AppError(ErrorCode.NotFound, `Manifest not found: ${manifestPath}`, { context: { manifest: explicit } });
    const format = extname(explicit).toLowerCase() === '.csv' ? 'csv' : 'json';
    const entries = parseManifest(await readFile(explicit, 'utf8'), format, relative(process.cwd(), explicit) || explicit);
    return { entries, source: explicit };
  }
  const entries: ManifestEntry[] = [];
  const walk = async (folder: string): Promise<void> => {
    const items = await readdir(folder, { withFileTypes: true });
    if (items.some((i) => i.isFile() && i.name === MODEL_JSON)) {
      const rel = relative(root, folder).split(sep).join('/');
      const where = `${rel || '.'}/${MODEL_JSON}`;
      let raw: unknown;
      try {
        raw = JSON.parse(await readFile(join(folder, MODEL_JSON), 'utf8'));
      } catch (error) {
        throw new AppError(ErrorCode.InvalidArgument, `${where}: not valid JSON (${errorMessage(error)})`);
      }
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw new AppError(ErrorCode.InvalidArgument, `${where}: expected an object`);
      entries.push(toManifestEntry({ ...(raw as Record<string, unknown>), folder: rel || '.' }, where));
      return;
    }
    for (const item of items.sort((a, b) => a.name.localeCompare(b.name))) {
      if (item.isDirectory() && !item.name.startsWith('.')) await walk(join(folder, item.name));
    }
  };
  await walk(root);
  if (entries.length === 0) {
    throw new AppError(
      ErrorCode.NotFound,
      `No models found in ${dir}: add a manifest.json / manifest.csv (or --manifest), or a ${MODEL_JSON} in each model folder.`,
      { context: { dir: root } },
    );
  }
  return { entries, source: 'model.json' };
}

/** What will happen (or happened) to one model of a batch. */
export type BatchStatus = 'ready' | 'exists' | 'invalid' | 'created' | 'failed';

/** One model of a batch plan. */
export interface BatchItem {
  entry: ManifestEntry;
  /** Absolute folder. */
  folder: string;
  status: BatchStatus;
  /** The catalogue's messages for everything wrong with it (status 'invalid' / 'failed'). */
  problems: string[];
  modelType: ModelType | null;
  captureDate: string | null;
  /** Bytes of its files. */
  totalBytes: number;
  fileCount: number;
  /** The existing or created model's id. */
  modelId?: string;
  /** The existing or created model's record. */
  model?: Model;
  /** True when creating it made it the project's reference model. */
  referenceUpdated?: boolean;
  inspection?: FolderInspection;
}

/** A checked batch. */
export interface BatchPlan {
  project: Project & { id: string };
  items: BatchItem[];
}

/**
 * Checks every entry of a batch without writing: its folder (plan, file heads, camera metadata),
 * public ID and name, capture date, duplicate public IDs in the batch, at most one reference,
 * and whether the project already has a model with that public ID (then: 'exists').
 * @param backend the opened backend (reads only)
 * @param project the target project (from `findProject`)
 * @param dir the batch directory
 * @param entries the batch's entries
 */
export async function planBatch(
  backend: Pick<Backend, 'catalog'>,
  project: Project & { id: string },
  dir: string,
  entries: ManifestEntry[],
): Promise<BatchPlan> {
  const existing = await backend.catalog.query('models', { where: [['projectId', '==', project.id]] });
  const byPublicId = new Map<string, Model>(existing.map((m) => [m.publicId.trim(), m]));
  const root = resolve(dir);
  const seen = new Map<string, string>();
  const items: BatchItem[] = [];
  for (const entry of entries) {
    const folder = resolve(root, entry.folder);
    const item: BatchItem = {
      entry,
      folder,
      status: 'ready',
      problems: [],
      modelType: null,
      captureDate: null,
      totalBytes: 0,
      fileCount: 0,
    };
    items.push(item);
    if (entry.publicId === '' || entry.name === '') item.problems.push(ValidationMessages.addModelIdAndNameRequired);
    const captureDate = normaliseCaptureDate(entry.captureDate);
    if (captureDate === undefined) item.problems.push(ValidationMessages.invalidDate);
    else item.captureDate = captureDate;
    if (entry.publicId !== '') {
      const other = seen.get(entry.publicId);
      if (other !== undefined) item.problems.push(`Public ID ${entry.publicId} is used twice in the batch (${other} and ${entry.folder})`);
      seen.set(entry.publicId, entry.folder);
    }
    const found = byPublicId.get(entry.publicId);
    if (found && item.problems.length === 0) {
      item.status = 'exists';
      item.modelId = found.id;
      item.model = found;
      item.modelType = found.modelType ?? null;
      continue;
    }
    try {
      const inspection = await inspectModelFolder(folder, { modelType: entry.type });
      item.inspection = inspection;
      item.modelType = inspection.plan.modelType;
      item.totalBytes = inspection.plan.totalBytes;
      const p = inspection.plan;
      item.fileCount =
        [p.splat, p.glb, p.cameraMetadata].filter((f) => f !== null).length + p.images.length + p.thumbnails.length + p.assets.length;
      for (const problem of inspection.problems) item.problems.push(problem.message);
      if (inspection.problems.length === 0 && item.modelType === null) item.problems.push(ValidationMessages.addModelFilesMissing);
    } catch (error) {
      item.problems.push(errorMessage(error));
    }
    if (item.problems.length > 0) item.status = 'invalid';
  }
  const references = items.filter((i) => i.entry.reference && i.status !== 'exists');
  if (references.length > 1) {
    for (const r of references)
      r.problems.push(`Only one model of a batch can be the reference (${references.map((x) => x.entry.folder).join(', ')})`);
    for (const r of references) r.status = 'invalid';
  }
  return { project, items };
}

/** Observers of {@link runBatch}. */
export interface BatchObserver {
  onModelStart?(item: BatchItem): void;
  onModelDone?(item: BatchItem): void;
  /** Per-file progress (bytes), keyed by the workflow's file key. */
  onFile?: (item: BatchItem, ...args: Parameters<NonNullable<AddModelHooks['onFile']>>) => void;
}

/** Result of {@link runBatch}. */
export interface BatchRun {
  counters: TransferCounters;
}

/**
 * Uploads the 'ready' items of a plan, `concurrency` models at a time, each through `addModel`
 * with its stable uuid; a failing model is marked 'failed' with its message (its uploaded files
 * are removed by the workflow) and the others go on.
 * @param backend the opened backend (admin)
 * @param plan a plan from {@link planBatch}
 * @param options.concurrency models uploaded at once (≥ 1)
 * @param options.ownerUid uid written as owner_uid
 * @param options.replaceReference answer to "replace the reference?" for the batch's reference model
 * @param options.observer progress observers
 * @returns the transfer counters (items are updated in place)
 */
export async function runBatch(
  backend: Pick<Backend, 'catalog' | 'files'>,
  plan: BatchPlan,
  options: { concurrency: number; ownerUid: string; replaceReference: boolean; observer?: BatchObserver; signal?: AbortSignal },
): Promise<BatchRun> {
  const { files, counters } = resumingFiles(backend.files);
  const limit = pLimit(Math.max(1, options.concurrency));
  const observer = options.observer ?? {};
  await Promise.all(
    plan.items
      .filter((item) => item.status === 'ready' && item.inspection && item.modelType)
      .map((item) =>
        limit(async () => {
          observer.onModelStart?.(item);
          const upload = folderUploadFiles(item.inspection as FolderInspection);
          try {
            await smallFilesAsBlobs(item.inspection as FolderInspection, upload.files);
            const result = await addModel(
              { catalog: backend.catalog, files },
              {
                projectId: plan.project.id,
                publicId: item.entry.publicId,
                name: item.entry.name,
                modelType: item.modelType as ModelType,
                captureDate: item.captureDate,
                setAsReference: item.entry.reference,
                files: upload.files,
              },
              {
                uuid: stableModelUuid(plan.project.id, item.entry.publicId),
                // a Public ID the project already has (a model added since the plan) is refused, not added twice
                uniquePublicId: true,
                ownerUid: options.ownerUid,
                signal: options.signal,
                // content checks, thumbnail and web-sized splat on this machine; the
                // folder inspection already checked these files: they are not read again
                content: nodeContentPlatform,
                checked: (item.inspection as FolderInspection).report,
                confirmReplaceReference: async () => options.replaceReference,
                onFile: (key, status, progress) => observer.onFile?.(item, key, status, progress),
              },
            );
            item.status = 'created';
            item.modelId = result.model.id;
            item.model = result.model;
            item.referenceUpdated = result.referenceUpdated;
          } catch (error) {
            item.status = 'failed';
            const message = errorMessage(error);
            const validation = error instanceof AppError && (error.code === ErrorCode.InvalidArgument || error.code === ErrorCode.NotFound);
            item.problems.push(validation ? message : addModelUploadError(message));
          } finally {
            upload.close();
            observer.onModelDone?.(item);
          }
        }),
      ),
  );
  return { counters };
}

/**
 * Small photos, thumbnails and assets (up to the resumable threshold, 256 KB) as file-backed
 * Blobs (`fs.openAsBlob`: read when sent, not held in memory), so that they go in batches
 * (`FileStorePort.uploadBatch`, many files per request) or, without batches, each in one request.
 */
async function smallFilesAsBlobs(inspection: FolderInspection, files: AddModelInput['files']): Promise<void> {
  const { plan } = inspection;
  const pairs: Array<[AddModelInput['files']['images'], typeof plan.images]> = [
    [files.images, plan.images],
    [files.thumbnails, plan.thumbnails],
    [files.assets, plan.assets],
  ];
  for (const [list, planned] of pairs) {
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      const file = list[i];
      const source = planned[i];
      if (file.source.size > RESUMABLE_UPLOAD_THRESHOLD_BYTES || source?.fileName !== file.name) continue;
      list[i] = { name: file.name, source: await openAsBlob(join(inspection.folder, source.path)) };
    }
  }
}

/** The JSON form of a batch item. */
export function batchItemSummary(item: BatchItem): {
  folder: string;
  publicId: string;
  name: string;
  status: BatchStatus;
  modelType: ModelType | null;
  reference: boolean;
  files: number;
  bytes: number;
  modelId: string | null;
  problems: string[];
} {
  return {
    folder: item.entry.folder,
    publicId: item.entry.publicId,
    name: item.entry.name,
    status: item.status,
    modelType: item.modelType,
    reference: item.entry.reference,
    files: item.fileCount,
    bytes: item.totalBytes,
    modelId: item.modelId ?? null,
    problems: item.problems,
  };
}
