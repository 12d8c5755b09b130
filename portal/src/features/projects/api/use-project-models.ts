/**
 * Live list of a project's models (SPEC.md §7 "Read models of a project"), sorted for the
 * project detail screen: reference first, then capture date, display order, created_at, name.
 */
import { sortProjectDetailModels } from '../../../../../shared/order.js';
import type { Model } from '../../../../../shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useProjectModels(projectId: string | undefined): Resource<Model[]> {
  const { catalog } = useBackend();
  return useSubscription<Model[]>(projectId === undefined ? null : `project-models:${projectId}`, (onNext, onError) =>
    catalog.subscribe(
      'models',
      { where: [['projectId', '==', projectId as string]] },
      (docs) => onNext(sortProjectDetailModels(docs)),
      onError,
    ),
  );
}
