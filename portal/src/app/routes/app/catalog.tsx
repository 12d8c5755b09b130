/**
 * /catalog (SPEC.md §2 Catalog home): hero and the Total Projects / Multi-Temporal Projects
 * counts; search and Featured Projects arrive with the catalog-home issue.
 */
import { Link } from 'react-router-dom';
import { catalogStats } from '../../../../../shared/projects.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useModels } from '../../../features/models/api/use-models.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';

export default function CatalogRoute() {
  const projects = useProjects();
  const models = useModels();
  const counts = new Map<string, number>();
  for (const model of models.data ?? []) {
    if (model.projectId) counts.set(model.projectId, (counts.get(model.projectId) ?? 0) + 1);
  }
  const stats = catalogStats(projects.data ?? [], counts);
  return (
    <div className="page">
      <header className="hero">
        <h1 className="page-title">Infrastructure Inspection Catalog</h1>
      </header>
      {projects.status === 'loading' ? (
        <LoadingState label="Loading projects..." />
      ) : (
        <div className="stat-grid">
          <div className="stat-card">
            <div className="stat-value">{stats.totalProjects}</div>
            <div className="stat-label">Total Projects</div>
          </div>
          <div className="stat-card">
            <div className="stat-value">{stats.multiTemporalProjects}</div>
            <div className="stat-label">Multi-Temporal Projects</div>
          </div>
        </div>
      )}
      <Link className="button button-primary" to={paths.projects.getHref()}>
        Browse All Projects
      </Link>
    </div>
  );
}
