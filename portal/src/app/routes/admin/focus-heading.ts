/**
 * Focus after an in-app page change (issue 19, WCAG 2.4.3 Focus Order): when a navigation took the
 * focused control away with the old page (a submit button, a 'Manage' link), the focus would be
 * left on <body> and the next Tab would start again at the top of the document. The new page's
 * h1 takes it instead (made focusable by script), so a screen reader reads where the user is and
 * Tab goes on from there. A fresh load of the document (its first history entry) and a focus that
 * is still on something (e.g. the admin tab link just pressed) are left alone.
 */
import { useEffect } from 'react';

/** True when the focus is on nothing in particular (the body, or no element). */
function focusLost(): boolean {
  return document.activeElement === null || document.activeElement === document.body;
}

/** True after at least one navigation inside the app (react-router keeps the entry's index in history.state). */
function navigatedInApp(): boolean {
  const state = window.history.state as { idx?: unknown } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * Moves the focus to the page's h1 once `ready` (the heading is rendered), on mount and whenever
 * `key` (the path) changes, when the focus was lost by an in-app navigation.
 */
export function useFocusHeadingAfterNavigation(ready: boolean, key: string): void {
  useEffect(() => {
    if (!ready || !focusLost() || !navigatedInApp()) return;
    const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
    if (heading === null) return;
    if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
    heading.focus();
  }, [ready, key]);
}
