/** /projects/map (SPEC.md §2 Project map): see `features/map`, on the live projects and models. */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { ProjectMap } from '../../../features/map/components/project-map.js';
import { useModels } from '../../../features/models/api/use-models.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';

function LiveProjectMap() {
  return <ProjectMap projects={useProjects()} models={useModels()} />;
}

export default function ProjectMapRoute() {
  usePageTitle('Project Map');
  return (
    <SignedInPage signedOut={{ text: 'Please sign in to access projects.' }} title="Project Map" subtitle="Inspection projects by location">
      <LiveProjectMap />
    </SignedInPage>
  );
}
