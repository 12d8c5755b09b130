import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';

/**
 * Hides or shows a model (SPEC.md §4 "Model visibility", admin only): writes `visible` and
 * stamps `last_updated`.
 * @param catalog the catalog port (admin)
 * @param modelId the model's id
 * @param visible true to show, false to hide
 * @throws AppError `not-found`, `permission-denied`
 */
export async function setModelVisibility(catalog: CatalogPort, modelId: string, visible: boolean): Promise<void> {
  await catalog.update('models', modelId, { visible, last_updated: SERVER_TIMESTAMP });
}
