import { AppError, ErrorCode } from '../errors.js';
import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { FileStorePort } from '../ports/files.js';
import { ProjectMessages, refusedModelStaysHidden } from '../messages.js';
import { modelFolder } from '../paths.js';

/**
 * Hides or shows a model (admin only): writes `visible` and
 * stamps `last_updated`. Hiding also revokes the download links already handed out for the
 * model's files when the file store can ({@link FileStorePort.revokeDownloadUrls}: Firebase
 * through firebase-admin; the embedded server does it itself).
 *
 * Showing a model refused by the content checks of its stored files (`contentRefusal`, set by
 * Firebase's Cloud Functions) is refused with the first refused file's message: it stays hidden
 * until the file is replaced or deleted (the security rules refuse it to the portal as well; this
 * holds the CLI, which writes as the service account, to the same rule).
 *
 * Hiding its project's reference model is refused: every user would then see
 * 'Unable to load reference model information.' on the project's Compare buttons. Refusing (not
 * asking to clear the reference) keeps the CLI, the portal and any other caller on one rule
 * without a question none of them could ask the same way; the admin sets another reference first.
 *
 * @param catalog the catalog port (admin)
 * @param modelId the model's id (its uuid: the files live in `models/{uuid}/`)
 * @param visible true to show, false to hide
 * @param files the file store, to revoke links on hiding (optional)
 * @throws AppError `not-found` (model), `failed-precondition` ('The reference model cannot be
 *   hidden. Set another model as the reference first.', context `{modelId, projectId}`; 'This
 *   model stays hidden: a file failed its content check. …', context `{modelId, files}`),
 *   `permission-denied`, storage codes from the revocation (the model is hidden by then)
 */
export async function setModelVisibility(catalog: CatalogPort, modelId: string, visible: boolean, files?: FileStorePort): Promise<void> {
  if (visible) {
    const refusal = (await catalog.get('models', modelId))?.contentRefusal;
    if (refusal && refusal.files.length > 0) {
      throw new AppError(ErrorCode.FailedPrecondition, refusedModelStaysHidden(refusal.files[0]!.problem, refusal.files.length - 1), {
        context: { modelId, files: refusal.files.map((file) => file.path) },
      });
    }
  } else {
    const model = await catalog.get('models', modelId);
    if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
    const project = model.projectId ? await catalog.get('projects', model.projectId) : null;
    if (project?.reference_model_id === modelId || (model.isReference === true && !project?.reference_model_id)) {
      throw new AppError(ErrorCode.FailedPrecondition, ProjectMessages.hideReferenceRefused, {
        context: { modelId, projectId: model.projectId ?? null },
      });
    }
  }
  await catalog.update('models', modelId, { visible, last_updated: SERVER_TIMESTAMP });
  if (!visible && files?.revokeDownloadUrls) await files.revokeDownloadUrls(`${modelFolder(modelId)}/`);
}
