/**
 * The error screen of every route: react-router's `errorElement` at the root
 * and inside the shell (so the top bar and navigation stay around it). Never React Router's
 * developer page: a friendly message and a 'Retry' button, by kind of failure —
 *
 * - network: the catalog server does not answer (a request or a page's code failed to load while
 *   the connection is down) → 'Cannot reach the catalog server…'; Retry checks the server first.
 * - chunk: a page's code failed to load while the server answers (the portal was redeployed and the
 *   old file names are gone) → Retry reloads the page (the browser keeps a failed module import).
 * - unexpected: anything else → its message; Retry renders the route again.
 *
 * For screen readers: the message is announced (role=alert), its title is the page's h1 and the
 * document title; outside the shell (`standalone`) it is the page's main landmark.
 */
import { useEffect, useState } from 'react';
import { Link, isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router-dom';
import { ErrorCode, isAppError } from '@shared/errors.js';
import type { ConnectionState } from '@shared/ports/index.js';
import { paths } from '../../config/paths.js';
import { usePageTitle } from '../../hooks/use-page-title.js';
import { mainContentProps } from '../layouts/skip-link.js';
import { useConnectionState } from './connection-banner.js';

export type RouteErrorKind = 'network' | 'chunk' | 'not-found' | 'unexpected';

/** Browsers' messages for a dynamic import or a CSS preload that failed (Chromium, Firefox, Safari, Vite). */
const CHUNK_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to load module script|Unable to preload CSS|Loading chunk [\w-]+ failed/i;
/** fetch's messages when no response came back (Chromium, Firefox, Safari). */
const FETCH_FAILURE = /^(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed)$/i;

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  return String(error);
}

/** True when `error` is a page's code (a lazy route chunk or its CSS) that failed to load. */
export function isChunkLoadError(error: unknown): boolean {
  return CHUNK_FAILURE.test(messageOf(error));
}

/**
 * The kind of a route error.
 * @param error what the route threw (useRouteError)
 * @param connection the backend's connection state; a chunk that fails to load while 'offline' is a network failure
 * @param reachable the result of probing the server after a chunk failure (null: not known yet)
 */
export function classifyRouteError(error: unknown, connection: ConnectionState, reachable: boolean | null = null): RouteErrorKind {
  if (isRouteErrorResponse(error) && error.status === 404) return 'not-found';
  if (isAppError(error, ErrorCode.Network, ErrorCode.NetworkRequestFailed, ErrorCode.Unavailable)) return 'network';
  if (error instanceof TypeError && FETCH_FAILURE.test(error.message)) return 'network';
  if (isChunkLoadError(error)) {
    const offline = connection === 'offline' || reachable === false || (typeof navigator !== 'undefined' && navigator.onLine === false);
    return offline ? 'network' : 'chunk';
  }
  return 'unexpected';
}

/**
 * For pages whose one-shot reads fail while the server is unreachable: throws `error` during
 * render when it is a network failure, so the route's error screen shows 'Cannot reach the catalog
 * server' with Retry (which renders the page again, re-reading) instead of the page's own
 * not-found or empty state. Other errors are left to the page.
 * @param error a Resource's error (or anything caught)
 */
export function throwIfUnreachable(error: unknown): void {
  if (error === undefined || error === null) return;
  if (
    isAppError(error, ErrorCode.Network, ErrorCode.NetworkRequestFailed) ||
    (error instanceof TypeError && FETCH_FAILURE.test(error.message))
  ) {
    throw error;
  }
}

/** True when the portal's server answers (any HTTP status); false when the request fails. */
export async function probeServer(): Promise<boolean> {
  try {
    await fetch(`${window.location.origin}/`, { method: 'HEAD', cache: 'no-store' });
    return true;
  } catch {
    return false;
  }
}

const TEXTS: Record<RouteErrorKind, { title: string; text: (message: string) => string }> = {
  network: {
    title: 'Cannot reach the catalog server',
    text: () => 'The catalog server does not answer. Check your network connection, then press Retry.',
  },
  chunk: {
    title: 'This page could not be loaded',
    text: () => 'The portal may have been updated since you opened it. Retry reloads the page.',
  },
  'not-found': {
    title: 'Page Not Found',
    text: () => 'The page you are looking for does not exist.',
  },
  unexpected: {
    title: 'Something went wrong',
    text: (message) => `An unexpected error stopped this page: ${message}`,
  },
};

/** The message and buttons of a route error (no router hooks: jsdom tests render it directly). */
export function RouteErrorView({
  kind,
  message,
  retrying,
  onRetry,
}: {
  kind: RouteErrorKind;
  message: string;
  retrying: boolean;
  onRetry: () => void;
}) {
  const texts = TEXTS[kind];
  usePageTitle(texts.title);
  return (
    <div className="state route-error" role="alert" data-testid="route-error" data-kind={kind}>
      <h1 className="state-title">{texts.title}</h1>
      <p className="state-text">{texts.text(message)}</p>
      <div className="actions">
        {kind !== 'not-found' ? (
          <button type="button" className="button button-primary" onClick={onRetry} disabled={retrying}>
            {retrying ? 'Retrying...' : 'Retry'}
          </button>
        ) : null}
        <Link className="button button-ghost" to={paths.landing.getHref()}>
          Go Home
        </Link>
      </div>
    </div>
  );
}

/**
 * The `errorElement` of the routes: classifies `useRouteError()` and retries as its kind says.
 * @param standalone true for the root's (no shell around it): the screen is the page's `<main>`
 */
export function RouteError({ standalone = false }: { standalone?: boolean }) {
  const error = useRouteError();
  const connection = useConnectionState();
  const navigate = useNavigate();
  const location = useLocation();
  const [reachable, setReachable] = useState<boolean | null>(null);
  const [retrying, setRetrying] = useState(false);
  const kind = classifyRouteError(error, connection, reachable);
  const chunk = isChunkLoadError(error);

  async function retry(): Promise<void> {
    setRetrying(true);
    const up = await probeServer();
    setReachable(up);
    if (!up) {
      setRetrying(false);
      return;
    }
    // A failed module import stays failed until the page reloads.
    if (chunk) {
      window.location.reload();
      return;
    }
    setRetrying(false);
    // Navigating to the same place clears the route's error and renders it again.
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true });
  }

  useEffect(() => {
    if (!isRouteErrorResponse(error)) console.error('Route error', error);
  }, [error]);
  const view = <RouteErrorView kind={kind} message={messageOf(error)} retrying={retrying} onRetry={() => void retry()} />;
  if (!standalone) return view;
  return (
    <main {...mainContentProps} className="standalone-main skip-target">
      {view}
    </main>
  );
}
