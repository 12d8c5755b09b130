/**
 * IdentityPort over the Admin Auth API. The CLI acts
 * as the service principal (`service: true`, admin rights); registration and look-ups go
 * through the Admin API, which also works against the Auth emulator
 * (`FIREBASE_AUTH_EMULATOR_HOST`).
 */
import type { Auth } from 'firebase-admin/auth';
import { PASSWORD_MIN_LENGTH } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { ValidationMessages } from '@shared/messages.js';
import type { AuthUser, IdentityPort, Unsubscribe } from '@shared/ports/index.js';
import { SERVICE_USER } from '@shared/ports/identity.js';
import { unsupported } from './catalog.js';
import { authError } from './errors.js';

/** IdentityPort of the firebase-admin adapter. */
export class AdminIdentity implements IdentityPort {
  /** @param auth the Admin SDK Auth instance */
  constructor(private readonly auth: Auth) {}

  async signIn(): Promise<AuthUser> {
    throw unsupported('Signing in with a password');
  }

  async signOut(): Promise<void> {
    // The service principal stays signed in.
  }

  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe {
    queueMicrotask(() => listener(SERVICE_USER));
    return () => undefined;
  }

  currentUser(): AuthUser | null {
    return SERVICE_USER;
  }

  async createAccount(email: string, password: string): Promise<AuthUser> {
    if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) {
      throw new AppError(ErrorCode.WeakPassword, ValidationMessages.registerPasswordShort);
    }
    try {
      const record = await this.auth.createUser({ email: email.trim(), password });
      return { uid: record.uid, email: record.email ?? null };
    } catch (error) {
      throw authError(error, `create account ${email}`);
    }
  }

  async findAccountByEmail(email: string): Promise<AuthUser | null> {
    try {
      const record = await this.auth.getUserByEmail(email.trim());
      return { uid: record.uid, email: record.email ?? null };
    } catch (error) {
      const mapped = authError(error, `look up ${email}`);
      if (mapped.code === ErrorCode.UserNotFound) return null;
      throw mapped;
    }
  }

  /**
   * Disables or enables an account (Admin API).
   * @param uid the account's uid
   * @param disabled true to disable
   * @throws AppError `auth/user-not-found`
   */
  async setDisabled(uid: string, disabled: boolean): Promise<void> {
    try {
      await this.auth.updateUser(uid, { disabled });
    } catch (error) {
      throw authError(error, `update account ${uid}`);
    }
  }
}
