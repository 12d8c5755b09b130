/** /projects/{projectId}. */
import { useParams } from 'react-router-dom';
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { ProjectDetail } from '../../../features/projects/components/project-detail.js';

export default function ProjectRoute() {
  const { projectId } = useParams();
  return (
    <SignedInPage signedOut={{ title: 'Authentication Required', text: 'Please log in to view project details.' }}>
      {(role) =>
        projectId ? (
          <ProjectDetail key={projectId} projectId={projectId} isAdmin={role === 'admin'} />
        ) : (
          <EmptyState title="Project Not Found" text="The requested project could not be found." />
        )
      }
    </SignedInPage>
  );
}
