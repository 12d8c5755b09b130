/** /projects/map (SPEC.md §2 Project map): placeholder until the map issue; lists located projects. */
import { Link } from 'react-router-dom';
import { projectsOnMap } from '../../../../../shared/projects.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';

export default function ProjectMapRoute() {
  const projects = useProjects();
  if (projects.status === 'loading') return <LoadingState label="Loading projects..." />;
  const located = projectsOnMap(projects.data ?? []);
  return (
    <div className="page">
      <header className="page-header">
        <h1 className="page-title">Project Map</h1>
      </header>
      {located.length === 0 ? (
        <EmptyState title="No Projects with Location Data">
          <Link className="button button-secondary" to={paths.catalog.getHref()}>
            Browse All Projects
          </Link>
        </EmptyState>
      ) : (
        <div className="panel">
          <p className="muted">The interactive map arrives in a later release. Projects with location:</p>
          <ul className="plain-list">
            {located.map((p) => (
              <li key={p.id}>
                <Link to={paths.project.getHref(p.id)}>{p.name}</Link>{' '}
                <span className="muted">
                  ({p.location.lat}, {p.location.lng})
                </span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
