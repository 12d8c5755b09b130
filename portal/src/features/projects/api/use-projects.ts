/** Live list of all projects, sorted by structure_id. */
import { sortProjectsByStructureId } from '@shared/order.js';
import type { Project } from '@shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useProjects(): Resource<Project[]> {
  const { catalog } = useBackend();
  return useSubscription<Project[]>('projects', (onNext, onError) =>
    catalog.subscribe('projects', undefined, (docs) => onNext(sortProjectsByStructureId(docs)), onError),
  );
}
