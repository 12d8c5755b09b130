/**
 * Focus after a page change (WCAG 2.4.3 Focus Order): a client-side
 * navigation leaves focus on the link that was pressed (or on <body> when that link is gone), so
 * a screen reader announces nothing and a keyboard user starts from wherever that was. After every
 * pathname change except the first page, focus moves to the new page's main heading — the first
 * `h1` inside `<main>` (any `h1` on a page without `<main>`; `<main>` itself when no heading came) — made focusable with `tabindex="-1"` (so it
 * is not added to the Tab order). Lazy routes render their heading later: the heading is awaited
 * for up to {@link ROUTE_FOCUS_WAIT_MS}. Focus that already moved elsewhere on purpose meanwhile
 * (into a dialog, a field the page autofocused) is left alone. Query-string changes (a view
 * switch, a filter) keep focus where it is.
 */
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';

/** How long (ms) a new page's heading is awaited after a navigation before giving up. */
export const ROUTE_FOCUS_WAIT_MS = 5_000;

/**
 * The element focus moves to on the current page: the first `h1` inside `<main>`; on a page
 * without `<main>`, the first `h1`; null while neither is there (a page still loading).
 * @param final true once the wait is over: then `<main>` itself when it has no heading
 */
export function routeFocusTarget(final = false, root: ParentNode = document): HTMLElement | null {
  const main = root.querySelector<HTMLElement>('main');
  if (main === null) return root.querySelector<HTMLElement>('h1');
  return main.querySelector<HTMLElement>('h1') ?? (final ? main : null);
}

/** Focus counts as placed on purpose when it is inside a dialog or on a form field. */
function focusPlacedOnPurpose(active: Element | null, before: Element | null): boolean {
  if (active === null || active === document.body || active === before) return false;
  return active.closest('[role="dialog"], [role="alertdialog"], dialog') !== null || active.matches('input, select, textarea');
}

/** Focuses `target` without scrolling, adding `tabindex="-1"` when it is not focusable already. */
function focusHeading(target: HTMLElement): void {
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
}

/**
 * Moves focus to the new page's heading after every pathname change (not on the first page).
 * Call once, inside the router.
 */
export function useFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  // What had focus when the navigation happened, read while rendering the new page: before its
  // commit, where React focuses `autoFocus` fields.
  const seen = useRef<{ pathname: string; before: Element | null }>({ pathname, before: null });
  if (seen.current.pathname !== pathname) seen.current = { pathname, before: document.activeElement };
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const before = seen.current.before;
    let done = false;
    const attempt = (): boolean => {
      if (done) return true;
      if (focusPlacedOnPurpose(document.activeElement, before)) return (done = true);
      const target = routeFocusTarget();
      if (target === null) return false;
      focusHeading(target);
      return (done = true);
    };
    // After this render's other effects (a closing drawer gives focus back to its button first).
    const frame = requestAnimationFrame(() => {
      if (attempt()) return;
      observer.observe(document.body, { childList: true, subtree: true });
    });
    const observer = new MutationObserver(() => {
      if (attempt()) observer.disconnect();
    });
    const timer = window.setTimeout(() => {
      observer.disconnect();
      const main = done ? null : routeFocusTarget(true);
      if (main !== null && !focusPlacedOnPurpose(document.activeElement, before)) focusHeading(main);
      done = true;
    }, ROUTE_FOCUS_WAIT_MS);
    return () => {
      done = true;
      cancelAnimationFrame(frame);
      observer.disconnect();
      window.clearTimeout(timer);
    };
  }, [pathname]);
}
