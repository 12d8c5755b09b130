/**
 * Catalog home: hero, the Total Projects and Multi-Temporal Projects
 * counts, a search box (case-insensitive substring of structure_id, name, description),
 * Featured Projects (at most 4, from projects with 2 or more models) and Browse All Projects.
 * Every card links to /projects/{id}; Browse All renders only the rows of cards near the viewport
 * (1,000 projects). `CatalogHomeView` is the pure view; `CatalogHome` feeds it
 * the live projects and project summaries (model counts) the app's route hands in, or says
 * 'Failed to load projects list.' when the projects cannot be read.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import { ModelMessages } from '@shared/messages.js';
import type { ProjectSummary } from '@shared/ports/catalog.js';
import { catalogStats, featuredProjects, modelCountOf, summaryCounts, truncateDescription } from '@shared/projects.js';
import { searchProjects } from '@shared/search.js';
import type { Project } from '@shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { ProjectCountBadge, modelCountText } from '../../../components/ui/project-count-badge.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { VirtualCardGrid } from '../../../components/ui/virtual-card-grid.js';
import { paths } from '../../../config/paths.js';
import type { Resource } from '../../../lib/resource.js';
import '../catalog.css';

function CatalogProjectCard({ project, modelCount }: { project: Project; modelCount: number }) {
  return (
    <Link className="card catalog-card" to={paths.project.getHref(project.id)} data-testid="catalog-card">
      <div className="card-body">
        <div className="landing-card-head">
          <h3 className="card-title">{project.name}</h3>
          <ProjectCountBadge modelCount={modelCount} />
        </div>
        <p className="muted mono">{project.structure_id}</p>
        {project.description ? <p className="card-text">{truncateDescription(project.description)}</p> : null}
        <p className="muted catalog-card-count">{modelCountText(modelCount)}</p>
      </div>
    </Link>
  );
}

/** Height of a row of catalog cards before it is measured (title, ID, two lines of description, count, gap), px. */
const CATALOG_CARD_ROW_ESTIMATE_PX = 200;

export interface CatalogHomeViewProps {
  /** Projects in display order (structure_id). */
  projects: Project[];
  counts: ReadonlyMap<string, number>;
}

export function CatalogHomeView({ projects, counts }: CatalogHomeViewProps) {
  const [term, setTerm] = useState('');
  const stats = catalogStats(projects, counts);
  const featured = useMemo(() => featuredProjects(projects, counts), [projects, counts]);
  const matching = useMemo(() => searchProjects(projects, term), [projects, term]);
  return (
    <>
      <div className="stat-grid">
        <div className="stat-card" data-testid="stat-total">
          <div className="stat-value">{stats.totalProjects}</div>
          <div className="stat-label">Total Projects</div>
        </div>
        <div className="stat-card" data-testid="stat-multi-temporal">
          <div className="stat-value">{stats.multiTemporalProjects}</div>
          <div className="stat-label">Multi-Temporal Projects</div>
        </div>
      </div>
      <div className="field catalog-search">
        <label htmlFor="catalog-search" className="visually-hidden">
          Search projects
        </label>
        <input
          id="catalog-search"
          type="search"
          placeholder="Search by structure ID, name or description..."
          value={term}
          onChange={(event) => setTerm(event.target.value)}
        />
      </div>
      {term.trim() === '' && featured.length > 0 ? (
        <section className="catalog-section" aria-labelledby="featured-heading" data-testid="featured">
          <h2 className="panel-title" id="featured-heading">
            Featured Projects
          </h2>
          <div className="card-grid">
            {featured.map((project) => (
              <CatalogProjectCard key={project.id} project={project} modelCount={modelCountOf(counts, project.id)} />
            ))}
          </div>
        </section>
      ) : null}
      <section className="catalog-section" aria-labelledby="all-heading" data-testid="all-projects">
        <div className="panel-head">
          <h2 className="panel-title" id="all-heading">
            Browse All Projects
          </h2>
          <Link className="button button-secondary button-small" to={paths.projects.getHref()}>
            Project List
          </Link>
        </div>
        {projects.length === 0 ? (
          <EmptyState title="No Projects Yet" />
        ) : matching.length === 0 ? (
          <p className="muted">No projects match “{term.trim()}”.</p>
        ) : (
          <VirtualCardGrid
            items={matching}
            itemKey={(project) => project.id}
            estimatedRowHeight={CATALOG_CARD_ROW_ESTIMATE_PX}
            testId="catalog-grid"
            renderItem={(project) => <CatalogProjectCard project={project} modelCount={modelCountOf(counts, project.id)} />}
          />
        )}
      </section>
    </>
  );
}

export function CatalogHome({ projects, summaries }: { projects: Resource<Project[]>; summaries: Resource<ProjectSummary[]> }) {
  const counts = useMemo(() => summaryCounts(summaries.data ?? []), [summaries.data]);
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') {
    // a failed read must not look like an empty catalog (no '0 Total Projects', no 'No Projects Yet')
    console.error(projects.error);
    return (
      <p className="alert alert-error" role="alert">
        {ModelMessages.loadProjectsFailed}
      </p>
    );
  }
  return <CatalogHomeView projects={projects.data} counts={counts} />;
}
