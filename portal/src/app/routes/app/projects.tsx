/** /projects, the list of every project as cards or a table: see `features/projects`; thumbnails and counts from the live project summaries. */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { useProjectSummaries } from '../../../features/projects/api/use-project-summaries.js';
import { ProjectList } from '../../../features/projects/components/project-list.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';

function Projects({ isAdmin }: { isAdmin: boolean }) {
  return <ProjectList isAdmin={isAdmin} summaries={useProjectSummaries()} />;
}

export default function ProjectsRoute() {
  usePageTitle('Projects');
  return (
    <SignedInPage
      signedOut={{ text: 'Please sign in to access projects.' }}
      title="Projects"
      subtitle="Inspection projects sorted by structure ID"
    >
      {(role) => <Projects isAdmin={role === 'admin'} />}
    </SignedInPage>
  );
}
