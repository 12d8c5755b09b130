/**
 * Shell navigation rules: where the left navigation shows, and when it collapses
 * by itself. The previous path is tracked app-wide by `NavigationHistoryProvider`.
 */
import { createContext, useContext, useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { NAV_PATH_PREFIXES, paths } from '../config/paths.js';
import { useFocusOnNavigation } from './route-focus.js';

/** Left navigation width in px, expanded and collapsed. */
export { NAV_WIDTH_COLLAPSED_PX as NAV_WIDTH_COLLAPSED, NAV_WIDTH_EXPANDED_PX as NAV_WIDTH_EXPANDED } from '@shared/constants.js';

/**
 * Widest viewport (px) at which the navigation is a drawer over the content instead of a rail
 * beside it; CSS uses the same `(max-width: 767px)`.
 */
export const NARROW_SCREEN_MAX_PX = 767;
const NARROW_QUERY = `(max-width: ${NARROW_SCREEN_MAX_PX}px)`;

function narrowQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_QUERY) : null;
}

/** True while the viewport is at most {@link NARROW_SCREEN_MAX_PX} wide (false where matchMedia is missing, e.g. jsdom). */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = narrowQuery();
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    () => narrowQuery()?.matches ?? false,
    () => false,
  );
}

/** localStorage key of the desktop navigation's collapsed/expanded choice. */
export const NAV_COLLAPSED_STORAGE_KEY = 'catalog.nav.collapsed';

/** The remembered desktop choice: true collapsed, false expanded, null never chosen (or no storage). */
export function readNavCollapsed(): boolean | null {
  try {
    const value = window.localStorage.getItem(NAV_COLLAPSED_STORAGE_KEY);
    return value === 'true' ? true : value === 'false' ? false : null;
  } catch {
    return null;
  }
}

/** Remembers the desktop choice across reloads (ignored when storage is unavailable). */
export function writeNavCollapsed(collapsed: boolean): void {
  try {
    window.localStorage.setItem(NAV_COLLAPSED_STORAGE_KEY, String(collapsed));
  } catch {
    // private mode or storage full: the choice lasts for this page only
  }
}

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

/**
 * Records the previous pathname on every navigation and moves focus to the new page's heading
 * (`useFocusOnNavigation`); must be inside the router.
 */
export function NavigationHistoryProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const last = useRef<string | null>(null);
  const [history, setHistory] = useState<NavigationHistory>({ pathname, previous: null });
  useFocusOnNavigation();
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
