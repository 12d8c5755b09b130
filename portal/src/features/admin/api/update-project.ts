/** Save a project's details (the project form's rules) through the shared workflow. */
import { useCallback } from 'react';
import type { ProjectFormInput } from '@shared/validation/project-form.js';
import { updateProject } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useUpdateProject(): (projectId: string, input: ProjectFormInput) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback((projectId, input) => updateProject(catalog, projectId, input), [catalog]);
}
