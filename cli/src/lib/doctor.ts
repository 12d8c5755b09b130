/**
 * `catalog doctor`: consistency checks between the catalog's records and its stored files, and
 * their repairs; and the backfill of what models stored before issue 16 lack (their validation
 * report, a thumbnail from their first photo, the web-sized copy of their training PLY).
 */
import type { Backend } from '@shared/ports/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import { parseModelPath } from '@shared/paths.js';
import type { Model } from '@shared/types.js';
import { deleteFilesQuietly, listFilesDeep } from '@shared/workflows/util.js';
import { deleteModelsFindings, referencedPaths } from '@shared/workflows/index.js';
import type { StorageScanApi } from './catalog-io.js';
import { backfillModel, missingBackfill } from './backfill.js';
import type { BackfillNeed } from './backfill.js';

/** What `doctor` found. */
export interface DoctorReport {
  /** Models whose record names files that are not stored. `main` is true when the splat or GLB is among them (not repairable). */
  recordsWithoutFiles: { modelId: string; publicId: string; missing: string[]; main: boolean }[];
  /** Stored files under `models/{uuid}/` that no model record owns. */
  filesWithoutRecords: { uuid: string; files: string[] }[];
  /** Models whose project does not exist. */
  modelsWithoutProject: { modelId: string; publicId: string; projectId: string | null; files: string[] }[];
  /** Projects whose reference_model_id names a missing model (or one of another project). */
  projectsWithMissingReference: { projectId: string; name: string; referenceModelId: string }[];
  /**
   * Models without a boolean `visible` (records written before it was set on create). SPEC.md §3
   * counts them visible, but Firestore queries and security rules filter on `visible == true`,
   * so on Firebase non-admins would not see them until it is written.
   */
  modelsWithoutVisibility: { modelId: string; publicId: string }[];
  /**
   * The embedded server only: files on its disk that no file record describes (`untracked`, left
   * by a kill between writing a file and recording it) and file records whose bytes are gone
   * (`missing`). Empty lists for other backends.
   */
  storage: { untracked: string[]; missing: string[] };
  /**
   * Models stored before the content checks (issue 16) that lack their validation report
   * (`report`), a thumbnail while they have photos (`thumbnail`), or the web-sized copy of their
   * training PLY (`webSplat`). Models without a project or without their splat/GLB are left out
   * (they are reported above). `--fix` backfills them from the stored files.
   */
  modelsToBackfill: { modelId: string; publicId: string; missing: BackfillNeed[] }[];
  /**
   * Issue 18: models whose `metadata.annotationsCount` is not the number of findings stored for
   * them, or whose `metadata.annotationsSeq` is below a stored finding's number (written by hand
   * or by a tool that bypassed the workflows). `--fix` sets both from what is stored.
   */
  findingCounts: { modelId: string; publicId: string; count: number; stored: number; seq: number; highestSeq: number }[];
  /** Issue 18: findings whose model does not exist. `--fix` deletes them. */
  findingsWithoutModel: { id: string; modelId: string }[];
}

/** Number of problems in a report. */
export function problemCount(report: DoctorReport): number {
  return (
    report.recordsWithoutFiles.length +
    report.filesWithoutRecords.length +
    report.modelsWithoutProject.length +
    report.projectsWithMissingReference.length +
    report.modelsWithoutVisibility.length +
    report.storage.untracked.length +
    report.storage.missing.length +
    report.modelsToBackfill.length +
    report.findingCounts.length +
    report.findingsWithoutModel.length
  );
}

/**
 * Runs every check. Reads only.
 * @param backend the opened backend (service: hidden models included)
 * @param storageScan the embedded server's disk scan, when the backend is one (file records vs disk)
 */
export async function diagnose(backend: Pick<Backend, 'catalog' | 'files'>, storageScan?: StorageScanApi): Promise<DoctorReport> {
  const storage = storageScan ? await storageScan.scan() : { untracked: [], missing: [] };
  const [projects, models, findings] = await Promise.all([
    backend.catalog.query('projects'),
    backend.catalog.query('models'),
    backend.catalog.query('annotations'),
  ]);
  // A file record whose bytes are gone (disk scan) does not count as stored.
  const missingBytes = new Set(storage.missing);
  const stored = new Set((await listFilesDeep(backend.files, 'models/')).filter((path) => !missingBytes.has(path)));
  // stored files by model folder, each list sorted
  const byUuid = new Map<string, string[]>();
  for (const path of [...stored].sort()) {
    const uuid = parseModelPath(path)?.uuid;
    if (uuid === undefined) continue;
    const list = byUuid.get(uuid);
    if (list) list.push(path);
    else byUuid.set(uuid, [path]);
  }
  const projectIds = new Set(projects.map((p) => p.id));
  const modelsById = new Map(models.map((m) => [m.id, m]));
  const owned = new Set<string>();
  const report: DoctorReport = {
    recordsWithoutFiles: [],
    filesWithoutRecords: [],
    modelsWithoutProject: [],
    projectsWithMissingReference: [],
    modelsWithoutVisibility: [],
    storage,
    modelsToBackfill: [],
    findingCounts: [],
    findingsWithoutModel: [],
  };
  // findings per model: how many, and the highest number given
  const findingsOf = new Map<string, { stored: number; highestSeq: number }>();
  for (const finding of findings) {
    if (!modelsById.has(finding.modelId)) {
      report.findingsWithoutModel.push({ id: finding.id, modelId: finding.modelId });
      continue;
    }
    const entry = findingsOf.get(finding.modelId) ?? { stored: 0, highestSeq: 0 };
    entry.stored += 1;
    entry.highestSeq = Math.max(entry.highestSeq, typeof finding.seq === 'number' ? finding.seq : 0);
    findingsOf.set(finding.modelId, entry);
  }
  const unusable = new Set<string>();
  for (const model of models) {
    const uuid = model.uuid || model.id;
    owned.add(uuid);
    if (typeof model.visible !== 'boolean') report.modelsWithoutVisibility.push({ modelId: model.id, publicId: model.publicId });
    const missing = referencedPaths(model).filter((p) => !stored.has(p));
    if (missing.length > 0) {
      const main = missing.includes(model.files?.splatPath ?? '\u0000') || missing.includes(model.files?.glbPath ?? '\u0000');
      report.recordsWithoutFiles.push({ modelId: model.id, publicId: model.publicId, missing, main });
      if (main) unusable.add(model.id);
    }
    if (!model.projectId || !projectIds.has(model.projectId)) {
      report.modelsWithoutProject.push({
        modelId: model.id,
        publicId: model.publicId,
        projectId: model.projectId ?? null,
        files: byUuid.get(uuid) ?? [],
      });
      unusable.add(model.id);
    }
    const { stored: storedFindings, highestSeq } = findingsOf.get(model.id) ?? { stored: 0, highestSeq: 0 };
    const count = model.metadata?.annotationsCount ?? 0;
    const seq = model.metadata?.annotationsSeq ?? 0;
    if (count !== storedFindings || seq < highestSeq) {
      report.findingCounts.push({ modelId: model.id, publicId: model.publicId, count, stored: storedFindings, seq, highestSeq });
    }
    const needs = unusable.has(model.id) ? [] : missingBackfill(model);
    if (needs.length > 0) report.modelsToBackfill.push({ modelId: model.id, publicId: model.publicId, missing: needs });
  }
  for (const [uuid, files] of byUuid) if (!owned.has(uuid)) report.filesWithoutRecords.push({ uuid, files });
  for (const project of projects) {
    const ref = project.reference_model_id;
    if (!ref) continue;
    const model = modelsById.get(ref);
    if (!model || model.projectId !== project.id)
      report.projectsWithMissingReference.push({ projectId: project.id, name: project.name, referenceModelId: ref });
  }
  return report;
}

/** A human rendering of a report. */
export function describeReport(report: DoctorReport): string {
  const lines: string[] = [];
  for (const r of report.recordsWithoutFiles)
    lines.push(
      `record without files: model ${r.publicId} (${r.modelId}) is missing ${r.missing.join(', ')}${r.main ? ' (main file: re-upload or delete the model)' : ''}`,
    );
  for (const f of report.filesWithoutRecords)
    lines.push(`files without record: models/${f.uuid}/ holds ${f.files.length} file(s) no model owns`);
  for (const m of report.modelsWithoutProject)
    lines.push(`model without project: ${m.publicId} (${m.modelId}) belongs to missing project ${m.projectId ?? '(none)'}`);
  for (const p of report.projectsWithMissingReference)
    lines.push(`missing reference: project ${p.name} (${p.projectId}) points to missing model ${p.referenceModelId}`);
  for (const m of report.modelsWithoutVisibility)
    lines.push(`no visibility: model ${m.publicId} (${m.modelId}) has no visible field (--fix writes visible: true)`);
  for (const path of report.storage.untracked) lines.push(`file on disk without a file record: ${path} (--fix removes it)`);
  for (const path of report.storage.missing) lines.push(`file record without bytes on disk: ${path} (--fix removes the record)`);
  for (const m of report.modelsToBackfill)
    lines.push(
      `stored before file checks: model ${m.publicId} (${m.modelId}) has no ${m.missing.map(describeNeed).join(', no ')} (--fix makes it)`,
    );
  for (const f of report.findingCounts)
    lines.push(
      `finding count: model ${f.publicId} (${f.modelId}) says ${f.count} finding(s), ${f.stored} stored${f.seq < f.highestSeq ? `; its last number ${f.seq} is below F-${f.highestSeq}` : ''} (--fix sets them from what is stored)`,
    );
  for (const f of report.findingsWithoutModel)
    lines.push(`finding without model: ${f.id} belongs to missing model ${f.modelId} (--fix deletes it)`);
  return lines.length === 0 ? 'No problems found.' : lines.join('\n');
}

/** What a backfill need is called in the report. */
function describeNeed(need: BackfillNeed): string {
  return need === 'report'
    ? 'validation report'
    : need === 'thumbnail'
      ? 'thumbnail (it has photos)'
      : 'web-sized copy of its training PLY';
}

/**
 * Repairs what a report found: on the embedded server first the disk scan (untracked files and
 * records without bytes are removed), then deletes files without records, deletes models without a project
 * (record and files), takes missing images/thumbnails/assets/camera metadata off their records,
 * clears dangling project references, writes `visible: true` on models without it, deletes
 * findings without a model and sets wrong finding counts and numbers from what is stored, then
 * backfills models stored before the content checks ({@link backfillModel}: report, thumbnail,
 * web-sized copy). Records missing their splat/GLB are left (reported); a model whose backfill
 * fails is left too, its reason passed to `onBackfillError`.
 * @param backend the opened backend (service)
 * @param report what {@link diagnose} found
 * @param storageScan the embedded server's disk scan, when the backend is one
 * @param options.log human progress lines (one per backfilled model)
 * @returns the number of repairs made
 */
export async function repair(
  backend: Pick<Backend, 'catalog' | 'files'>,
  report: DoctorReport,
  storageScan?: StorageScanApi,
  options: { log?: (line: string) => void } = {},
): Promise<number> {
  const log = options.log ?? (() => undefined);
  let fixed = 0;
  if (storageScan && report.storage.untracked.length + report.storage.missing.length > 0) {
    const removed = await storageScan.repair();
    fixed += removed.removedFiles + removed.removedRows;
  }
  for (const f of report.filesWithoutRecords) {
    await deleteFilesQuietly(backend.files, f.files);
    fixed++;
  }
  const deletedModels = new Set<string>();
  for (const m of report.modelsWithoutProject) {
    const record = await backend.catalog.get('models', m.modelId);
    // its findings and alignments first (issue 18: no orphan findings)
    if (record) await deleteModelsFindings(backend.catalog, [record]);
    await backend.catalog.delete('models', m.modelId);
    await deleteFilesQuietly(backend.files, m.files);
    deletedModels.add(m.modelId);
    fixed++;
  }
  for (const r of report.recordsWithoutFiles) {
    if (r.main || deletedModels.has(r.modelId)) continue;
    const model = await backend.catalog.get('models', r.modelId);
    if (model === null) continue;
    const gone = new Set(r.missing);
    const f = model.files ?? {};
    await backend.catalog.update('models', model.id, {
      'files.images': (f.images ?? []).filter((p) => !gone.has(p)),
      'files.thumbnails': (f.thumbnails ?? []).filter((p) => !gone.has(p)),
      'files.assets': (f.assets ?? []).filter((p) => !gone.has(p)),
      ...(f.cameraMetadata && gone.has(f.cameraMetadata) ? { 'files.cameraMetadata': null } : {}),
      last_updated: SERVER_TIMESTAMP,
    });
    fixed++;
  }
  for (const p of report.projectsWithMissingReference) {
    await backend.catalog.update('projects', p.projectId, { reference_model_id: null, last_updated: SERVER_TIMESTAMP });
    fixed++;
  }
  for (const m of report.modelsWithoutVisibility) {
    if (deletedModels.has(m.modelId)) continue;
    await backend.catalog.update('models', m.modelId, { visible: true });
    fixed++;
  }
  for (const f of report.findingsWithoutModel) {
    await backend.catalog.delete('annotations', f.id);
    fixed++;
  }
  for (const f of report.findingCounts) {
    if (deletedModels.has(f.modelId)) continue;
    await backend.catalog.update('models', f.modelId, {
      'metadata.annotationsCount': f.stored,
      'metadata.annotationsSeq': Math.max(f.seq, f.highestSeq),
    });
    fixed++;
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
      log(`could not backfill model ${m.publicId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return fixed;
}
