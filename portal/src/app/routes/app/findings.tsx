/**
 * /projects/{projectId}/findings: the project's findings report, for
 * signed-in users, over the project's models they can open. Composes the projects feature (the
 * project and its live models) and the findings feature (the report).
 */
import { useParams } from 'react-router-dom';
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { EmptyState, ProjectLoadFailed, ProjectNotFound } from '../../../components/ui/empty-state.js';
import { throwIfUnreachable } from '../../../components/ui/route-error.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { ProjectFindingsReport } from '../../../features/findings/components/findings-report.js';
import { projectPageTitle, useProjectWithModels } from '../../../features/projects/api/use-project-with-models.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';
import { useViewerUrl } from '../../../lib/runtime-config.js';

function ProjectFindings({ projectId }: { projectId: string }) {
  const { project, models } = useProjectWithModels(projectId);
  const viewerUrl = useViewerUrl();
  usePageTitle(projectPageTitle(project, (data) => `Findings · ${data.name}`));
  throwIfUnreachable(project.error);
  throwIfUnreachable(models.error);
  if (project.status === 'error') {
    console.error(project.error);
    return <ProjectLoadFailed error={project.error} />;
  }
  if (project.status === 'loading' || models.status === 'loading') return <LoadingState label="Loading findings..." />;
  if (project.data === null) return <ProjectNotFound />;
  if (models.status === 'error') {
    console.error(models.error);
    return <p className="alert alert-error">Failed to load findings. Please try again.</p>;
  }
  return <ProjectFindingsReport project={project.data} models={models.data} viewerUrl={viewerUrl} />;
}

export default function FindingsRoute() {
  const { projectId } = useParams();
  return (
    <SignedInPage signedOut={{ title: 'Authentication Required', text: 'Please log in to view project findings.' }}>
      {() =>
        projectId ? (
          <ProjectFindings key={projectId} projectId={projectId} />
        ) : (
          <EmptyState level={1} title="Project Not Found" text="The requested project could not be found." />
        )
      }
    </SignedInPage>
  );
}
