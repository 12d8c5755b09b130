/**
 * The findings workflows of issue 18 over the catalog port: create, edit, delete and list
 * findings (`annotations`), set a model's scale (`metadata.unitsPerMetre`), and the writes a
 * model delete adds for its findings and alignments. A finding's create and delete change the
 * model's `metadata.annotationsCount` (and a create its `metadata.annotationsSeq`) in the same
 * atomic batch, so the count is the number stored; both backends' rules refuse a finding write
 * whose batch does not do so (`firestore.rules`, `shared/rules/document-rules.ts`).
 */
import type { AnnotationInput, AnnotationValues } from '../annotations.js';
import { AnnotationMessages, annotationId, validateAnnotation, validateUnitsPerMetre } from '../annotations.js';
import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort, WriteOp } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { Annotation, AnnotationData, Model } from '../types.js';
import { unwrap } from './util.js';

/** Who writes a finding: the signed-in account (or, for the CLI's service key, a label such as 'cli'). */
export interface AnnotationAuthor {
  uid: string;
  email: string | null;
}

/** How many times a create is retried when another writer took the same finding number first. */
const CREATE_ATTEMPTS = 3;

/** Reads a model or throws `not-found` ('Model not found'). */
async function modelOrThrow(catalog: CatalogPort, modelId: string): Promise<Model> {
  const model = await catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, AnnotationMessages.modelNotFound, { context: { modelId } });
  return model;
}

/**
 * Creates a finding on a model (issue 18): validates the input, takes the model's next finding
 * number, and writes in one batch the finding at `{modelId}_{seq}` and the model's
 * `metadata.annotationsCount` + 1 and `metadata.annotationsSeq` = seq. When another writer took
 * the same number first (the create finds the key taken: `already-exists`), it reads the model
 * again and retries, up to 3 times. Nothing is written when the input is invalid.
 *
 * @param catalog the catalog port, as the author (rules: admins, or users on a model they can open)
 * @param modelId the model's id
 * @param input the finding's fields ({@link validateAnnotation})
 * @param author the author written into the finding (users must write their own uid)
 * @param options.followUpOf for a follow-up carried over from another capture: the original
 * @returns the stored finding (timestamps as the sentinel was resolved: null here; read it back for the server time)
 * @throws AppError `invalid-argument` (an {@link AnnotationMessages} text), `not-found` ('Model
 *   not found', also for a hidden model a user cannot see), `permission-denied`, `already-exists`
 *   after 3 attempts
 */
export async function createAnnotation(
  catalog: CatalogPort,
  modelId: string,
  input: AnnotationInput,
  author: AnnotationAuthor,
  options: { followUpOf?: { annotationId: string; modelId: string } | null } = {},
): Promise<Annotation> {
  const values = unwrap(validateAnnotation(input));
  for (let attempt = 1; ; attempt += 1) {
    const model = await modelOrThrow(catalog, modelId);
    const seq = (model.metadata?.annotationsSeq ?? 0) + 1;
    const count = (model.metadata?.annotationsCount ?? 0) + 1;
    const id = annotationId(modelId, seq);
    const data: AnnotationData = {
      modelId,
      projectId: model.projectId ?? null,
      seq,
      ...values,
      author_uid: author.uid,
      author_email: author.email,
      followUpOf: options.followUpOf ?? null,
    };
    try {
      await catalog.batch([
        { op: 'create', collection: 'annotations', id, data: { ...data, created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP } },
        {
          op: 'update',
          collection: 'models',
          id: modelId,
          data: { 'metadata.annotationsCount': count, 'metadata.annotationsSeq': seq },
        },
      ]);
      return { id, ...data, created_at: null, last_updated: null };
    } catch (error) {
      if (!(error instanceof AppError && error.code === ErrorCode.AlreadyExists) || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/**
 * Edits a finding's fields (title, note, category, severity, status, photos, and its points),
 * keeping its model, number, author, creation time and follow-up link. Nothing is written when
 * the input is invalid.
 * @param catalog the catalog port (rules: admins, or the finding's author)
 * @param id the finding's id
 * @param input the new fields, whole ({@link validateAnnotation})
 * @returns the values written
 * @throws AppError `invalid-argument`, `not-found` ('Finding not found'), `permission-denied`
 */
export async function updateAnnotation(catalog: CatalogPort, id: string, input: AnnotationInput): Promise<AnnotationValues> {
  const values = unwrap(validateAnnotation(input));
  const existing = await catalog.get('annotations', id);
  if (existing === null) throw new AppError(ErrorCode.NotFound, AnnotationMessages.annotationNotFound, { context: { id } });
  await catalog.update('annotations', id, { ...values, last_updated: SERVER_TIMESTAMP });
  return values;
}

/**
 * Deletes a finding and lowers its model's `metadata.annotationsCount` by one in the same batch
 * (the number sequence is kept). When the model is gone, only the finding is deleted.
 * @param catalog the catalog port (rules: admins only)
 * @param id the finding's id
 * @returns the deleted finding
 * @throws AppError `not-found` ('Finding not found'), `permission-denied`
 */
export async function deleteAnnotation(catalog: CatalogPort, id: string): Promise<Annotation> {
  const existing = await catalog.get('annotations', id);
  if (existing === null) throw new AppError(ErrorCode.NotFound, AnnotationMessages.annotationNotFound, { context: { id } });
  const model = await catalog.get('models', existing.modelId);
  const ops: WriteOp[] = [{ op: 'delete', collection: 'annotations', id }];
  if (model !== null) {
    ops.push({
      op: 'update',
      collection: 'models',
      id: model.id,
      data: { 'metadata.annotationsCount': Math.max(0, (model.metadata?.annotationsCount ?? 0) - 1) },
    });
  }
  await catalog.batch(ops);
  return existing;
}

/** Orders findings by model, then number. */
function byModelAndSeq(a: Annotation, b: Annotation): number {
  return a.modelId.localeCompare(b.modelId) || a.seq - b.seq;
}

/**
 * The findings of one model, by number.
 * @param catalog the catalog port (any role that may open the model)
 * @param modelId the model's id
 * @returns the findings, `seq` ascending
 * @throws AppError `permission-denied` / `unauthenticated`
 */
export async function listModelAnnotations(catalog: CatalogPort, modelId: string): Promise<Annotation[]> {
  const found = await catalog.query('annotations', { where: [['modelId', '==', modelId]] });
  return found.sort(byModelAndSeq);
}

/**
 * The findings of every model of a project that the caller can open, by model then number. Asks
 * one query per model (the findings of a hidden model are read only by those who may see it, on
 * both backends), so pass the project's models as the caller sees them.
 * @param catalog the catalog port
 * @param modelIds the project's models the caller can open
 * @returns the findings
 * @throws AppError `permission-denied` / `unauthenticated`
 */
export async function listProjectAnnotations(catalog: CatalogPort, modelIds: readonly string[]): Promise<Annotation[]> {
  const lists = await Promise.all(modelIds.map((id) => listModelAnnotations(catalog, id)));
  return lists.flat().sort(byModelAndSeq);
}

/**
 * Sets a model's scale, `metadata.unitsPerMetre` (issue 18), or clears it (null).
 * @param catalog the catalog port (admins)
 * @param modelId the model's id
 * @param value a positive number, a numeric string, or '' / null for unknown
 * @returns the value written
 * @throws AppError `invalid-argument` ('Units per metre must be a positive number'), `not-found`, `permission-denied`
 */
export async function setUnitsPerMetre(catalog: CatalogPort, modelId: string, value: unknown): Promise<number | null> {
  const unitsPerMetre = unwrap(validateUnitsPerMetre(value));
  await modelOrThrow(catalog, modelId);
  await catalog.update('models', modelId, { 'metadata.unitsPerMetre': unitsPerMetre, last_updated: SERVER_TIMESTAMP });
  return unitsPerMetre;
}

/** Deletes per batch of {@link deleteModelsFindings} (a Firestore batch holds 500 writes; the count updates ride along). */
export const FINDINGS_DELETE_BATCH = 400;

/**
 * Deletes every finding of the given models and every alignment they are part of, before the
 * models themselves are deleted (no orphan findings): in batches of {@link FINDINGS_DELETE_BATCH},
 * each batch also setting the touched models' `metadata.annotationsCount` to what remains, so
 * the count is exact after every commit even if the run stops midway.
 * @param catalog the catalog port (admins)
 * @param models the models about to be deleted (their ids, projects and stored counts); findings
 *   are found by project (one query each) and by model for a model outside projects
 * @returns how many findings and alignments were deleted
 * @throws catalog errors (`permission-denied`…); what was committed before stays consistent
 */
export async function deleteModelsFindings(
  catalog: CatalogPort,
  models: ReadonlyArray<Pick<Model, 'id' | 'metadata' | 'projectId'>>,
): Promise<{ annotations: number; alignments: number }> {
  const ids = new Set(models.map((m) => m.id));
  const remaining = new Map(models.map((m) => [m.id, m.metadata?.annotationsCount ?? 0]));
  const ops: Array<{ op: WriteOp; modelId: string | null }> = [];
  const seenAlignments = new Set<string>();
  // One query per project (findings and alignments carry the project id), per model otherwise.
  const found: { annotations: Annotation[]; alignments: Array<{ id: string; modelId: string; referenceModelId: string }> } = {
    annotations: [],
    alignments: [],
  };
  const projects = new Set(models.map((m) => m.projectId).filter((p): p is string => typeof p === 'string' && p !== ''));
  for (const projectId of projects) {
    found.annotations.push(...(await catalog.query('annotations', { where: [['projectId', '==', projectId]] })));
    found.alignments.push(...(await catalog.query('alignments', { where: [['projectId', '==', projectId]] })));
  }
  for (const model of models) {
    if (typeof model.projectId === 'string' && model.projectId !== '') continue;
    found.annotations.push(...(await catalog.query('annotations', { where: [['modelId', '==', model.id]] })));
    found.alignments.push(...(await catalog.query('alignments', { where: [['modelId', '==', model.id]] })));
    found.alignments.push(...(await catalog.query('alignments', { where: [['referenceModelId', '==', model.id]] })));
  }
  for (const a of found.annotations) {
    if (ids.has(a.modelId)) ops.push({ op: { op: 'delete', collection: 'annotations', id: a.id }, modelId: a.modelId });
  }
  for (const a of found.alignments) {
    if (seenAlignments.has(a.id) || !(ids.has(a.modelId) || ids.has(a.referenceModelId))) continue;
    seenAlignments.add(a.id);
    ops.push({ op: { op: 'delete', collection: 'alignments', id: a.id }, modelId: null });
  }
  for (let start = 0; start < ops.length; start += FINDINGS_DELETE_BATCH) {
    const chunk = ops.slice(start, start + FINDINGS_DELETE_BATCH);
    const touched = new Set<string>();
    for (const { modelId } of chunk) {
      if (modelId === null || !ids.has(modelId)) continue;
      remaining.set(modelId, Math.max(0, (remaining.get(modelId) ?? 0) - 1));
      touched.add(modelId);
    }
    await catalog.batch([
      ...chunk.map(({ op }) => op),
      ...[...touched].map((id): WriteOp => ({
        op: 'update',
        collection: 'models',
        id,
        data: { 'metadata.annotationsCount': remaining.get(id) ?? 0 },
      })),
    ]);
  }
  return { annotations: ops.filter((o) => o.modelId !== null).length, alignments: seenAlignments.size };
}
