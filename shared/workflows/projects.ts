import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ProjectMessages, ValidationMessages, projectHasModels } from '../messages.js';
import { validateProjectForm } from '../validation/project-form.js';
import type { ProjectFormInput } from '../validation/project-form.js';
import { confirmTypedName } from '../validation/confirm.js';
import { unwrap } from './util.js';

/**
 * Creates a project from the project form's input (SPEC.md §2 Project form, §5 rules: name
 * required, slug normalised or generated from the name, map URL a URL, lat/lng numeric or null),
 * with `created_at`/`last_updated` set to server time and no reference model.
 *
 * @param catalog the catalog port (admin)
 * @param input the form fields as entered
 * @returns the new project's id
 * @throws AppError `invalid-argument` with the spec's validation message; `permission-denied`
 */
export async function createProject(catalog: CatalogPort, input: ProjectFormInput): Promise<string> {
  const value = unwrap(validateProjectForm(input));
  return catalog.add('projects', {
    ...value,
    reference_model_id: null,
    created_at: SERVER_TIMESTAMP,
    last_updated: SERVER_TIMESTAMP,
  });
}

/**
 * Updates a project from the project form's input (same rules as {@link createProject});
 * stamps `last_updated`.
 * @throws AppError `invalid-argument` (validation), `not-found`, `permission-denied`
 */
export async function updateProject(catalog: CatalogPort, projectId: string, input: ProjectFormInput): Promise<void> {
  const value = unwrap(validateProjectForm(input));
  await catalog.update('projects', projectId, { ...value, last_updated: SERVER_TIMESTAMP });
}

/**
 * Deletes a project (SPEC.md §4 "Project delete flow", §5 "Delete project"): the typed name must
 * equal the project name (both trimmed), and a project with associated models is refused.
 *
 * The model count and the delete are two calls: a model created between them is not seen (the
 * Firestore web SDK cannot lock a query in a transaction either).
 *
 * @param catalog the catalog port (admin)
 * @param projectId the project's id
 * @param confirmName the name the admin typed
 * @returns the deleted project's name
 * @throws AppError `not-found` ('Project not found'), `invalid-argument` ("Project name doesn't
 *   match. Deletion canceled."), `failed-precondition` ('Cannot delete this project because it
 *   has N associated models. Please delete these models first.', context.count = N)
 */
export async function deleteProject(catalog: CatalogPort, projectId: string, confirmName: string): Promise<string> {
  const project = await catalog.get('projects', projectId);
  if (project === null) throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { projectId } });
  if (!confirmTypedName(confirmName, project.name)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.projectNameMismatch, { context: { projectId } });
  }
  const count = await catalog.count('models', { where: [['projectId', '==', projectId]] });
  if (count > 0) {
    throw new AppError(ErrorCode.FailedPrecondition, projectHasModels(count), { context: { projectId, count } });
  }
  await catalog.delete('projects', projectId);
  return project.name;
}
