/** Set or clear a model's scale, `metadata.unitsPerMetre`, through the shared workflow. */
import { useCallback } from 'react';
import { setUnitsPerMetre } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

/** The model's scale setter: `(modelId, unitsPerMetre | null)`; throws the workflow's errors. */
export function useSetUnitsPerMetre(): (modelId: string, unitsPerMetre: number | null) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback(
    async (modelId, unitsPerMetre) => {
      await setUnitsPerMetre(catalog, modelId, unitsPerMetre);
    },
    [catalog],
  );
}
