/**
 * A project with its live models: the project is read again whenever its models or their reference
 * flags change, so a new reference model shows (the last loaded project stays on screen meanwhile).
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

/**
 * The title of a page about one project: `titleOf(project)` once the project is read, 'Project
 * Not Found' when it does not exist (or is not readable), 'Project Unavailable' when the read
 * failed, and null (the default title) while it loads.
 * @param project the project as {@link useProjectWithModels} returns it
 * @param titleOf the page's title for a read project
 * @returns the title for `usePageTitle`
 */
export function projectPageTitle(project: Resource<Project | null>, titleOf: (project: Project) => string): string | null {
  if (project.status === 'success') return project.data ? titleOf(project.data) : 'Project Not Found';
  return project.status === 'error' ? 'Project Unavailable' : null;
}
