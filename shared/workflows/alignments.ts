/**
 * The alignments of two captures over the catalog port: save, read and delete the
 * alignment of a model with its reference model (`alignments/{referenceModelId}__{modelId}`, the
 * matrix mapping the model's coordinates into the reference's), and carry a finding over from one
 * capture to the other as a follow-up linked to the original; accept the pair's change map's
 * ICP-refined registration as its alignment ('icp'), and reset such an alignment to the manual one
 * it replaced. Admins write alignments (both backends' rules); a carry-over is a finding create
 * (`createAnnotation`), which users may do on models they can open.
 */
import type { AlignmentPair } from '../alignment.js';
import {
  AlignmentMessages,
  applyAlignment,
  applyAlignmentToDirection,
  invertAlignment,
  isAlignmentMatrix,
  sameFrameAlignment,
  solveAlignment,
} from '../alignment.js';
import { AnnotationMessages, alignmentId } from '../annotations.js';
import { changeMapFilesChanged } from '../change-map-document.js';
import { AppError, ErrorCode } from '../errors.js';
import { formatDate } from '../format.js';
import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { Alignment, AlignmentData, AlignmentPrevious, Annotation } from '../types.js';
import type { AnnotationAuthor } from './annotations.js';
import { createAnnotation } from './annotations.js';

/** The pairs as stored: each a model and a reference point of exactly x, y and z (any other key dropped). */
function copyPairs(pairs: readonly AlignmentPair[]): AlignmentData['pairs'] {
  return pairs.map(({ model: m, reference: r }) => ({ model: { x: m.x, y: m.y, z: m.z }, reference: { x: r.x, y: r.y, z: r.z } }));
}

/** What {@link saveAlignment} is given. */
export interface SaveAlignmentInput {
  /** The reference model's id (the frame the matrix maps into). */
  referenceModelId: string;
  /** The other model's id (the frame the matrix maps from). */
  modelId: string;
  /** 'same-frame' (the identity, declared) or '3-point' (solved from `pairs`); 'icp' is refused ({@link acceptRegistration} makes one). */
  method: AlignmentData['method'];
  /** For '3-point': exactly 3 pairs, a point on the model and the same point on the reference, each in its model's units. Ignored for 'same-frame'. */
  pairs?: readonly AlignmentPair[];
  /** Uid (or label) of the admin who aligns. */
  createdBy: string;
}

/**
 * Saves (creates or replaces) the alignment of a model with its reference model: for
 * 'same-frame' the identity with no pairs and an RMS error of 0; for '3-point' the similarity
 * solved from the 3 pairs ({@link solveAlignment}) with its RMS error in reference units. Both
 * models must exist and differ. Nothing is written when the input is refused.
 * @param catalog the catalog port (rules: admins only)
 * @param input see {@link SaveAlignmentInput}
 * @returns the stored alignment (created_at null here; read it back for the server time)
 * @throws AppError `invalid-argument` ({@link AlignmentMessages}: the same model twice, an unknown
 *   method or 'icp', not 3 pairs, degenerate or non-finite points), `not-found` ('Model not found'),
 *   `permission-denied` (a non-admin)
 */
export async function saveAlignment(catalog: CatalogPort, input: SaveAlignmentInput): Promise<Alignment> {
  const { referenceModelId, modelId, method, createdBy } = input;
  if (referenceModelId === modelId) throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.sameModel);
  if (method === 'icp') throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.icpByHand);
  if (method !== 'same-frame' && method !== '3-point') throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.methodInvalid);
  const pairs =
    method === '3-point' ? (input.pairs ?? []).map(({ model, reference }) => ({ model: { ...model }, reference: { ...reference } })) : [];
  const solved = method === '3-point' ? solveAlignment(pairs) : sameFrameAlignment();
  const [model, reference] = await Promise.all([catalog.get('models', modelId), catalog.get('models', referenceModelId)]);
  if (model === null || reference === null) {
    throw new AppError(ErrorCode.NotFound, AnnotationMessages.modelNotFound, {
      context: { modelId: model === null ? modelId : referenceModelId },
    });
  }
  const id = alignmentId(referenceModelId, modelId);
  const data: AlignmentData = {
    referenceModelId,
    modelId,
    projectId: model.projectId ?? reference.projectId ?? null,
    matrix: solved.matrix,
    method,
    pairs: copyPairs(pairs),
    rmsError: solved.rmsError,
    created_by: createdBy,
  };
  await catalog.set('alignments', id, { ...data, created_at: SERVER_TIMESTAMP });
  return { id, ...data, created_at: null };
}

/** What {@link acceptRegistration} is given. */
export interface AcceptRegistrationInput {
  /** The reference model's id. */
  referenceModelId: string;
  /** The capture's id (the change map's `modelId`). */
  modelId: string;
  /** Uid (or label, e.g. 'cli') of the admin who accepts. */
  createdBy: string;
}

/**
 * What a reset of an 'icp' alignment would restore: the manual alignment it replaced, as stored
 * beside it, or null when it replaced none (a reset deletes it).
 * @param alignment the pair's stored alignment
 * @returns the alignment a reset restores, or null; undefined when `alignment` is not 'icp' (nothing to reset)
 */
export function alignmentBeforeRegistration(alignment: Pick<AlignmentData, 'method' | 'previous'>): AlignmentPrevious | null | undefined {
  return alignment.method === 'icp' ? (alignment.previous ?? null) : undefined;
}

/** The manual alignment an accepted registration replaces: none, the one an 'icp' alignment replaced in turn, or a copy of a manual one. */
function replacedAlignment(
  stored: Pick<AlignmentData, 'method' | 'matrix' | 'pairs' | 'rmsError' | 'previous'> | null,
): AlignmentPrevious | null {
  if (stored === null) return null;
  if (stored.method === 'icp') return stored.previous ?? null;
  return {
    method: stored.method,
    matrix: [...stored.matrix],
    pairs: copyPairs(stored.pairs),
    rmsError: stored.rmsError,
  };
}

/**
 * Accepts the registration of the pair's stored change map (`changeMaps/{referenceModelId}__{modelId}`,
 * its ICP-refined capture → reference matrix) as the pair's alignment: an 'icp' alignment with
 * that matrix, the registration's RMS error (reference model units), no pairs, and in `previous`
 * the manual alignment it replaces, so that {@link resetAlignment} can restore it: the stored
 * 'same-frame' or '3-point' alignment, or null when there was none; accepting over an 'icp'
 * alignment keeps what that one replaced. Refused when either model's file changed since the map
 * was computed (its registration is then of other files). One transaction: the map, both models
 * and the alignment are read and the alignment written only if none of them changed meanwhile.
 * @param catalog the catalog port (rules: admins only)
 * @param input see {@link AcceptRegistrationInput}
 * @returns the stored 'icp' alignment (created_at null here)
 * @throws AppError `invalid-argument` ({@link AlignmentMessages.sameModel}), `not-found` ('Model
 *   not found', {@link AlignmentMessages.noChangeMap}), `failed-precondition`
 *   ({@link AlignmentMessages.registrationOutOfDate}), `permission-denied` (a non-admin)
 */
export async function acceptRegistration(catalog: CatalogPort, input: AcceptRegistrationInput): Promise<Alignment> {
  const { referenceModelId, modelId, createdBy } = input;
  if (referenceModelId === modelId) throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.sameModel);
  const id = alignmentId(referenceModelId, modelId);
  return catalog.transaction(async (tx) => {
    const model = await tx.get('models', modelId);
    const reference = await tx.get('models', referenceModelId);
    if (model === null || reference === null) {
      throw new AppError(ErrorCode.NotFound, AnnotationMessages.modelNotFound, {
        context: { modelId: model === null ? modelId : referenceModelId },
      });
    }
    const map = await tx.get('changeMaps', id);
    if (map === null) throw new AppError(ErrorCode.NotFound, AlignmentMessages.noChangeMap, { context: { id } });
    const changed = changeMapFilesChanged(map, model, reference);
    if (changed !== null) throw new AppError(ErrorCode.FailedPrecondition, AlignmentMessages.registrationOutOfDate(changed));
    const current = await tx.get('alignments', id);
    const data: AlignmentData = {
      referenceModelId,
      modelId,
      projectId: model.projectId ?? reference.projectId ?? null,
      matrix: [...map.registration.matrix],
      method: 'icp',
      pairs: [],
      rmsError: map.registration.rmsError,
      previous: replacedAlignment(current !== null && isAlignmentMatrix(current.matrix) ? current : null),
      created_by: createdBy,
    };
    tx.set('alignments', id, { ...data, created_at: SERVER_TIMESTAMP });
    return { id, ...data, created_at: null };
  });
}

/**
 * Resets an alignment accepted from a change map ('icp') to the manual alignment it replaced
 * (`previous`: written back as it was, method, matrix, pairs and RMS error, by `createdBy`), or
 * deletes it when it replaced none, so the pair is back to no alignment. One transaction over the
 * alignment.
 * @param catalog the catalog port (rules: admins only)
 * @param referenceModelId the reference model's id
 * @param modelId the capture's id
 * @param createdBy uid (or label) of the admin who resets, the restored alignment's `created_by`
 * @returns the restored alignment (created_at null here), or null when the alignment was deleted
 * @throws AppError `failed-precondition` ({@link AlignmentMessages.notAccepted}: no alignment, or
 *   not an 'icp' one), `permission-denied` (a non-admin)
 */
export async function resetAlignment(
  catalog: CatalogPort,
  referenceModelId: string,
  modelId: string,
  createdBy: string,
): Promise<Alignment | null> {
  const id = alignmentId(referenceModelId, modelId);
  return catalog.transaction(async (tx) => {
    const current = await tx.get('alignments', id);
    const previous = current === null ? undefined : alignmentBeforeRegistration(current);
    if (current === null || previous === undefined) throw new AppError(ErrorCode.FailedPrecondition, AlignmentMessages.notAccepted);
    if (previous === null) {
      tx.delete('alignments', id);
      return null;
    }
    const data: AlignmentData = {
      referenceModelId,
      modelId,
      projectId: current.projectId ?? null,
      ...replacedAlignment(previous)!,
      created_by: createdBy,
    };
    tx.set('alignments', id, { ...data, created_at: SERVER_TIMESTAMP });
    return { id, ...data, created_at: null };
  });
}

/**
 * The alignment of a model with its reference model, if one is stored (one direction only: the
 * key is `{referenceModelId}__{modelId}`; compare mode always knows which side is the reference).
 * A stored matrix that is not a valid alignment matrix reads as no alignment.
 * @param catalog the catalog port (any role that may browse)
 * @param referenceModelId the reference model's id
 * @param modelId the other model's id
 * @returns the alignment, or null
 * @throws AppError `permission-denied` / `unauthenticated`
 */
export async function getAlignment(catalog: CatalogPort, referenceModelId: string, modelId: string): Promise<Alignment | null> {
  const found = await catalog.get('alignments', alignmentId(referenceModelId, modelId));
  return found !== null && isAlignmentMatrix(found.matrix) ? found : null;
}

/**
 * Deletes the alignment of a model with its reference model (deleting a missing one succeeds).
 * Findings already carried over stay, with their links.
 * @param catalog the catalog port (rules: admins only)
 * @param referenceModelId the reference model's id
 * @param modelId the other model's id
 * @throws AppError `permission-denied`
 */
export async function deleteAlignment(catalog: CatalogPort, referenceModelId: string, modelId: string): Promise<void> {
  await catalog.delete('alignments', alignmentId(referenceModelId, modelId));
}

/**
 * Where a finding's points lie in the other model of an alignment: mapped by the matrix when the
 * finding is on the aligned model, by its inverse (reference → model) when it is on the reference.
 * @param alignment the pair's alignment
 * @param annotation the finding (on one of the two models)
 * @returns the mapped points and up axis, and the model they belong to
 * @throws AppError `invalid-argument` ({@link AlignmentMessages.notInPair}, or an invalid matrix)
 */
export function mapAnnotationAcross(
  alignment: Pick<AlignmentData, 'matrix' | 'modelId' | 'referenceModelId'>,
  annotation: Pick<Annotation, 'modelId' | 'points' | 'up'>,
): { modelId: string; points: Annotation['points']; up: Annotation['up'] } {
  let matrix: number[];
  let modelId: string;
  if (annotation.modelId === alignment.referenceModelId) {
    matrix = invertAlignment(alignment.matrix);
    modelId = alignment.modelId;
  } else if (annotation.modelId === alignment.modelId) {
    if (!isAlignmentMatrix([...alignment.matrix])) throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.matrixInvalid);
    matrix = [...alignment.matrix];
    modelId = alignment.referenceModelId;
  } else {
    throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.notInPair);
  }
  return {
    modelId,
    points: annotation.points.map((p) => applyAlignment(matrix, p)),
    up: annotation.up ? applyAlignmentToDirection(matrix, annotation.up) : (annotation.up ?? null),
  };
}

/**
 * Carries a finding over to the other capture of an aligned pair: a
 * new finding on `toModelId` (createAnnotation: its count and number in the same batch) with the
 * original's points mapped into that model's frame ({@link mapAnnotationAcross}), the original's
 * title, category, severity and measure, status 'open', no photos (they are the other capture's),
 * the note 'Follow-up of F-n (capture date)' (the original's number and its model's capture date,
 * or its Public ID without one), and `followUpOf` {annotationId, modelId} of the original. Refused
 * when the target model already has a follow-up of that finding.
 * @param catalog the catalog port, as the author (admins, or users on a model they can open)
 * @param original the finding to carry over (on one of the alignment's models)
 * @param toModelId the other model of the alignment
 * @param alignment the pair's alignment (`matrix` maps `modelId` into `referenceModelId`)
 * @param author the follow-up's author (a user's own uid)
 * @returns the follow-up as stored
 * @throws AppError `invalid-argument` ({@link AlignmentMessages.notInPair}), `already-exists`
 *   ({@link AlignmentMessages.alreadyCarried}), and createAnnotation's errors (`not-found`, `permission-denied`…)
 */
export async function carryOverAnnotation(
  catalog: CatalogPort,
  original: Annotation,
  toModelId: string,
  alignment: Pick<AlignmentData, 'matrix' | 'modelId' | 'referenceModelId'>,
  author: AnnotationAuthor,
): Promise<Annotation> {
  const mapped = mapAnnotationAcross(alignment, original);
  if (mapped.modelId !== toModelId) throw new AppError(ErrorCode.InvalidArgument, AlignmentMessages.notInPair);
  const existing = await catalog.query('annotations', { where: [['modelId', '==', toModelId]] });
  if (existing.some((a) => a.followUpOf?.annotationId === original.id)) {
    throw new AppError(ErrorCode.AlreadyExists, AlignmentMessages.alreadyCarried, { context: { annotationId: original.id, toModelId } });
  }
  const source = await catalog.get('models', original.modelId);
  const captureDate = source?.metadata?.captureDate;
  const when = captureDate ? formatDate(captureDate) : (source?.publicId ?? original.modelId);
  return createAnnotation(
    catalog,
    toModelId,
    {
      title: original.title,
      note: `Follow-up of F-${original.seq} (${when})`,
      category: original.category,
      severity: original.severity,
      status: 'open',
      points: mapped.points,
      measure: original.measure,
      up: mapped.up,
      photos: [],
    },
    author,
    { followUpOf: { annotationId: original.id, modelId: original.modelId } },
  );
}
