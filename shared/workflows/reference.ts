import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort, WriteOp } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ProjectMessages } from '../messages.js';
import { isHiddenModel } from '../roles.js';

/**
 * Sets a project's reference model: clears `isReference` on the
 * project's current reference model(s), sets it on the new one and updates the project's
 * `reference_model_id`, in one atomic batch. `last_updated` is stamped on every changed record.
 *
 * @param catalog the catalog port (admin)
 * @param projectId the project's id
 * @param modelId the new reference model's id; it must belong to the project and be visible
 *   (a hidden reference leaves users with 'Unable to load reference model information.')
 * @throws AppError `not-found` (project or model missing), `invalid-argument` (model of another
 *   project), `failed-precondition` ('A hidden model cannot be the reference model. Unhide it
 *   first.', context `{projectId, modelId}`), `permission-denied`
 */
export async function setReferenceModel(catalog: CatalogPort, projectId: string, modelId: string): Promise<void> {
  const [project, model] = await Promise.all([catalog.get('projects', projectId), catalog.get('models', modelId)]);
  if (project === null) throw new AppError(ErrorCode.NotFound, ProjectMessages.notFound, { context: { projectId } });
  if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
  if (model.projectId !== projectId) {
    throw new AppError(ErrorCode.InvalidArgument, `Model ${modelId} does not belong to project ${projectId}`, {
      context: { projectId, modelId },
    });
  }
  if (isHiddenModel(model)) {
    throw new AppError(ErrorCode.FailedPrecondition, ProjectMessages.hiddenReference, { context: { projectId, modelId } });
  }
  const current = await catalog.query('models', {
    where: [
      ['projectId', '==', projectId],
      ['isReference', '==', true],
    ],
  });
  const ops: WriteOp[] = current
    .filter((m) => m.id !== modelId)
    .map((m) => ({ op: 'update', collection: 'models', id: m.id, data: { isReference: false, last_updated: SERVER_TIMESTAMP } }));
  if (project.reference_model_id && project.reference_model_id !== modelId && !current.some((m) => m.id === project.reference_model_id)) {
    const old = await catalog.get('models', project.reference_model_id);
    if (old !== null && old.isReference) {
      ops.push({ op: 'update', collection: 'models', id: old.id, data: { isReference: false, last_updated: SERVER_TIMESTAMP } });
    }
  }
  ops.push({ op: 'update', collection: 'models', id: modelId, data: { isReference: true, last_updated: SERVER_TIMESTAMP } });
  ops.push({ op: 'update', collection: 'projects', id: projectId, data: { reference_model_id: modelId, last_updated: SERVER_TIMESTAMP } });
  await catalog.batch(ops);
}
