/**
 * `catalog projects list`: every project, sorted by structure ID, with its model count, whether
 * it has a reference model, its location and its badge; 'No Projects Yet' when there is none.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { formatCount } from '@shared/format.js';
import { sortProjectsByStructureId } from '@shared/order.js';
import { countModelsByProject, projectBadge } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { formatTable } from '../../lib/output.js';

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
