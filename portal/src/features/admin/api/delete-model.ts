/**
 * Delete a model with its files: the typed name must match; resolves
 * to its name and the files that could not be deleted.
 */
import { useCallback } from 'react';
import { deleteModel } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export type DeletedModel = Awaited<ReturnType<typeof deleteModel>>;

export function useDeleteModel(): (modelId: string, typedName: string) => Promise<DeletedModel> {
  const backend = useBackend();
  return useCallback((modelId, typedName) => deleteModel(backend, modelId, typedName), [backend]);
}
