/**
 * `catalog doctor`'s checks: reads the catalog's records, the stored files and (on the embedded
 * server) its disk scan, and reports every inconsistency between them, leaving alone the folders
 * an upload may still own. Reads only.
 */
import type { Backend, StoredFile } from '@shared/ports/index.js';
import { parseModelPath } from '@shared/paths.js';
import { referencedPaths } from '@shared/workflows/index.js';
import { REPAIR_GRACE_MS } from '@shared/wire/routes.js';
import { missingBackfill } from '../backfill.js';
import type { StorageScanApi } from '../catalog-io.js';
import { folderLeftAlone, listStoredDeep } from './left-alone.js';
import type { DoctorReport } from './report.js';

/** What {@link diagnose} and `repair` (`repair.ts`) take besides the backend. */
export interface DoctorOptions {
  /** Grace period in ms (default {@link REPAIR_GRACE_MS}, 24 h): files younger than this in a folder without a record are left alone. */
  graceMs?: number;
  /** The current time in ms since the epoch (tests). */
  now?: () => number;
}

/**
 * Runs every check. Reads only.
 * @param backend the opened backend (service: hidden models included)
 * @param storageScan the embedded server's disk scan, when the backend is one (file records vs disk)
 * @param options the grace period (default 24 h) and clock
 * @returns the report; folders without a record whose upload is in progress or resumable are in
 *   `leftAlone`, not `filesWithoutRecords`
 */
export async function diagnose(
  backend: Pick<Backend, 'catalog' | 'files'>,
  storageScan?: StorageScanApi,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const graceMs = options.graceMs ?? REPAIR_GRACE_MS;
  const now = options.now ?? Date.now;
  const scanned = storageScan ? await storageScan.scan(graceMs) : null;
  const storage: DoctorReport['storage'] = scanned
    ? { untracked: scanned.untracked, missing: scanned.missing, leftAlone: scanned.leftAlone, liveUploads: scanned.liveUploads }
    : { untracked: [], missing: [], leftAlone: [], liveUploads: [] };
  const [projects, models, findings] = await Promise.all([
    backend.catalog.query('projects'),
    backend.catalog.query('models'),
    backend.catalog.query('annotations'),
  ]);
  // A file record whose bytes are gone (disk scan) does not count as stored.
  const missingBytes = new Set(storage.missing);
  const storedFiles = (await listStoredDeep(backend.files, 'models/')).filter((file) => !missingBytes.has(file.path));
  const stored = new Set(storedFiles.map((file) => file.path));
  // stored files by model folder, each list sorted
  const byUuid = new Map<string, StoredFile[]>();
  for (const file of [...storedFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const uuid = parseModelPath(file.path)?.uuid;
    if (uuid === undefined) continue;
    const list = byUuid.get(uuid);
    if (list) list.push(file);
    else byUuid.set(uuid, [file]);
  }
  const pathsOf = (uuid: string): string[] => (byUuid.get(uuid) ?? []).map((file) => file.path);
  const projectIds = new Set(projects.map((p) => p.id));
  const modelsById = new Map(models.map((m) => [m.id, m]));
  const owned = new Set<string>();
  const report: DoctorReport = {
    recordsWithoutFiles: [],
    filesWithoutRecords: [],
    leftAlone: [],
    graceMs,
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
        files: pathsOf(uuid),
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
  const live = new Map(storage.liveUploads.map((upload) => [upload.uuid, upload.reason]));
  const checkedAt = now();
  for (const [uuid, files] of byUuid) {
    if (owned.has(uuid)) continue;
    const reason = folderLeftAlone(uuid, files, live, graceMs, checkedAt);
    if (reason === null) report.filesWithoutRecords.push({ uuid, files: pathsOf(uuid) });
    else report.leftAlone.push({ uuid, files: pathsOf(uuid), reason });
  }
  for (const project of projects) {
    const ref = project.reference_model_id;
    if (!ref) continue;
    const model = modelsById.get(ref);
    if (!model || model.projectId !== project.id)
      report.projectsWithMissingReference.push({ projectId: project.id, name: project.name, referenceModelId: ref });
  }
  return report;
}
