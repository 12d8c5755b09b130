/**
 * Delete a project (SPEC.md §4 "Project delete flow", §5 "Delete project"): the typed name must
 * match and the project must have no models (the shared workflow's guards); resolves to its name.
 * Or delete it with all its models and their files after the same one typed name (issue 17, the
 * shared `deleteProjectWithModels`).
 */
import { useCallback } from 'react';
import { deleteProject, deleteProjectWithModels, type DeleteProjectProgress } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useDeleteProject(): (projectId: string, typedName: string) => Promise<string> {
  const { catalog } = useBackend();
  return useCallback((projectId, typedName) => deleteProject(catalog, projectId, typedName), [catalog]);
}

/** Resolves to the project's name and how many models were deleted with it. */
export type DeleteProjectWithModels = (
  projectId: string,
  typedName: string,
  onProgress?: (progress: DeleteProjectProgress) => void,
) => Promise<{ name: string; modelsDeleted: number }>;

export function useDeleteProjectWithModels(): DeleteProjectWithModels {
  const backend = useBackend();
  return useCallback<DeleteProjectWithModels>(
    (projectId, typedName, onProgress) => deleteProjectWithModels(backend, projectId, typedName, { onProgress }),
    [backend],
  );
}
