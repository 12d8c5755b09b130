/**
 * A project with its live models: the project is read again whenever its models or their reference flags change, so
 * a new reference model shows (the last loaded project stays on screen meanwhile).
 */
import type { Model, Project } from '@shared/types.js';
import type { Resource } from '../../../lib/resource.js';
import { useProject } from './use-project.js';
import { useProjectModels } from './use-project-models.js';

export function useProjectWithModels(projectId: string): { project: Resource<Project | null>; models: Resource<Model[]> } {
  const models = useProjectModels(projectId);
  const revision = models.status === 'success' ? models.data.map((m) => `${m.id}${m.isReference ? '*' : ''}`).join(',') : '';
  const project = useProject(projectId, revision);
  return { project, models };
}
