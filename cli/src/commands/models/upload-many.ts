/**
 * `catalog models upload-many`: every model folder below a directory into a project, with the
 * metadata of a manifest or of each folder's model.json (as the Add Model form, reference
 * model included); resumable, and a re-run uploads nothing already there.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { formatBytes } from '@shared/format.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { batchItemSummary, planBatch, readBatch, runBatch } from '../../lib/batch.js';
import type { BatchItem } from '../../lib/batch.js';
import { createBatchProgress } from '../../lib/batch-progress.js';
import { leafCommand } from '../../lib/command.js';
import { findProject } from '../../lib/lookup.js';
import { formatTable } from '../../lib/output.js';
import { askConfirm } from '../../lib/prompts.js';
import { REPLACE_REFERENCE_QUESTION } from './common.js';

/** The plan as a table (status, Public ID, name, type, files, size, folder), then each invalid folder's problems. */
function batchTable(items: BatchItem[]): string {
  return (
    formatTable(
      ['STATUS', 'PUBLIC ID', 'NAME', 'TYPE', 'FILES', 'SIZE', 'FOLDER'],
      items.map((i) => [
        i.status,
        i.entry.publicId || '-',
        i.entry.name || '-',
        i.modelType ?? '-',
        String(i.fileCount),
        formatBytes(i.totalBytes),
        i.entry.folder,
      ]),
    ) +
    items
      .filter((i) => i.problems.length > 0)
      .map((i) => `\n  ✖ ${i.entry.folder}: ${i.problems.join('\n    ')}`)
      .join('')
  );
}

const schema = z.object({
  dir: z.string().min(1),
  project: z.string({ error: 'the project id is required' }).trim().min(1, 'the project id is required'),
  manifest: z.string().min(1).optional(),
  concurrency: z.coerce.number().int().min(1).max(16).default(2),
  dryRun: z.boolean().default(false),
  skipInvalid: z.boolean().default(false),
  ...backendOptionsShape,
});

const HELP = `
Metadata per model folder, from (first found):
  --manifest <file> | <dir>/manifest.json | <dir>/manifest.csv | <folder>/model.json
JSON manifest: [{"folder":"tower-2025","publicId":"TWR-001-2025","name":"June 2025 survey","type":"splat","captureDate":"2025-06-02","reference":false}]
CSV manifest:  folder,publicId,name,type,captureDate,reference   (header line, then one model a line)
model.json:    {"publicId":"TWR-001-2025","name":"June 2025 survey","captureDate":"2025-06-02"}
"type" (hybrid|splat|mesh) is inferred from the files when absent; at most one "reference": true.

Examples:
  $ catalog models upload-many ./campaign-2025 --project TWR-001 --dry-run
  $ catalog models upload-many ./campaign-2025 --project TWR-001 --concurrency 3 --yes --json
`;

/** `catalog models upload-many <dir> --project <id> [--manifest file] [--concurrency n] [--dry-run] [--skip-invalid]` */
export const uploadManyCommand = leafCommand({
  command: new Command('upload-many')
    .description('upload every model folder below a directory (resumable; a re-run uploads nothing already there)')
    .argument('<dir>', 'batch directory')
    .option('--project <id>', 'project id, structure ID or slug (required)')
    .option('--manifest <file>', 'manifest (.csv or .json); default: manifest.json / manifest.csv in <dir>, else model.json in each folder')
    .option('--concurrency <n>', 'models uploaded at once (1-16)', '2')
    .option('--dry-run', 'check everything and print the plan; upload nothing')
    .option('--skip-invalid', 'upload the valid folders even when others are invalid'),
  backend: true,
  schema,
  help: HELP,
  run: async (input, ctx, open) => {
    const { entries, source } = await readBatch(input.dir, input.manifest);
    const { backend, actorUid } = await open();
    const project = await findProject(backend, input.project);
    const plan = await planBatch(backend, project, input.dir, entries);
    const count = (status: string) => plan.items.filter((i) => i.status === status).length;
    const invalid = plan.items.filter((i) => i.status === 'invalid');
    const summarise = (extra: Record<string, unknown>) => ({
      project: { id: project.id, name: project.name },
      manifest: source,
      dryRun: input.dryRun,
      models: plan.items.map(batchItemSummary),
      counts: {
        planned: count('ready'),
        exists: count('exists'),
        invalid: count('invalid'),
        created: count('created'),
        failed: count('failed'),
      },
      ...extra,
    });
    if (!ctx.json)
      ctx.log(`Plan for ${project.name} (${entries.length} model folders, metadata from ${source}):\n${batchTable(plan.items)}`);
    const ready = plan.items.filter((i) => i.status === 'ready');
    const plannedBytes = ready.reduce((n, i) => n + i.totalBytes, 0);
    const problems = invalid.map((i) => `${i.entry.folder}: ${i.problems.join('; ')}`);
    if (input.dryRun) {
      return {
        result: summarise({ bytesPlanned: plannedBytes }),
        text: '',
        summary: `Dry run: ${ready.length} to upload (${formatBytes(plannedBytes)}), ${count('exists')} already there, ${invalid.length} invalid. Nothing was uploaded.`,
        ...(invalid.length > 0
          ? {
              failure: {
                code: ErrorCode.InvalidArgument,
                message: `${invalid.length} model folder(s) are invalid: ${problems.join(' | ')}`,
              },
            }
          : {}),
      };
    }
    if (invalid.length > 0 && !input.skipInvalid) {
      throw new AppError(
        ErrorCode.InvalidArgument,
        `${problems.join('\n')}\nNothing was uploaded (fix these folders, or pass --skip-invalid).`,
        {
          context: { invalid: invalid.map((i) => i.entry.folder) },
        },
      );
    }
    const reference = ready.find((i) => i.entry.reference);
    let replaceReference = false;
    if (reference && project.reference_model_id)
      replaceReference = await askConfirm(ctx, { message: REPLACE_REFERENCE_QUESTION, flag: '--yes' });

    const started = Date.now();
    const progress = createBatchProgress({ totalBytes: plannedBytes, totalModels: ready.length });
    let run;
    try {
      run = await runBatch(backend, plan, { concurrency: input.concurrency, ownerUid: actorUid, replaceReference, observer: progress });
    } finally {
      progress.stop();
    }
    const seconds = (Date.now() - started) / 1000;
    const failed = plan.items.filter((i) => i.status === 'failed');
    const { sent, skipped, resumed } = run.counters;
    const summary =
      `Created ${count('created')}, already there ${count('exists')}, failed ${failed.length}, invalid ${invalid.length}; ` +
      `sent ${formatBytes(sent)} in ${seconds.toFixed(1)} s (${formatBytes(sent / Math.max(seconds, 0.001))}/s), ` +
      `skipped ${formatBytes(skipped)} already stored, resumed past ${formatBytes(resumed)}.`;
    const notUploaded = failed.length + invalid.length;
    return {
      result: summarise({ bytesSent: sent, bytesSkipped: skipped, bytesResumed: resumed, seconds }),
      text: batchTable(plan.items),
      summary,
      ...(notUploaded > 0
        ? {
            failure: {
              code: failed.length > 0 ? ErrorCode.Unavailable : ErrorCode.InvalidArgument,
              message: `${notUploaded} model(s) not uploaded. ${summary}`,
            },
          }
        : {}),
    };
  },
});
