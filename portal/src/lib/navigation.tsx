/**
 * Shell navigation rules of SPEC.md §2: where the left navigation shows, and when it collapses
 * by itself. The previous path is tracked app-wide by `NavigationHistoryProvider`.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { NAV_PATH_PREFIXES, paths } from '../config/paths.js';

/** Left navigation width in px, expanded and collapsed (SPEC.md §9). */
export { NAV_WIDTH_COLLAPSED_PX as NAV_WIDTH_COLLAPSED, NAV_WIDTH_EXPANDED_PX as NAV_WIDTH_EXPANDED } from '@shared/constants.js';

/** True when the left navigation is shown on `pathname` (paths starting with /catalog, /projects, /models, /admin). */
export function showsNavigation(pathname: string): boolean {
  return NAV_PATH_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));
}

/** True when arriving at `pathname` from `previous` collapses the navigation: /catalog from /, /login or an empty path. */
export function shouldAutoCollapse(pathname: string, previous: string | null): boolean {
  if (pathname !== paths.catalog.path) return false;
  return previous === null || previous === '' || previous === paths.landing.path || previous === paths.login.path;
}

interface NavigationHistory {
  pathname: string;
  previous: string | null;
}

const HistoryContext = createContext<NavigationHistory>({ pathname: '', previous: null });

/** Records the previous pathname on every navigation; must be inside the router. */
export function NavigationHistoryProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const last = useRef<string | null>(null);
  const [history, setHistory] = useState<NavigationHistory>({ pathname, previous: null });
  useEffect(() => {
    if (last.current === pathname) return;
    setHistory({ pathname, previous: last.current });
    last.current = pathname;
  }, [pathname]);
  return <HistoryContext.Provider value={history}>{children}</HistoryContext.Provider>;
}

/** The current and previous pathname (previous is null on the first page). */
export function useNavigationHistory(): NavigationHistory {
  return useContext(HistoryContext);
}
