/**
 * The Public ID rule of a project's models, checked against the catalog: no two models of one
 * project share a Public ID. Its format is the forms' validators' (`shared/validation/models.ts`).
 */
import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort } from '../ports/catalog.js';
import { publicIdInUse } from '../validation/models.js';

/**
 * The Public ID rule of a project's models: no two models of one project share a Public ID (the
 * CLI finds a model by its Public ID within its project, and bulk uploads skip a Public ID the
 * project already has). Its format is checked by the forms' validators (`shared/validation/models.ts`).
 * @param catalog the catalog port
 * @param target.projectId the project the model is (or goes) in
 * @param target.publicId the Public ID, trimmed
 * @param target.exceptModelId the model being edited (its own Public ID is no clash)
 * @throws AppError `already-exists` ('Public ID … is already used in this project.', context `{publicId, modelId}`)
 */
export async function assertPublicIdFree(
  catalog: Pick<CatalogPort, 'query'>,
  target: { projectId: string; publicId: string; exceptModelId?: string },
): Promise<void> {
  const { projectId, publicId, exceptModelId } = target;
  const found = await catalog.query('models', {
    where: [
      ['projectId', '==', projectId],
      ['publicId', '==', publicId],
    ],
    limit: 2,
  });
  const clash = found.find((model) => model.id !== exceptModelId);
  if (clash) throw new AppError(ErrorCode.AlreadyExists, publicIdInUse(publicId), { context: { publicId, modelId: clash.id } });
}
