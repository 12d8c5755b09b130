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
 *
 * This file only re-exports the modules of `doctor/`, one a job:
 * - `diagnose.ts`: the checks (reads only);
 * - `report.ts`: the report's shape, its problem count and its rendering for people;
 * - `repair.ts`: the repairs and backfills of `--fix`;
 * - `left-alone.ts`: which folders without a record are left alone (the rule both apply);
 * - `grace.ts`: the grace period as `--grace` takes it and as the report shows it.
 */
export type { DoctorOptions } from './doctor/diagnose.js';
export { diagnose } from './doctor/diagnose.js';
export { formatGrace, parseGrace } from './doctor/grace.js';
export { repair } from './doctor/repair.js';
export type { DoctorReport, LeftAloneReason } from './doctor/report.js';
export { describeReport, problemCount } from './doctor/report.js';
