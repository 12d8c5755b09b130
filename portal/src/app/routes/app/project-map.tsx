/** /projects/map (SPEC.md §2 Project map): see `features/map`. */
import { EmptyState } from '../../../components/ui/empty-state.js';
import { ProjectMap } from '../../../features/map/components/project-map.js';
import { useRole } from '../../../lib/session.js';

export default function ProjectMapRoute() {
  const role = useRole();
  if (role === null) return <EmptyState title="Login Required" text="Please sign in to access projects." />;
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Project Map</h1>
          <p className="muted">Inspection projects by location</p>
        </div>
      </header>
      <ProjectMap />
    </div>
  );
}
