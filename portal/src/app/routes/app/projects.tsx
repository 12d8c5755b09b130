/** /projects (SPEC.md §2 Project list). */
import { ProjectList } from '../../../features/projects/components/project-list.js';
import { useRole } from '../../../lib/session.js';
import { EmptyState } from '../../../components/ui/empty-state.js';

export default function ProjectsRoute() {
  const role = useRole();
  if (role === null) return <EmptyState title="Login Required" text="Please sign in to access projects." />;
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Projects</h1>
          <p className="muted">Inspection projects sorted by structure ID</p>
        </div>
      </header>
      <ProjectList isAdmin={role === 'admin'} />
    </div>
  );
}
