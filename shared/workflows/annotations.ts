/**
 * The findings workflows over the catalog port: create, edit, delete and list
 * findings (`annotations`), and set a model's scale (`metadata.unitsPerMetre`) their measurements
 * read; a model delete's writes for its findings are model-delete-records.ts. A finding's create and delete
 * change the model's `metadata.annotationsCount` (and a create its `metadata.annotationsSeq`) in one
 * transaction that read the model and the finding, so the count is the number stored whatever
 * runs beside them; both backends' rules refuse a finding write whose batch does not do so
 * (`firestore.rules`, `shared/rules/document-rules.ts`).
 */
import type { AnnotationInput, AnnotationValues } from '../annotations.js';
import { AnnotationMessages, annotationId, validateAnnotation, validateUnitsPerMetre } from '../annotations.js';
import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort, CatalogTransaction } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { Annotation, AnnotationData, FindingChangeRegion, Model } from '../types.js';
import { unwrap } from './util.js';

/** Who writes a finding: the signed-in account (or, for the CLI's service key, a label such as 'cli'). */
export interface AnnotationAuthor {
  uid: string;
  email: string | null;
}

/** Reads a model (in a transaction or not) or throws `not-found` ('Model not found'). */
async function modelOrThrow(catalog: Pick<CatalogPort | CatalogTransaction, 'get'>, modelId: string): Promise<Model> {
  const model = await catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, AnnotationMessages.modelNotFound, { context: { modelId } });
  return model;
}

/**
 * Creates a finding on a model in one transaction: reads the model and the finding at
 * its next number, and writes the finding at `{modelId}_{seq}` (seq = `metadata.annotationsSeq`
 * + 1) with the model's `metadata.annotationsCount` + 1 and `metadata.annotationsSeq` = seq, the
 * numbers computed from what was read. When another writer changed the model first (a create, a
 * delete, the model's delete), the transaction runs again on the new state. Nothing is written
 * when the input is invalid.
 *
 * @param catalog the catalog port, as the author (rules: admins, or users on a model they can open)
 * @param modelId the model's id
 * @param input the finding's fields ({@link validateAnnotation})
 * @param author the author written into the finding (users must write their own uid)
 * @param options.followUpOf for a follow-up carried over from another capture: the original
 * @param options.changeRegion for a finding made from a change region of the model's change map:
 *   the reference, the region's number and its largest distance (model units), on a finding of one
 *   point (the region's centre); a user's must name a change map of the model that they can read
 * @returns the stored finding (timestamps as the sentinel was resolved: null here; read it back for the server time)
 * @throws AppError `invalid-argument` (an {@link AnnotationMessages} text), `not-found` ('Model
 *   not found', also for a hidden model a user cannot see, and for a model deleted meanwhile),
 *   `already-exists` (a finding is stored at the model's next number: its `annotationsSeq` is
 *   behind, which `catalog doctor --fix` repairs), `permission-denied`, `aborted` (other writes
 *   kept winning)
 */
export async function createAnnotation(
  catalog: CatalogPort,
  modelId: string,
  input: AnnotationInput,
  author: AnnotationAuthor,
  options: { followUpOf?: { annotationId: string; modelId: string } | null; changeRegion?: FindingChangeRegion | null } = {},
): Promise<Annotation> {
  const values = unwrap(validateAnnotation(input));
  // A finding made from a change region sits at the region's centre: one point.
  if (options.changeRegion && values.points.length !== 1) {
    throw new AppError(ErrorCode.InvalidArgument, AnnotationMessages.changeRegionPoint, { context: { modelId } });
  }
  const outcome = await catalog.transaction(async (tx): Promise<{ taken: string } | { created: Annotation }> => {
    const model = await modelOrThrow(tx, modelId);
    const seq = (model.metadata?.annotationsSeq ?? 0) + 1;
    const count = (model.metadata?.annotationsCount ?? 0) + 1;
    const id = annotationId(modelId, seq);
    // Taken: decided after the commit, which checks that both reads still hold (if not, another
    // create came between them and the transaction runs again).
    if ((await tx.get('annotations', id)) !== null) return { taken: id };
    const data: AnnotationData = {
      modelId,
      projectId: model.projectId ?? null,
      seq,
      ...values,
      author_uid: author.uid,
      author_email: author.email,
      followUpOf: options.followUpOf ?? null,
      changeRegion: options.changeRegion ?? null,
    };
    tx.create('annotations', id, { ...data, created_at: SERVER_TIMESTAMP, last_updated: SERVER_TIMESTAMP });
    tx.update('models', modelId, { 'metadata.annotationsCount': count, 'metadata.annotationsSeq': seq });
    return { created: { id, ...data, created_at: null, last_updated: null } };
  });
  if ('created' in outcome) return outcome.created;
  throw new AppError(ErrorCode.AlreadyExists, `Finding ${outcome.taken} already exists: the model's finding number is behind`, {
    context: { id: outcome.taken, modelId },
  });
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
 * Deletes a finding and lowers its model's `metadata.annotationsCount` by one in one transaction
 * that read both (the number sequence is kept), so concurrent creates and deletes leave the count
 * exact. When the model is gone, only the finding is deleted.
 * @param catalog the catalog port (rules: admins only)
 * @param id the finding's id
 * @returns the deleted finding
 * @throws AppError `not-found` ('Finding not found', also when another delete took it first),
 *   `permission-denied`, `aborted`
 */
export async function deleteAnnotation(catalog: CatalogPort, id: string): Promise<Annotation> {
  return catalog.transaction(async (tx) => {
    const existing = await tx.get('annotations', id);
    if (existing === null) throw new AppError(ErrorCode.NotFound, AnnotationMessages.annotationNotFound, { context: { id } });
    const model = await tx.get('models', existing.modelId);
    tx.delete('annotations', id);
    if (model !== null) {
      tx.update('models', model.id, { 'metadata.annotationsCount': Math.max(0, (model.metadata?.annotationsCount ?? 0) - 1) });
    }
    return existing;
  });
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
 * Sets a model's scale, `metadata.unitsPerMetre`, or clears it (null).
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
