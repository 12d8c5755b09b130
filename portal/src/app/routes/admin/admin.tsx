/**
 * /admin/* (SPEC.md §2 Admin dashboard): header, banner, the four tabs following the path, the
 * sub-routes, the floating 'Create New Project' button and the 'Quick Actions' hover menu. /admin
 * and /admin/ redirect (replacing history) to /admin/projects. Admin-only: the router's guard.
 */
import { Link, NavLink, Navigate, Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_CONTENT_MIN_HEIGHT_PX } from '@shared/constants.js';
import { paths } from '../../../config/paths.js';
import {
  AdminAddModelPage,
  CreateProjectPage,
  EditProjectPage,
  UserManagementPage,
} from '../../../features/admin/components/admin-pages.js';
import { ModelManagement } from '../../../features/admin/components/model-management.js';
import { ProjectManagement } from '../../../features/admin/components/project-management.js';
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

export default function AdminRoute() {
  const active = activeTab(useLocation().pathname);
  return (
    <div className="page admin-page">
      <header className="page-header">
        <div>
          <h1 className="page-title">Admin Dashboard</h1>
          <p className="muted">Manage projects, models, and users across the platform</p>
        </div>
      </header>
      <p className="alert alert-success">
        Administrator access granted. You have full control over projects, models, and user management.
      </p>
      <nav className="tabs" aria-label="Admin sections">
        {TABS.map((tab) => (
          <NavLink key={tab.href} to={tab.href} className={`tab${tab.href === active ? ' active' : ''}`} aria-current={tab.href === active ? 'page' : undefined}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <div className="admin-content" style={{ minHeight: ADMIN_CONTENT_MIN_HEIGHT_PX }}>
        <Routes>
          <Route index element={<Navigate to={paths.admin.projects.getHref()} replace />} />
          <Route path="projects" element={<CreateProjectPage />} />
          <Route path="projects/:projectId" element={<EditProjectPage />} />
          <Route path="project-management" element={<ProjectManagement />} />
          <Route path="model-management" element={<ModelManagement />} />
          <Route path="users" element={<UserManagementPage />} />
          <Route path="models/add/:projectId" element={<AdminAddModelPage />} />
          <Route path="*" element={<Navigate to={paths.admin.projects.getHref()} replace />} />
        </Routes>
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
    </div>
  );
}
