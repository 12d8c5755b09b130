/** Hide or show a model (admin only) through the shared workflow. */
import { useCallback } from 'react';
import { setModelVisibility } from '@shared/workflows/visibility.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useSetModelVisibility(): (modelId: string, visible: boolean) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback((modelId, visible) => setModelVisibility(catalog, modelId, visible), [catalog]);
}
