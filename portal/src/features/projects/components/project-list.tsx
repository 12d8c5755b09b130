/**
 * The project list screen's content (SPEC.md §2 Project list; the route table names a card grid
 * and a table view): live projects sorted by structure_id, as cards with thumbnails from each
 * project's reference model or as a table, and the empty state.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ModelMessages } from '@shared/messages.js';
import {
  countModelsByProject,
  PROJECT_BADGE_LABELS,
  findReferenceModel,
  modelCountOf,
  projectBadge,
  referenceBadgeLabel,
} from '@shared/projects.js';
import type { Model, Project } from '@shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useDownloadUrl, thumbnailPathOf } from '../../../hooks/use-download-url.js';
import type { Resource } from '../../../lib/resource.js';
import { useProjects } from '../api/use-projects.js';
import { ProjectCard } from './project-card.js';
import '../projects.css';

/** The reference model of a project among all models. */
function referenceModelOf(project: Project, models: readonly Model[]): Model | null {
  return findReferenceModel(
    project,
    models.filter((m) => m.projectId === project.id),
  );
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

/** The table view: one row per project in structure_id order. */
export function ProjectTable({ projects, models }: { projects: Project[]; models: Model[] }) {
  const counts = useMemo(() => countModelsByProject(models), [models]);
  return (
    <table className="data-table" data-testid="project-table">
      <thead>
        <tr>
          <th scope="col">Structure ID</th>
          <th scope="col">Name</th>
          <th scope="col">Models</th>
          <th scope="col">Reference</th>
          <th scope="col">Location</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {projects.map((project) => {
          const count = modelCountOf(counts, project.id);
          const badge = projectBadge(count);
          return (
            <tr key={project.id} data-testid="project-row">
              <td className="mono">{project.structure_id}</td>
              <td>{project.name}</td>
              <td>
                {count}
                {badge ? <span className="muted"> · {PROJECT_BADGE_LABELS[badge]}</span> : null}
              </td>
              <td>{referenceBadgeLabel(project)}</td>
              <td>
                {project.location?.address ||
                  (typeof project.location?.lat === 'number' ? `${project.location.lat}, ${project.location.lng}` : '—')}
              </td>
              <td>
                <Link to={paths.project.getHref(project.id)}>View Details</Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** Card grid or table (the table only when there are projects; the empty state is shared). */
export function ProjectListView({ projects, models, isAdmin }: { projects: Project[]; models: Model[]; isAdmin: boolean }) {
  const [view, setView] = useState<'grid' | 'table'>('grid');
  if (projects.length === 0) return <ProjectGrid projects={projects} models={models} isAdmin={isAdmin} />;
  return (
    <>
      <div className="tabs view-toggle" role="group" aria-label="View">
        <button
          type="button"
          className={`tab${view === 'grid' ? ' active' : ''}`}
          aria-pressed={view === 'grid'}
          onClick={() => setView('grid')}
        >
          Card Grid
        </button>
        <button
          type="button"
          className={`tab${view === 'table' ? ' active' : ''}`}
          aria-pressed={view === 'table'}
          onClick={() => setView('table')}
        >
          Table View
        </button>
      </div>
      {view === 'grid' ? (
        <ProjectGrid projects={projects} models={models} isAdmin={isAdmin} />
      ) : (
        <ProjectTable projects={projects} models={models} />
      )}
    </>
  );
}

/** The list on the live projects, with the live models (for thumbnails and counts) the app's route hands in. */
export function ProjectList({ isAdmin, models }: { isAdmin: boolean; models: Resource<Model[]> }) {
  const projects = useProjects();
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') {
    console.error(projects.error);
    return <p className="alert alert-error">{ModelMessages.loadProjectsFailed}</p>;
  }
  return <ProjectListView projects={projects.data} models={models.status === 'success' ? models.data : []} isAdmin={isAdmin} />;
}
