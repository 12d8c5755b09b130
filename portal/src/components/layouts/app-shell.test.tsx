import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProvider } from '../../app/provider.js';
import { NAV_COLLAPSED_STORAGE_KEY, NavigationHistoryProvider } from '../../lib/navigation.js';
import { createTestBackend } from '../testing/memory-app.js';
import { AppShell, RequireAdmin } from './app-shell.js';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

/** A viewport of `width` px as far as `matchMedia('(max-width: …px)')` goes. */
function stubViewport(width: number) {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: width <= Number(/max-width:\s*(\d+)px/.exec(query)?.[1] ?? Infinity),
        media: query,
        addEventListener: () => undefined,
        removeEventListener: () => undefined,
      }) as unknown as MediaQueryList,
  );
}

function renderShell(role: 'user' | 'admin' | null, path: string) {
  const test = createTestBackend(role);
  return render(
    <AppProvider
      backend={test.backend}
      config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}
    >
      <MemoryRouter initialEntries={[path]}>
        <NavigationHistoryProvider>
          <Routes>
            <Route path="/login" element={<p>login page</p>} />
            <Route element={<AppShell />}>
              <Route path="/catalog" element={<p>catalog page</p>} />
              <Route path="/projects" element={<p>projects page</p>} />
              <Route path="/models" element={<p>models page</p>} />
              <Route element={<RequireAdmin />}>
                <Route path="/admin/*" element={<p>admin page</p>} />
              </Route>
            </Route>
          </Routes>
        </NavigationHistoryProvider>
      </MemoryRouter>
    </AppProvider>,
  );
}

describe('AppShell', () => {
  it("shows 'Loading...' while the session loads, then sends a visitor without a role to /login", async () => {
    renderShell(null, '/projects');
    expect(screen.getAllByText('Loading...').length).toBeGreaterThan(0);
    expect(await screen.findByText('login page')).toBeTruthy();
  });

  it('silently redirects a user from /admin/* to /projects; an admin gets in', async () => {
    const { unmount } = renderShell('user', '/admin/users');
    expect(await screen.findByText('projects page')).toBeTruthy();
    unmount();
    renderShell('admin', '/admin/users');
    expect(await screen.findByText('admin page')).toBeTruthy();
  });

  it('collapses the navigation on arrival at /catalog with no previous path, and toggles 64px ↔ 256px', async () => {
    renderShell('user', '/catalog');
    await screen.findByText('catalog page');
    const nav = screen.getByTestId('side-nav');
    expect(nav.getAttribute('data-collapsed')).toBe('true');
    expect(nav.style.width).toBe('64px');
    fireEvent.click(screen.getByRole('button', { name: 'Expand navigation' }));
    expect(nav.style.width).toBe('256px');
    expect(screen.getByText('Quick Actions')).toBeTruthy();
  });

  it('stays expanded on arrival at /projects', async () => {
    renderShell('user', '/projects');
    await screen.findByText('projects page');
    expect(screen.getByTestId('side-nav').style.width).toBe('256px');
  });

  it('remembers the desktop choice across reloads (localStorage)', async () => {
    const { unmount } = renderShell('user', '/projects');
    await screen.findByText('projects page');
    fireEvent.click(screen.getByRole('button', { name: 'Collapse navigation' }));
    expect(window.localStorage.getItem(NAV_COLLAPSED_STORAGE_KEY)).toBe('true');
    unmount();
    renderShell('user', '/projects');
    await screen.findByText('projects page');
    expect(screen.getByTestId('side-nav').style.width).toBe('64px');
  });

  it('below 768 px: a drawer closed on arrival, opened by the menu button, closed by Escape, the backdrop and navigation', async () => {
    stubViewport(390);
    renderShell('user', '/projects');
    await screen.findByText('projects page');
    expect(screen.queryByTestId('side-nav')).toBeNull();
    const main = document.querySelector<HTMLElement>('main.shell-main');
    expect(main?.style.marginLeft).toBe('0px');
    const menu = screen.getByRole('button', { name: 'Open navigation' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');

    fireEvent.click(menu);
    const drawer = screen.getByRole('dialog', { name: 'Navigation' });
    expect(drawer.getAttribute('aria-modal')).toBe('true');
    expect(drawer.getAttribute('data-collapsed')).toBe('false');
    expect(screen.getByText('Quick Actions')).toBeTruthy();
    expect(drawer.contains(document.activeElement)).toBe(true);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.body.style.overflow).toBe('hidden');
    // Tab stays inside the drawer: from its last control to its first, Shift+Tab back
    const controls = [...drawer.querySelectorAll<HTMLElement>('a[href], button:not([disabled])')];
    const [first, last] = [controls[0], controls[controls.length - 1]];
    last?.focus();
    fireEvent.keyDown(last as HTMLElement, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first as HTMLElement, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    act(() => {
      fireEvent.keyDown(document, { key: 'Escape' });
    });
    expect(screen.queryByTestId('side-nav')).toBeNull();
    expect(document.activeElement).toBe(menu);
    expect(document.body.style.overflow).toBe('');

    fireEvent.click(menu);
    fireEvent.click(screen.getByTestId('nav-backdrop'));
    expect(screen.queryByTestId('side-nav')).toBeNull();

    fireEvent.click(menu);
    fireEvent.click(screen.getByRole('link', { name: /Model List/ }));
    expect(await screen.findByText('models page')).toBeTruthy();
    expect(screen.queryByTestId('side-nav')).toBeNull();
  });

  it('starts with a skip link that moves focus to the one <main> (WCAG 2.4.1)', async () => {
    renderShell('user', '/projects');
    await screen.findByText('projects page');
    const focusable = document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input, select, textarea, [tabindex="0"]');
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(focusable[0]).toBe(skip);
    expect(skip.getAttribute('href')).toBe('#main-content');
    const mains = screen.getAllByRole('main');
    expect(mains).toHaveLength(1);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(mains[0]);
    expect(mains[0]?.id).toBe('main-content');
    expect(mains[0]?.getAttribute('tabindex')).toBe('-1');
  });

  it('names the rail toggle and marks the active entry (aria-expanded, aria-current)', async () => {
    renderShell('user', '/models');
    await screen.findByText('models page');
    const toggle = screen.getByRole('button', { name: 'Collapse navigation' });
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(document.getElementById(toggle.getAttribute('aria-controls') ?? '')).toBe(screen.getByTestId('side-nav'));
    expect(screen.getByRole('link', { name: /Model List/ }).getAttribute('aria-current')).toBe('page');
    expect(screen.getByRole('link', { name: /Catalog Home/ }).getAttribute('aria-current')).toBeNull();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
    fireEvent.click(toggle);
    const expand = screen.getByRole('button', { name: 'Expand navigation' });
    expect(expand.getAttribute('aria-expanded')).toBe('false');
    // collapsed: the entries and Sign Out keep their names
    expect(screen.getByRole('link', { name: 'Model List' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });

  it('shows the connection banner while the backend reports offline, and clears it on reconnect', async () => {
    const test = createTestBackend('user');
    let listener: ((state: 'online' | 'offline') => void) | null = null;
    let state: 'online' | 'offline' = 'online';
    const backend = {
      ...test.backend,
      connection: {
        get state() {
          return state;
        },
        subscribe(next: (value: 'online' | 'offline') => void) {
          listener = next;
          next(state);
          return () => {
            listener = null;
          };
        },
      },
    };
    render(
      <AppProvider
        backend={backend}
        config={{ viewerUrl: 'https://viewer.test', mapsApiKey: null, toolViewerUrls: { splatViewer: null, dualViewer: null } }}
      >
        <MemoryRouter initialEntries={['/projects']}>
          <NavigationHistoryProvider>
            <Routes>
              <Route element={<AppShell />}>
                <Route path="/projects" element={<p>projects page</p>} />
              </Route>
            </Routes>
          </NavigationHistoryProvider>
        </MemoryRouter>
      </AppProvider>,
    );
    await screen.findByText('projects page');
    // the live region is there before the text, empty while online
    const region = screen.getByRole('status');
    expect(region.textContent).toBe('');
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    act(() => {
      state = 'offline';
      listener?.('offline');
    });
    expect(screen.getByRole('status')).toBe(region);
    expect(region.textContent).toContain('Connection to the catalog server lost');
    act(() => {
      state = 'online';
      listener?.('online');
    });
    expect(screen.queryByTestId('connection-banner')).toBeNull();
    expect(region.textContent).toBe('');
  });
});
