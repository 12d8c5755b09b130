import { AppError, ErrorCode } from '../errors.js';
import type { Backend } from '../ports/index.js';
import type { CatalogPort } from '../ports/catalog.js';
import { SERVER_TIMESTAMP } from '../ports/catalog.js';
import { ValidationMessages, noAccountWithUid } from '../messages.js';
import { validateRegisterUser } from '../validation/users.js';
import type { Role, UserRecord } from '../types.js';
import { unwrap } from './util.js';

/**
 * Registers a user: validates the
 * email and password, refuses an email already in `users` ('This email is already registered.'),
 * creates the identity account and writes `users/{uid}` with email, role, created_at,
 * registered_at, created_by and uid.
 *
 * @param backend identity and catalog ports (admin or service)
 * @param input email, password (≥ 6 characters) and role
 * @param createdBy uid (or label) of the admin registering the user
 * @returns the written user record
 * @throws AppError `invalid-argument` (the validation messages), `already-exists` ('This email is
 *   already registered.'), identity errors (`auth/email-already-in-use`, `auth/weak-password`…)
 */
export async function registerUser(
  backend: Pick<Backend, 'identity' | 'catalog'>,
  input: { email: string; password: string; role?: Role },
  createdBy: string | null,
): Promise<UserRecord> {
  const { email, password } = unwrap(validateRegisterUser(input));
  const normalised = email.trim().toLowerCase();
  const existing = await backend.catalog.query('users', { where: [['email', '==', normalised]], limit: 1 });
  if (existing.length > 0) {
    throw new AppError(ErrorCode.AlreadyExists, ValidationMessages.registerEmailExists, { context: { email: normalised } });
  }
  const account = await backend.identity.createAccount(normalised, password);
  const role: Role = input.role ?? 'user';
  await backend.catalog.set('users', account.uid, {
    uid: account.uid,
    email: normalised,
    role,
    created_at: SERVER_TIMESTAMP,
    registered_at: SERVER_TIMESTAMP,
    created_by: createdBy,
  });
  const record = await backend.catalog.get('users', account.uid);
  if (record === null) throw new AppError(ErrorCode.Internal, `User record ${account.uid} was not written`);
  return record;
}

/**
 * Grants the admin role to a user by UID (merges role 'admin' into the user's record). The
 * account must exist ('no-such-uid' used to become an admin record):
 * either its `users/{uid}` record is there, or the caller found the identity account itself
 * (`options.account`, e.g. the CLI's `users promote <email>` through the identity admin API) and
 * the record is written with its email. The user must sign out and in again for the change to
 * show.
 *
 * @param catalog the catalog port (admin or service)
 * @param uid the user's identity uid
 * @param options.account the identity account of `uid`, when the caller looked it up
 * @throws AppError `invalid-argument` ('Please enter either email or user ID' when empty),
 *   `not-found` ('No account with UID {uid}.', context `{uid}`: no record and no account given),
 *   `permission-denied`
 */
export async function grantAdmin(
  catalog: CatalogPort,
  uid: string,
  options: { account?: { uid: string; email: string | null } } = {},
): Promise<void> {
  const trimmed = uid.trim();
  if (trimmed === '') throw new AppError(ErrorCode.InvalidArgument, ValidationMessages.setAdminNeedsInput);
  const account = options.account?.uid === trimmed ? options.account : null;
  if (account === null && (await catalog.get('users', trimmed)) === null) {
    throw new AppError(ErrorCode.NotFound, noAccountWithUid(trimmed), { context: { uid: trimmed } });
  }
  const email = account?.email ? { email: account.email.trim().toLowerCase() } : {};
  await catalog.set('users', trimmed, { uid: trimmed, ...email, role: 'admin', updated_at: SERVER_TIMESTAMP }, { merge: true });
}
