import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ValidationMessages } from '@shared/messages.js';
import { ManageRolesForm, RegisterUserForm, UserManagement } from './user-management.js';

afterEach(cleanup);

const fill = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('User management', () => {
  it('has the Register User and Manage Roles tabs', () => {
    render(<UserManagement onRegister={async () => undefined} onGrant={async () => undefined} onSignOut={() => undefined} />);
    expect(screen.getByRole('form', { name: 'Register User' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Manage Roles' }));
    expect(screen.getByRole('form', { name: 'Manage Roles' })).toBeTruthy();
  });

  it('validates registration, maps the identity errors, and signs the admin out 2 seconds after a success', async () => {
    const errors: unknown[] = [
      new AppError(ErrorCode.AlreadyExists, ValidationMessages.registerEmailExists),
      new AppError(ErrorCode.EmailAlreadyInUse, 'x'),
      new AppError(ErrorCode.WeakPassword, 'x'),
      new AppError(ErrorCode.TooManyRequests, 'slow down'),
      'weird',
    ];
    const registered: string[] = [];
    let signedOut = 0;
    render(
      <RegisterUserForm
        onRegister={async ({ email, role }) => {
          const error = errors.shift();
          if (error !== undefined) throw error;
          registered.push(`${email}:${role}`);
        }}
        onSignOut={() => signedOut++}
        signOutDelayMs={40}
      />,
    );
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Register User' }));
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Please enter both email and password.');
    fill('Email', 'new@demo.lab');
    fill('Password', '12345');
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Password must be at least 6 characters long.');
    fill('Password', '123456');
    for (const message of [
      'This email is already registered.',
      'This email is already in use.',
      'The password is too weak.',
      'An error occurred while registering the user: slow down',
      'An unexpected error occurred during registration.',
    ]) {
      submit();
      expect((await screen.findByText(message)).getAttribute('role')).toBe('alert');
    }
    fill('Role', 'admin');
    // Fake timers from here: the sign-out delay runs only when the test says so (no race with a real timer under load).
    vi.useFakeTimers();
    try {
      submit();
      await act(() => vi.advanceTimersByTimeAsync(0));
      expect(screen.getByRole('status').textContent).toMatch(/registered as admin/);
      expect(registered).toEqual(['new@demo.lab:admin']);
      await act(() => vi.advanceTimersByTimeAsync(39));
      expect(signedOut).toBe(0);
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(signedOut).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('grants admin by UID only; email alone is refused; success and failure texts', async () => {
    const granted: string[] = [];
    const results = [() => Promise.resolve(), () => Promise.reject(new Error('denied'))];
    render(<ManageRolesForm onGrant={(uid) => (granted.push(uid), results.shift()!())} />);
    const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Set as Admin' }));
    submit();
    expect(screen.getByRole('alert').textContent).toBe('Please enter either email or user ID');
    fill('User Email', 'new@demo.lab');
    submit();
    expect(screen.getByRole('alert').textContent).toBe(ValidationMessages.setAdminEmailOnly);
    fill('User ID (UID)', ' uid-42 ');
    submit();
    expect((await screen.findByRole('status')).textContent).toBe(
      'User new@demo.lab has been set as admin. They must log out and log in again for the change to take effect.',
    );
    submit();
    expect((await screen.findByRole('alert')).textContent).toBe('Error setting admin role: denied');
    expect(granted).toEqual(['uid-42', 'uid-42']);
  });
});
