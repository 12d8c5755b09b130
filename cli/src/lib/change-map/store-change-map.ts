/**
 * A capture's change map computed and stored, one way for every caller: `catalog models changes`
 * (either backend), `catalog seed` (the demo's changed capture) and the embedded server's
 * background jobs (`cli/src/server/change-map-jobs.ts`). The pair is the capture, the model it is
 * compared with (its project's reference model unless named) and the pair's stored alignment;
 * the comparison runs on both models' files on disk (a splat file, or the GLB of a mesh-only model),
 * with their camera metadata where they have it
 * (`compareCaptureFiles`, or the same in a worker thread), the values file is uploaded first and the summary saved with `saveChangeMap`, stamped
 * with the inputs it was computed from so that `changeMapOutOfDate` can tell when it no longer holds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDENTITY_MATRIX } from '@shared/alignment.js';
import { comparedFileOf } from '@shared/change-map-compared-file.js';
import { changeMapInputFile } from '@shared/change-map-document.js';
import { AppError, ErrorCode, isAppError } from '@shared/errors.js';
import { changeValuesPath, fileNameOf } from '@shared/paths.js';
import type { Backend, CatalogPort } from '@shared/ports/index.js';
import type { Alignment, ChangeMapRecord, Model } from '@shared/types.js';
import { getAlignment } from '@shared/workflows/alignments.js';
import { saveChangeMap } from '@shared/workflows/change-maps.js';
import { deleteFilesQuietly } from '@shared/workflows/util.js';
import { downloadStoredFile } from '../download.js';
import { compareCaptureFiles, type CameraFiles, type CaptureComparison, type ComparisonStep } from './compare-files.js';

/** The messages about a pair that cannot be compared, shown as they are (the CLI's refusals, the server's skipped jobs). */
export const ChangesMessages = {
  noReference: (publicId: string) =>
    `The project of ${publicId} has no reference model: set one, or name the model to compare with in --against`,
  sameModel: 'A capture cannot be compared with itself: name another model in --against',
  otherProject: (publicId: string) => `${publicId} is in another project: a change map compares two captures of one structure`,
  noFile: (publicId: string) => `${publicId} has neither a splat file nor a GLB: the change map has no surface to compare`,
} as const;

/** A capture, the model it is compared with, and the pair's stored alignment (or null: the same frame). */
export interface ChangeMapPair {
  capture: Model;
  reference: Model;
  alignment: Alignment | null;
}

/** What a step of {@link computeAndStoreChangeMap} is doing: the comparison's steps, then storing. */
export type ChangeMapStep = 'downloading' | ComparisonStep | 'storing';

/** A comparison of two splat files on disk, with their camera metadata files: {@link compareCaptureFiles}, or the same in a worker thread. */
export type CompareFiles = (
  capturePath: string,
  referencePath: string,
  initial: readonly number[],
  names: { capture?: string; reference?: string },
  onStep: (step: ComparisonStep) => void,
  cameras: CameraFiles,
) => Promise<CaptureComparison>;

/** The files of a pair on disk: both compared files (splat, or GLB), and each one's camera metadata file (absent or null: none). */
export interface PairFiles {
  capture: string;
  reference: string;
  captureCameras?: string | null;
  referenceCameras?: string | null;
}

/**
 * The reference model of a capture's project: the project's model flagged `isReference` (one per
 * project, kept so by `setReferenceModel`).
 * @param catalog the catalog port
 * @param capture the capture's record
 * @returns the reference model (which may be the capture itself), or null when the capture has no project or the project no reference
 * @throws catalog errors (permission, network)
 */
export async function projectReference(catalog: CatalogPort, capture: Pick<Model, 'projectId'>): Promise<Model | null> {
  const projectId = capture.projectId ?? null;
  if (projectId === null) return null;
  const [reference] = await catalog.query('models', {
    where: [
      ['projectId', '==', projectId],
      ['isReference', '==', true],
    ],
  });
  return reference ?? null;
}

/**
 * The file a change map reads of a model: its splat file, else (a mesh-only model) its GLB
 * (`comparedFileOf`).
 * @param model the model's record
 * @returns its storage path
 * @throws AppError `failed-precondition` ({@link ChangesMessages.noFile}) for a model with neither
 */
export function comparedPathOf(model: Model): string {
  const file = comparedFileOf(model);
  if (file === null) throw new AppError(ErrorCode.FailedPrecondition, ChangesMessages.noFile(model.publicId));
  return file.path;
}

/** The 180° turn about x, column-major: a y-up GLB's frame onto a y-down splat's, and back (its own inverse). */
export const SPLAT_TURN: readonly number[] = Object.freeze([1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1]);

/**
 * Where a pair's comparison starts without a stored alignment: the same frame, as the viewer shows
 * both. For two splats or two GLBs that is the identity; between a GLB (y-up, as glTF wants) and a
 * splat (y-down, as 3DGS writes it, which the viewer turns 180° about x) it is that turn.
 * @param pair the capture and its reference
 * @returns 16 numbers, column-major, capture → reference
 */
export function sameFrameMatrix(pair: Pick<ChangeMapPair, 'capture' | 'reference'>): readonly number[] {
  const kind = (model: Model) => comparedFileOf(model)?.kind ?? 'splat';
  return kind(pair.capture) === kind(pair.reference) ? IDENTITY_MATRIX : SPLAT_TURN;
}

/**
 * The pair a capture's change map compares: the capture, the given reference (or its project's),
 * both with a splat file or a GLB ({@link comparedPathOf}), and their stored alignment.
 * @param catalog the catalog port
 * @param capture the capture's record
 * @param reference the model to compare with; default the project's reference ({@link projectReference})
 * @returns the pair
 * @throws AppError `failed-precondition` ({@link ChangesMessages}: no reference, a model with neither a
 *   splat file nor a GLB), `invalid-argument` (the capture itself); catalog errors
 */
export async function changeMapPair(catalog: CatalogPort, capture: Model, reference?: Model): Promise<ChangeMapPair> {
  const against = reference ?? (await projectReference(catalog, capture));
  if (against === null) throw new AppError(ErrorCode.FailedPrecondition, ChangesMessages.noReference(capture.publicId));
  if (against.id === capture.id) throw new AppError(ErrorCode.InvalidArgument, ChangesMessages.sameModel);
  comparedPathOf(capture);
  comparedPathOf(against);
  return { capture, reference: against, alignment: await getAlignment(catalog, against.id, capture.id) };
}

/** What {@link computeAndStoreChangeMap} came to: the comparison, where its values go, and the stored document (null: not stored). */
export interface StoredComparison {
  outcome: CaptureComparison;
  valuesPath: string;
  record: ChangeMapRecord | null;
}

/** Options of {@link computeAndStoreChangeMap} and {@link computeStoredChangeMap}. */
export interface ComputeChangeMapOptions {
  /** Who computed it, stored as `computed_by` (a uid, or a label: 'cli', 'seed', 'server'). */
  computedBy: string;
  /** The comparison to run (default {@link compareCaptureFiles}, on this thread). */
  compare?: CompareFiles;
  /** Called as each step starts. */
  onStep?: (step: ChangeMapStep) => void;
  /**
   * Asked once the comparison is done, before anything is stored: false stores nothing (the
   * server's job, when another writer stored an up-to-date map meanwhile). Default: store.
   */
  storeIf?: () => Promise<boolean>;
}

/**
 * Computes a pair's change map from both models' files on disk (splat, or GLB) and stores it: the values file at
 * `changeValuesPath(capture uuid, reference id)` first (a map is never stored without its values),
 * then the document with `saveChangeMap`, its inputs the stamps of both records and the alignment
 * of `pair` (what the comparison started from); unless `options.storeIf` says not to. Should the
 * save find a model gone, the values file just uploaded is deleted again.
 * @param backend catalog and file-store ports (admins and the service key)
 * @param pair the pair ({@link changeMapPair})
 * @param files the capture's and the reference's files on disk (splat, or GLB), with their camera metadata
 *   files where they have them (their camera centres orient the surfaces: see compare-files.ts)
 * @param options see {@link ComputeChangeMapOptions}
 * @returns the comparison, the values path and the stored document (null when `storeIf` said no)
 * @throws what the comparison throws (a file that cannot be read, a capture without confident
 *   splats), what the upload and `saveChangeMap` throw
 */
export async function computeAndStoreChangeMap(
  backend: Pick<Backend, 'catalog' | 'files'>,
  pair: ChangeMapPair,
  files: PairFiles,
  options: ComputeChangeMapOptions,
): Promise<StoredComparison> {
  const { capture, reference, alignment } = pair;
  const compare = options.compare ?? compareCaptureFiles;
  const onStep = options.onStep ?? (() => undefined);
  const names = { capture: fileNameOf(comparedPathOf(capture)), reference: fileNameOf(comparedPathOf(reference)) };
  const cameras = { capture: files.captureCameras ?? null, reference: files.referenceCameras ?? null };
  const outcome = await compare(files.capture, files.reference, alignment?.matrix ?? sameFrameMatrix(pair), names, onStep, cameras);
  const { registration, map } = outcome;
  const valuesPath = changeValuesPath(capture.uuid || capture.id, reference.id);
  if (options.storeIf && !(await options.storeIf())) return { outcome, valuesPath, record: null };

  onStep('storing');
  await backend.files.upload(valuesPath, new Blob([outcome.values]), { contentType: 'application/octet-stream' });
  try {
    const record = await saveChangeMap(backend.catalog, backend.files, {
      referenceModelId: reference.id,
      modelId: capture.id,
      inputs: {
        modelFile: changeMapInputFile(capture),
        referenceFile: changeMapInputFile(reference),
        alignment: alignment ? { method: alignment.method, matrix: alignment.matrix } : null,
      },
      registration,
      levelOfDetection: map.levelOfDetection,
      pointCount: outcome.captureCount,
      referencePointCount: outcome.referencePoints,
      histogram: map.histogram,
      regions: map.regions,
      computedBy: options.computedBy,
    });
    return { outcome, valuesPath, record };
  } catch (error) {
    // a model deleted meanwhile: no map can name these values
    if (isAppError(error, ErrorCode.NotFound)) await deleteFilesQuietly(backend.files, [valuesPath]);
    throw error;
  }
}

/**
 * {@link computeAndStoreChangeMap} for a caller that does not hold the files: both compared files, and
 * the camera metadata of each model that has one, are downloaded to a temporary folder first
 * (removed afterwards), on this thread unless `options.compare` says otherwise. What
 * `catalog models changes` and `catalog seed` run.
 * @param backend catalog and file-store ports (admins and the service key)
 * @param pair the pair ({@link changeMapPair})
 * @param options see {@link ComputeChangeMapOptions}
 * @returns as {@link computeAndStoreChangeMap}
 * @throws AppError `unavailable` when a download fails; as {@link computeAndStoreChangeMap}
 */
export async function computeStoredChangeMap(
  backend: Pick<Backend, 'catalog' | 'files'>,
  pair: ChangeMapPair,
  options: ComputeChangeMapOptions,
): Promise<StoredComparison> {
  const capturePath = comparedPathOf(pair.capture);
  const referencePath = comparedPathOf(pair.reference);
  const dir = await mkdtemp(join(tmpdir(), 'catalog-changes-'));
  try {
    const cameraPath = (model: Model) => model.files?.cameraMetadata || null;
    const [captureCameras, referenceCameras] = [cameraPath(pair.capture), cameraPath(pair.reference)];
    const files: PairFiles = {
      capture: join(dir, `capture-${fileNameOf(capturePath)}`),
      reference: join(dir, `reference-${fileNameOf(referencePath)}`),
      captureCameras: captureCameras && join(dir, `capture-${fileNameOf(captureCameras)}`),
      referenceCameras: referenceCameras && join(dir, `reference-${fileNameOf(referenceCameras)}`),
    };
    options.onStep?.('downloading');
    await downloadStoredFile(backend.files, capturePath, files.capture);
    await downloadStoredFile(backend.files, referencePath, files.reference);
    if (captureCameras) await downloadStoredFile(backend.files, captureCameras, files.captureCameras!);
    if (referenceCameras) await downloadStoredFile(backend.files, referenceCameras, files.referenceCameras!);
    return await computeAndStoreChangeMap(backend, pair, files, options);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
