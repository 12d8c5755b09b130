/**
 * `catalog models …`: upload one model folder or a whole batch (resumable, idempotent), list,
 * show, update, hide/unhide and delete models (SPEC.md §2 Add model / Edit model, §4 stages,
 * "Reference model on add" and "Model visibility", §5 add/edit/delete rules and messages).
 * A model's identity is its public ID within its project: an upload of a public ID the project
 * already has creates nothing and sends nothing.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { formatBytes, formatCount } from '@shared/format.js';
import { ModelMessages, ProjectMessages, ValidationMessages, deleteModelFailed, modelDeletedWithLeftovers } from '@shared/messages.js';
import { modelTypeLabel } from '@shared/model-type.js';
import { compareCodeUnits, sortModelsByPublicId } from '@shared/order.js';
import type { Model } from '@shared/types.js';
import { normaliseCaptureDate } from '@shared/validation/models.js';
import { deleteModel, setModelVisibility, updateModel } from '@shared/workflows/index.js';
import { addBackendOptions, backendOptionsShape } from '../lib/backend.js';
import { batchItemSummary, planBatch, readBatch, runBatch } from '../lib/batch.js';
import type { BatchItem } from '../lib/batch.js';
import { createBatchProgress } from '../lib/batch-progress.js';
import { backendFor } from '../lib/command-backend.js';
import { describeInspection, inspectionSummary } from '../lib/folder.js';
import { findModel, findProject, typedName } from '../lib/lookup.js';
import { addCommonOptions, defineAction, formatTable } from '../lib/output.js';
import { createProgress } from '../lib/progress.js';
import { askConfirm } from '../lib/prompts.js';

/** §4 question asked when the project already has a reference model. */
export const REPLACE_REFERENCE_QUESTION = ProjectMessages.replaceReferenceQuestion;

const modelTypeSchema = z.enum(['hybrid', 'splat', 'mesh']);

function batchTable(items: BatchItem[]): string {
  return formatTable(
    ['STATUS', 'PUBLIC ID', 'NAME', 'TYPE', 'FILES', 'SIZE', 'FOLDER'],
    items.map((i) => [i.status, i.entry.publicId || '-', i.entry.name || '-', i.modelType ?? '-', String(i.fileCount), formatBytes(i.totalBytes), i.entry.folder]),
  ) + items.filter((i) => i.problems.length > 0).map((i) => `\n  ✖ ${i.entry.folder}: ${i.problems.join('\n    ')}`).join('');
}

// ---- upload ------------------------------------------------------------------------------------

const uploadSchema = z.object({
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
export const uploadCommand = addCommonOptions(
  addBackendOptions(
    new Command('upload')
      .description('upload a model folder (flat or 3DGS training output) into a project; resumes an interrupted upload, skips a public ID the project already has')
      .argument('<folder>', 'model folder')
      .option('--project <id>', 'project id, structure ID or slug (required; see `catalog projects list`)')
      .option('--public-id <id>', 'public ID used in viewer links (required)')
      .option('--name <name>', 'model name (required)')
      .option('--type <type>', 'hybrid, splat or mesh (default: inferred from the files)')
      .option('--reference', 'set as the reference model of the project')
      .option('--capture-date <date>', 'capture date, e.g. 2025-06-02'),
  ),
).addHelpText(
  'after',
  '\nExample:\n  $ catalog models upload ./output/tower-2025 --project TWR-001 --public-id TWR-001-2025-06 --name "June 2025 survey" --capture-date 2025-06-02 --reference --yes\n',
);

defineAction(uploadCommand, uploadSchema, async (input, ctx) => {
  if (input.publicId.trim() === '' || input.name.trim() === '') {
    throw new AppError(ErrorCode.InvalidArgument, `${ValidationMessages.addModelIdAndNameRequired} (--public-id and --name)`);
  }
  // checked before the server is reached (planBatch checks it again with the folder)
  if (normaliseCaptureDate(input.captureDate) === undefined) throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.invalidDate);
  const { backend, actorUid } = await backendFor(input, ctx);
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
    throw new AppError(ErrorCode.InvalidArgument, item.problems.join('\n'), { context: { folder: item.folder, problems: item.problems } });
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
});

// ---- upload-many -------------------------------------------------------------------------------

const uploadManySchema = z.object({
  dir: z.string().min(1),
  project: z.string({ error: 'the project id is required' }).trim().min(1, 'the project id is required'),
  manifest: z.string().min(1).optional(),
  concurrency: z.coerce.number().int().min(1).max(16).default(2),
  dryRun: z.boolean().default(false),
  skipInvalid: z.boolean().default(false),
  ...backendOptionsShape,
});

/** `catalog models upload-many <dir> --project <id> [--manifest file] [--concurrency n] [--dry-run] [--skip-invalid]` */
export const uploadManyCommand = addCommonOptions(
  addBackendOptions(
    new Command('upload-many')
      .description('upload every model folder below a directory (resumable; a re-run uploads nothing already there)')
      .argument('<dir>', 'batch directory')
      .option('--project <id>', 'project id, structure ID or slug (required)')
      .option('--manifest <file>', 'manifest (.csv or .json); default: manifest.json / manifest.csv in <dir>, else model.json in each folder')
      .option('--concurrency <n>', 'models uploaded at once (1-16)', '2')
      .option('--dry-run', 'check everything and print the plan; upload nothing')
      .option('--skip-invalid', 'upload the valid folders even when others are invalid'),
  ),
).addHelpText(
  'after',
  `
Metadata per model folder, from (first found):
  --manifest <file> | <dir>/manifest.json | <dir>/manifest.csv | <folder>/model.json
JSON manifest: [{"folder":"tower-2025","publicId":"TWR-001-2025","name":"June 2025 survey","type":"splat","captureDate":"2025-06-02","reference":false}]
CSV manifest:  folder,publicId,name,type,captureDate,reference   (header line, then one model a line)
model.json:    {"publicId":"TWR-001-2025","name":"June 2025 survey","captureDate":"2025-06-02"}
"type" (hybrid|splat|mesh) is inferred from the files when absent; at most one "reference": true.

Examples:
  $ catalog models upload-many ./campaign-2025 --project TWR-001 --dry-run
  $ catalog models upload-many ./campaign-2025 --project TWR-001 --concurrency 3 --yes --json
`,
);

defineAction(uploadManyCommand, uploadManySchema, async (input, ctx) => {
  const { entries, source } = await readBatch(input.dir, input.manifest);
  const { backend, actorUid } = await backendFor(input, ctx);
  const project = await findProject(backend, input.project);
  const plan = await planBatch(backend, project, input.dir, entries);
  const count = (status: string) => plan.items.filter((i) => i.status === status).length;
  const invalid = plan.items.filter((i) => i.status === 'invalid');
  const summarise = (extra: Record<string, unknown>) => ({
    project: { id: project.id, name: project.name },
    manifest: source,
    dryRun: input.dryRun,
    models: plan.items.map(batchItemSummary),
    counts: { planned: count('ready'), exists: count('exists'), invalid: count('invalid'), created: count('created'), failed: count('failed') },
    ...extra,
  });
  if (!ctx.json) ctx.log(`Plan for ${project.name} (${entries.length} model folders, metadata from ${source}):\n${batchTable(plan.items)}`);
  const ready = plan.items.filter((i) => i.status === 'ready');
  const plannedBytes = ready.reduce((n, i) => n + i.totalBytes, 0);
  if (input.dryRun) {
    return {
      result: summarise({ bytesPlanned: plannedBytes }),
      text: '',
      summary: `Dry run: ${ready.length} to upload (${formatBytes(plannedBytes)}), ${count('exists')} already there, ${invalid.length} invalid. Nothing was uploaded.`,
      ...(invalid.length > 0 ? { failure: { code: ErrorCode.InvalidArgument, message: `${invalid.length} model folder(s) are invalid: ${invalid.map((i) => `${i.entry.folder}: ${i.problems.join('; ')}`).join(' | ')}` } } : {}),
    };
  }
  if (invalid.length > 0 && !input.skipInvalid) {
    throw new AppError(
      ErrorCode.InvalidArgument,
      `${invalid.map((i) => `${i.entry.folder}: ${i.problems.join('; ')}`).join('\n')}\nNothing was uploaded (fix these folders, or pass --skip-invalid).`,
      { context: { invalid: invalid.map((i) => i.entry.folder) } },
    );
  }
  const reference = ready.find((i) => i.entry.reference);
  let replaceReference = false;
  if (reference && project.reference_model_id) replaceReference = await askConfirm(ctx, { message: REPLACE_REFERENCE_QUESTION, flag: '--yes' });

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
  return {
    result: summarise({ bytesSent: sent, bytesSkipped: skipped, bytesResumed: resumed, seconds }),
    text: batchTable(plan.items),
    summary,
    ...(failed.length + invalid.length > 0
      ? { failure: { code: failed.length > 0 ? ErrorCode.Unavailable : ErrorCode.InvalidArgument, message: `${failed.length + invalid.length} model(s) not uploaded. ${summary}` } }
      : {}),
  };
});

// ---- list / show -------------------------------------------------------------------------------

const listSchema = z.object({ project: z.string().optional(), ...backendOptionsShape });

/** `catalog models list [--project <id>]` */
export const listCommand = addCommonOptions(
  addBackendOptions(new Command('list').description('list models (hidden ones included), by project').option('--project <id>', 'only this project (id, structure ID or slug)')),
).addHelpText('after', '\nExample:\n  $ catalog models list --project TWR-001 --json\n');

defineAction(listCommand, listSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const project = input.project ? await findProject(backend, input.project) : null;
  const found = await backend.catalog.query('models', project ? { where: [['projectId', '==', project.id]] } : undefined);
  // By project, then by publicId as everywhere else (shared/order.ts; the sort is stable).
  const models = sortModelsByPublicId(found).sort((a, b) => compareCodeUnits(a.projectId ?? '', b.projectId ?? ''));
  const rows = models.map((m) => [
    m.publicId,
    m.name,
    modelTypeLabel(m),
    m.visible === false ? 'hidden' : 'visible',
    m.isReference ? 'yes' : '',
    m.metadata?.captureDate ?? '-',
    m.projectId ?? '-',
    m.id,
  ]);
  return {
    result: models,
    text: models.length === 0 ? 'No models' : formatTable(['PUBLIC ID', 'NAME', 'TYPE', 'VISIBILITY', 'REFERENCE', 'CAPTURED', 'PROJECT', 'ID'], rows),
    summary: formatCount(models.length, 'model'),
  };
});

const modelRefSchema = z.object({ model: z.string().min(1), project: z.string().optional(), ...backendOptionsShape });

async function resolveModel(backend: Parameters<typeof findModel>[0], model: string, project?: string): Promise<Model> {
  const projectId = project ? (await findProject(backend, project)).id : undefined;
  return findModel(backend, model, projectId);
}

/** `catalog models show <model>` */
export const showCommand = addCommonOptions(
  addBackendOptions(
    new Command('show')
      .description('show a model record and its files')
      .argument('<model>', 'model id, or public ID')
      .option('--project <id>', 'project of the public ID (id, structure ID or slug)'),
  ),
).addHelpText('after', '\nExample:\n  $ catalog models show TWR-001-2025-06 --project TWR-001\n');

defineAction(showCommand, modelRefSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const model = await resolveModel(backend, input.model, input.project);
  return { result: model, summary: `${model.publicId} ${model.name} (${model.id})` };
});

// ---- update ------------------------------------------------------------------------------------

const updateSchema = z.object({
  model: z.string().min(1),
  project: z.string().optional(),
  name: z.string().optional(),
  publicId: z.string().optional(),
  captureDate: z.string().optional(),
  ...backendOptionsShape,
});

/** `catalog models update <model> [--name] [--public-id] [--capture-date]` */
export const updateCommand = addCommonOptions(
  addBackendOptions(
    new Command('update')
      .description('edit a model: name, public ID, capture date (empty date clears it)')
      .argument('<model>', 'model id, or public ID')
      .option('--project <id>', 'project of the public ID')
      .option('--name <name>', 'new model name')
      .option('--public-id <id>', 'new public ID (letters, numbers, hyphens, underscores)')
      .option('--capture-date <date>', 'new capture date, e.g. 2025-06-02 ("" clears it)'),
  ),
).addHelpText('after', '\nExample:\n  $ catalog models update TWR-001-2025-06 --name "June 2025 survey (final)" --capture-date 2025-06-03\n');

defineAction(updateCommand, updateSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const model = await resolveModel(backend, input.model, input.project);
  const publicId = (input.publicId ?? model.publicId).trim();
  // The CLI knows a model by its public ID within its project (bulk uploads rely on it): no clashes.
  if (publicId !== model.publicId && model.projectId) {
    const clash = await backend.catalog.query('models', { where: [['projectId', '==', model.projectId], ['publicId', '==', publicId]], limit: 1 });
    if (clash.length > 0) throw new AppError(ErrorCode.AlreadyExists, `Public ID ${publicId} is already used in this project`, { context: { publicId } });
  }
  await updateModel(backend.catalog, model.id, {
    name: input.name ?? model.name,
    publicId,
    captureDate: input.captureDate ?? model.metadata?.captureDate ?? '',
  });
  const updated = await backend.catalog.get('models', model.id);
  return { result: updated, text: model.id, summary: ModelMessages.modelUpdated };
});

// ---- hide / unhide -----------------------------------------------------------------------------

function visibilityCommand(name: 'hide' | 'unhide', visible: boolean): Command {
  const cmd = addCommonOptions(
    addBackendOptions(
      new Command(name)
        .description(visible ? 'show a hidden model to users again' : 'hide a model from non-admin users')
        .argument('<model>', 'model id, or public ID')
        .option('--project <id>', 'project of the public ID'),
    ),
  ).addHelpText('after', `\nExample:\n  $ catalog models ${name} TWR-001-2025-06 --project TWR-001\n`);
  defineAction(cmd, modelRefSchema, async (input, ctx) => {
    const { backend } = await backendFor(input, ctx);
    const model = await resolveModel(backend, input.model, input.project);
    try {
      await setModelVisibility(backend.catalog, model.id, visible, backend.files);
    } catch (error) {
      throw rewrap(error, ModelMessages.visibilityFailed);
    }
    return { result: { id: model.id, visible }, text: model.id, summary: `${model.publicId} is now ${visible ? 'visible' : 'hidden'}.` };
  });
  return cmd;
}

/** `catalog models hide <model>` */
export const hideCommand = visibilityCommand('hide', false);
/** `catalog models unhide <model>` */
export const unhideCommand = visibilityCommand('unhide', true);

// ---- delete ------------------------------------------------------------------------------------

const deleteSchema = z.object({ model: z.string().min(1), project: z.string().optional(), confirm: z.string().optional(), ...backendOptionsShape });

/** `catalog models delete <model> [--confirm "<name>"]` */
export const deleteCommand = addCommonOptions(
  addBackendOptions(
    new Command('delete')
      .description('delete a model, its record and all its files (type its name to confirm)')
      .argument('<model>', 'model id, or public ID')
      .option('--project <id>', 'project of the public ID')
      .option('--confirm <name>', 'the model name, typed to confirm (required without a terminal)'),
  ),
).addHelpText('after', '\nExample:\n  $ catalog models delete TWR-001-2025-06 --project TWR-001 --confirm "June 2025 survey"\n');

defineAction(deleteCommand, deleteSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const model = await resolveModel(backend, input.model, input.project);
  const typed = await typedName(ctx, model.name, input.confirm);
  let result;
  try {
    result = await deleteModel(backend, model.id, typed);
  } catch (error) {
    if (error instanceof AppError && (error.code === ErrorCode.InvalidArgument || error.code === ErrorCode.NotFound)) throw error;
    throw new AppError(error instanceof AppError ? error.code : ErrorCode.Internal, deleteModelFailed(error instanceof Error ? error.message : String(error)), { cause: error });
  }
  if (result.filesNotDeleted.length > 0) {
    // A partial delete is an error (exit 1) that lists what was left behind.
    return {
      result: { id: model.id, ...result },
      text: result.filesNotDeleted.join('\n'),
      failure: { code: ErrorCode.Internal, message: modelDeletedWithLeftovers(result.name, result.filesNotDeleted.length) },
    };
  }
  return { result: { id: model.id, ...result }, text: model.id, summary: modelDeletedWithLeftovers(result.name, 0) };
});

/** `catalog models …` */
export const modelsCommand = new Command('models')
  .description('upload, list, show, edit, hide/unhide and delete models')
  .addCommand(uploadCommand)
  .addCommand(uploadManyCommand)
  .addCommand(listCommand)
  .addCommand(showCommand)
  .addCommand(updateCommand)
  .addCommand(hideCommand)
  .addCommand(unhideCommand)
  .addCommand(deleteCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog models upload ./scan --project <projectId> --public-id TWR-001-2025 --name "2025 survey"\n  $ catalog models upload-many ./campaign --project TWR-001 --dry-run\n  $ catalog models list --project TWR-001\n',
  );
