import pLimit from 'p-limit';
import { AppError, ErrorCode, isAppError } from '../errors.js';
import type { CatalogPort } from '../ports/catalog.js';
import type { FileStorePort } from '../ports/files.js';
import type { Backend } from '../ports/index.js';
import type { Model } from '../types.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ProjectMessages, ValidationMessages, projectHasModels } from '../messages.js';
import { parseModelPath } from '../paths.js';
import { validateProjectForm } from '../validation/project-form.js';
import type { ProjectFormInput } from '../validation/project-form.js';
import { confirmTypedName } from '../validation/confirm.js';
import { modelFilePaths } from './model-storage-paths.js';
import { deleteModelsWithFindings } from './model-delete-records.js';
import { unwrap } from './util.js';

/**
 * Creates a project from the project form's input (name
 * required, slug normalised or generated from the name, map URL a URL, lat/lng numeric or null),
 * with `created_at`/`last_updated` set to server time and no reference model.
 *
 * @param catalog the catalog port (admin)
 * @param input the form fields as entered
 * @returns the new project's id
 * @throws AppError `invalid-argument` with the validation message; `permission-denied`
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
 * Deletes a project: the typed name must
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

/** Models handled per step of {@link deleteProjectWithModels}: their files, then their records in one batch. */
export const PROJECT_DELETE_CHUNK = 100;

/** Progress of {@link deleteProjectWithModels}: models whose files and records are gone, of the total. */
export interface DeleteProjectProgress {
  modelsDeleted: number;
  models: number;
}

/**
 * Deletes a project with every one of its models, their files and records ('Delete
 * project and all its models'): ONE typed-name
 * confirmation (the project name, trimmed), then the models in chunks of
 * {@link PROJECT_DELETE_CHUNK}: for each model of the chunk its files (everything under
 * `models/{uuid}/` and every path its record names), then the chunk's findings, alignments and
 * change maps and its records (with `reference_model_id: null` on the project when its reference
 * model is among them) and the values files of those change maps that lie in other models'
 * folders, and the project record last.
 *
 * Nothing is orphaned: a record is deleted only after all its files are (a file that cannot be
 * deleted stops the run with its error, the record still naming the file). If the run fails midway, what is left
 * is consistent: the project and the models not yet reached are intact; at most one chunk of
 * models may have lost files whose records remain (the records still name them, so `catalog
 * doctor` reports them); running it again with the same name finishes the job (files already
 * gone count as deleted).
 *
 * @param backend catalog and file-store ports (admin or service)
 * @param projectId the project's id
 * @param confirmName the project name the admin typed
 * @param options.onProgress called after each chunk with the models deleted so far
 * @param options.chunk models per chunk (default {@link PROJECT_DELETE_CHUNK}; at most 400, a
 *   Firestore batch's 500 writes with room to spare)
 * @returns the project's name, the number of models and of files deleted
 * @throws AppError `not-found` ('Project not found'), `invalid-argument` ("Project name doesn't
 *   match. Deletion canceled."; nothing deleted), the first storage error of a file delete (the
 *   run stops there), catalog errors (`permission-denied`…)
 */
export async function deleteProjectWithModels(
  backend: Pick<Backend, 'catalog' | 'files'>,
  projectId: string,
  confirmName: string,
  options: { onProgress?: (progress: DeleteProjectProgress) => void; chunk?: number } = {},
): Promise<{ name: string; modelsDeleted: number; filesDeleted: number }> {
  const { catalog, files } = backend;
  const project = await catalog.get('projects', projectId);
  if (project === null) throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { projectId } });
  if (!confirmTypedName(confirmName, project.name)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.projectNameMismatch, { context: { projectId } });
  }
  let filesDeleted = 0;
  let modelsDeleted = 0;
  let referenceCleared = !project.reference_model_id;
  const size = Math.min(400, Math.max(1, Math.floor(options.chunk ?? PROJECT_DELETE_CHUNK)));
  // Until the project has no models left: a model added while this runs is deleted too.
  for (;;) {
    const models = await catalog.query('models', { where: [['projectId', '==', projectId]] });
    if (models.length === 0) break;
    const total = modelsDeleted + models.length;
    for (let start = 0; start < models.length; start += size) {
      const chunk = models.slice(start, start + size);
      const limit = pLimit(4);
      const counts = await Promise.all(chunk.map((model) => limit(() => deleteAllFilesOf(files, model))));
      filesDeleted += counts.reduce((a, b) => a + b, 0);
      // Findings, alignments and change maps first; the models in a transaction that re-reads them (a finding added meanwhile goes too).
      let clears = false;
      const removed = await deleteModelsWithFindings(catalog, chunk, {
        alsoWrite: (tx, ids) => {
          clears = !referenceCleared && ids.some((id) => id === project.reference_model_id);
          if (clears) tx.update('projects', projectId, { reference_model_id: null, last_updated: SERVER_TIMESTAMP });
        },
      });
      // The values of a change map against one of these models may lie in the folder of a capture
      // outside this chunk (a later one, or outside the project); those in the chunk's folders are gone already.
      const folders = new Set(chunk.map((model) => model.uuid || model.id));
      const elsewhere = removed.changeMapFiles.filter((path) => !folders.has(parseModelPath(path)?.uuid ?? ''));
      filesDeleted += await deletePathsOrThrow(files, elsewhere);
      if (clears) referenceCleared = true;
      modelsDeleted += chunk.length;
      options.onProgress?.({ modelsDeleted, models: total });
    }
  }
  await catalog.delete('projects', projectId);
  return { name: project.name, modelsDeleted, filesDeleted };
}

/**
 * Deletes every file of a model (its folder and the paths its record names); a file already
 * gone counts as deleted.
 * @returns how many paths were deleted (or already gone)
 * @throws the first storage error other than `storage/object-not-found`, as thrown (e.g.
 *   `storage/unauthorized` for a non-admin), with `context.modelId` when it is an AppError's
 */
async function deleteAllFilesOf(files: FileStorePort, model: Model): Promise<number> {
  return deletePathsOrThrow(files, [...(await modelFilePaths(files, model))]);
}

/**
 * Deletes stored files; a file already gone counts as deleted.
 * @returns how many paths were deleted (or already gone)
 * @throws the first storage error other than `storage/object-not-found`, as thrown
 */
async function deletePathsOrThrow(files: FileStorePort, paths: readonly string[]): Promise<number> {
  for (const path of paths) {
    try {
      await files.delete(path);
    } catch (error) {
      if (!isAppError(error, ErrorCode.ObjectNotFound)) throw error;
    }
  }
  return paths.length;
}
