/**
 * `catalog projects show`: one project with its models, by Public ID. The human output shows
 * capture dates as 'YYYY-MM-DD'; `--json` gives the records as stored.
 */
import { z } from 'zod';
import { sortModelsByPublicId } from '@shared/order.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findProject, projectRefCommand, projectRefShape } from '../../lib/lookup.js';
import { withReadableDates } from '../../lib/output.js';

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
      // capture dates as 'YYYY-MM-DD'; --json prints the records as stored
      text: JSON.stringify({ ...project, models: models.map(withReadableDates) }, null, 2),
      summary: `${project.structure_id || '-'} ${project.name} (${project.id}): ${models.length} models`,
    };
  },
});
