/**
 * User management: two tabs, Register User and Manage Roles. Registering signs the admin out after
 * 2 seconds; the local backend's createAccount does not sign the new user in, so the sign-out is
 * done here. Manage Roles lists the accounts (email, UID, role, admin flag) with a search box, each
 * non-admin with its own 'Set as Admin'; 'Set as Admin' by UID is refused for a UID without an
 * account ('Error setting admin role: No account with UID ….'). A grant leaves the admin signed in:
 * the role is read at sign-in, so it is the promoted user who signs in again, as the success
 * message says; the admin's own role did not change.
 *
 * Keyboard and screen readers: the two tabs are a tablist (arrow keys, Home, End move
 * and select; Tab goes into the panel); results are announced (live regions); a refused field is
 * `aria-invalid`, described by the message, and takes the focus.
 */
import { useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { REGISTRATION_SIGN_OUT_DELAY_MS } from '@shared/constants.js';
import { ErrorCode, errorMessage, isAppError } from '@shared/errors.js';
import { RegistrationMessages, ValidationMessages, adminGrantFailed, adminGranted, registrationErrorMessage } from '@shared/messages.js';
import type { Role } from '@shared/types.js';
import { validateRegisterUser, validateSetAdmin } from '@shared/validation/users.js';
import { LiveBanner } from '../../../components/ui/banner.js';
import { Field, TextField, useFieldErrors, useFocusRecovery } from '../../../components/ui/field.js';
import { useAction } from '../../../hooks/use-action.js';
import type { Resource } from '../../../lib/resource.js';
import { LoadingState } from '../../../components/ui/spinner.js';
import type { ListedUser } from '../api/list-users.js';
import '../../../components/ui/stacked-table.css';

/** The fields a message of `validateRegisterUser` is about (the empty ones for 'Please enter both …'). */
export function registerFieldsOf(message: string, input: { email: string; password: string }): Array<'email' | 'password'> {
  switch (message) {
    case ValidationMessages.registerBothRequired:
      return (['email', 'password'] as const).filter((key) => input[key].trim() === '');
    case ValidationMessages.registerPasswordShort:
      return ['password'];
    case RegistrationMessages[ErrorCode.InvalidEmail]:
      return ['email'];
    default:
      return [];
  }
}

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
  const errors = useFieldErrors<'email' | 'password'>();
  const register = useAction(
    async (input: { email: string; password: string; role: Role }) => {
      await onRegister(input);
      // Not cleared on unmount: leaving the page does not cancel the sign-out.
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
    if (busy) return;
    const check = validateRegisterUser({ email, password });
    errors.mark(check.ok ? [] : registerFieldsOf(check.message, { email, password }));
    if (!check.ok) register.fail(check.message);
    else void register.run({ email, password, role });
  }

  return (
    <form ref={errors.formRef} className="panel admin-form" onSubmit={submit} noValidate aria-label="Register User">
      <h3 className="panel-title">Register User</h3>
      <LiveBanner id={errors.messageId} banner={register.message} />
      <div className="form-grid">
        <TextField label="Email" type="email" autoComplete="off" value={email} onChange={setEmail} invalid={errors.props('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
          invalid={errors.props('password')}
        />
        <Field label="Role">
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            <option value="user">User</option>
            <option value="admin">Admin</option>
          </select>
        </Field>
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={busy || undefined}>
          {busy ? 'Registering...' : 'Register User'}
        </button>
      </div>
    </form>
  );
}

export function ManageRolesForm({ onGrant }: { onGrant: (uid: string) => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [uid, setUid] = useState('');
  const errors = useFieldErrors<'email' | 'uid'>();
  const grant = useAction((target: { uid: string; email?: string | null }) => onGrant(target.uid), {
    success: (_, target) => adminGranted(target.email ?? target.uid),
    // every failure in the catalogue's wrapper, with the reason ('Error setting admin role: No account with UID ….')
    failure: (error) => adminGrantFailed(errorMessage(error)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (grant.busy) return;
    const check = validateSetAdmin({ email, uid });
    errors.mark(
      check.ok
        ? []
        : check.message === ValidationMessages.setAdminNeedsInput
          ? ['email', 'uid']
          : check.message === ValidationMessages.setAdminEmailOnly
            ? ['uid']
            : [],
    );
    if (!check.ok) grant.fail(check.message);
    else void grant.run(check.value);
  }

  return (
    <form ref={errors.formRef} className="panel admin-form" onSubmit={submit} noValidate aria-label="Manage Roles">
      <h3 className="panel-title">Grant Admin Role</h3>
      <LiveBanner id={errors.messageId} banner={grant.message} />
      <div className="form-grid">
        <TextField label="User Email" type="email" value={email} onChange={setEmail} invalid={errors.props('email')} />
        <TextField label="User ID (UID)" value={uid} onChange={setUid} invalid={errors.props('uid')} />
      </div>
      <div className="actions">
        <button type="submit" className="button button-primary" aria-disabled={grant.busy || undefined}>
          {grant.busy ? 'Saving...' : 'Set as Admin'}
        </button>
      </div>
    </form>
  );
}

/** Case-insensitive match of the search text in the email or the UID. */
export function matchesUser(user: Pick<ListedUser, 'email' | 'uid'>, search: string): boolean {
  const needle = search.trim().toLowerCase();
  return needle === '' || (user.email ?? '').toLowerCase().includes(needle) || user.uid.toLowerCase().includes(needle);
}

/** The accounts: email, UID, role, admin flag; a search box; 'Set as Admin' per non-admin. */
export function UserList({ users, onGrant }: { users: Resource<ListedUser[]>; onGrant: (uid: string) => Promise<void> }) {
  const [search, setSearch] = useState('');
  const grant = useAction((user: ListedUser) => onGrant(user.uid), {
    success: (_, user) => adminGranted(user.email ?? user.uid),
    failure: (error) => adminGrantFailed(errorMessage(error)),
  });
  const shown = useMemo(() => (users.status === 'success' ? users.data.filter((u) => matchesUser(u, search)) : []), [users, search]);
  // A row's 'Set as Admin' goes away when its user becomes an admin: the list's heading takes the focus.
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusRecovery(users, () => heading.current);
  return (
    <section className="panel user-list" aria-label="Accounts">
      <h3 className="panel-title" ref={heading} tabIndex={-1}>
        Accounts{users.status === 'success' ? ` (${users.data.length})` : ''}
      </h3>
      <LiveBanner banner={grant.message} />
      <TextField label="Search users" placeholder="Email or UID" value={search} onChange={setSearch} />
      {users.status === 'loading' ? (
        <LoadingState label="Loading users..." />
      ) : users.status === 'error' ? (
        <p className="alert alert-error">Failed to load the list of users.</p>
      ) : shown.length === 0 ? (
        <p className="muted">{users.data.length === 0 ? 'No users yet.' : 'No users match the search.'}</p>
      ) : (
        <div className="stack-table-box">
          <table className="table stack-table">
            <caption className="visually-hidden">Accounts</caption>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">UID</th>
                <th scope="col">Role</th>
                <th scope="col">Admin</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((user) => (
                <tr key={user.uid} data-testid="user-row">
                  <td className="wrap-anywhere" data-label="Email">
                    {user.email ?? '—'}
                  </td>
                  <td className="mono wrap-anywhere" data-label="UID">
                    {user.uid}
                  </td>
                  <td data-label="Role">{user.role}</td>
                  <td data-label="Admin">
                    {user.admin ? 'Yes' : 'No'}
                    {user.allowlisted ? (
                      <>
                        {' '}
                        <span className="badge badge-blue" title="The email is in the admins allowlist">
                          Allowlisted
                        </span>
                      </>
                    ) : null}
                  </td>
                  <td data-label="">
                    {user.admin ? null : (
                      <button
                        type="button"
                        className="button button-secondary button-small"
                        aria-disabled={grant.busy || undefined}
                        onClick={() => void (grant.busy || grant.run(user))}
                      >
                        Set as Admin<span className="visually-hidden"> for {user.email ?? user.uid}</span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
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
  users,
}: {
  onRegister: (input: { email: string; password: string; role: Role }) => Promise<unknown>;
  onGrant: (uid: string) => Promise<void>;
  onSignOut: () => void;
  /** The accounts listed under Manage Roles (absent: no list). */
  users?: Resource<ListedUser[]>;
}) {
  const [tab, setTab] = useState<(typeof TABS)[number][0]>('register');
  const id = useId();
  const tabId = (key: string) => `user-tab-${key}-${id}`;
  const panelId = `user-tabpanel-${id}`;

  /** Arrow keys, Home and End select and focus another tab (automatic activation). */
  function onTabKey(event: KeyboardEvent<HTMLDivElement>) {
    const at = TABS.findIndex(([key]) => key === tab);
    const next =
      event.key === 'ArrowRight' ? at + 1 : event.key === 'ArrowLeft' ? at - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? -1 : null;
    if (next === null) return;
    event.preventDefault();
    const [key] = TABS[(next + TABS.length) % TABS.length]!;
    setTab(key);
    document.getElementById(tabId(key))?.focus();
  }

  return (
    <div className="user-management">
      <h2 className="panel-title">User Management</h2>
      <div className="tabs" role="tablist" aria-label="User Management" onKeyDown={onTabKey}>
        {TABS.map(([key, label]) => (
          <button
            key={key}
            id={tabId(key)}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={panelId}
            tabIndex={tab === key ? 0 : -1}
            className={`tab${tab === key ? ' active' : ''}`}
            onClick={() => setTab(key)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(tab)}>
        {tab === 'register' ? (
          <RegisterUserForm onRegister={onRegister} onSignOut={onSignOut} />
        ) : (
          <>
            <ManageRolesForm onGrant={onGrant} />
            {users ? <UserList users={users} onGrant={onGrant} /> : null}
          </>
        )}
      </div>
    </div>
  );
}
