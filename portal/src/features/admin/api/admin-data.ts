/**
 * Live data of the admin screens (SPEC.md §7 live subscriptions): all projects, all models (an
 * admin also receives hidden ones), and one project's models.
 */
import type { Model, Project } from '../../../../../shared/types.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useAllProjects(): Resource<Project[]> {
  const { catalog } = useBackend();
  return useSubscription<Project[]>('admin-projects', (onNext, onError) => catalog.subscribe('projects', undefined, onNext, onError));
}

export function useAllModels(): Resource<Model[]> {
  const { catalog } = useBackend();
  return useSubscription<Model[]>('admin-models', (onNext, onError) =>
    catalog.subscribe('models', { orderBy: [['publicId', 'asc']] }, onNext, onError),
  );
}

export function useModelsOfProject(projectId: string | null): Resource<Model[]> {
  const { catalog } = useBackend();
  return useSubscription<Model[]>(projectId === null ? null : `admin-project-models:${projectId}`, (onNext, onError) =>
    catalog.subscribe('models', { where: [['projectId', '==', projectId as string]] }, onNext, onError),
  );
}

/** The message of an error for '…: {detail}' texts. */
export function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
