/**
 * /admin/*: header, banner, the four tabs following the path, the
 * sub-routes, the floating 'Create New Project' button and the 'Quick Actions' hover menu (in the
 * header's markup: on an opaque bar fixed at the bottom on wide screens, in the header on phones;
 * they never cover a control, see admin.css). /admin and /admin/ redirect (replacing history) to /admin/projects.
 * Admin-only: the router's guard.
 *
 * Keyboard and screen readers: the tabs are navigation links, the current one with
 * aria-current="page"; 'Quick Actions' is a menu button (aria-haspopup, aria-expanded): Enter,
 * Space or ArrowDown opens it on its first item, ArrowUp on its last, the arrows, Home and End move
 * inside, Escape closes it and gives the focus back to the button, Tab closes it and moves on; a
 * hover still shows it for a mouse. Every screen sets its page title.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link, Navigate, Route, Routes, useLocation, useParams, useSearchParams } from 'react-router-dom';
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
import { usePageTitle } from '../../../hooks/use-page-title.js';
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
  usePageTitle(project.status === 'success' && project.data ? `Edit Project – ${project.data.name}` : 'Edit Project');
  return <EditProjectPage project={project} models={models} />;
}

/** /admin/project-management: the live projects and the selected one's models; `?projectId=` selects. */
function ManageProjects() {
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('projectId');
  const projects = useProjects();
  const models = useProjectModels(selectedId ?? undefined);
  usePageTitle('Project Management – Admin Dashboard');
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
  usePageTitle('Model Management – Admin Dashboard');
  return <ModelManagement models={useModels()} />;
}

/**
 * /admin/models/add/{projectId}: the add-model form in the admin frame; Back, Cancel and a
 * finished upload all go to the project in Project Management.
 */
function AddModel() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  usePageTitle(project.status === 'success' && project.data ? `Add Model – ${project.data.name}` : 'Add Model');
  const back = paths.admin.projectManagement.getHref(projectId);
  return (
    <AdminAddModelFrame projectId={projectId}>
      <AddModelPage project={project} doneHref={back} cancelHref={back} />
    </AdminAddModelFrame>
  );
}

/** /admin/projects. */
function CreateProject() {
  usePageTitle('Create Project – Admin Dashboard');
  return <CreateProjectPage />;
}

/** /admin/users. */
function ManageUsers() {
  usePageTitle('User Management – Admin Dashboard');
  return <UserManagementPage />;
}

const QUICK_ACTIONS = [
  { label: 'View All Projects', href: paths.projects.getHref() },
  { label: 'Model Catalog', href: paths.models.getHref() },
  { label: 'Manage Users', href: paths.admin.users.getHref() },
];

/** The 'Quick Actions' menu button and its menu of links (keyboard: see the file's comment). */
export function QuickActions() {
  const [open, setOpen] = useState(false);
  const menuId = `quick-actions-${useId()}`;
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  /** The item to focus once the menu is shown: an index, or null to leave the focus alone. */
  const [focusItem, setFocusItem] = useState<number | null>(null);
  const items = () => [...(root.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];

  useEffect(() => {
    if (!open || focusItem === null) return;
    const all = items();
    all[(focusItem + all.length) % all.length]?.focus();
    setFocusItem(null);
  }, [open, focusItem]);

  useEffect(() => {
    if (!open) return;
    // a click elsewhere closes the menu
    const away = (event: MouseEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  function show(index: number) {
    setOpen(true);
    setFocusItem(index);
  }

  function close(returnFocus: boolean) {
    setOpen(false);
    if (returnFocus) trigger.current?.focus();
  }

  function onTriggerKey(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      show(0);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      show(-1);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      close(true);
    }
  }

  function onMenuKey(event: KeyboardEvent<HTMLDivElement>) {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (index: number) => {
      event.preventDefault();
      all[(index + all.length) % all.length]?.focus();
    };
    switch (event.key) {
      case 'ArrowDown':
        return move(at + 1);
      case 'ArrowUp':
        return move(at - 1);
      case 'Home':
        return move(0);
      case 'End':
        return move(-1);
      case 'Escape':
        event.preventDefault();
        return close(true);
      case 'Tab':
        // the focus moves on from the menu; it closes behind it
        return close(false);
      case ' ':
        // Space follows a menu item's link, as Enter does
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.click();
        return;
    }
  }

  return (
    <div
      className={`quick-menu${open ? ' open' : ''}`}
      ref={root}
      // the focus left the button and the menu (Tab, a click elsewhere): the menu closes
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={trigger}
        type="button"
        className="button button-secondary quick-menu-trigger"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => (open ? close(false) : show(0))}
        onKeyDown={onTriggerKey}
      >
        Quick Actions
      </button>
      <div className="quick-menu-items" role="menu" id={menuId} aria-label="Quick Actions" onKeyDown={onMenuKey}>
        {QUICK_ACTIONS.map((action) => (
          <Link key={action.href} role="menuitem" tabIndex={-1} to={action.href} onClick={() => setOpen(false)}>
            {action.label}
          </Link>
        ))}
      </div>
    </div>
  );
}

export default function AdminRoute() {
  const { pathname } = useLocation();
  const active = activeTab(pathname);
  return (
    <div className="page admin-page">
      <header className="page-header">
        <div>
          <h1 className="page-title" tabIndex={-1}>
            Admin Dashboard
          </h1>
          <p className="muted">Manage projects, models, and users across the platform</p>
        </div>
        <div className="admin-fab">
          <QuickActions />
          <Link to={paths.admin.projects.getHref()} className="button button-primary">
            Create New Project
          </Link>
        </div>
      </header>
      <p className="alert alert-success">Administrator access granted. You have full control over projects, models, and user management.</p>
      <nav className="tabs" aria-label="Admin sections">
        {/* Link, not NavLink: NavLink would also mark Create Project (/admin/projects) current on
            /admin/projects/{id}, a second active tab beside the one activeTab picks */}
        {TABS.map((tab) => (
          <Link
            key={tab.href}
            to={tab.href}
            className={`tab${tab.href === active ? ' active' : ''}`}
            aria-current={tab.href === active ? 'page' : undefined}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      <div className="admin-content" style={{ minHeight: ADMIN_CONTENT_MIN_HEIGHT_PX }}>
        <Routes>
          <Route index element={<Navigate to={paths.admin.projects.getHref()} replace />} />
          <Route path="projects" element={<CreateProject />} />
          <Route path="projects/:projectId" element={<EditProject />} />
          <Route path="project-management" element={<ManageProjects />} />
          <Route path="model-management" element={<ManageModels />} />
          <Route path="users" element={<ManageUsers />} />
          <Route path="models/add/:projectId" element={<AddModel />} />
          <Route path="*" element={<Navigate to={paths.admin.projects.getHref()} replace />} />
        </Routes>
      </div>
    </div>
  );
}
