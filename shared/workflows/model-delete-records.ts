/**
 * The writes a model delete adds for what refers to the model: its findings (`annotations`), and the
 * alignments and change maps of every pair it is part of, in commits of at most
 * {@link FINDINGS_DELETE_BATCH} writes, with the other models' finding counts kept exact; then the
 * model itself in a transaction that re-reads it, so a finding added meanwhile is deleted too and a
 * finding create after it finds no model.
 */
import { annotationId } from '../annotations.js';
import { AppError, ErrorCode } from '../errors.js';
import { parseChangeValuesPath } from '../paths.js';
import type { CatalogPort, CatalogTransaction, WithId, WriteOp } from '../ports/catalog.js';
import type { Annotation, CollectionTypes, Model } from '../types.js';

/** Most writes of one commit of {@link deleteModelsFindings}: a Firestore commit holds 500, the count updates ride along. */
export const FINDINGS_DELETE_BATCH = 400;

/** Most rounds of {@link deleteModelsWithFindings} (each after findings were added while it ran). */
export const MODEL_DELETE_ROUNDS = 10;

/** A model as the delete workflows need it: id, project and stored counters. */
type ModelToDelete = Pick<Model, 'id' | 'metadata' | 'projectId'>;

/** The last finding number a model record says it gave (0 when none). */
const seqOf = (model: ModelToDelete): number => model.metadata?.annotationsSeq ?? 0;

/** The collections of documents about a pair of models (`{referenceModelId}__{modelId}`), which go when either model goes. */
type PairCollection = 'alignments' | 'changeMaps';

/**
 * The documents of a pair collection that name one of `models` as either side: one query per
 * project, two per model for a model outside projects.
 */
async function listPairDocuments<C extends PairCollection>(
  catalog: CatalogPort,
  collection: C,
  models: readonly ModelToDelete[],
): Promise<Array<WithId<CollectionTypes[C]>>> {
  const ids = new Set(models.map((m) => m.id));
  const listed: Array<WithId<CollectionTypes[C]>> = [];
  const projects = new Set(models.map((m) => m.projectId).filter((p): p is string => typeof p === 'string' && p !== ''));
  for (const projectId of projects) listed.push(...(await catalog.query(collection, { where: [['projectId', '==', projectId]] })));
  for (const model of models) {
    if (typeof model.projectId === 'string' && model.projectId !== '') continue;
    listed.push(...(await catalog.query(collection, { where: [['modelId', '==', model.id]] })));
    listed.push(...(await catalog.query(collection, { where: [['referenceModelId', '==', model.id]] })));
  }
  const found = new Map<string, WithId<CollectionTypes[C]>>();
  for (const doc of listed) if (ids.has(doc.modelId) || ids.has(doc.referenceModelId)) found.set(doc.id, doc);
  return [...found.values()];
}

/** The findings, alignments and change maps of `models`: one query per project, per model for a model outside projects. */
async function listModelsFindings(
  catalog: CatalogPort,
  models: readonly ModelToDelete[],
): Promise<{ annotations: Annotation[]; alignments: string[]; changeMaps: Array<{ id: string; valuesPath: string }> }> {
  const ids = new Set(models.map((m) => m.id));
  const annotations: Annotation[] = [];
  const projects = new Set(models.map((m) => m.projectId).filter((p): p is string => typeof p === 'string' && p !== ''));
  for (const projectId of projects) annotations.push(...(await catalog.query('annotations', { where: [['projectId', '==', projectId]] })));
  for (const model of models) {
    if (typeof model.projectId === 'string' && model.projectId !== '') continue;
    annotations.push(...(await catalog.query('annotations', { where: [['modelId', '==', model.id]] })));
  }
  const findings = new Map<string, Annotation>();
  for (const a of annotations) if (ids.has(a.modelId)) findings.set(a.id, a);
  const alignments = (await listPairDocuments(catalog, 'alignments', models)).map((a) => a.id);
  const changeMaps = (await listPairDocuments(catalog, 'changeMaps', models)).map(({ id, valuesPath }) => ({ id, valuesPath }));
  return { annotations: [...findings.values()], alignments, changeMaps };
}

/** What {@link deleteModelsFindings} deleted. */
export interface DeletedFindings {
  /** Findings deleted. */
  annotations: number;
  /** Alignments deleted. */
  alignments: number;
  /** Change maps deleted. */
  changeMaps: number;
  /**
   * The values files of the change maps deleted (`models/{uuid}/changes/{referenceModelId}.bin`,
   * only paths of that form), for the caller to delete from storage: a capture's lies in its own
   * folder, but a reference model's change maps have theirs in the other captures' folders.
   */
  changeMapFiles: string[];
}

/** Deletes documents of a pair collection by id, in batches of {@link FINDINGS_DELETE_BATCH} (one already gone is no error). */
async function deletePairDocuments(catalog: CatalogPort, collection: PairCollection, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += FINDINGS_DELETE_BATCH) {
    const chunk = ids.slice(start, start + FINDINGS_DELETE_BATCH);
    await catalog.batch(chunk.map((id): WriteOp => ({ op: 'delete', collection, id })));
  }
}

/** Splits findings into commits of at most {@link FINDINGS_DELETE_BATCH} writes (their deletes and their models' count updates). */
function findingChunks(findings: readonly Annotation[]): Annotation[][] {
  const chunks: Annotation[][] = [];
  let chunk: Annotation[] = [];
  let models = new Set<string>();
  for (const finding of findings) {
    const more = models.has(finding.modelId) ? 1 : 2;
    if (chunk.length + models.size + more > FINDINGS_DELETE_BATCH) {
      chunks.push(chunk);
      chunk = [];
      models = new Set();
    }
    chunk.push(finding);
    models.add(finding.modelId);
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Deletes every finding of the given models and every alignment and change map they are part of
 * (as the capture or as the reference), before the models themselves are deleted (no orphan
 * findings). Findings go in transactions of at most
 * {@link FINDINGS_DELETE_BATCH} writes, each reading its findings and their models, deleting
 * those still stored and lowering each model's `metadata.annotationsCount` by what it deleted, so
 * the count is exact after every commit, beside concurrent creates and deletes, even if the run
 * stops midway; alignments and change maps follow in batches. Only the documents go: the change
 * maps' values files are returned for the caller, which holds the file store, to delete. A caller
 * that then deletes the models uses {@link deleteModelsWithFindings}, which also catches findings
 * added while this ran.
 * @param catalog the catalog port (admins)
 * @param models the models whose findings go (ids and projects); findings are found by project
 *   (one query each) and by model for a model outside projects
 * @returns how many findings, alignments and change maps were deleted, and the change maps'
 *   values files ({@link DeletedFindings})
 * @throws catalog errors (`permission-denied`, `aborted`…); what was committed before stays consistent
 */
export async function deleteModelsFindings(catalog: CatalogPort, models: readonly ModelToDelete[]): Promise<DeletedFindings> {
  const found = await listModelsFindings(catalog, models);
  let annotations = 0;
  for (const chunk of findingChunks(found.annotations)) {
    annotations += await catalog.transaction(async (tx) => {
      const stored = await Promise.all(chunk.map((finding) => tx.get('annotations', finding.id)));
      const modelIds = [...new Set(chunk.map((finding) => finding.modelId))];
      const current = await Promise.all(modelIds.map((id) => tx.get('models', id)));
      const deleted = new Map<string, number>();
      chunk.forEach((finding, i) => {
        if (stored[i] === null) return; // deleted by someone else meanwhile: not counted twice
        tx.delete('annotations', finding.id);
        deleted.set(finding.modelId, (deleted.get(finding.modelId) ?? 0) + 1);
      });
      for (const model of current) {
        const gone = model === null ? 0 : (deleted.get(model.id) ?? 0);
        if (model === null || gone === 0) continue;
        tx.update('models', model.id, { 'metadata.annotationsCount': Math.max(0, (model.metadata?.annotationsCount ?? 0) - gone) });
      }
      return [...deleted.values()].reduce((a, b) => a + b, 0);
    });
  }
  await deletePairDocuments(catalog, 'alignments', found.alignments);
  await deletePairDocuments(
    catalog,
    'changeMaps',
    found.changeMaps.map((c) => c.id),
  );
  return {
    annotations,
    alignments: found.alignments.length,
    changeMaps: found.changeMaps.length,
    // Only a values path of its form: a document naming another model file never gets it deleted.
    changeMapFiles: found.changeMaps.map((c) => c.valuesPath).filter((path) => parseChangeValuesPath(path) !== null),
  };
}

/**
 * Most findings the final transaction of {@link deleteModelsWithFindings} deletes itself (those
 * added since the listing, read by their numbers); more start another round of listing.
 */
const CATCH_UP_FINDINGS = 200;

/**
 * Deletes models with their findings, alignments and change maps, so that deleting a model and
 * adding a finding to it cannot both succeed: the findings go first ({@link deleteModelsFindings}), then
 * one transaction re-reads the models and deletes them together with any finding added since the
 * findings were listed — those whose numbers lie between the model's `metadata.annotationsSeq`
 * as it was before the listing and as it is now (a finding's id is `{modelId}_{seq}`). A create
 * committed meanwhile makes the transaction run again; more than {@link CATCH_UP_FINDINGS} new
 * findings start another round of listing, up to {@link MODEL_DELETE_ROUNDS} rounds. A finding
 * create reads its model in its own transaction, so once the models are deleted it fails with
 * 'Model not found'.
 * @param catalog the catalog port (admins)
 * @param models the models to delete, as read before (their `annotationsSeq` is what their
 *   findings are listed against); a model already gone is skipped
 * @param options.alsoWrite more of the final transaction (reads first, then writes), given the
 *   ids of the models it deletes: e.g. clearing the project's reference model; it may run several times
 * @returns how many findings, alignments, change maps and models were deleted, and the deleted
 *   change maps' values files for the caller to delete from storage ({@link DeletedFindings})
 * @throws AppError `aborted` (findings kept being added for every round, or the final
 *   transaction kept meeting other writes), catalog errors (`permission-denied`…)
 */
export async function deleteModelsWithFindings(
  catalog: CatalogPort,
  models: readonly ModelToDelete[],
  options: { alsoWrite?: (tx: CatalogTransaction, modelIds: string[]) => Promise<void> | void } = {},
): Promise<DeletedFindings & { models: number }> {
  let pending: ModelToDelete[] = [...models];
  const total: DeletedFindings & { models: number } = { annotations: 0, alignments: 0, changeMaps: 0, changeMapFiles: [], models: 0 };
  for (let round = 1; ; round += 1) {
    const removed = await deleteModelsFindings(catalog, pending);
    total.annotations += removed.annotations;
    total.alignments += removed.alignments;
    total.changeMaps += removed.changeMaps;
    total.changeMapFiles.push(...removed.changeMapFiles);
    const listed = new Map(pending.map((m) => [m.id, seqOf(m)]));
    const outcome = await catalog.transaction(async (tx) => {
      const current = (await Promise.all(pending.map((m) => tx.get('models', m.id)))).filter((m) => m !== null);
      // Findings added since the listing: numbered after the sequence the listing was made at.
      const added: string[] = [];
      for (const model of current) {
        for (let seq = (listed.get(model.id) ?? 0) + 1; seq <= seqOf(model); seq += 1) added.push(annotationId(model.id, seq));
      }
      if (added.length > CATCH_UP_FINDINGS) return { moved: current as ModelToDelete[] };
      const ids = current.map((m) => m.id);
      await options.alsoWrite?.(tx, ids);
      // Deleted by number without reading them (a missing one is no error; their count goes with the model).
      for (const id of added) tx.delete('annotations', id);
      for (const id of ids) tx.delete('models', id);
      return { moved: null, models: ids.length, annotations: added.length };
    });
    if (outcome.moved === null) return { ...total, annotations: total.annotations + outcome.annotations, models: outcome.models };
    if (round >= MODEL_DELETE_ROUNDS) {
      throw new AppError(ErrorCode.Aborted, `Findings kept being added while the model was being deleted (${round} rounds); try again`, {
        context: { modelIds: outcome.moved.map((m) => m.id) },
      });
    }
    pending = outcome.moved;
  }
}
