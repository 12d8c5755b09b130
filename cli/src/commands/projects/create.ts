/**
 * `catalog projects create`: a new project from the project form's fields. The form is checked
 * (name and structure ID required, coordinates in range) before the backend is opened; on
 * success it prints the new id and says 'Project created successfully!'.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ProjectMessages } from '@shared/messages.js';
import { validateProjectForm } from '@shared/validation/project-form.js';
import { createProject } from '@shared/workflows/index.js';
import { backendOptionsShape } from '../../lib/backend.js';
import { examplesHelp, leafCommand } from '../../lib/command.js';
import { withProjectFields } from './common.js';

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
