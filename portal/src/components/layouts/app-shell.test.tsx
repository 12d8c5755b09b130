import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '../../app/provider.js';
import { NavigationHistoryProvider } from '../../lib/navigation.js';
import { createTestBackend } from '../testing/memory-app.js';
import { AppShell, RequireAdmin } from './app-shell.js';

afterEach(cleanup);

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

describe('AppShell (SPEC.md §2 Shell, §4 Session, §6, §8 Access)', () => {
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
});
