/**
 * The change maps of captures over the catalog and file-store ports: save a capture's change map
 * against a reference model (`changeMaps/{referenceModelId}__{modelId}`, the key of the pair's
 * alignment; the per-Gaussian values file is uploaded by the caller first, to
 * `models/{capture uuid}/changes/{referenceModelId}.bin`), read one by its pair, list a capture's,
 * and delete one with its values file. Admins (and the service key) write change maps on both
 * backends; readers with a role read those of two models they can open. A model delete takes the
 * change maps it is part of with it (`deleteModelsFindings`, `shared/workflows/model-delete-records.ts`).
 */
import { alignmentId, AnnotationMessages } from '../annotations.js';
import { ChangeMapMessages } from '../change-map-document.js';
import { AppError, ErrorCode, isAppError } from '../errors.js';
import { changeValuesPath, parseChangeValuesPath } from '../paths.js';
import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { FileStorePort } from '../ports/files.js';
import type { Backend } from '../ports/index.js';
import type { ChangeMapData, ChangeMapRecord } from '../types.js';
import { parseStoredDocument } from '../validation/documents.js';
import { deleteFilesQuietly } from './util.js';

/** What {@link saveChangeMap} is given: the computed map's summary, without what the workflow derives (project, values path, time). */
export interface SaveChangeMapInput {
  /** The reference model's id (the frame of the registration, the regions and the distances). */
  referenceModelId: string;
  /** The capture's id. */
  modelId: string;
  /** What it was computed from (`changeMapInputFile` of both models, the pair's alignment or null). */
  inputs: ChangeMapData['inputs'];
  /** The registration used (matrix capture → reference, 4×4 column-major; RMS error in model units). */
  registration: ChangeMapData['registration'];
  /** Model units. */
  levelOfDetection: number;
  /** Gaussians of the capture (one value each in the values file). */
  pointCount: number;
  /** Gaussians of the reference used. */
  referencePointCount: number;
  /** At most 64 bins. */
  histogram: ChangeMapData['histogram'];
  /** At most 100, both sides. */
  regions: ChangeMapData['regions'];
  /** Uid (or label, e.g. 'cli') of who computed it. */
  computedBy: string;
}

/** A triple as a plain 3-array (a typed array or a longer one is copied to exactly three numbers). */
const triple = (value: readonly number[]): [number, number, number] => [value[0]!, value[1]!, value[2]!];

/**
 * Saves (creates or replaces) a capture's change map against a reference model: the document at
 * `{referenceModelId}__{modelId}` with the capture's project (else the reference's), its values
 * path `models/{capture uuid}/changes/{referenceModelId}.bin`, the given summary and the server's
 * time as `computed_at`. Both models must exist and differ, and the document must hold the stored
 * change map's rules (`parseStoredDocument`: finite numbers, a 16-number invertible matrix, at
 * most 64 histogram bins and 100 regions…), checked here before anything is written so that a
 * backend that bypasses rules (the Admin SDK) stores nothing malformed either. Given the file
 * store, the values file must already be stored (upload it first: a map is never saved without
 * its values).
 * @param catalog the catalog port (rules: admins and the service key only)
 * @param files the file store, to check that the values file is stored; null or undefined skips the check
 * @param input see {@link SaveChangeMapInput}
 * @returns the stored change map (computed_at null here; read it back for the server time)
 * @throws AppError `invalid-argument` ({@link ChangeMapMessages}: the same model twice, a field
 *   that breaks its rule, with context `{path}`; or a reference id that is no valid file name),
 *   `not-found` ('Model not found', context `{modelId}`), `failed-precondition`
 *   ({@link ChangeMapMessages.valuesMissing}), `permission-denied` (a non-admin), storage errors
 *   of the check
 */
export async function saveChangeMap(
  catalog: CatalogPort,
  files: Pick<FileStorePort, 'getMetadata'> | null | undefined,
  input: SaveChangeMapInput,
): Promise<ChangeMapRecord> {
  const { referenceModelId, modelId } = input;
  if (referenceModelId === modelId) throw new AppError(ErrorCode.InvalidArgument, ChangeMapMessages.sameModel);
  const [model, reference] = await Promise.all([catalog.get('models', modelId), catalog.get('models', referenceModelId)]);
  if (model === null || reference === null) {
    throw new AppError(ErrorCode.NotFound, AnnotationMessages.modelNotFound, {
      context: { modelId: model === null ? modelId : referenceModelId },
    });
  }
  const id = alignmentId(referenceModelId, modelId);
  const { inputs, registration, histogram } = input;
  const data: ChangeMapData = {
    referenceModelId,
    modelId,
    projectId: model.projectId ?? reference.projectId ?? null,
    valuesPath: changeValuesPath(model.uuid || model.id, referenceModelId),
    inputs: {
      modelFile: inputs.modelFile,
      referenceFile: inputs.referenceFile,
      alignment: inputs.alignment ? { method: inputs.alignment.method, matrix: [...inputs.alignment.matrix] } : null,
    },
    registration: {
      matrix: [...registration.matrix],
      rmsError: registration.rmsError,
      iterations: registration.iterations,
      pairs: registration.pairs,
    },
    levelOfDetection: input.levelOfDetection,
    pointCount: input.pointCount,
    referencePointCount: input.referencePointCount,
    histogram: { min: histogram.min, max: histogram.max, counts: [...histogram.counts] },
    regions: input.regions.map((r) => ({
      id: r.id,
      side: r.side,
      centroid: triple(r.centroid),
      min: triple(r.min),
      max: triple(r.max),
      count: r.count,
      meanDistance: r.meanDistance,
      maxDistance: r.maxDistance,
    })),
    computed_by: input.computedBy,
  };
  const checked = parseStoredDocument('changeMaps', id, data);
  if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message, { context: { path: checked.path } });
  if (files) {
    try {
      await files.getMetadata(data.valuesPath);
    } catch (error) {
      if (!isAppError(error, ErrorCode.ObjectNotFound)) throw error;
      throw new AppError(ErrorCode.FailedPrecondition, ChangeMapMessages.valuesMissing(data.valuesPath), {
        cause: error,
        context: { path: data.valuesPath },
      });
    }
  }
  await catalog.set('changeMaps', id, { ...checked.value, computed_at: SERVER_TIMESTAMP });
  return { id, ...checked.value, computed_at: null };
}

/**
 * The change map of a capture against a reference model, if one is stored (one direction only:
 * the key is `{referenceModelId}__{modelId}`). A reader who may not open both models reads none.
 * @param catalog the catalog port (any role that may open models)
 * @param referenceModelId the reference model's id
 * @param modelId the capture's id
 * @returns the change map, or null
 * @throws AppError `permission-denied` / `unauthenticated`
 */
export async function getChangeMap(catalog: CatalogPort, referenceModelId: string, modelId: string): Promise<ChangeMapRecord | null> {
  return catalog.get('changeMaps', alignmentId(referenceModelId, modelId));
}

/**
 * Every change map of a capture (one per reference model it was compared with), newest first
 * (by `computed_at`, then by id). One query by `modelId`: Firestore's rules cannot read the
 * reference of every result, so on Firebase only admins and the service key may list; a user reads
 * a pair at a time ({@link getChangeMap}). The embedded and memory backends leave out, for a
 * user, the maps against a hidden or missing reference.
 * @param catalog the catalog port
 * @param modelId the capture's id
 * @returns the change maps
 * @throws AppError `permission-denied` / `unauthenticated`
 */
export async function listChangeMaps(catalog: CatalogPort, modelId: string): Promise<ChangeMapRecord[]> {
  const found = await catalog.query('changeMaps', { where: [['modelId', '==', modelId]] });
  return found.sort((a, b) => {
    const [ta, tb] = [a.computed_at ?? '', b.computed_at ?? ''];
    if (ta !== tb) return ta < tb ? 1 : -1;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
}

/**
 * Deletes a capture's change map against a reference model with its values file (deleting a
 * missing one succeeds). The document goes first, then the file it names and the file at the
 * capture's values path (one uploaded for a map whose save did not finish); only paths of the
 * values form are ever deleted.
 * @param backend catalog and file-store ports (admins and the service key)
 * @param referenceModelId the reference model's id
 * @param modelId the capture's id
 * @returns whether a document was deleted, and the files that could not be deleted (for the
 *   caller to report; `catalog doctor --fix` removes them later)
 * @throws AppError `permission-denied`, catalog errors (then nothing was deleted)
 */
export async function deleteChangeMap(
  backend: Pick<Backend, 'catalog' | 'files'>,
  referenceModelId: string,
  modelId: string,
): Promise<{ deleted: boolean; filesNotDeleted: string[] }> {
  const { catalog, files } = backend;
  const id = alignmentId(referenceModelId, modelId);
  const [stored, model] = await Promise.all([catalog.get('changeMaps', id), catalog.get('models', modelId)]);
  const paths = new Set<string>();
  if (stored !== null && parseChangeValuesPath(stored.valuesPath) !== null) paths.add(stored.valuesPath);
  if (model !== null) {
    try {
      paths.add(changeValuesPath(model.uuid || model.id, referenceModelId));
    } catch {
      // an id that names no values file: none to delete
    }
  }
  if (stored !== null) await catalog.delete('changeMaps', id);
  const filesNotDeleted = await deleteFilesQuietly(files, [...paths]);
  return { deleted: stored !== null, filesNotDeleted };
}
