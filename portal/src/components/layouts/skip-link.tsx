/**
 * The skip link (WCAG 2.4.1 "Bypass Blocks"): the first focusable element of a page
 * with navigation before its content, hidden until it has focus; Enter moves focus to the
 * page's `<main id="main-content" tabIndex={-1}>` (by script: a fragment link would go through
 * the router's history and scroll, not move focus).
 */
import type { MouseEvent } from 'react';

/** The id of the page's main landmark, the skip link's target. */
export const MAIN_CONTENT_ID = 'main-content';

/** Props of the main landmark a skip link points at: its id, focusable by script only, no focus ring. */
export const mainContentProps = { id: MAIN_CONTENT_ID, tabIndex: -1 } as const;

export function SkipLink({ target = MAIN_CONTENT_ID }: { target?: string }) {
  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    const main = document.getElementById(target);
    if (!main) return;
    event.preventDefault();
    main.focus();
  }
  return (
    <a className="skip-link" href={`#${target}`} onClick={onClick}>
      Skip to main content
    </a>
  );
}
