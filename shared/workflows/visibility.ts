import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { FileStorePort } from '../ports/files.js';
import { modelFolder } from '../paths.js';

/**
 * Hides or shows a model (SPEC.md §4 "Model visibility", admin only): writes `visible` and
 * stamps `last_updated`. Hiding also revokes the download links already handed out for the
 * model's files when the file store can ({@link FileStorePort.revokeDownloadUrls}: Firebase
 * through firebase-admin; the embedded server does it itself).
 * @param catalog the catalog port (admin)
 * @param modelId the model's id (its uuid: the files live in `models/{uuid}/`)
 * @param visible true to show, false to hide
 * @param files the file store, to revoke links on hiding (optional)
 * @throws AppError `not-found`, `permission-denied`, storage codes from the revocation (the model is hidden by then)
 */
export async function setModelVisibility(catalog: CatalogPort, modelId: string, visible: boolean, files?: FileStorePort): Promise<void> {
  await catalog.update('models', modelId, { visible, last_updated: SERVER_TIMESTAMP });
  if (!visible && files?.revokeDownloadUrls) await files.revokeDownloadUrls(`${modelFolder(modelId)}/`);
}
