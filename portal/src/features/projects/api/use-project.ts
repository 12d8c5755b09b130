/** One project by id (SPEC.md §7 "Read one project by id"); `revision` re-reads it. null when it does not exist. */
import type { Project } from '../../../../../shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { usePromise, type Resource } from '../../../lib/resource.js';

export function useProject(projectId: string | undefined, revision = 0): Resource<Project | null> {
  const { catalog } = useBackend();
  return usePromise<Project | null>(projectId === undefined ? null : `${projectId}#${revision}`, () =>
    catalog.get('projects', projectId as string),
  );
}
