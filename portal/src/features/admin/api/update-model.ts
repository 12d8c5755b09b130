/** Save a model's name, publicId and capture date through the shared workflow. */
import { useCallback } from 'react';
import type { EditModelInput } from '@shared/validation/models.js';
import { updateModel } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useUpdateModel(): (modelId: string, input: EditModelInput) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback(
    async (modelId, input) => {
      await updateModel(catalog, modelId, input);
    },
    [catalog],
  );
}
