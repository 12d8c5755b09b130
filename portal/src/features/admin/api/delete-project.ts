/**
 * Delete a project: the typed name must
 * match and the project must have no models (the shared workflow's guards); resolves to its name.
 * The portal never deletes a project with its models (the CLI's `projects delete --with-models`
 * does, for scripted clean-ups).
 */
import { useCallback } from 'react';
import { deleteProject } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

/** The delete of one project by its typed name (resolves to the project's name). */
export function useDeleteProject(): (projectId: string, typedName: string) => Promise<string> {
  const { catalog } = useBackend();
  return useCallback((projectId, typedName) => deleteProject(catalog, projectId, typedName), [catalog]);
}
