/**
 * The admin sub-pages (the admin dashboard's sub-routes): Create Project, Edit Project (with
 * its models), the frame of Add Model to Project and User Management. What they need from other
 * features (the project, its models, the add-model form) the app's admin route hands in.
 */
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { ProjectMessages, loadProjectFailed } from '@shared/messages.js';
import type { Model, Project } from '@shared/types.js';
import { FlashBanner } from '../../../components/ui/banner.js';
import { useFlash, type FlashState } from '../../../hooks/use-flash.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import type { Resource } from '../../../lib/resource.js';
import { useSignOut } from '../../../lib/session.js';
import { useCreateProject } from '../api/create-project.js';
import { useGrantAdmin } from '../api/grant-admin.js';
import { useUserList } from '../api/list-users.js';
import { useRegisterUser } from '../api/register-user.js';
import { useSetReferenceModel } from '../api/set-reference-model.js';
import { useUpdateProject } from '../api/update-project.js';
import { ProjectForm } from './project-form.js';
import { ReferencePicker } from './reference-picker.js';
import { UserManagement } from './user-management.js';
import { errorMessage } from '@shared/errors.js';

/**
 * /admin/projects: the create-project form; after creation, /admin/projects/{newId} showing
 * 'Project created successfully!' (the form's own banner went with the page).
 */
export function CreateProjectPage() {
  const createProject = useCreateProject();
  const navigate = useNavigate();
  return (
    <ProjectForm
      successText={null}
      onSubmit={async (input) => {
        const id = await createProject(input);
        navigate(paths.admin.editProject.getHref(id), { state: { flash: ProjectMessages.created } satisfies FlashState });
      }}
    />
  );
}

/** /admin/projects/{projectId}: Edit Project with Project Details and Project Models. */
export function EditProjectPage({ project, models }: { project: Resource<Project | null>; models: Resource<Model[]> }) {
  const navigate = useNavigate();
  const flash = useFlash();
  const updateProject = useUpdateProject();
  const setReferenceModel = useSetReferenceModel();
  if (project.status === 'loading') return <LoadingState label="Loading project..." />;
  if (project.status === 'error') {
    // the server answered with an error: say so, never that the project does not exist
    console.error(project.error);
    return (
      <p className="alert alert-error" role="alert">
        {loadProjectFailed(errorMessage(project.error))}
      </p>
    );
  }
  if (project.data === null) return <p className="alert alert-error">{ProjectMessages.notFoundSentence}</p>;
  const current = project.data;
  return (
    <div className="edit-project">
      <div className="page-header">
        <h2 className="page-title">Edit Project</h2>
        <Link to={paths.admin.projects.getHref()} className="button button-ghost">
          Back to Projects
        </Link>
      </div>
      <FlashBanner text={flash} />
      <div className="grid-2">
        <section aria-labelledby="project-details-title">
          <h3 className="section-title" id="project-details-title">
            Project Details
          </h3>
          <ProjectForm
            key={current.id}
            project={current}
            headingLevel={4}
            onSubmit={async (input) => {
              await updateProject(current.id, input);
              // the creation message gives way to the update's
              if (flash !== null) navigate('.', { replace: true, state: null });
            }}
            onCancel={() => navigate(paths.admin.projects.getHref())}
          />
        </section>
        <section>
          <ReferencePicker
            project={current}
            models={models.status === 'success' ? models.data : []}
            onSetReference={(modelId) => setReferenceModel(current.id, modelId)}
          />
        </section>
      </div>
    </div>
  );
}

/** /admin/models/add/{projectId}: the 'Add Model to Project' header around the add-model form (`children`). */
export function AdminAddModelFrame({ projectId, children }: { projectId: string; children: ReactNode }) {
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
      {children}
    </div>
  );
}

/** /admin/users. */
export function UserManagementPage() {
  const navigate = useNavigate();
  const signOut = useSignOut();
  const registerUser = useRegisterUser();
  const grantAdmin = useGrantAdmin();
  const users = useUserList();
  return (
    <UserManagement
      users={users}
      onRegister={registerUser}
      onGrant={grantAdmin}
      onSignOut={() =>
        void signOut().then(
          () => navigate(paths.login.getHref(), { replace: true }),
          (error: unknown) => console.error(error),
        )
      }
    />
  );
}
