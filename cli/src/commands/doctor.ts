/**
 * `catalog doctor [--fix] [--grace <duration>]`: finds records without files, files without
 * records, models whose project is gone, projects whose reference is missing, and models stored
 * before the content checks (no validation report, no thumbnail while they have photos,
 * no web-sized copy of their splat); `--fix` repairs and backfills them after a
 * confirmation (`--yes` without a terminal). Files of an upload in progress or resumable are left
 * alone: see `--grace`.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { backendOptionsShape } from '../lib/backend.js';
import { embeddedStorageScanApi } from '../lib/catalog-io.js';
import { describeReport, diagnose, formatGrace, parseGrace, problemCount, repair } from '../lib/doctor.js';
import { leafCommand } from '../lib/command.js';
import { askConfirm } from '../lib/prompts.js';

const schema = z.object({ fix: z.boolean().default(false), grace: z.string().optional(), ...backendOptionsShape });

const HELP = `
Uploads store their files first and write the model record last. Files without a record are
left alone while an upload to their folder runs or can still be resumed (catalog serve: resumable
uploads expire after 24 h), or while their folder's newest file is younger than the grace period
(default 24 h: an interrupted upload-many re-run within it reuses the files already stored).
--grace 0 leaves alone only uploads running on the server at that moment.

Exit code 1 when problems remain.

Examples:
  $ catalog doctor
  $ catalog doctor --fix --yes
  $ catalog doctor --fix --grace 2h
`;

/** `catalog doctor [--fix] [--grace <duration>]` */
export const doctorCommand = leafCommand({
  command: new Command('doctor')
    .description(
      'check records against stored files and find models without file checks, thumbnail or web-sized copy; --fix repairs (asks first)',
    )
    .option('--fix', 'repair what was found (after a confirmation)')
    .option('--grace <duration>', 'leave alone files without a record younger than this (e.g. 24h, 30m, 0)', '24h'),
  backend: true,
  schema,
  help: HELP,
  run: async (input, ctx, open) => {
    const graceMs = parseGrace(input.grace ?? '24h');
    const { backend, baseUrl, serviceKey } = await open();
    const scan = serviceKey ? embeddedStorageScanApi(baseUrl, serviceKey) : undefined;
    const report = await diagnose(backend, scan, { graceMs });
    const count = problemCount(report);
    if (count === 0) return { result: { report, problems: 0, fixed: 0 }, text: describeReport(report), summary: 'No problems found.' };
    if (!input.fix) {
      return {
        result: { report, problems: count, fixed: 0 },
        text: describeReport(report),
        failure: { code: ErrorCode.FailedPrecondition, message: `${count} problem(s) found; run \`catalog doctor --fix\` to repair them.` },
      };
    }
    if (!ctx.json) ctx.log(describeReport(report));
    const yes = await askConfirm(ctx, {
      message: `Repair these ${count} problem(s)? Orphan files and models without a project are deleted (files of uploads in progress or resumable, and files younger than ${formatGrace(graceMs)}, are left alone); older models are checked and get their thumbnail and web-sized copy.`,
      flag: '--yes',
    });
    if (!yes) throw new AppError(ErrorCode.Canceled, 'Nothing repaired.');
    const fixed = await repair(backend, report, scan, { graceMs, log: (line) => ctx.log(line) });
    const after = await diagnose(backend, scan, { graceMs });
    const left = problemCount(after);
    return {
      result: { report, problems: count, fixed, remaining: after },
      text: describeReport(after),
      summary: `Repaired ${fixed} problem(s); ${left} left.`,
      ...(left > 0
        ? { failure: { code: ErrorCode.FailedPrecondition, message: `${left} problem(s) cannot be repaired automatically.` } }
        : {}),
    };
  },
});
