/**
 * `catalog projects create|list|show|update|delete|set-reference` (SPEC.md §2 Project form, §5
 * project form rules, §8 'Project created successfully!'); `delete --with-models` deletes the
 * project's models and their files too (issue 17); a hidden model cannot be the reference.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, rewrap } from '@shared/errors.js';
import { ProjectMessages, projectDeleted, projectDeletedWithModels, projectHasModels } from '@shared/messages.js';
import { sortModelsByPublicId, sortProjectsByStructureId } from '@shared/order.js';
import { countModelsByProject, projectBadge } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import { validateProjectForm } from '@shared/validation/project-form.js';
import {
  createProject,
  deleteProject,
  deleteProjectWithModels,
  PROJECT_DELETE_CHUNK,
  setReferenceModel,
  updateProject,
} from '@shared/workflows/index.js';
import { formatCount } from '@shared/format.js';
import { backendOptionsShape } from '../lib/backend.js';
import { findModel, findProject, projectRefCommand, projectRefShape, typedName } from '../lib/lookup.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { formatTable, withReadableDates } from '../lib/output.js';

const createSchema = z.object({
  name: z.string().default(''),
  structureId: z.string({ error: 'the structure ID is required' }).trim().min(1, 'the structure ID is required'),
  description: z.string().default(''),
  slug: z.string().default(''),
  address: z.string().default(''),
  mapUrl: z.string().default(''),
  lat: z.string().default(''),
  lng: z.string().default(''),
  ...backendOptionsShape,
});

/**
 * Adds the project form's fields (SPEC.md §2 Project form) as options: `--name`, `--structure-id`,
 * `--description`, `--slug`, `--address`, `--map-url`, `--lat`, `--lng`.
 * @param cmd the command
 * @param mode 'create' (name and structure ID required, slug generated when empty) or 'update' (each field optional)
 * @returns the same command
 */
function withProjectFields(cmd: Command, mode: 'create' | 'update'): Command {
  const create = mode === 'create';
  return cmd
    .option('--name <name>', create ? 'project name (required)' : 'project name')
    .option('--structure-id <id>', create ? 'structure ID, e.g. TWR-001 (required)' : 'structure ID')
    .option('--description <text>', 'description')
    .option('--slug <slug>', create ? 'URL slug (default: generated from the name)' : 'URL slug ("" regenerates it from the name)')
    .option('--address <address>', 'location address')
    .option('--map-url <url>', 'map link URL')
    .option('--lat <degrees>', 'latitude in decimal degrees')
    .option('--lng <degrees>', 'longitude in decimal degrees');
}

/** `catalog projects create --name … --structure-id … [--description] [--slug] [--address] [--map-url] [--lat] [--lng]` */
export const createCommand = leafCommand({
  command: withProjectFields(new Command('create').description('create a project (a structure such as a tower)'), 'create'),
  backend: true,
  schema: createSchema,
  help: examplesHelp(['catalog projects create --name "North Ridge Telecom Tower" --structure-id TWR-001 --lat 43.4723 --lng -80.5449']),
  run: async (input, _ctx, open) => {
    const form = {
      name: input.name,
      structure_id: input.structureId,
      description: input.description,
      slug: input.slug,
      address: input.address,
      mapUrl: input.mapUrl,
      lat: input.lat,
      lng: input.lng,
    };
    const checked = validateProjectForm(form);
    if (!checked.ok) throw new AppError(ErrorCode.InvalidArgument, checked.message);
    const { backend } = await open();
    const id = await createProject(backend.catalog, form);
    const project = await backend.catalog.get('projects', id);
    return { result: project ?? { id }, text: id, summary: `${ProjectMessages.created} ${input.name.trim()} (${id})` };
  },
});

const listSchema = z.object({ ...backendOptionsShape });

/** A project as listed: the document with its model count. */
export type ListedProject = Project & { modelCount: number };

/** `catalog projects list` */
export const listCommand = leafCommand({
  command: new Command('list').description('list projects, sorted by structure ID, with their model counts'),
  backend: true,
  schema: listSchema,
  help: examplesHelp(['catalog projects list --json']),
  run: async (_input, _ctx, open) => {
    const { backend } = await open();
    const projects = sortProjectsByStructureId(await backend.catalog.query('projects'));
    const models = await backend.catalog.query('models');
    const counts = countModelsByProject(models);
    const listed: ListedProject[] = projects.map((p) => ({ ...p, modelCount: counts.get(p.id) ?? 0 }));
    const rows = listed.map((p) => {
      const loc =
        p.location && typeof p.location.lat === 'number' && typeof p.location.lng === 'number'
          ? `${p.location.lat}, ${p.location.lng}`
          : '-';
      const badge = projectBadge(p.modelCount) ?? '';
      return [p.structure_id || '-', p.name, String(p.modelCount), p.reference_model_id ? 'yes' : 'no', loc, badge, p.id];
    });
    return {
      result: listed,
      text:
        listed.length === 0
          ? 'No Projects Yet'
          : formatTable(['STRUCTURE ID', 'NAME', 'MODELS', 'REFERENCE', 'LOCATION', 'BADGE', 'ID'], rows),
      summary: formatCount(listed.length, 'project'),
    };
  },
});

const refSchema = z.object(projectRefShape);

/** `catalog projects show <project>` */
export const showCommand = leafCommand({
  command: projectRefCommand('show', 'show a project with its models'),
  backend: true,
  schema: refSchema,
  help: examplesHelp(['catalog projects show TWR-001']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const project = await findProject(backend, input.project);
    // by publicId as everywhere else (shared/order.ts: the document database's order)
    const models = sortModelsByPublicId(await backend.catalog.query('models', { where: [['projectId', '==', project.id]] }));
    return {
      result: { ...project, models },
      // capture dates as 'YYYY-MM-DD' (issue 17); --json prints the records as stored
      text: JSON.stringify({ ...project, models: models.map(withReadableDates) }, null, 2),
      summary: `${project.structure_id || '-'} ${project.name} (${project.id}): ${models.length} models`,
    };
  },
});

const updateSchema = z.object({
  ...projectRefShape,
  name: z.string().optional(),
  structureId: z.string().optional(),
  description: z.string().optional(),
  slug: z.string().optional(),
  address: z.string().optional(),
  mapUrl: z.string().optional(),
  lat: z.string().optional(),
  lng: z.string().optional(),
});

/** `catalog projects update <project> [--name] [--structure-id] [--description] [--slug] [--address] [--map-url] [--lat] [--lng]` */
export const updateCommand = leafCommand({
  command: withProjectFields(
    projectRefCommand('update', 'edit a project; fields not given keep their value ("" clears an optional one)'),
    'update',
  ),
  backend: true,
  schema: updateSchema,
  help: examplesHelp(['catalog projects update TWR-001 --description "Lattice tower, 42 m" --lat 43.47 --lng -80.54']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const project = await findProject(backend, input.project);
    const num = (v: number | null | undefined) => (typeof v === 'number' ? String(v) : '');
    const form = {
      name: input.name ?? project.name,
      structure_id: input.structureId ?? project.structure_id ?? '',
      description: input.description ?? project.description ?? '',
      slug: input.slug ?? project.slug ?? '',
      address: input.address ?? project.location?.address ?? '',
      mapUrl: input.mapUrl ?? project.location?.mapUrl ?? '',
      lat: input.lat ?? num(project.location?.lat),
      lng: input.lng ?? num(project.location?.lng),
    };
    await updateProject(backend.catalog, project.id, form);
    return { result: await backend.catalog.get('projects', project.id), text: project.id, summary: ProjectMessages.updated };
  },
});

const deleteSchema = z.object({ ...projectRefShape, confirm: z.string().optional(), withModels: z.boolean().optional() });

/** `catalog projects delete <project> [--confirm "<name>"] [--with-models]` */
export const deleteCommand = leafCommand({
  command: projectRefCommand('delete', 'delete a project (type its name to confirm); with --with-models also its models and their files')
    .option('--confirm <name>', 'the project name, typed to confirm (required without a terminal)')
    .option(
      '--with-models',
      'also delete every model of the project, with its files (issue 17); without it a project with models is refused',
    ),
  backend: true,
  schema: deleteSchema,
  help: examplesHelp([
    'catalog projects delete MST-003 --confirm "Harbour Light Mast"',
    'catalog projects delete TWR-001 --with-models --confirm "North Ridge Telecom Tower"',
  ]),
  run: async (input, ctx, open) => {
    const { backend } = await open();
    const project = await findProject(backend, input.project);
    const count = await backend.catalog.count('models', { where: [['projectId', '==', project.id]] });
    if (count > 0 && !input.withModels) {
      if (!ctx.json) ctx.log('Add --with-models to delete the models and their files with the project.');
      throw new AppError(ErrorCode.FailedPrecondition, projectHasModels(count), { context: { projectId: project.id, count } });
    }
    const typed = await typedName(ctx, project.name, input.confirm);
    if (!input.withModels) {
      const name = await deleteProject(backend.catalog, project.id, typed);
      return { result: { id: project.id, name }, text: project.id, summary: projectDeleted(name) };
    }
    if (count > 0) ctx.log(`Deleting ${formatCount(count, 'model')} with their files, then the project...`);
    const done = await deleteProjectWithModels(backend, project.id, typed, {
      onProgress: ({ modelsDeleted, models }) => {
        if (models > PROJECT_DELETE_CHUNK) ctx.log(`  ${modelsDeleted}/${models} models deleted`);
      },
    });
    return {
      result: { id: project.id, name: done.name, modelsDeleted: done.modelsDeleted, filesDeleted: done.filesDeleted },
      text: project.id,
      summary: `${projectDeletedWithModels(done.name, done.modelsDeleted)} ${formatCount(done.filesDeleted, 'file')} deleted.`,
    };
  },
});

const referenceSchema = z.object({ ...projectRefShape, model: z.string().min(1) });

/** `catalog projects set-reference <project> <model>` */
export const setReferenceCommand = leafCommand({
  command: projectRefCommand('set-reference', "set a project's reference model").argument(
    '<model>',
    'model id or public ID (a model of that project)',
  ),
  backend: true,
  schema: referenceSchema,
  help: examplesHelp(['catalog projects set-reference TWR-001 TWR-001-2025-06']),
  run: async (input, _ctx, open) => {
    const { backend } = await open();
    const project = await findProject(backend, input.project);
    const model = await findModel(backend, input.model, project.id);
    try {
      await setReferenceModel(backend.catalog, project.id, model.id);
    } catch (error) {
      if (
        error instanceof AppError &&
        (error.code === ErrorCode.NotFound || error.code === ErrorCode.InvalidArgument || error.code === ErrorCode.FailedPrecondition)
      )
        throw error;
      throw rewrap(error, ProjectMessages.referenceUpdateFailed);
    }
    return { result: { projectId: project.id, modelId: model.id }, text: model.id, summary: ProjectMessages.referenceUpdated };
  },
});

/** `catalog projects …` */
export const projectsCommand = new Command('projects')
  .description('create, list, show, edit and delete projects; set their reference model')
  .addCommand(createCommand)
  .addCommand(listCommand)
  .addCommand(showCommand)
  .addCommand(updateCommand)
  .addCommand(deleteCommand)
  .addCommand(setReferenceCommand)
  .addHelpText(
    'after',
    '\nExamples:\n  $ catalog projects create --name "Harbour Light Mast" --structure-id MST-003\n  $ catalog projects list\n  $ catalog projects delete MST-003 --confirm "Harbour Light Mast"\n  $ catalog projects delete TWR-001 --with-models --confirm "North Ridge Telecom Tower"\n',
  );
