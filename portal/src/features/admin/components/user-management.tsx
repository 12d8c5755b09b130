/**
 * User management (SPEC.md §2 User management, §4 "Role changes and registration", §5 "Register
 * user" and "Set admin", §8 Registration messages): two tabs, Register User and Manage Roles.
 * Registering signs the admin out after 2 seconds (§4, §9); the local backend's createAccount
 * does not sign the new user in, so the sign-out is done here.
 */
import { useState, type FormEvent } from 'react';
import { REGISTRATION_SIGN_OUT_DELAY_MS } from '@shared/constants.js';
import { isAppError, ErrorCode } from '@shared/errors.js';
import { adminGrantFailed, adminGranted, registrationErrorMessage } from '@shared/messages.js';
import type { Role } from '@shared/types.js';
import { validateRegisterUser, validateSetAdmin } from '@shared/validation/users.js';
import { Banner } from '../../../components/ui/banner.js';
import { Field, TextField } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import { detailOf } from '../../../lib/error-detail.js';

export function RegisterUserForm({
  onRegister,
  onSignOut,
  signOutDelayMs = REGISTRATION_SIGN_OUT_DELAY_MS,
}: {
  onRegister: (input: { email: string; password: string; role: Role }) => Promise<unknown>;
  /** Signs the admin out (then the app goes to /login). */
  onSignOut: () => void;
  signOutDelayMs?: number;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('user');
  const register = useAction(
    async (input: { email: string; password: string; role: Role }) => {
      await onRegister(input);
      // Not cleared on unmount: leaving the page does not cancel the §4 sign-out.
      setTimeout(onSignOut, signOutDelayMs);
    },
    {
      success: (_, input) =>
        `User ${input.email.trim().toLowerCase()} has been registered as ${input.role}. You will be signed out in 2 seconds; please sign in again.`,
      failure: (error) =>
        isAppError(error, ErrorCode.AlreadyExists, ErrorCode.InvalidArgument) ? error.message : registrationErrorMessage(error),
    },
  );
  // Stays busy after a success: the sign-out follows.
  const busy = register.busy || register.status === 'success';

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = validateRegisterUser({ email, password });
    if (!check.ok) register.fail(check.message);
    else void register.run({ email, password, role });
  }

  return (
    <form className="panel admin-form" onSubmit={submit} noValidate aria-label="Register User">
      <h3 className="panel-title">Register User</h3>
      <Banner banner={register.message} />
      <div className="form-grid">
        <TextField label="Email" type="email" value={email} onChange={setEmail} />
        <TextField label="Password" type="password" value={password} onChange={setPassword} />
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Registering...' : 'Register User'}
        </button>
      </div>
    </form>
  );
}

export function ManageRolesForm({ onGrant }: { onGrant: (uid: string) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [uid, setUid] = useState('');
  const grant = useAction((target: { uid: string; email?: string | null }) => onGrant(target.uid), {
    success: (_, target) => adminGranted(target.email ?? target.uid),
    failure: (error) => adminGrantFailed(detailOf(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const check = validateSetAdmin({ email, uid });
    if (!check.ok) grant.fail(check.message);
    else void grant.run(check.value);
  }

  return (
    <form className="panel admin-form" onSubmit={submit} noValidate aria-label="Manage Roles">
      <h3 className="panel-title">Grant Admin Role</h3>
      <Banner banner={grant.message} />
      <div className="form-grid">
        <TextField label="User Email" type="email" value={email} onChange={setEmail} />
        <TextField label="User ID (UID)" value={uid} onChange={setUid} />
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" disabled={grant.busy}>
          {grant.busy ? 'Saving...' : 'Set as Admin'}
        </button>
      </div>
    </form>
  );
}

const TABS = [
  ['register', 'Register User'],
  ['roles', 'Manage Roles'],
] as const;

export function UserManagement({
  onRegister,
  onGrant,
  onSignOut,
}: {
  onRegister: (input: { email: string; password: string; role: Role }) => Promise<unknown>;
  onGrant: (uid: string) => Promise<void>;
  onSignOut: () => void;
}) {
  const [tab, setTab] = useState<(typeof TABS)[number][0]>('register');
  return (
    <div className="user-management">
      <h2 className="panel-title">User Management</h2>
      <div className="tabs" role="tablist">
        {TABS.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            className={`tab${tab === key ? ' active' : ''}`}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'register' ? <RegisterUserForm onRegister={onRegister} onSignOut={onSignOut} /> : <ManageRolesForm onGrant={onGrant} />}
    </div>
  );
}
