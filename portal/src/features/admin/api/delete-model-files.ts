/**
 * Delete one of a model's additional files, or all of them (the splat, GLB and main
 * files are refused), through the shared workflows. `deleteAll` resolves to the number deleted.
 */
import { useCallback, useMemo } from 'react';
import { deleteAllModelFiles, deleteModelFile } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export interface DeleteModelFiles {
  deleteOne: (modelId: string, path: string) => Promise<void>;
  deleteAll: (modelId: string) => Promise<number>;
}

export function useDeleteModelFiles(): DeleteModelFiles {
  const backend = useBackend();
  const deleteOne = useCallback((modelId: string, path: string) => deleteModelFile(backend, modelId, path), [backend]);
  const deleteAll = useCallback((modelId: string) => deleteAllModelFiles(backend, modelId), [backend]);
  return useMemo(() => ({ deleteOne, deleteAll }), [deleteOne, deleteAll]);
}
