/** /projects/{projectId} (SPEC.md §2 Project detail). */
import { useParams } from 'react-router-dom';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { ProjectDetail } from '../../../features/projects/components/project-detail.js';
import { useRole } from '../../../lib/session.js';

export default function ProjectRoute() {
  const { projectId } = useParams();
  const role = useRole();
  if (role === null) return <EmptyState title="Authentication Required" text="Please log in to view project details." />;
  if (!projectId) return <EmptyState title="Project Not Found" text="The requested project could not be found." />;
  return (
    <div className="page">
      <ProjectDetail key={projectId} projectId={projectId} isAdmin={role === 'admin'} />
    </div>
  );
}
