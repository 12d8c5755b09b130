/**
 * What the viewer's views share around their viewports: the header (back to the catalog, the
 * title as the page's h1, the view's toggles and 'Fullscreen') and the fullscreen state of the
 * page.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { paths } from '../../../config/paths.js';
import type { ViewerModel } from '../api/viewer-models.js';

/** The model a viewport found: undefined while it looks, null when there is none. */
export type Found = ViewerModel | null | undefined;

/** Puts an element in and out of fullscreen (the Fullscreen API; a refused request is ignored). */
export function useFullscreen(): [RefObject<HTMLDivElement | null>, boolean, () => void] {
  const ref = useRef<HTMLDivElement>(null);
  const [on, setOn] = useState(false);
  useEffect(() => {
    const update = () => setOn(document.fullscreenElement !== null && document.fullscreenElement === ref.current);
    document.addEventListener('fullscreenchange', update);
    return () => document.removeEventListener('fullscreenchange', update);
  }, []);
  const toggle = useCallback(() => {
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void ref.current?.requestFullscreen?.().catch(() => undefined);
  }, []);
  return [ref, on, toggle];
}

/** The viewer's header: 'Catalog', the title (h1), the view's toggles (`children`) and 'Fullscreen'. */
export function ViewerHeader({
  title,
  fullscreen,
  onFullscreen,
  children,
}: {
  title: string;
  fullscreen: boolean;
  onFullscreen: () => void;
  children?: ReactNode;
}) {
  return (
    <header className="viewer-header">
      <Link className="viewer-back" to={paths.catalog.getHref()}>
        ← Catalog
      </Link>
      <h1 className="viewer-title">{title}</h1>
      <div className="viewer-actions">
        {children}
        <button type="button" aria-pressed={fullscreen} onClick={onFullscreen}>
          Fullscreen
        </button>
      </div>
    </header>
  );
}
