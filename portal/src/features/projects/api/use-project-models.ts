/**
 * Live list of a project's models (live so that a model
 * added elsewhere appears without reload). Unordered: the screen sorts with the project's
 * reference id (`sortProjectDetailModels`).
 */
import type { Model } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useProjectModels(projectId: string | undefined): Resource<Model[]> {
  const { catalog } = useBackend();
  return useSubscription<Model[]>(projectId === undefined ? null : `project-models:${projectId}`, (onNext, onError) =>
    catalog.subscribe('models', { where: [['projectId', '==', projectId as string]] }, onNext, onError),
  );
}
