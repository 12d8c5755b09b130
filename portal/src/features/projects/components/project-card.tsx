/**
 * One card of the project list: thumbnail of the reference model or
 * 'No thumbnail', 'Has Reference' / 'No Reference', name, 'ID: {structure_id}', the description
 * cut at 120 characters, and 'View Details'.
 *
 * The name is a level-2 heading (under the page's h1), and 'View Details' is described
 * by the project's name (aria-describedby), so the many 'View Details' links can be told apart.
 */
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { hasReferenceModel, referenceBadgeLabel, truncateDescription } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import { Badge } from '../../../components/ui/badge.js';
import { paths } from '../../../config/paths.js';

export interface ProjectCardProps {
  project: Project;
  /** Download link of the reference model's thumbnail, or null. */
  thumbnailUrl: string | null;
}

export function ProjectCard({ project, thumbnailUrl }: ProjectCardProps) {
  const hasReference = hasReferenceModel(project);
  const titleId = useId();
  return (
    <article className="card project-card" data-testid="project-card">
      <div className="project-card-thumb">
        {thumbnailUrl ? (
          <img src={thumbnailUrl} alt={project.name} loading="lazy" />
        ) : (
          <span className="thumb-placeholder">No thumbnail</span>
        )}
        <Badge tone={hasReference ? 'green' : 'gray'} className="project-card-badge">
          {referenceBadgeLabel(project)}
        </Badge>
      </div>
      <div className="card-body">
        <h2 className="card-title" id={titleId}>
          {project.name}
        </h2>
        <p className="muted">ID: {project.structure_id}</p>
        {project.description ? <p className="card-text">{truncateDescription(project.description)}</p> : null}
        <Link className="button button-primary" to={paths.project.getHref(project.id)} aria-describedby={titleId}>
          View Details
        </Link>
      </div>
    </article>
  );
}
