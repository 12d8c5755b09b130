import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { SideNav, type SideNavProps } from './side-nav.js';

afterEach(cleanup);

function renderNav(props: Partial<SideNavProps>) {
  const all: SideNavProps = {
    collapsed: false,
    onToggle: () => undefined,
    email: 'user@demo.lab',
    role: 'user',
    roleLoading: false,
    onSignOut: () => undefined,
    ...props,
  };
  return render(
    <MemoryRouter initialEntries={['/projects']}>
      <SideNav {...all} />
    </MemoryRouter>,
  );
}

describe('SideNav', () => {
  it('lists the entries with descriptions and hides Admin and Create Project from users', () => {
    renderNav({});
    for (const text of [
      'Catalog Home',
      'Main catalog overview',
      'Project Map',
      'Geographic view',
      'Project List',
      'Table view',
      'Model List',
      '3D model library',
    ]) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    expect(screen.queryByText('Admin')).toBeNull();
    expect(screen.getByText('Browse Models')).toBeTruthy();
    expect(screen.queryByText('Create Project')).toBeNull();
    expect(screen.getByTestId('role-badge').textContent).toBe('USER');
    expect(screen.getByTestId('role-badge').className).toContain('role-blue');
    expect(screen.getByText('user@demo.lab')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign Out' })).toBeTruthy();
  });

  it('shows Admin (Management tools), Create Project and a green ADMIN badge to admins', () => {
    renderNav({ role: 'admin', email: 'admin@demo.lab' });
    expect(screen.getByText('Admin')).toBeTruthy();
    expect(screen.getByText('Management tools')).toBeTruthy();
    expect(screen.getByText('Create Project')).toBeTruthy();
    expect(screen.getByTestId('role-badge').textContent).toBe('ADMIN');
    expect(screen.getByTestId('role-badge').className).toContain('role-green');
  });

  it('is 256px expanded and 64px collapsed, without Quick Actions when collapsed', () => {
    const { unmount } = renderNav({});
    expect(screen.getByTestId('side-nav').style.width).toBe('256px');
    unmount();
    renderNav({ collapsed: true });
    expect(screen.getByTestId('side-nav').style.width).toBe('64px');
    expect(screen.queryByText('Quick Actions')).toBeNull();
  });

  it("shows a spinner and 'Loading...' while the role loads", () => {
    renderNav({ roleLoading: true, role: null });
    expect(screen.getByText('Loading...')).toBeTruthy();
    expect(screen.queryByTestId('role-badge')).toBeNull();
  });
});
