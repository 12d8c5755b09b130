import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import LoginRoute from './login.js';
import { createTestBackend, MemoryApp } from '../../components/testing/memory-app.js';
import { SignInForm } from '../../features/auth/components/sign-in-form.js';

afterEach(cleanup);

describe('Sign-in page', () => {
  it('shows every string of the page', async () => {
    render(
      <MemoryApp backend={createTestBackend(null).backend} path="/login" pattern="/login">
        <LoginRoute />
      </MemoryApp>,
    );
    expect(await screen.findByRole('heading', { name: 'Tower Models Catalog', level: 1 })).toBeTruthy();
    expect(screen.getByText('3D model inspection platform')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Welcome back' })).toBeTruthy();
    expect(screen.getByText('Please sign in to your account')).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).required).toBe(true);
    expect((screen.getByLabelText('Password') as HTMLInputElement).required).toBe(true);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
    expect(screen.getByText('Account Registration Required:').parentElement?.textContent).toBe(
      'Account Registration Required: Please contact the lab supervisor to obtain your account credentials.',
    );
  });

  it('is one main landmark with the h1, titled Sign In', async () => {
    render(
      <MemoryApp backend={createTestBackend(null).backend} path="/login" pattern="/login">
        <LoginRoute />
      </MemoryApp>,
    );
    const main = await screen.findByRole('main');
    expect(main.contains(screen.getByRole('heading', { level: 1 }))).toBe(true);
    expect(main.contains(screen.getByRole('button', { name: 'Sign In' }))).toBe(true);
    expect(document.title).toBe('Sign In · Tower Models Catalog');
  });

  it('sends a signed-in visitor with a role to /projects', async () => {
    render(
      <MemoryApp backend={createTestBackend('user').backend} path="/login" pattern="/login">
        <LoginRoute />
      </MemoryApp>,
    );
    expect(await screen.findByText('elsewhere')).toBeTruthy();
  });

  it.each([
    [ErrorCode.InvalidEmail, 'Invalid email format.'],
    [ErrorCode.UserDisabled, 'The account has been disabled.'],
    [ErrorCode.UserNotFound, 'User not registered.'],
    [ErrorCode.WrongPassword, 'Incorrect password.'],
  ])('shows the message for %s', async (code, message) => {
    render(<SignInForm onSignIn={() => Promise.reject(new AppError(code, 'x'))} />);
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'user@demo.lab' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });
});
