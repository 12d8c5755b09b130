/**
 * `catalog projects delete`: deletes a project after its name is typed. A project with models is
 * refused (failed-precondition, with a hint to add `--with-models`); with `--with-models` its
 * models and their files are deleted first, in chunks, with progress for large projects.
 */
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { formatCount } from '@shared/format.js';
import { projectDeleted, projectDeletedWithModels, projectHasModels } from '@shared/messages.js';
import { deleteProject, deleteProjectWithModels, PROJECT_DELETE_CHUNK } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findProject, projectRefCommand, projectRefShape, typedName } from '../../lib/lookup.js';

const deleteSchema = z.object({ ...projectRefShape, confirm: z.string().optional(), withModels: z.boolean().optional() });

/** `catalog projects delete <project> [--confirm "<name>"] [--with-models]` */
export const deleteCommand = leafCommand({
  command: projectRefCommand('delete', 'delete a project (type its name to confirm); with --with-models also its models and their files')
    .option('--confirm <name>', 'the project name, typed to confirm (required without a terminal)')
    .option('--with-models', 'also delete every model of the project, with its files; without it a project with models is refused'),
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
