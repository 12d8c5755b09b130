/**
 * `catalog projects update`: edits a project through the project form; a field not given keeps
 * its stored value and "" clears an optional one (an empty slug is generated again from the name).
 */
import { z } from 'zod';
import { ProjectMessages } from '@shared/messages.js';
import { updateProject } from '@shared/workflows/index.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { findProject, projectRefCommand, projectRefShape } from '../../lib/lookup.js';
import { withProjectFields } from './common.js';

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
