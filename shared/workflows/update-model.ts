import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import type { EditModelInput } from '../validation/models.js';
import { validateEditModel } from '../validation/models.js';
import { AppError, ErrorCode } from '../errors.js';
import { assertPublicIdFree } from './public-id.js';
import { unwrap } from './util.js';

/**
 * Updates a model's name, Public ID and capture date from the Edit Model form of the
 * model management screen, with `last_updated` stamped. Nothing is written when the input is invalid.
 *
 * @param catalog the catalog port (admin)
 * @param modelId the model's id
 * @param input name, publicId, captureDate ('YYYY-MM-DD', another date text, or empty for none)
 * @param options.uniquePublicId refuse a new Public ID another model of the project has
 *   ({@link assertPublicIdFree}); on by default (one Public ID, one `?id=` link; the
 *   embedded server refuses the clash anyway), `false` only for a caller that checked it itself
 * @returns the values written (trimmed, date normalised)
 * @throws AppError `invalid-argument` ('Model name is required', 'Public ID is required', 'Public
 *   ID can only contain letters, numbers, hyphens, and underscores', 'Please enter a valid
 *   date'), `already-exists` ('Public ID … is already used in this project.'),
 *   `not-found`, `permission-denied`
 */
export async function updateModel(
  catalog: CatalogPort,
  modelId: string,
  input: EditModelInput,
  options: { uniquePublicId?: boolean } = {},
): Promise<{ name: string; publicId: string; captureDate: string | null }> {
  const value = unwrap(validateEditModel(input));
  if (options.uniquePublicId !== false) {
    const model = await catalog.get('models', modelId);
    if (model === null) throw new AppError(ErrorCode.NotFound, `Model ${modelId} not found`, { context: { modelId } });
    if (value.publicId !== model.publicId && model.projectId) {
      await assertPublicIdFree(catalog, { projectId: model.projectId, publicId: value.publicId, exceptModelId: modelId });
    }
  }
  await catalog.update('models', modelId, {
    name: value.name,
    publicId: value.publicId,
    'metadata.captureDate': value.captureDate,
    last_updated: SERVER_TIMESTAMP,
  });
  return value;
}
