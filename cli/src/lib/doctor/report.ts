/**
 * What `catalog doctor` finds: the report's shape (each kind of problem, what was left alone and
 * why), its problem count, and its rendering for people, one line per problem.
 */
import type { BackfillNeed } from '../backfill.js';
import { formatGrace } from './grace.js';

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

/**
 * What a left-alone reason says in the report and the repair's log: an upload running now, one
 * that can still be resumed, or a file younger than the grace period (with that period).
 * @param reason why it was left alone
 * @param graceMs the grace period in ms, shown for `recent`
 * @returns the phrase, e.g. "younger than the grace period of 24 h (--grace changes it)"
 */
export function describeLeftAlone(reason: LeftAloneReason, graceMs: number): string {
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
