/**
 * /admin/* (SPEC.md §2 Admin dashboard): header, banner, the four tabs following the path, the
 * sub-routes, the floating 'Create New Project' button and the 'Quick Actions' hover menu (in the
 * header's markup: fixed at the bottom right on wide screens, in the header on phones; they never
 * cover a control, issue 17). /admin and /admin/ redirect (replacing history) to /admin/projects.
 * Admin-only: the router's guard.
 */
import { Link, NavLink, Navigate, Route, Routes, useLocation, useParams, useSearchParams } from 'react-router-dom';
import { ADMIN_CONTENT_MIN_HEIGHT_PX } from '@shared/constants.js';
import { paths } from '../../../config/paths.js';
import { AddModelPage } from '../../../features/add-model/components/add-model-page.js';
import {
  AdminAddModelFrame,
  CreateProjectPage,
  EditProjectPage,
  UserManagementPage,
} from '../../../features/admin/components/admin-pages.js';
import { ModelManagement } from '../../../features/admin/components/model-management.js';
import { ProjectManagement } from '../../../features/admin/components/project-management.js';
import { useModels } from '../../../features/models/api/use-models.js';
import { useProject } from '../../../features/projects/api/use-project.js';
import { useProjectModels } from '../../../features/projects/api/use-project-models.js';
import { useProjectWithModels } from '../../../features/projects/api/use-project-with-models.js';
import { useProjects } from '../../../features/projects/api/use-projects.js';
import '../../../features/admin/admin.css';

const TABS = [
  { label: 'Create Project', href: paths.admin.projects.getHref() },
  { label: 'Project Management', href: paths.admin.projectManagement.getHref() },
  { label: 'Model Management', href: paths.admin.modelManagement.getHref() },
  { label: 'User Management', href: paths.admin.users.getHref() },
];

/**
 * The tab a path belongs to: its own prefix, except that editing a project
 * (/admin/projects/{projectId}) belongs to Project Management, not to Create Project, and adding
 * a model (/admin/models/add/{projectId}) to Model Management.
 */
export function activeTab(pathname: string): string | undefined {
  const path = pathname.replace(/\/+$/, '');
  if (path.startsWith(`${paths.admin.projects.getHref()}/`)) return paths.admin.projectManagement.getHref();
  if (path.startsWith('/admin/models/')) return paths.admin.modelManagement.getHref();
  return TABS.find((tab) => path === tab.href || path.startsWith(`${tab.href}/`))?.href;
}

// The admin screens on the other features' data (the admin feature imports none of them).

/** /admin/projects/{projectId}: the project (read again when its models' reference changes) and its live models. */
function EditProject() {
  const { projectId = '' } = useParams();
  const { project, models } = useProjectWithModels(projectId);
  return <EditProjectPage project={project} models={models} />;
}

/** /admin/project-management: the live projects and the selected one's models; `?projectId=` selects. */
function ManageProjects() {
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('projectId');
  const projects = useProjects();
  const models = useProjectModels(selectedId ?? undefined);
  return (
    <ProjectManagement
      projects={projects}
      models={models}
      selectedId={selectedId}
      onSelect={(id) => setParams(id ? { projectId: id } : {}, { replace: true })}
    />
  );
}

/** /admin/model-management: the live models (an admin sees hidden ones too). */
function ManageModels() {
  return <ModelManagement models={useModels()} />;
}

/** /admin/models/add/{projectId}: the add-model form in the admin frame; done: back to Project Management. */
function AddModel() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  return (
    <AdminAddModelFrame projectId={projectId}>
      <AddModelPage project={project} doneHref={paths.admin.projectManagement.getHref(projectId)} />
    </AdminAddModelFrame>
  );
}

export default function AdminRoute() {
  const active = activeTab(useLocation().pathname);
  return (
    <div className="page admin-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Admin Dashboard</h1>
          <p className="muted">Manage projects, models, and users across the platform</p>
        </div>
        <div className="admin-fab">
          <div className="quick-menu">
            <button type="button" className="button button-secondary quick-menu-trigger" aria-haspopup="true">
              Quick Actions
            </button>
            <div className="quick-menu-items" role="menu">
              <Link role="menuitem" to={paths.projects.getHref()}>
                View All Projects
              </Link>
              <Link role="menuitem" to={paths.models.getHref()}>
                Model Catalog
              </Link>
              <Link role="menuitem" to={paths.admin.users.getHref()}>
                Manage Users
              </Link>
            </div>
          </div>
          <Link to={paths.admin.projects.getHref()} className="button button-primary">
            Create New Project
          </Link>
        </div>
      </header>
      <p className="alert alert-success">Administrator access granted. You have full control over projects, models, and user management.</p>
      <nav className="tabs" aria-label="Admin sections">
        {TABS.map((tab) => (
          <NavLink
            key={tab.href}
            to={tab.href}
            className={`tab${tab.href === active ? ' active' : ''}`}
            aria-current={tab.href === active ? 'page' : undefined}
          >
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <div className="admin-content" style={{ minHeight: ADMIN_CONTENT_MIN_HEIGHT_PX }}>
        <Routes>
          <Route index element={<Navigate to={paths.admin.projects.getHref()} replace />} />
          <Route path="projects" element={<CreateProjectPage />} />
          <Route path="projects/:projectId" element={<EditProject />} />
          <Route path="project-management" element={<ManageProjects />} />
          <Route path="model-management" element={<ManageModels />} />
          <Route path="users" element={<UserManagementPage />} />
          <Route path="models/add/:projectId" element={<AddModel />} />
          <Route path="*" element={<Navigate to={paths.admin.projects.getHref()} replace />} />
        </Routes>
      </div>
    </div>
  );
}
