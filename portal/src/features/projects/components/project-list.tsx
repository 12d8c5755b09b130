/**
 * The project list screen's content (SPEC.md §2 Project list): live card grid sorted by
 * structure_id, thumbnails from each project's reference model, and the empty state.
 */
import { Link } from 'react-router-dom';
import { ModelMessages } from '../../../../../shared/messages.js';
import { findReferenceModel } from '../../../../../shared/projects.js';
import type { Model, Project } from '../../../../../shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useDownloadUrl, thumbnailPathOf } from '../../models/api/use-download-url.js';
import { useModels } from '../../models/api/use-models.js';
import { useProjects } from '../api/use-projects.js';
import { ProjectCard } from './project-card.js';

/** The reference model of a project among all models. */
function referenceModelOf(project: Project, models: readonly Model[]): Model | null {
  return findReferenceModel(project, models.filter((m) => m.projectId === project.id));
}

function ProjectCardWithThumbnail({ project, reference }: { project: Project; reference: Model | null }) {
  const thumbnail = useDownloadUrl(reference ? thumbnailPathOf(reference) : null);
  return <ProjectCard project={project} thumbnailUrl={thumbnail.status === 'success' ? thumbnail.data : null} />;
}

export function ProjectGrid({ projects, models, isAdmin }: { projects: Project[]; models: Model[]; isAdmin: boolean }) {
  if (projects.length === 0) {
    return (
      <EmptyState title="No Projects Yet">
        {isAdmin ? (
          <Link className="button button-primary" to={paths.admin.projects.getHref()}>
            Create First Project
          </Link>
        ) : null}
      </EmptyState>
    );
  }
  return (
    <div className="card-grid">
      {projects.map((project) => (
        <ProjectCardWithThumbnail key={project.id} project={project} reference={referenceModelOf(project, models)} />
      ))}
    </div>
  );
}

export function ProjectList({ isAdmin }: { isAdmin: boolean }) {
  const projects = useProjects();
  const models = useModels();
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') {
    console.error(projects.error);
    return <p className="alert alert-error">{ModelMessages.loadProjectsFailed}</p>;
  }
  return <ProjectGrid projects={projects.data} models={models.status === 'success' ? models.data : []} isAdmin={isAdmin} />;
}
