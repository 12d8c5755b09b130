/**
 * `catalog projects create` and `catalog projects list` (SPEC.md §2 Project form, §5 project form
 * rules, §8 'Project created successfully!').
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../../shared/errors.js';
import { ProjectMessages } from '../../../shared/messages.js';
import { sortProjectsByStructureId } from '../../../shared/order.js';
import { projectBadge } from '../../../shared/projects.js';
import type { Project } from '../../../shared/types.js';
import { validateProjectForm } from '../../../shared/validation/project-form.js';
import { createProject } from '../../../shared/workflows/index.js';
import { addBackendOptions, backendOptionsShape } from '../lib/backend.js';
import { backendFor } from '../lib/command-backend.js';
import { addCommonOptions, defineAction } from '../lib/output.js';

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
export const createCommand = addCommonOptions(
  addBackendOptions(
    new Command('create')
      .description('create a project (a structure such as a tower)')
      .option('--name <name>', 'project name (required)')
      .option('--structure-id <id>', 'structure ID, e.g. TWR-001 (required)')
      .option('--description <text>', 'description')
      .option('--slug <slug>', 'URL slug (default: generated from the name)')
      .option('--address <address>', 'location address')
      .option('--map-url <url>', 'map link URL')
      .option('--lat <degrees>', 'latitude in decimal degrees')
      .option('--lng <degrees>', 'longitude in decimal degrees'),
  ),
).addHelpText(
  'after',
  '\nExample:\n  $ catalog projects create --name "North Ridge Telecom Tower" --structure-id TWR-001 --lat 43.4723 --lng -80.5449\n',
);

defineAction(createCommand, createSchema, async (input, ctx) => {
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
  const { backend } = await backendFor(input, ctx);
  const id = await createProject(backend.catalog, form);
  const project = await backend.catalog.get('projects', id);
  return { result: project ?? { id }, text: id, summary: `${ProjectMessages.created} ${input.name.trim()} (${id})` };
});

const listSchema = z.object({ ...backendOptionsShape });

/** A project as listed: the document with its model count. */
export type ListedProject = Project & { modelCount: number };

/** `catalog projects list` */
export const listCommand = addCommonOptions(
  addBackendOptions(new Command('list').description('list projects, sorted by structure ID, with their model counts')),
).addHelpText('after', '\nExample:\n  $ catalog projects list --json\n');

defineAction(listCommand, listSchema, async (input, ctx) => {
  const { backend } = await backendFor(input, ctx);
  const projects = sortProjectsByStructureId(await backend.catalog.query('projects'));
  const models = await backend.catalog.query('models');
  const counts = new Map<string, number>();
  for (const m of models) if (m.projectId) counts.set(m.projectId, (counts.get(m.projectId) ?? 0) + 1);
  const listed: ListedProject[] = projects.map((p) => ({ ...p, modelCount: counts.get(p.id) ?? 0 }));
  const rows = listed.map((p) => {
    const loc = p.location && typeof p.location.lat === 'number' && typeof p.location.lng === 'number' ? `${p.location.lat}, ${p.location.lng}` : '-';
    const badge = projectBadge(p.modelCount) ?? '';
    return [p.structure_id || '-', p.name, String(p.modelCount), p.reference_model_id ? 'yes' : 'no', loc, badge, p.id];
  });
  const header = ['STRUCTURE ID', 'NAME', 'MODELS', 'REFERENCE', 'LOCATION', 'BADGE', 'ID'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return {
    result: listed,
    text: listed.length === 0 ? 'No Projects Yet' : [fmt(header), ...rows.map(fmt)].join('\n'),
    summary: `${listed.length} project${listed.length === 1 ? '' : 's'}`,
  };
});

/** `catalog projects …` */
export const projectsCommand = new Command('projects')
  .description('create and list projects')
  .addCommand(createCommand)
  .addCommand(listCommand)
  .addHelpText('after', '\nExamples:\n  $ catalog projects create --name "Harbour Light Mast" --structure-id MST-003\n  $ catalog projects list\n');
