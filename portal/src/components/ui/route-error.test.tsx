import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Backend, ConnectionState } from '@shared/ports/index.js';
import { AppProvider } from '../../app/provider.js';
import { createTestBackend } from '../testing/memory-app.js';
import { RouteError, classifyRouteError, throwIfUnreachable } from './route-error.js';

beforeEach(() => {
  // RouteError logs what it caught; the tests' errors are expected.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const CHUNK = new TypeError('Failed to fetch dynamically imported module: http://127.0.0.1:8787/assets/models-abc123.js');

function withConnection(backend: Backend, state: ConnectionState): Backend {
  return { ...backend, connection: { state, subscribe: (listener) => (listener(state), () => undefined) } };
}

function renderRoutes(routes: RouteObject[], path: string, connection: ConnectionState = 'online') {
  const backend = withConnection(createTestBackend('user').backend, connection);
  const router = createMemoryRouter([{ errorElement: <RouteError />, hydrateFallbackElement: <p>loading</p>, children: routes }], {
    initialEntries: [path],
  });
  render(
    <AppProvider
      backend={backend}
      config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}
    >
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('route errors', () => {
  it('classifies network failures, failed chunks (network while offline) and the rest', () => {
    expect(classifyRouteError(new AppError(ErrorCode.Network, 'Cannot reach the catalog server'), 'online')).toBe('network');
    expect(classifyRouteError(new TypeError('Failed to fetch'), 'online')).toBe('network');
    expect(classifyRouteError(CHUNK, 'online')).toBe('chunk');
    expect(classifyRouteError(new TypeError('Importing a module script failed.'), 'online')).toBe('chunk');
    expect(classifyRouteError(CHUNK, 'offline')).toBe('network');
    expect(classifyRouteError(CHUNK, 'online', false)).toBe('network');
    expect(classifyRouteError(new Error('x is undefined'), 'online')).toBe('unexpected');
    expect(classifyRouteError(new TypeError('Failed to fetch'), 'online')).not.toBe('unexpected');
  });

  it('shows an unexpected error with its message, and Retry renders the route again', async () => {
    let fail = true;
    function Flaky() {
      if (fail) throw new Error('render exploded');
      return <p>page content</p>;
    }
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 200 }))),
    );
    renderRoutes([{ path: '/flaky', element: <Flaky /> }], '/flaky');
    expect(await screen.findByRole('heading', { name: 'Something went wrong', level: 1 })).toBeTruthy();
    expect(document.title).toBe('Something went wrong · Tower Models Catalog');
    expect(screen.getByRole('alert').textContent).toContain('render exploded');
    expect(screen.getByText('An unexpected error stopped this page: render exploded')).toBeTruthy();
    expect(screen.queryByText(/Hey developer/)).toBeNull();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('page content')).toBeTruthy();
  });

  it('outside the shell (standalone) the error screen is the main landmark; inside it, only the announced message', async () => {
    function Broken(): never {
      throw new Error('broken');
    }
    const router = createMemoryRouter(
      [
        { path: '/outside', element: <Broken />, errorElement: <RouteError standalone /> },
        { path: '/inside', element: <Broken />, errorElement: <RouteError /> },
      ],
      { initialEntries: ['/outside'] },
    );
    render(
      <AppProvider
        backend={createTestBackend('user').backend}
        config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}
      >
        <RouterProvider router={router} />
      </AppProvider>,
    );
    const main = await screen.findByRole('main');
    expect(main.contains(screen.getByRole('alert'))).toBe(true);
    expect(main.contains(screen.getByRole('heading', { name: 'Something went wrong', level: 1 }))).toBe(true);
    await act(() => router.navigate('/inside'));
    await waitFor(() => expect(screen.queryByRole('main')).toBeNull());
    expect(screen.getByRole('alert').textContent).toContain('broken');
  });

  it('throwIfUnreachable hands a network failure of a page to the route error screen; Retry renders the page again', async () => {
    let reachable = false;
    function Page() {
      // as a page does with its one-shot read's error
      throwIfUnreachable(reachable ? undefined : new AppError(ErrorCode.Network, 'Cannot reach the catalog server: fetch failed'));
      throwIfUnreachable(new AppError(ErrorCode.NotFound, 'not there')); // left to the page
      return <p>page content</p>;
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 200 }))),
    );
    renderRoutes([{ path: '/projects/p1', element: <Page /> }], '/projects/p1');
    expect(await screen.findByRole('heading', { name: 'Cannot reach the catalog server' })).toBeTruthy();
    reachable = true;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('page content')).toBeTruthy();
  });

  it("a page's code that fails to load while the server is down: 'Cannot reach the catalog server' and Retry", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderRoutes([{ path: '/models', lazy: () => Promise.reject(CHUNK) }], '/models', 'offline');
    expect(await screen.findByRole('heading', { name: 'Cannot reach the catalog server' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    // still down: the probe fails and the message stays
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Cannot reach the catalog server' })).toBeTruthy();
  });

  it('a chunk that fails while the server answers (a redeploy): Retry reloads the page', async () => {
    const reload = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 200 }))),
    );
    vi.stubGlobal('location', { ...window.location, origin: 'http://localhost', reload });
    renderRoutes([{ path: '/models', lazy: () => Promise.reject(CHUNK) }], '/models');
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeTruthy();
    expect(screen.getByText('The portal may have been updated since you opened it. Retry reloads the page.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
  });
});
