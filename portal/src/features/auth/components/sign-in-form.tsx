/**
 * Sign-in form (states idle → submitting → success | error, validation, messages). `onSignIn`
 * performs the sign-in; the form validates first and shows the catalogue's message for whatever
 * it throws.
 */
import { useState, type FormEvent } from 'react';
import { signInErrorMessage } from '@shared/messages.js';
import { validateSignIn } from '@shared/validation/sign-in.js';
import { Banner } from '../../../components/ui/banner.js';
import { useAction } from '../../../hooks/use-action.js';

export interface SignInFormProps {
  onSignIn: (email: string, password: string) => Promise<unknown>;
  onSuccess?: () => void;
}

export function SignInForm({ onSignIn, onSuccess }: SignInFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useAction(
    async (checkedEmail: string, checkedPassword: string) => {
      await onSignIn(checkedEmail, checkedPassword);
      onSuccess?.();
    },
    { failure: signInErrorMessage },
  );
  const submitting = signIn.busy;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validateSignIn({ email, password });
    if (!checked.ok) signIn.fail(checked.message);
    else void signIn.run(checked.value.email, checked.value.password);
  }

  return (
    <form className="form sign-in-form" onSubmit={handleSubmit} noValidate>
      <div className="field">
        <label htmlFor="sign-in-email">Email</label>
        <input
          id="sign-in-email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          disabled={submitting}
        />
      </div>
      <div className="field">
        <label htmlFor="sign-in-password">Password</label>
        <input
          id="sign-in-password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          disabled={submitting}
        />
      </div>
      <Banner banner={signIn.message} />
      <button type="submit" className="button button-primary button-block" disabled={submitting}>
        {submitting ? 'Signing in...' : 'Sign In'}
      </button>
    </form>
  );
}
