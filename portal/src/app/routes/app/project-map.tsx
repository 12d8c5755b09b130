/** /projects/map, the map of projects with a location: see `features/map`, on the live projects and their summaries (model counts). */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { ProjectMap } from '../../../features/map/components/project-map.js';
import { useProjectSummaries } from '../../../features/projects/api/use-project-summaries.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';

function LiveProjectMap() {
  return <ProjectMap projects={useProjects()} summaries={useProjectSummaries()} />;
}

export default function ProjectMapRoute() {
  usePageTitle('Project Map');
  return (
    <SignedInPage signedOut={{ text: 'Please sign in to access projects.' }} title="Project Map" subtitle="Inspection projects by location">
      <LiveProjectMap />
    </SignedInPage>
  );
}
