import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '@shared/errors.js';
import { SignInForm } from './sign-in-form.js';

afterEach(cleanup);

function fill(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('SignInForm', () => {
  it('refuses a malformed email with the validator message and never signs in', async () => {
    const calls: string[] = [];
    render(<SignInForm onSignIn={async (email) => void calls.push(email)} />);
    fill('not-an-email', 'secret1');
    expect((await screen.findByRole('alert')).textContent).toBe('Invalid email format.');
    expect(calls).toEqual([]);
  });

  it("shows 'Signing in...' while busy, then the message of the identity error", async () => {
    let reject: (error: unknown) => void = () => undefined;
    render(<SignInForm onSignIn={() => new Promise((_, r) => (reject = r))} />);
    fill('user@demo.lab', 'wrong-one');
    const busy = await screen.findByRole('button', { name: 'Signing in...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    reject(new AppError(ErrorCode.WrongPassword, 'bad password'));
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect password.');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeTruthy();
  });

  it('maps other codes and uncoded errors to the generic messages', async () => {
    const errors: unknown[] = [new AppError(ErrorCode.TooManyRequests, 'slow down'), new Error('boom')];
    render(<SignInForm onSignIn={async () => Promise.reject(errors.shift())} />);
    fill('user@demo.lab', 'whatever');
    expect((await screen.findByRole('alert')).textContent).toBe('An error occurred during login.');
    fireEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect((await screen.findByText('An unexpected error occurred during login.')).getAttribute('role')).toBe('alert');
  });

  it('signs in with the entered credentials and reports success', async () => {
    const seen: Array<[string, string]> = [];
    let succeeded = false;
    render(
      <SignInForm
        onSignIn={async (email, password) => void seen.push([email, password])}
        onSuccess={() => {
          succeeded = true;
        }}
      />,
    );
    fill('user@demo.lab', 'demo-user-1');
    await screen.findByRole('button', { name: 'Sign In' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([['user@demo.lab', 'demo-user-1']]);
    expect(succeeded).toBe(true);
  });
});
