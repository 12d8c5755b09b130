/**
 * Live summary of every project the caller may read: its model count and its reference model's
 * thumbnail (`CatalogPort.subscribeProjectSummaries`). What /catalog, /projects and /projects/map
 * show of the models, read without the model documents (the answer grows with the projects).
 */
import type { ProjectSummary } from '@shared/ports/catalog.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription, type Resource } from '../../../lib/resource.js';

export function useProjectSummaries(): Resource<ProjectSummary[]> {
  const { catalog } = useBackend();
  return useSubscription<ProjectSummary[]>('project-summaries', (onNext, onError) => catalog.subscribeProjectSummaries(onNext, onError));
}
