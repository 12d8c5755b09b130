/**
 * `catalog models upload <folder>`: adds a model from a folder on disk through the `addModel`
 * workflow (SPEC.md §2 Add model, §4 stages and "Reference model on add", §5 "Add model" and
 * camera metadata rules). Every local check (folder plan, file contents, camera metadata) runs
 * before anything is written.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { ModelMessages, ProjectMessages, ValidationMessages, addModelUploadError } from '../../../shared/messages.js';
import { addModel } from '../../../shared/workflows/index.js';
import { addBackendOptions, backendOptionsShape } from '../lib/backend.js';
import { backendFor } from '../lib/command-backend.js';
import { assertNoProblems, describeInspection, folderUploadFiles, inspectModelFolder, inspectionSummary } from '../lib/folder.js';
import { addCommonOptions, defineAction } from '../lib/output.js';
import { createProgress } from '../lib/progress.js';
import { askConfirm } from '../lib/prompts.js';

/** §4 question asked when the project already has a reference model. */
export const REPLACE_REFERENCE_QUESTION = 'This project already has a reference model. Do you want to replace it?';

/**
 * A capture date as stored: `YYYY-MM-DD` kept as is, any other parseable date as an ISO
 * timestamp; empty → null.
 * @throws AppError `invalid-argument` 'Please enter a valid date' (SPEC.md §5)
 */
export function normaliseCaptureDate(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return text;
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.invalidDate, { context: { captureDate: text } });
  return new Date(time).toISOString();
}

const uploadSchema = z.object({
  folder: z.string().min(1),
  project: z.string({ error: 'the project id is required' }).trim().min(1, 'the project id is required'),
  publicId: z.string().default(''),
  name: z.string().default(''),
  type: z.enum(['hybrid', 'splat', 'mesh']).optional(),
  reference: z.boolean().default(false),
  captureDate: z.string().optional(),
  ...backendOptionsShape,
});

/** `catalog models upload <folder> --project <id> --public-id … --name … [--type] [--reference] [--capture-date]` */
export const uploadCommand = addCommonOptions(
  addBackendOptions(
    new Command('upload')
      .description('upload a model folder (flat or 3DGS training output) into a project')
      .argument('<folder>', 'model folder')
      .option('--project <id>', 'project id (required; see `catalog projects list`)')
      .option('--public-id <id>', 'public ID used in viewer links (required)')
      .option('--name <name>', 'model name (required)')
      .option('--type <type>', 'hybrid, splat or mesh (default: inferred from the files)')
      .option('--reference', 'set as the reference model of the project')
      .option('--capture-date <date>', 'capture date, e.g. 2025-06-02'),
  ),
).addHelpText(
  'after',
  '\nExample:\n  $ catalog models upload ./output/tower-2025 --project 8fK2... --public-id TWR-001-2025-06 --name "June 2025 survey" --capture-date 2025-06-02 --reference --yes\n',
);

defineAction(uploadCommand, uploadSchema, async (input, ctx) => {
  if (input.publicId.trim() === '' || input.name.trim() === '') {
    throw new AppError(ErrorCode.InvalidArgument, `${ValidationMessages.addModelIdAndNameRequired} (--public-id and --name)`);
  }
  const captureDate = normaliseCaptureDate(input.captureDate);
  const inspection = await inspectModelFolder(input.folder, { modelType: input.type ?? null });
  assertNoProblems(inspection);
  if (!ctx.json) ctx.log(describeInspection(inspection, { problems: false }));
  const modelType = inspection.plan.modelType;
  if (modelType === null) throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.addModelFilesMissing);

  const { backend, actorUid } = await backendFor(input, ctx);
  const project = await backend.catalog.get('projects', input.project);
  if (project === null) throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { projectId: input.project } });
  let replaceReference = false;
  if (input.reference && project.reference_model_id) {
    replaceReference = await askConfirm(ctx, { message: REPLACE_REFERENCE_QUESTION, flag: '--yes' });
  }

  const upload = folderUploadFiles(inspection);
  const { plan } = inspection;
  const names: Record<string, string> = {};
  if (plan.splat) names.splat = `splat ${plan.splat.path}`;
  if (plan.glb) names.glb = `GLB ${plan.glb.path}`;
  if (plan.cameraMetadata) names.cameraMetadata = `camera metadata ${plan.cameraMetadata.path}`;
  const progress = createProgress({ label: input.publicId.trim(), names });
  try {
    const result = await addModel(
      backend,
      {
        projectId: input.project,
        publicId: input.publicId,
        name: input.name,
        modelType,
        captureDate,
        setAsReference: input.reference,
        files: upload.files,
      },
      {
        onStage: progress.onStage,
        onFile: progress.onFile,
        confirmReplaceReference: async () => replaceReference,
        ownerUid: actorUid,
      },
    );
    const reference = result.referenceUpdated ? ' as the reference model' : '';
    return {
      result: { model: result.model, referenceUpdated: result.referenceUpdated, bytesUploaded: result.bytesUploaded, plan: inspectionSummary(inspection) },
      text: result.model.id,
      summary: `${ModelMessages.addModelSucceeded} ${result.model.publicId} (${result.model.id})${reference} in ${project.name}.`,
    };
  } catch (error) {
    if (!(error instanceof AppError) || error.code === ErrorCode.InvalidArgument || error.code === ErrorCode.NotFound) throw error;
    throw new AppError(error.code, addModelUploadError(error.message), { cause: error, context: error.context });
  } finally {
    progress.stop();
    upload.close();
  }
});

/** `catalog models …` */
export const modelsCommand = new Command('models')
  .description('upload models')
  .addCommand(uploadCommand)
  .addHelpText('after', '\nExample:\n  $ catalog models upload ./scan --project <projectId> --public-id TWR-001-2025 --name "2025 survey"\n');
