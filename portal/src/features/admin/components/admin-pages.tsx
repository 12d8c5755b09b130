/**
 * The admin sub-pages wired to the backend (SPEC.md §2 Admin dashboard sub-routes): Create
 * Project, Edit Project (with its models), Add Model to Project and User Management.
 */
import { Link, useNavigate, useParams } from 'react-router-dom';
import { registerUser, grantAdmin, createProject, updateProject, setReferenceModel } from '@shared/workflows/index.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import { useBackend } from '../../../lib/backend-context.js';
import { useSubscription } from '../../../lib/resource.js';
import type { Project } from '@shared/types.js';
import { ProjectMessages } from '@shared/messages.js';
import { useSignOut } from '../../auth/api/sign-in.js';
import { AddModelPage } from '../../add-model/components/add-model-page.js';
import { useProjectModels } from '../../projects/api/use-project-models.js';
import { ProjectForm } from './project-form.js';
import { ReferencePicker } from './reference-picker.js';
import { UserManagement } from './user-management.js';

/** /admin/projects: the create-project form; after creation, /admin/projects/{newId}. */
export function CreateProjectPage() {
  const { catalog } = useBackend();
  const navigate = useNavigate();
  return (
    <ProjectForm
      onSubmit={async (input) => {
        const id = await createProject(catalog, input);
        navigate(paths.admin.editProject.getHref(id));
      }}
    />
  );
}

function useLiveProject(projectId: string) {
  const { catalog } = useBackend();
  return useSubscription<Project | null>(`admin-project:${projectId}`, (onNext, onError) =>
    catalog.subscribe('projects', undefined, (docs) => onNext(docs.find((p) => p.id === projectId) ?? null), onError),
  );
}

/** /admin/projects/{projectId}: Edit Project with Project Details and Project Models. */
export function EditProjectPage() {
  const { projectId = '' } = useParams();
  const { catalog } = useBackend();
  const navigate = useNavigate();
  const project = useLiveProject(projectId);
  const models = useProjectModels(projectId);
  if (project.status === 'loading') return <LoadingState label="Loading project..." />;
  if (project.status === 'error' || project.data === null) {
    return <p className="alert alert-error">{ProjectMessages.notFoundSentence}</p>;
  }
  const current = project.data;
  return (
    <div className="edit-project">
      <div className="page-header">
        <h2 className="page-title">Edit Project</h2>
        <Link to={paths.admin.projects.getHref()} className="button button-ghost">
          Back to Projects
        </Link>
      </div>
      <div className="grid-2">
        <section aria-label="Project Details">
          <h3 className="section-title">Project Details</h3>
          <ProjectForm
            key={current.id}
            project={current}
            onSubmit={(input) => updateProject(catalog, current.id, input)}
            onCancel={() => navigate(paths.admin.projects.getHref())}
          />
        </section>
        <section>
          <ReferencePicker
            project={current}
            models={models.status === 'success' ? models.data : []}
            onSetReference={(modelId) => setReferenceModel(catalog, current.id, modelId)}
          />
        </section>
      </div>
    </div>
  );
}

/** /admin/models/add/{projectId}: 'Add Model to Project'. */
export function AdminAddModelPage() {
  const { projectId = '' } = useParams();
  return (
    <div>
      <div className="page-header">
        <div>
          <h2 className="page-title">Add Model to Project</h2>
          <p className="muted">Upload and configure a new 3D model for this project</p>
        </div>
        <Link to={paths.admin.projectManagement.getHref(projectId)} className="button button-ghost">
          Back
        </Link>
      </div>
      <AddModelPage projectId={projectId} doneHref={paths.admin.projectManagement.getHref(projectId)} />
    </div>
  );
}

/** /admin/users. */
export function UserManagementPage() {
  const backend = useBackend();
  const navigate = useNavigate();
  const signOut = useSignOut();
  return (
    <UserManagement
      onRegister={(input) => registerUser(backend, input, backend.identity.currentUser()?.uid ?? null)}
      onGrant={(uid) => grantAdmin(backend.catalog, uid)}
      onSignOut={() =>
        void signOut().then(
          () => navigate(paths.login.getHref(), { replace: true }),
          (error: unknown) => console.error(error),
        )
      }
    />
  );
}
