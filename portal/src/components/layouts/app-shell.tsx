/**
 * The shell of every signed-in route (SPEC.md §2 Shell, §4 Session): fixed top bar, left
 * navigation on catalog/projects/models/admin paths, and the session guard (loading, then the
 * page, or a redirect to /login when there is no role).
 */
import { useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Capability, can, routeAccess } from '@shared/roles.js';
import { APP_TITLE } from '../../config/app.js';
import { paths } from '../../config/paths.js';
import {
  NAV_WIDTH_COLLAPSED,
  NAV_WIDTH_EXPANDED,
  showsNavigation,
  shouldAutoCollapse,
  useNavigationHistory,
} from '../../lib/navigation.js';
import { useSession, useSignOut } from '../../lib/session.js';
import { LoadingState } from '../ui/spinner.js';
import { SideNav } from './side-nav.js';
import { TopBar } from './top-bar.js';

export function AppShell() {
  const session = useSession();
  const { pathname } = useLocation();
  const history = useNavigationHistory();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const [collapsed, setCollapsed] = useState(false);

  useEffect(() => {
    if (history.pathname === pathname && shouldAutoCollapse(pathname, history.previous)) setCollapsed(true);
  }, [history.pathname, history.previous, pathname]);

  if (session.status === 'success') {
    // §4/§6/§8: no role → /login; a non-admin on an admin-only path → silently /projects.
    const access = routeAccess(session.data?.role ?? null, pathname);
    if (!access.allow) return <Navigate to={access.redirectTo} replace />;
  }
  const roleLoading = session.status !== 'success';
  const withNav = showsNavigation(pathname);
  const navWidth = collapsed ? NAV_WIDTH_COLLAPSED : NAV_WIDTH_EXPANDED;

  function handleSignOut() {
    signOut().then(
      () => navigate(paths.login.getHref(), { replace: true }),
      (error: unknown) => console.error(error),
    );
  }

  return (
    <div className="shell">
      <TopBar brand={APP_TITLE}>
        {session.status === 'success' && session.data ? <span className="top-bar-user muted">{session.data.user.email}</span> : null}
      </TopBar>
      {withNav ? (
        <SideNav
          collapsed={collapsed}
          onToggle={() => setCollapsed((value) => !value)}
          email={session.status === 'success' ? (session.data?.user.email ?? null) : null}
          role={session.status === 'success' ? (session.data?.role ?? null) : null}
          roleLoading={roleLoading}
          onSignOut={handleSignOut}
        />
      ) : null}
      <main className="shell-main" style={{ marginLeft: withNav ? navWidth : 0 }}>
        {roleLoading ? <LoadingState label="Loading..." /> : <Outlet />}
      </main>
    </div>
  );
}

/** Admin-only routes (SPEC.md §6): anyone else is silently redirected to /projects. */
export function RequireAdmin() {
  const session = useSession();
  if (session.status !== 'success') return <LoadingState label="Loading..." />;
  if (!can(session.data?.role ?? null, Capability.AdminPaths)) return <Navigate to={paths.projects.getHref()} replace />;
  return <Outlet />;
}
