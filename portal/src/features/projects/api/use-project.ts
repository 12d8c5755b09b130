/**
 * One project by id. `revision` re-reads it (e.g. when the
 * project's models change, so a new reference model shows); while re-reading, the last loaded
 * project stays on screen. `data` is null when the project does not exist.
 */
import { useRef } from 'react';
import type { Project } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { usePromise, success, type Resource } from '../../../lib/resource.js';

export function useProject(projectId: string | undefined, revision = ''): Resource<Project | null> {
  const { catalog } = useBackend();
  const result = usePromise<Project | null>(projectId === undefined ? null : `${projectId}#${revision}`, () =>
    catalog.get('projects', projectId as string),
  );
  const last = useRef<{ projectId: string; value: Project | null } | null>(null);
  if (result.status === 'success' && projectId !== undefined) last.current = { projectId, value: result.data };
  if (result.status === 'loading' && last.current !== null && last.current.projectId === projectId) {
    return success(last.current.value);
  }
  return result;
}
