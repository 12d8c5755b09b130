/**
 * The shell of every signed-in route: fixed top bar, left
 * navigation on catalog/projects/models/admin paths, and the session guard (loading, then the
 * page, or a redirect to /login when there is no role).
 *
 * On desktop the navigation is a rail whose collapsed/expanded choice is remembered
 * (localStorage; the auto-collapse on arrival at /catalog still applies); below 768 px it is a
 * drawer over the content, closed on arrival, opened by the top bar's menu button, closed by
 * navigation, Escape, the backdrop and its close button, with focus moved into it and back to
 * the menu button. The connection banner shows while the backend is unreachable.
 *
 * A skip link first in the tab order moves focus to the one `<main>` of the page.
 */
import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Capability, can, routeAccess } from '@shared/roles.js';
import { APP_TITLE } from '../../config/app.js';
import { paths } from '../../config/paths.js';
import {
  NAV_WIDTH_COLLAPSED,
  NAV_WIDTH_EXPANDED,
  readNavCollapsed,
  showsNavigation,
  shouldAutoCollapse,
  useNarrowScreen,
  useNavigationHistory,
  writeNavCollapsed,
} from '../../lib/navigation.js';
import { useSession, useSignOut } from '../../lib/session.js';
import { ConnectionBanner } from '../ui/connection-banner.js';
import { LoadingState } from '../ui/spinner.js';
import { SideNav } from './side-nav.js';
import { SkipLink, mainContentProps } from './skip-link.js';
import { TopBar } from './top-bar.js';

export function AppShell() {
  const session = useSession();
  const location = useLocation();
  const { pathname } = location;
  const history = useNavigationHistory();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const narrow = useNarrowScreen();
  const [collapsed, setCollapsed] = useState(() => readNavCollapsed() ?? false);
  // The drawer is open on the location it was opened at: any navigation closes it.
  const [drawerOpenAt, setDrawerOpenAt] = useState<string | null>(null);
  const drawerOpen = narrow && drawerOpenAt === location.key;
  const menuButton = useRef<HTMLButtonElement>(null);
  const drawer = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    if (history.pathname === pathname && shouldAutoCollapse(pathname, history.previous)) setCollapsed(true);
  }, [history.pathname, history.previous, pathname]);

  // Focus into the drawer when it opens, back to the menu button when it closes.
  useEffect(() => {
    if (drawerOpen) drawer.current?.querySelector<HTMLElement>('button, a[href]')?.focus();
    else if (wasOpen.current) menuButton.current?.focus();
    wasOpen.current = drawerOpen;
  }, [drawerOpen]);

  // While the drawer is open: Escape closes it, and the page behind it does not scroll.
  useEffect(() => {
    if (!drawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpenAt(null);
    };
    document.addEventListener('keydown', onKey);
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.removeEventListener('keydown', onKey);
      document.body.style.overflow = overflow;
    };
  }, [drawerOpen]);

  if (session.status === 'success') {
    // no role → /login; a non-admin on an admin-only path → silently /projects.
    const access = routeAccess(session.data?.role ?? null, pathname);
    if (!access.allow) return <Navigate to={access.redirectTo} replace />;
  }
  const roleLoading = session.status !== 'success';
  const withNav = showsNavigation(pathname);
  const navWidth = collapsed ? NAV_WIDTH_COLLAPSED : NAV_WIDTH_EXPANDED;
  const navProps = {
    email: session.status === 'success' ? (session.data?.user.email ?? null) : null,
    role: session.status === 'success' ? (session.data?.role ?? null) : null,
    roleLoading,
    onSignOut: handleSignOut,
  };

  function toggleRail() {
    setCollapsed((value) => {
      writeNavCollapsed(!value);
      return !value;
    });
  }

  function handleSignOut() {
    signOut().then(
      () => navigate(paths.login.getHref(), { replace: true }),
      (error: unknown) => console.error(error),
    );
  }

  return (
    <div className={`shell${narrow ? ' shell-narrow' : ''}`}>
      <SkipLink />
      <TopBar
        brand={APP_TITLE}
        start={
          withNav && narrow ? (
            <button
              ref={menuButton}
              type="button"
              className="top-bar-menu"
              aria-label="Open navigation"
              aria-expanded={drawerOpen}
              aria-controls="shell-drawer"
              onClick={() => setDrawerOpenAt(location.key)}
            >
              <span aria-hidden="true">☰</span>
            </button>
          ) : null
        }
      >
        {session.status === 'success' && session.data ? (
          <span className="top-bar-user muted" title={session.data.user.email ?? ''}>
            {session.data.user.email}
          </span>
        ) : null}
      </TopBar>
      {withNav && !narrow ? <SideNav id="shell-rail" collapsed={collapsed} onToggle={toggleRail} {...navProps} /> : null}
      {withNav && drawerOpen ? (
        <>
          <div className="nav-backdrop" data-testid="nav-backdrop" aria-hidden="true" onClick={() => setDrawerOpenAt(null)} />
          <SideNav
            variant="drawer"
            id="shell-drawer"
            navRef={drawer}
            collapsed={false}
            onToggle={() => setDrawerOpenAt(null)}
            {...navProps}
          />
        </>
      ) : null}
      <main {...mainContentProps} className="shell-main skip-target" style={{ marginLeft: withNav && !narrow ? navWidth : 0 }}>
        <ConnectionBanner />
        {roleLoading ? <LoadingState label="Loading..." /> : <Outlet />}
      </main>
    </div>
  );
}

/** Admin-only routes: anyone else is silently redirected to /projects. */
export function RequireAdmin() {
  const session = useSession();
  if (session.status !== 'success') return <LoadingState label="Loading..." />;
  if (!can(session.data?.role ?? null, Capability.AdminPaths)) return <Navigate to={paths.projects.getHref()} replace />;
  return <Outlet />;
}
