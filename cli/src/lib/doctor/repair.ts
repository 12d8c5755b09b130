/**
 * `catalog doctor --fix`: repairs what the diagnosis found, checking each item again just before
 * it changes anything (a record may have been written, a file stored or an upload started since
 * the diagnosis), and backfills models stored before the content checks.
 */
import type { Backend, FileStorePort } from '@shared/ports/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import type { Model } from '@shared/types.js';
import { deleteFilesQuietly } from '@shared/workflows/util.js';
import { deleteModelsWithFindings } from '@shared/workflows/index.js';
import { REPAIR_GRACE_MS } from '@shared/wire/routes.js';
import { backfillModel } from '../backfill.js';
import type { StorageScanApi } from '../catalog-io.js';
import type { DoctorOptions } from './diagnose.js';
import { folderLeftAlone, listStoredDeep } from './left-alone.js';
import { describeLeftAlone } from './report.js';
import type { DoctorReport } from './report.js';

/** True when the stored file at `path` exists now. */
async function isStored(files: FileStorePort, path: string): Promise<boolean> {
  try {
    await files.getMetadata(path);
    return true;
  } catch (error) {
    if (error instanceof AppError && error.code === ErrorCode.ObjectNotFound) return false;
    throw error;
  }
}

/** True when a model record owns the folder `models/{uuid}/` now (its id or its `uuid` field). */
async function folderHasRecord(catalog: Backend['catalog'], uuid: string): Promise<boolean> {
  if ((await catalog.get('models', uuid)) !== null) return true;
  return (await catalog.query('models', { where: [['uuid', '==', uuid]], limit: 1 })).length > 0;
}

/**
 * Sets a model's finding count and last number from the findings stored now, in one catalog
 * transaction: it reads the model and every finding of it (those a query listed, and those
 * numbered after them up to the model's last number, which a create since the query may have
 * added), so a finding created or deleted meanwhile (the workflows change the model with it)
 * makes the transaction run again on the new state.
 * @param catalog the catalog (service)
 * @param modelId the model's id
 * @returns true when the model was changed; false when it is gone or already right
 */
async function recountFindings(catalog: Backend['catalog'], modelId: string): Promise<boolean> {
  const listed = await catalog.query('annotations', { where: [['modelId', '==', modelId]] });
  const seqOf = (finding: { seq?: unknown }): number => (typeof finding.seq === 'number' ? finding.seq : 0);
  const listedTop = listed.reduce((max, finding) => Math.max(max, seqOf(finding)), 0);
  return catalog.transaction(async (tx) => {
    const model = await tx.get('models', modelId);
    if (model === null) return false;
    const count = model.metadata?.annotationsCount ?? 0;
    const seq = model.metadata?.annotationsSeq ?? 0;
    const ids = new Set(listed.map((finding) => finding.id));
    for (let n = listedTop + 1; n <= seq; n += 1) ids.add(`${modelId}_${n}`);
    const findings = (await Promise.all([...ids].map((id) => tx.get('annotations', id)))).filter(
      (finding) => finding !== null && finding.modelId === modelId,
    );
    const stored = findings.length;
    const highestSeq = findings.reduce((max, finding) => Math.max(max, seqOf(finding!)), 0);
    if (count === stored && seq >= highestSeq) return false;
    tx.update('models', modelId, { 'metadata.annotationsCount': stored, 'metadata.annotationsSeq': Math.max(seq, highestSeq) });
    return true;
  });
}

/**
 * Repairs what a report found, checking each item again just before it changes anything (a
 * record may have been written, a file stored or an upload started since the diagnosis): on
 * the embedded server first the disk scan (untracked files and records without bytes are
 * removed, except what is being stored now, belongs to an upload in progress or resumable, or
 * is younger than the grace period), then deletes files without records (a folder that has a
 * record now, an upload in progress or resumable, or a file younger than the grace period is
 * left alone), deletes models whose project is still missing (findings, record and files; not
 * while an upload to their folder runs), takes images/thumbnails/assets/camera metadata that are
 * still missing off their records, clears project references that still dangle, writes
 * `visible: true` on models still without it, deletes findings whose model is still missing and
 * sets finding counts and numbers re-counted from what is stored (in a transaction per model),
 * then backfills models stored before the content checks ({@link backfillModel}: report,
 * thumbnail, web-sized copy). Records missing their splat/GLB are left (reported); a model whose
 * backfill fails is left too, its reason logged.
 * @param backend the opened backend (service)
 * @param report what `diagnose` (`diagnose.ts`) found
 * @param storageScan the embedded server's disk scan, when the backend is one
 * @param options.log human progress lines (one per backfilled model, one per item left alone)
 * @param options.graceMs the grace period in ms (default: the report's)
 * @returns the number of repairs made
 */
export async function repair(
  backend: Pick<Backend, 'catalog' | 'files'>,
  report: DoctorReport,
  storageScan?: StorageScanApi,
  options: DoctorOptions & { log?: (line: string) => void } = {},
): Promise<number> {
  const log = options.log ?? (() => undefined);
  const graceMs = options.graceMs ?? report.graceMs ?? REPAIR_GRACE_MS;
  const now = options.now ?? Date.now;
  let fixed = 0;
  if (storageScan && report.storage.untracked.length + report.storage.missing.length > 0) {
    const removed = await storageScan.repair(graceMs);
    fixed += removed.removedFiles + removed.removedRows;
    for (const f of removed.leftAlone)
      if (!report.storage.leftAlone.some((known) => known.path === f.path))
        log(`left alone (upload in progress or resumable): ${f.path}; ${describeLeftAlone(f.reason, graceMs)}`);
  }
  // which folders have an upload in progress or resumable now (not at the diagnosis)
  const needLive = report.filesWithoutRecords.length + report.modelsWithoutProject.length > 0;
  const live = new Map(needLive && storageScan ? (await storageScan.scan(graceMs)).liveUploads.map((u) => [u.uuid, u.reason]) : []);
  for (const f of report.filesWithoutRecords) {
    if (await folderHasRecord(backend.catalog, f.uuid)) continue;
    const files = await listStoredDeep(backend.files, `models/${f.uuid}/`);
    const reason = folderLeftAlone(f.uuid, files, live, graceMs, now());
    if (reason !== null) {
      log(`left alone (upload in progress or resumable): models/${f.uuid}/; ${describeLeftAlone(reason, graceMs)}`);
      continue;
    }
    await deleteFilesQuietly(
      backend.files,
      files.map((file) => file.path),
    );
    fixed++;
  }
  const deletedModels = new Set<string>();
  for (const m of report.modelsWithoutProject) {
    const record = await backend.catalog.get('models', m.modelId);
    if (record === null) continue;
    if (record.projectId && (await backend.catalog.get('projects', record.projectId)) !== null) continue;
    const uuid = record.uuid || record.id;
    if (live.get(uuid) === 'in-flight') {
      log(`left alone: model ${m.publicId} (${m.modelId}) without project; ${describeLeftAlone('in-flight', graceMs)}`);
      continue;
    }
    // With its findings, alignments and change maps, so that no finding is left without its model even when one is added meanwhile.
    const removed = await deleteModelsWithFindings(backend.catalog, [record]);
    const files = new Set([
      ...(await listStoredDeep(backend.files, `models/${uuid}/`)).map((file) => file.path),
      ...m.files,
      ...removed.changeMapFiles,
    ]);
    await deleteFilesQuietly(backend.files, [...files]);
    deletedModels.add(m.modelId);
    fixed++;
  }
  for (const r of report.recordsWithoutFiles) {
    if (r.main || deletedModels.has(r.modelId)) continue;
    const model = await backend.catalog.get('models', r.modelId);
    if (model === null) continue;
    const stillMissing: string[] = [];
    for (const path of r.missing) if (!(await isStored(backend.files, path))) stillMissing.push(path);
    if (stillMissing.length === 0) continue;
    const gone = new Set(stillMissing);
    const f = model.files ?? {};
    await backend.catalog.update('models', model.id, {
      'files.images': (f.images ?? []).filter((p) => !gone.has(p)),
      'files.thumbnails': (f.thumbnails ?? []).filter((p) => !gone.has(p)),
      'files.assets': (f.assets ?? []).filter((p) => !gone.has(p)),
      ...(f.cameraMetadata && gone.has(f.cameraMetadata) ? { 'files.cameraMetadata': null, 'files.cameraMetadataUploadedAt': null } : {}),
      last_updated: SERVER_TIMESTAMP,
    });
    fixed++;
  }
  for (const p of report.projectsWithMissingReference) {
    const project = await backend.catalog.get('projects', p.projectId);
    if (project === null || project.reference_model_id !== p.referenceModelId) continue;
    const model = await backend.catalog.get('models', p.referenceModelId);
    if (model !== null && model.projectId === p.projectId) continue;
    await backend.catalog.update('projects', p.projectId, { reference_model_id: null, last_updated: SERVER_TIMESTAMP });
    fixed++;
  }
  for (const m of report.modelsWithoutVisibility) {
    if (deletedModels.has(m.modelId)) continue;
    const model = await backend.catalog.get('models', m.modelId);
    if (model === null || typeof model.visible === 'boolean') continue;
    await backend.catalog.update('models', m.modelId, { visible: true });
    fixed++;
  }
  for (const f of report.findingsWithoutModel) {
    if ((await backend.catalog.get('models', f.modelId)) !== null) continue;
    if ((await backend.catalog.get('annotations', f.id)) === null) continue;
    await backend.catalog.delete('annotations', f.id);
    fixed++;
  }
  for (const f of report.findingCounts) {
    if (deletedModels.has(f.modelId)) continue;
    if (await recountFindings(backend.catalog, f.modelId)) fixed++;
  }
  for (const m of report.modelsToBackfill) {
    if (deletedModels.has(m.modelId)) continue;
    const model = await backend.catalog.get('models', m.modelId);
    if (model === null) continue;
    try {
      const done = await backfillModel(backend, { ...model, id: m.modelId } as Model);
      log(`backfilled model ${m.publicId}: ${done.join(', ') || 'nothing to do'}`);
      fixed++;
    } catch (error) {
      log(`could not backfill model ${m.publicId}: ${errorMessage(error)}`);
    }
  }
  return fixed;
}
