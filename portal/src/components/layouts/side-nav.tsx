/**
 * Left navigation of the shell: entries, Quick Actions when expanded, and a
 * footer with the user's email, role and Sign Out (spinner + 'Loading...' while the role loads).
 * On desktop a rail beside the content (256/64 px); below 768 px a drawer over it,
 * always expanded, a modal dialog with a close button.
 */
import type { Ref } from 'react';
import { NavLink, Link } from 'react-router-dom';
import { Capability, can, roleBadge } from '@shared/roles.js';
import type { Role } from '@shared/types.js';
import { paths } from '../../config/paths.js';
import { NAV_WIDTH_COLLAPSED, NAV_WIDTH_EXPANDED } from '../../lib/navigation.js';
import { keepTabInside } from '../ui/focus.js';
import { Spinner } from '../ui/spinner.js';

interface NavEntry {
  label: string;
  description: string;
  href: string;
  icon: string;
  adminOnly?: boolean;
  /** Match the path exactly (Project List must not light up on /projects/map). */
  end?: boolean;
}

export const NAV_ENTRIES: readonly NavEntry[] = [
  { label: 'Catalog Home', description: 'Main catalog overview', href: paths.catalog.getHref(), icon: '⌂', end: true },
  { label: 'Project Map', description: 'Geographic view', href: paths.projectMap.getHref(), icon: '◎', end: true },
  // The table view of the list; lights up on /projects in either view.
  { label: 'Project List', description: 'Table view', href: `${paths.projects.getHref()}?view=table`, icon: '☰', end: true },
  { label: 'Model List', description: '3D model library', href: paths.models.getHref(), icon: '◆', end: true },
  { label: 'Admin', description: 'Management tools', href: paths.admin.root.getHref(), icon: '⚙', adminOnly: true },
];

export interface SideNavProps {
  collapsed: boolean;
  onToggle: () => void;
  email: string | null;
  /** null while the role loads. */
  role: Role | null;
  roleLoading: boolean;
  onSignOut: () => void;
  /** 'rail' beside the content (default) or 'drawer' over it (phones); a drawer's toggle closes it. */
  variant?: 'rail' | 'drawer';
  /** The element's id (the menu button's and the rail toggle's aria-controls). */
  id?: string;
  /** The root element (the shell moves focus into the drawer). */
  navRef?: Ref<HTMLDivElement>;
}

export function SideNav({
  collapsed: collapsedRail,
  onToggle,
  email,
  role,
  roleLoading,
  onSignOut,
  variant = 'rail',
  id,
  navRef,
}: SideNavProps) {
  const isAdmin = can(role, Capability.AdminPaths);
  const entries = NAV_ENTRIES.filter((entry) => !entry.adminOnly || isAdmin);
  const drawer = variant === 'drawer';
  const collapsed = drawer ? false : collapsedRail;
  // The rail is a complementary landmark; the drawer a modal dialog (a role <aside> may not take).
  const Root = drawer ? 'div' : 'aside';
  return (
    <Root
      id={id}
      ref={navRef}
      className={`side-nav${collapsed ? ' side-nav-collapsed' : ''}${drawer ? ' side-nav-drawer' : ''}`}
      style={{ width: collapsed ? NAV_WIDTH_COLLAPSED : NAV_WIDTH_EXPANDED }}
      data-testid="side-nav"
      data-collapsed={collapsed ? 'true' : 'false'}
      {...(drawer ? { role: 'dialog', 'aria-modal': true, 'aria-label': 'Navigation', tabIndex: -1, onKeyDown: keepTabInside } : {})}
    >
      {drawer ? (
        <button type="button" className="side-nav-toggle" onClick={onToggle} aria-label="Close navigation">
          <span aria-hidden="true">✕</span>
        </button>
      ) : (
        <button
          type="button"
          className="side-nav-toggle"
          onClick={onToggle}
          aria-label={collapsed ? 'Expand navigation' : 'Collapse navigation'}
          aria-expanded={!collapsed}
          aria-controls={id}
        >
          <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
        </button>
      )}
      <nav className="side-nav-entries" aria-label="Main navigation">
        {entries.map((entry) => (
          <NavLink
            key={entry.href}
            to={entry.href}
            end={entry.end ?? false}
            className={({ isActive }) => `side-nav-entry${isActive ? ' active' : ''}`}
            title={collapsed ? entry.label : undefined}
          >
            <span className="side-nav-icon" aria-hidden="true">
              {entry.icon}
            </span>
            {collapsed ? (
              <span className="visually-hidden">{entry.label}</span>
            ) : (
              <span className="side-nav-text">
                <span className="side-nav-label">{entry.label}</span>
                <span className="side-nav-description">{entry.description}</span>
              </span>
            )}
          </NavLink>
        ))}
      </nav>
      {!collapsed ? (
        <nav className="quick-actions" aria-labelledby="quick-actions-title">
          <p className="quick-actions-title" id="quick-actions-title">
            Quick Actions
          </p>
          <Link className="quick-action" to={paths.models.getHref()}>
            Browse Models
          </Link>
          {isAdmin ? (
            <Link className="quick-action" to={paths.admin.projects.getHref()}>
              Create Project
            </Link>
          ) : null}
        </nav>
      ) : null}
      <div className="side-nav-footer">
        {roleLoading ? (
          <Spinner size="sm" label="Loading..." />
        ) : (
          <>
            {!collapsed ? (
              <div className="side-nav-email" title={email ?? ''}>
                {email}
              </div>
            ) : null}
            {role ? (
              <span className={`role-badge role-${roleBadge(role).color}`} data-testid="role-badge">
                {roleBadge(role).label}
              </span>
            ) : null}
            <button type="button" className="button button-ghost button-small" onClick={onSignOut}>
              {collapsed ? <span aria-hidden="true">⎋</span> : 'Sign Out'}
              {collapsed ? <span className="visually-hidden">Sign Out</span> : null}
            </button>
          </>
        )}
      </div>
    </Root>
  );
}
