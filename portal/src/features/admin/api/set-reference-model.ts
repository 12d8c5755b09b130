/** Make a model its project's reference: the shared workflow's one atomic swap. */
import { useCallback } from 'react';
import { setReferenceModel } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useSetReferenceModel(): (projectId: string, modelId: string) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback((projectId, modelId) => setReferenceModel(catalog, projectId, modelId), [catalog]);
}
