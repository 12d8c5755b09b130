/** Create a project (the project form's rules) through the shared workflow; resolves to its id. */
import { useCallback } from 'react';
import type { ProjectFormInput } from '@shared/validation/project-form.js';
import { createProject } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useCreateProject(): (input: ProjectFormInput) => Promise<string> {
  const { catalog } = useBackend();
  return useCallback((input) => createProject(catalog, input), [catalog]);
}
