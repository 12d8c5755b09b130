/**
 * `catalog doctor`: consistency checks between the catalog's records and its stored files, and
 * their repairs; and the backfill of what models stored before the content checks lack (their
 * validation report, a thumbnail from their first photo, the web-sized copy of their splat).
 *
 * Maintenance never races live work: uploads store their files first and write the model record
 * last, so files without a record may be an upload in progress or one that can still resume.
 * Such folders are left alone while an upload to them runs or is resumable on the embedded
 * server, or while their newest file is younger than the grace period; and every repair checks
 * its item again just before it changes anything (a record may have been written since the
 * diagnosis).
 */
import type { Backend, FileStorePort, StoredFile } from '@shared/ports/index.js';
import { SERVER_TIMESTAMP } from '@shared/ports/catalog.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { parseModelPath } from '@shared/paths.js';
import type { Model } from '@shared/types.js';
import { deleteFilesQuietly } from '@shared/workflows/util.js';
import { deleteModelsWithFindings, referencedPaths } from '@shared/workflows/index.js';
import { REPAIR_GRACE_MS } from '@shared/wire/routes.js';
import type { StorageScanApi } from './catalog-io.js';
import { backfillModel, missingBackfill } from './backfill.js';
import type { BackfillNeed } from './backfill.js';

/**
 * Why something was left alone: `in-flight` — an upload to it runs on the server now;
 * `resumable` — an unfinished resumable upload to its folder can still be resumed; `recent` —
 * it (or its folder's newest file) is younger than the grace period.
 */
export type LeftAloneReason = 'in-flight' | 'resumable' | 'recent';

/** What `doctor` found. */
export interface DoctorReport {
  /** Models whose record names files that are not stored. `main` is true when the splat or GLB is among them (not repairable). */
  recordsWithoutFiles: { modelId: string; publicId: string; missing: string[]; main: boolean }[];
  /** Stored files under `models/{uuid}/` that no model record owns (and that no upload in progress or resumable may still own). */
  filesWithoutRecords: { uuid: string; files: string[] }[];
  /**
   * Folders of stored files without a model record that are left alone: an upload to them is in
   * progress or resumable (see {@link LeftAloneReason}). Not problems: `--fix` leaves them, and a
   * later run removes them once the upload is gone and the grace period has passed.
   */
  leftAlone: { uuid: string; files: string[]; reason: LeftAloneReason }[];
  /** The grace period used, in ms: files younger than this in a folder without a record are left alone. */
  graceMs: number;
  /** Models whose project does not exist. */
  modelsWithoutProject: { modelId: string; publicId: string; projectId: string | null; files: string[] }[];
  /** Projects whose reference_model_id names a missing model (or one of another project). */
  projectsWithMissingReference: { projectId: string; name: string; referenceModelId: string }[];
  /**
   * Models without a boolean `visible` (records written before it was set on create). The catalog
   * counts a missing `visible` as visible, but Firestore queries and security rules filter on
   * `visible == true`, so on Firebase non-admins would not see them until it is written.
   */
  modelsWithoutVisibility: { modelId: string; publicId: string }[];
  /**
   * The embedded server only: files on its disk that no file record describes (`untracked`, left
   * by a kill between writing a file and recording it) and file records whose bytes are gone
   * (`missing`); what the storage repair leaves alone and why (`leftAlone`: being stored now, in
   * a folder with an upload in progress or resumable, or younger than the grace period); the
   * model folders with an upload in progress or resumable (`liveUploads`). Empty lists for other
   * backends.
   */
  storage: {
    untracked: string[];
    missing: string[];
    leftAlone: { path: string; reason: LeftAloneReason }[];
    liveUploads: { uuid: string; reason: 'in-flight' | 'resumable' }[];
  };
  /**
   * Models stored before the content checks that lack their validation report
   * (`report`), a thumbnail while they have photos (`thumbnail`), the web-sized copy of their
   * splat (`webSplat`), or that of a GLB of 8 MiB or more (`webGlb`). Models without a project or without their splat/GLB are left out
   * (they are reported above). `--fix` backfills them from the stored files.
   */
  modelsToBackfill: { modelId: string; publicId: string; missing: BackfillNeed[] }[];
  /**
   * Models whose `metadata.annotationsCount` is not the number of findings stored for
   * them, or whose `metadata.annotationsSeq` is below a stored finding's number (written by hand
   * or by a tool that bypassed the workflows). `--fix` sets both from what is stored.
   */
  findingCounts: { modelId: string; publicId: string; count: number; stored: number; seq: number; highestSeq: number }[];
  /** Findings whose model does not exist. `--fix` deletes them. */
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

/** What {@link diagnose} and {@link repair} take besides the backend. */
export interface DoctorOptions {
  /** Grace period in ms (default {@link REPAIR_GRACE_MS}, 24 h): files younger than this in a folder without a record are left alone. */
  graceMs?: number;
  /** The current time in ms since the epoch (tests). */
  now?: () => number;
}

/** Longest grace period accepted, in ms (365 days). */
const MAX_GRACE_MS = 365 * 24 * 3600 * 1000;

const DURATION_UNITS_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Reads a grace period as `doctor --grace` takes it: a number and a unit (`ms`, `s`, `m` or
 * `min`, `h`, `d`), e.g. `24h`, `90m`, `1.5d`, or `0` (leave alone only uploads running now).
 * @param text the option's value
 * @returns the duration in ms (whole)
 * @throws AppError `invalid-argument` for anything else, or more than 365 days
 */
export function parseGrace(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|min|h|d)?\s*$/i.exec(text);
  const unit = match?.[2]?.toLowerCase();
  const value = match ? Number(match[1]) : Number.NaN;
  const ms = unit === undefined ? (value === 0 ? 0 : Number.NaN) : Math.round(value * (DURATION_UNITS_MS[unit] ?? Number.NaN));
  if (!Number.isFinite(ms) || ms > MAX_GRACE_MS) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `Invalid grace period '${text}': give a number and a unit (ms, s, m, h, d), e.g. 24h or 30m, or 0; at most 365 days.`,
      { context: { grace: text } },
    );
  }
  return ms;
}

/**
 * A duration for people: `0 s`, `45 s`, `30 min`, `24 h`, `2 d` — the largest unit that divides
 * it (days from two days on, so a day reads `24 h`), else seconds with one decimal.
 * @param ms the duration in ms
 */
export function formatGrace(ms: number): string {
  if (ms % 86_400_000 === 0 && ms >= 2 * 86_400_000) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Every stored file under `folder` (ending in '/'), recursively, with its listed metadata (its update time). */
async function listStoredDeep(files: FileStorePort, folder: string): Promise<StoredFile[]> {
  const listing = await files.list(folder);
  const items = [...listing.items];
  for (const prefix of listing.prefixes) items.push(...(await listStoredDeep(files, prefix)));
  return items;
}

/** True when the newest of `files` was stored less than `graceMs` before `now` (a file without an update time counts as old). */
function hasRecentFile(files: readonly StoredFile[], graceMs: number, now: number): boolean {
  return files.some((file) => {
    const updated = file.updated ? Date.parse(file.updated) : Number.NaN;
    return !Number.isNaN(updated) && now - updated < graceMs;
  });
}

/** Why a folder without a record is left alone now, or null when it may go. */
function folderLeftAlone(
  uuid: string,
  files: readonly StoredFile[],
  live: ReadonlyMap<string, 'in-flight' | 'resumable'>,
  graceMs: number,
  now: number,
): LeftAloneReason | null {
  return live.get(uuid) ?? (hasRecentFile(files, graceMs, now) ? 'recent' : null);
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

/** What a left-alone reason says in the report, with the grace period for `recent`. */
function describeLeftAlone(reason: LeftAloneReason, graceMs: number): string {
  return reason === 'in-flight'
    ? 'an upload to it runs now'
    : reason === 'resumable'
      ? 'an unfinished upload to it can still be resumed'
      : `younger than the grace period of ${formatGrace(graceMs)} (--grace changes it)`;
}

/** A human rendering of a report: its problems (or 'No problems found.'), then what was left alone. */
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
  const leftAlone = [
    ...report.leftAlone.map(
      (f) =>
        `left alone (upload in progress or resumable): models/${f.uuid}/ holds ${f.files.length} file(s) no model owns yet; ${describeLeftAlone(f.reason, report.graceMs)}`,
    ),
    ...report.storage.leftAlone.map(
      (f) =>
        `left alone (upload in progress or resumable): file on disk without a file record yet: ${f.path}; ${describeLeftAlone(f.reason, report.graceMs)}`,
    ),
  ];
  return [...(lines.length === 0 ? ['No problems found.'] : lines), ...leftAlone].join('\n');
}

/** What a backfill need is called in the report. */
function describeNeed(need: BackfillNeed): string {
  const names: Record<BackfillNeed, string> = {
    report: 'validation report',
    thumbnail: 'thumbnail (it has photos)',
    webSplat: 'web-sized copy of its splat',
    webGlb: 'web-sized copy of its GLB',
  };
  return names[need];
}

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
 * @param report what {@link diagnose} found
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
    // With its findings and alignments, so that no finding is left without its model even when one is added meanwhile.
    await deleteModelsWithFindings(backend.catalog, [record]);
    const files = new Set([...(await listStoredDeep(backend.files, `models/${uuid}/`)).map((file) => file.path), ...m.files]);
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
      ...(f.cameraMetadata && gone.has(f.cameraMetadata) ? { 'files.cameraMetadata': null } : {}),
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
      log(`could not backfill model ${m.publicId}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return fixed;
}
