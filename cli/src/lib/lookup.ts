/**
 * Finding records from what an admin types (an id, a structure ID, a public ID), and the typed
 * name confirmation of deletes.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ProjectMessages, projectDeletePrompt } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import { backendOptionsShape } from './backend.js';
import type { CommandContext } from './output.js';
import { askText } from './prompts.js';

/**
 * A project by id, else by structure ID, else by slug.
 * @param backend the opened backend
 * @param ref what was typed
 * @returns the project with its id
 * @throws AppError `not-found` 'Project not found'
 */
export async function findProject(backend: Pick<Backend, 'catalog'>, ref: string): Promise<Project & { id: string }> {
  const key = ref.trim();
  if (key !== '') {
    const byId = await backend.catalog.get('projects', key);
    if (byId) return byId;
    for (const field of ['structure_id', 'slug'] as const) {
      const found = await backend.catalog.query('projects', { where: [[field, '==', key]], limit: 2 });
      if (found.length === 1) return found[0];
    }
  }
  throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { project: key } });
}

/**
 * A model by id, else by public ID (within `projectId` when given; it must be unique).
 * @param backend the opened backend (admin: hidden models included)
 * @param ref what was typed
 * @param projectId restricts the public-ID lookup
 * @throws AppError `not-found` ('Model … not found'), `invalid-argument` when a public ID matches
 *   models of several projects (pass --project)
 */
export async function findModel(backend: Pick<Backend, 'catalog'>, ref: string, projectId?: string): Promise<Model> {
  const key = ref.trim();
  if (key !== '') {
    const byId = await backend.catalog.get('models', key);
    if (byId && (!projectId || byId.projectId === projectId)) return byId;
    const where: Array<[string, '==', string]> = [['publicId', '==', key]];
    if (projectId) where.push(['projectId', '==', projectId]);
    const found = await backend.catalog.query('models', { where });
    if (found.length === 1) return found[0];
    if (found.length > 1) {
      throw new AppError(
        ErrorCode.InvalidArgument,
        `Public ID ${key} is used in ${found.length} projects: pass --project or the model id`,
        {
          context: { publicId: key, ids: found.map((m) => m.id) },
        },
      );
    }
  }
  throw new AppError(ErrorCode.NotFound, `Model ${key} not found`, { context: { model: key } });
}

/**
 * A command about one model: `<name> <model> [--project <id>]` ({@link findModelRef} finds it).
 * Further arguments and options are added by the caller.
 * @param name the command's name
 * @param description its description
 * @param projectHelp the help of `--project`
 * @returns the commander command
 */
export function modelRefCommand(name: string, description: string, projectHelp = 'project of the public ID'): Command {
  return new Command(name).description(description).argument('<model>', 'model id, or public ID').option('--project <id>', projectHelp);
}

/**
 * A command about one project: `<name> <project>` ({@link findProject} finds it). Further
 * arguments and options are added by the caller.
 * @param name the command's name
 * @param description its description
 * @returns the commander command
 */
export function projectRefCommand(name: string, description: string): Command {
  return new Command(name).description(description).argument('<project>', 'project id, structure ID or slug');
}

/** Zod shape of `<project>` and the backend options, to spread into a command's schema. */
export const projectRefShape = { project: z.string().min(1), ...backendOptionsShape };

/** Zod shape of `<model> [--project <id>]` and the backend options, to spread into a command's schema. */
export const modelRefShape = { model: z.string().min(1), project: z.string().optional(), ...backendOptionsShape };

/**
 * A model as a command's `<model> [--project <id>]` names it: by id, else by Public ID, within the
 * project when `--project` is given ({@link findProject}, {@link findModel}).
 * @param backend the opened backend (admin: hidden models included)
 * @param ref the `<model>` argument
 * @param project the `--project` value (id, structure ID or slug), if given
 * @throws AppError `not-found` (project or model), `invalid-argument` (a Public ID in several projects)
 */
export async function findModelRef(backend: Pick<Backend, 'catalog'>, ref: string, project?: string): Promise<Model> {
  return findModel(backend, ref, project ? (await findProject(backend, project)).id : undefined);
}

/**
 * The name typed to confirm a delete: `--confirm` when given, else a prompt ('Please type
 * {name} to confirm:'); without a terminal (or with --json/--yes) and no `--confirm`, an error
 * naming `--confirm`. The caller's workflow compares it with the record's name.
 * @param ctx the command context
 * @param name the record's name (shown in the prompt)
 * @param given the `--confirm` value
 */
export async function typedName(ctx: Pick<CommandContext, 'interactive'>, name: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  return askText(ctx, { message: projectDeletePrompt(name), flag: '--confirm "<name>"' });
}
