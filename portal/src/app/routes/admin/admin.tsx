/**
 * /admin/* (SPEC.md §2 Admin dashboard): header, banner and tabs; the panels are placeholders
 * until the admin issue. /admin and /admin/ redirect (replacing history) to /admin/projects.
 */
import { NavLink, Navigate, Route, Routes } from 'react-router-dom';
import { paths } from '../../../config/paths.js';

const TABS = [
  { label: 'Create Project', href: paths.admin.projects.getHref() },
  { label: 'Project Management', href: paths.admin.projectManagement.getHref() },
  { label: 'Model Management', href: paths.admin.modelManagement.getHref() },
  { label: 'User Management', href: paths.admin.users.getHref() },
];

function Placeholder({ title }: { title: string }) {
  return (
    <section className="panel">
      <h2 className="panel-title">{title}</h2>
      <p className="muted">This panel arrives in a later release.</p>
    </section>
  );
}

export default function AdminRoute() {
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
          <NavLink key={tab.href} to={tab.href} className={({ isActive }) => `tab${isActive ? ' active' : ''}`}>
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <div className="admin-content">
        <Routes>
          <Route index element={<Navigate to={paths.admin.projects.getHref()} replace />} />
          <Route path="projects" element={<Placeholder title="Create Project" />} />
          <Route path="projects/:projectId" element={<Placeholder title="Edit Project" />} />
          <Route path="project-management" element={<Placeholder title="Project Management" />} />
          <Route path="model-management" element={<Placeholder title="Model Management" />} />
          <Route path="users" element={<Placeholder title="User Management" />} />
          <Route path="models/add/:projectId" element={<Placeholder title="Add Model to Project" />} />
          <Route path="*" element={<Navigate to={paths.admin.projects.getHref()} replace />} />
        </Routes>
      </div>
    </div>
  );
}
