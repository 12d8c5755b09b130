/**
 * `catalog models upload`: one model folder into a project, with the Add Model form's stages, rules
 * and messages and its "reference model on add" question; resumable, and idempotent by Public ID:
 * an upload of a Public ID the project already has creates nothing and sends nothing.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ModelMessages, ValidationMessages } from '@shared/messages.js';
import { normaliseCaptureDate } from '@shared/validation/models.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { planBatch, runBatch } from '../../lib/batch.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { describeInspection, inspectionSummary } from '../../lib/folder.js';
import { findProject } from '../../lib/lookup.js';
import { createProgress } from '../../lib/progress.js';
import { askConfirm } from '../../lib/prompts.js';
import { REPLACE_REFERENCE_QUESTION, modelTypeSchema } from './common.js';

const schema = z.object({
  folder: z.string().min(1),
  project: z.string({ error: 'the project id is required' }).trim().min(1, 'the project id is required'),
  publicId: z.string().default(''),
  name: z.string().default(''),
  type: modelTypeSchema.optional(),
  reference: z.boolean().default(false),
  captureDate: z.string().optional(),
  ...backendOptionsShape,
});

/** `catalog models upload <folder> --project <id> --public-id … --name … [--type] [--reference] [--capture-date]` */
export const uploadCommand = leafCommand({
  command: new Command('upload')
    .description(
      'upload a model folder (flat or 3DGS training output) into a project; resumes an interrupted upload, skips a public ID the project already has',
    )
    .argument('<folder>', 'model folder')
    .option('--project <id>', 'project id, structure ID or slug (required; see `catalog projects list`)')
    .option('--public-id <id>', 'public ID used in viewer links (required)')
    .option('--name <name>', 'model name (required)')
    .option('--type <type>', 'hybrid, splat or mesh (default: inferred from the files)')
    .option('--reference', 'set as the reference model of the project')
    .option('--capture-date <date>', 'capture date, e.g. 2025-06-02'),
  backend: true,
  schema,
  help: examplesHelp([
    'catalog models upload ./output/tower-2025 --project TWR-001 --public-id TWR-001-2025-06 --name "June 2025 survey" --capture-date 2025-06-02 --reference --yes',
  ]),
  run: async (input, ctx, open) => {
    if (input.publicId.trim() === '' || input.name.trim() === '') {
      throw new AppError(ErrorCode.InvalidArgument, `${ValidationMessages.addModelIdAndNameRequired} (--public-id and --name)`);
    }
    // checked before the server is reached (planBatch checks it again with the folder)
    if (normaliseCaptureDate(input.captureDate) === undefined)
      throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.invalidDate);
    const { backend, actorUid } = await open();
    const project = await findProject(backend, input.project);
    const entry = {
      folder: '.',
      publicId: input.publicId.trim(),
      name: input.name.trim(),
      type: input.type ?? null,
      captureDate: input.captureDate ?? null,
      reference: input.reference,
    };
    const plan = await planBatch(backend, project, input.folder, [entry]);
    const item = plan.items[0];
    if (item.status === 'invalid') {
      if (!ctx.json && item.inspection) ctx.log(describeInspection(item.inspection, { problems: false }));
      throw new AppError(ErrorCode.InvalidArgument, item.problems.join('\n'), {
        context: { folder: item.folder, problems: item.problems },
      });
    }
    if (item.status === 'exists') {
      return {
        result: { model: item.model ?? null, created: false, referenceUpdated: false, bytesUploaded: 0 },
        text: item.modelId,
        summary: `Model ${entry.publicId} already exists in ${project.name} (${item.modelId}): nothing uploaded.`,
      };
    }
    if (!ctx.json && item.inspection) ctx.log(describeInspection(item.inspection, { problems: false }));
    let replaceReference = false;
    if (input.reference && project.reference_model_id) {
      replaceReference = await askConfirm(ctx, { message: REPLACE_REFERENCE_QUESTION, flag: '--yes' });
    }
    const names: Record<string, string> = {};
    const folderPlan = item.inspection?.plan;
    if (folderPlan?.splat) names.splat = `splat ${folderPlan.splat.path}`;
    if (folderPlan?.glb) names.glb = `GLB ${folderPlan.glb.path}`;
    if (folderPlan?.cameraMetadata) names.cameraMetadata = `camera metadata ${folderPlan.cameraMetadata.path}`;
    const progress = createProgress({ label: entry.publicId, names });
    let run;
    try {
      run = await runBatch(backend, plan, {
        concurrency: 1,
        ownerUid: actorUid,
        replaceReference,
        observer: { onFile: (_item, key, status, fileProgress) => progress.onFile(key, status, fileProgress) },
      });
    } finally {
      progress.stop();
    }
    if (item.status !== 'created') {
      throw new AppError(ErrorCode.Unavailable, item.problems.join('\n'), { context: { folder: item.folder } });
    }
    const model = item.model ?? null;
    const referenceUpdated = item.referenceUpdated === true;
    const reference = referenceUpdated ? ' as the reference model' : '';
    return {
      result: {
        model,
        created: true,
        referenceUpdated,
        bytesUploaded: run.counters.sent,
        bytesSkipped: run.counters.skipped,
        bytesResumed: run.counters.resumed,
        plan: item.inspection ? inspectionSummary(item.inspection) : null,
      },
      text: item.modelId,
      summary: `${ModelMessages.addModelSucceeded} ${entry.publicId} (${item.modelId})${reference} in ${project.name}.`,
    };
  },
});
