/** /models: see `features/models`; rows, the project filter and the admin upload panel use the live projects. */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { AdminUploadPanel, ModelList } from '../../../features/models/components/model-list.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';
import { usePageTitle } from '../../../hooks/use-page-title.js';

/** The list with the live projects: rows name their project, the filter lists them, the admin upload panel uploads into them. */
function Models({ isAdmin }: { isAdmin: boolean }) {
  const projects = useProjects();
  const list = projects.status === 'success' ? projects.data : [];
  return <ModelList isAdmin={isAdmin} projects={list} uploadPanel={<AdminUploadPanel projects={list} />} />;
}

export default function ModelsRoute() {
  usePageTitle('Models');
  return (
    <SignedInPage signedOut={{ text: 'Please sign in to access the model catalog.' }} title="Infrastructure Inspection 3D Models">
      {(role) => <Models isAdmin={role === 'admin'} />}
    </SignedInPage>
  );
}
