import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryBackendAs } from '@shared/adapters/memory/index.js';
import { BackendProvider } from '../../../lib/backend-context.js';
import AdminRoute, { activeTab } from './admin.js';

afterEach(cleanup);

// The create-project page reads the backend only on submit; User Management lists the users,
// so an admin's in-memory backend stands behind the pages.
const backend = () => createMemoryBackendAs('admin');

function renderAt(entries: string[]) {
  const router = createMemoryRouter(
    [
      { path: '/admin/*', element: <AdminRoute /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    {
      initialEntries: entries,
      initialIndex: entries.length - 1,
    },
  );
  render(
    <BackendProvider backend={backend()}>
      <RouterProvider router={router} />
    </BackendProvider>,
  );
  return router;
}

describe('Admin dashboard route', () => {
  it('redirects /admin and /admin/ to /admin/projects, replacing history', async () => {
    for (const start of ['/admin', '/admin/']) {
      const router = renderAt(['/before', start]);
      await screen.findByRole('heading', { name: 'Create Project' });
      expect(router.state.location.pathname).toBe('/admin/projects');
      await act(() => router.navigate(-1));
      expect(router.state.location.pathname).toBe('/before');
      cleanup();
    }
  });

  it('shows the header, banner, tabs following the path, floating buttons and the Quick Actions menu', async () => {
    renderAt(['/admin/projects']);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    expect(screen.getByText('Manage projects, models, and users across the platform')).toBeTruthy();
    expect(
      screen.getByText('Administrator access granted. You have full control over projects, models, and user management.'),
    ).toBeTruthy();
    const tabs = screen.getByRole('navigation', { name: 'Admin sections' });
    const links = [...tabs.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href'), a.className.includes('active')]);
    expect(links).toEqual([
      ['Create Project', '/admin/projects', true],
      ['Project Management', '/admin/project-management', false],
      ['Model Management', '/admin/model-management', false],
      ['User Management', '/admin/users', false],
    ]);
    expect(screen.getByRole('link', { name: 'Create New Project' }).getAttribute('href')).toBe('/admin/projects');
    expect(screen.getByRole('button', { name: 'Quick Actions' })).toBeTruthy();
    expect(screen.getAllByRole('menuitem').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['View All Projects', '/projects'],
      ['Model Catalog', '/models'],
      ['Manage Users', '/admin/users'],
    ]);
    expect((document.querySelector('.admin-content') as HTMLElement).style.minHeight).toBe('600px');
  });

  it('marks the tab of the path: editing a project is Project Management, adding a model is Model Management', async () => {
    expect(activeTab('/admin/projects')).toBe('/admin/projects');
    expect(activeTab('/admin/projects/')).toBe('/admin/projects');
    expect(activeTab('/admin/projects/p1')).toBe('/admin/project-management');
    expect(activeTab('/admin/project-management')).toBe('/admin/project-management');
    expect(activeTab('/admin/model-management')).toBe('/admin/model-management');
    expect(activeTab('/admin/models/add/p1')).toBe('/admin/model-management');
    expect(activeTab('/admin/users')).toBe('/admin/users');
    renderAt(['/admin/users']);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    const current = screen.getByRole('navigation', { name: 'Admin sections' }).querySelectorAll('a[aria-current="page"]');
    expect([...current].map((a) => a.textContent)).toEqual(['User Management']);
    cleanup();
    // editing a project: Project Management alone is current and active (Create Project's path is a prefix of it)
    renderAt(['/admin/projects/p1']);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    const tabs = screen.getByRole('navigation', { name: 'Admin sections' });
    expect([...tabs.querySelectorAll('a[aria-current]')].map((a) => a.textContent)).toEqual(['Project Management']);
    expect([...tabs.querySelectorAll('a.active')].map((a) => a.textContent)).toEqual(['Project Management']);
  });

  it('Quick Actions is a menu button: opens on its first (ArrowDown) or last (ArrowUp) item, arrows/Home/End move, Escape closes and returns the focus', async () => {
    renderAt(['/admin/projects']);
    await screen.findByRole('heading', { name: 'Admin Dashboard' });
    const button = screen.getByRole('button', { name: 'Quick Actions' });
    const menu = screen.getByRole('menu', { name: 'Quick Actions' });
    expect([button.getAttribute('aria-haspopup'), button.getAttribute('aria-expanded'), button.getAttribute('aria-controls')]).toEqual([
      'menu',
      'false',
      menu.id,
    ]);
    const items = screen.getAllByRole('menuitem');
    // the items are reached with the arrows, not with Tab
    expect(items.map((item) => item.tabIndex)).toEqual([-1, -1, -1]);
    button.focus();
    fireEvent.keyDown(button, { key: 'ArrowDown' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(items[1]!, { key: 'End' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(items[2]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(items[2]!, { key: 'Home' });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'Escape' });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(document.activeElement).toBe(button);
    fireEvent.keyDown(button, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[2]);
    fireEvent.keyDown(items[2]!, { key: 'Escape' });
    // Enter or Space on the button (a click) opens it on its first item; a second click closes it
    fireEvent.click(button);
    expect(document.activeElement).toBe(items[0]);
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('false');
  });

  it('sets the page title of each admin screen', async () => {
    renderAt(['/admin/users']);
    await screen.findByRole('heading', { name: 'User Management' });
    expect(document.title).toMatch(/^User Management – Admin Dashboard · /);
    cleanup();
    renderAt(['/admin/model-management']);
    await screen.findByRole('heading', { name: 'Model Management' });
    expect(document.title).toMatch(/^Model Management – Admin Dashboard · /);
    cleanup();
    renderAt(['/admin/projects']);
    await screen.findByRole('heading', { name: 'Create Project' });
    expect(document.title).toMatch(/^Create Project – Admin Dashboard · /);
  });
});
