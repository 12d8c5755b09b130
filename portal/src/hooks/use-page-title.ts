/**
 * The document title of a screen (WCAG 2.4.2 "Page Titled"): `"{title} · Tower Models
 * Catalog"`, or the application title alone when `title` is null or empty (a page still loading
 * its subject, e.g. a project before its name is known). The previous title comes back when the
 * screen unmounts, so a dialog or panel may set its own title over its page's.
 */
import { useEffect } from 'react';
import { APP_TITLE } from '../config/app.js';

/** The full document title for a screen title (`APP_TITLE` alone for null or ''). */
export function pageTitle(title: string | null | undefined): string {
  return title ? `${title} · ${APP_TITLE}` : APP_TITLE;
}

/**
 * Sets `document.title` to {@link pageTitle}(`title`) while the calling component is mounted and
 * whenever `title` changes; restores the title that was there before on unmount.
 */
export function usePageTitle(title: string | null | undefined): void {
  useEffect(() => {
    const previous = document.title;
    document.title = pageTitle(title);
    return () => {
      document.title = previous;
    };
  }, [title]);
}
