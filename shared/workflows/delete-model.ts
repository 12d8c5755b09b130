/**
 * Deleting a model: its findings, alignments and change maps, its record (clearing the project's
 * reference when it was the reference) and then every file it has in storage, with the values
 * files of its change maps (those against it as the reference lie in the other captures' folders).
 */
import { AppError, ErrorCode } from '../errors.js';
import type { Backend } from '../ports/index.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ValidationMessages } from '../messages.js';
import { confirmTypedName } from '../validation/confirm.js';
import { deleteModelsWithFindings } from './model-delete-records.js';
import { modelFilePaths } from './model-storage-paths.js';
import { deleteFilesQuietly } from './util.js';

/**
 * Deletes a model with its record and every file under `models/{uuid}/`. The typed
 * name must equal the model name (both trimmed). Its findings, alignments and change maps go
 * first, then the record (with the project's reference_model_id cleared in the same batch when it
 * was the reference); files follow, the values files of its change maps included (a change map
 * against this model as the reference keeps its values in the capture's folder). The model is
 * deleted once its record is: files that could not be deleted are returned (not thrown), for the
 * caller to report; `catalog doctor --fix` removes those in the model's own folder later.
 *
 * @param backend catalog and file-store ports (admin or service)
 * @param modelId the model's id
 * @param confirmName the name the admin typed
 * @returns the deleted model's name, the number of files deleted and the paths left behind
 * @throws AppError `not-found`, `invalid-argument` ("Model name doesn't match. Deletion
 *   canceled."), and the record deletion's errors (then nothing was deleted)
 */
export async function deleteModel(
  backend: Pick<Backend, 'catalog' | 'files'>,
  modelId: string,
  confirmName: string,
): Promise<{ name: string; filesDeleted: number; filesNotDeleted: string[] }> {
  const { catalog, files } = backend;
  const model = await catalog.get('models', modelId);
  if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
  if (!confirmTypedName(confirmName, model.name)) {
    throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.modelNameMismatch, { context: { modelId } });
  }
  const paths = await modelFilePaths(files, model);
  // The model's findings, alignments and change maps go first (the count stays exact at every
  // commit); the record goes in a transaction that re-reads it, so a finding added meanwhile goes too.
  const projectId = model.projectId;
  const removed = await deleteModelsWithFindings(catalog, [model], {
    alsoWrite: async (tx) => {
      if (!projectId) return;
      const project = await tx.get('projects', projectId);
      if (project !== null && project.reference_model_id === modelId) {
        tx.update('projects', project.id, { reference_model_id: null, last_updated: SERVER_TIMESTAMP });
      }
    },
  });
  for (const path of removed.changeMapFiles) paths.add(path);
  const failed = await deleteFilesQuietly(files, [...paths]);
  return { name: model.name, filesDeleted: paths.size - failed.length, filesNotDeleted: failed };
}
