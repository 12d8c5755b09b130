/** /models (SPEC.md §2 Model list): see `features/models`; the admin upload panel lists the live projects. */
import { SignedInPage } from '../../../components/layouts/signed-in-page.js';
import { AdminUploadPanel, ModelList } from '../../../features/models/components/model-list.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';

function UploadToProject() {
  const projects = useProjects();
  return <AdminUploadPanel projects={projects.status === 'success' ? projects.data : []} />;
}

export default function ModelsRoute() {
  return (
    <SignedInPage signedOut={{ text: 'Please sign in to access the model catalog.' }} title="Infrastructure Inspection 3D Models">
      {(role) => <ModelList isAdmin={role === 'admin'} uploadPanel={<UploadToProject />} />}
    </SignedInPage>
  );
}
