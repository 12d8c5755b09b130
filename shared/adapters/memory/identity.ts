/**
 * Identity port of the in-memory backend: one
 * client's session over the store's accounts, with the embedded backend's rules: sign-in errors
 * `auth/invalid-email`, `auth/user-not-found`, `auth/wrong-password`, `auth/user-disabled`;
 * account creation and lookups for admins and the service principal only; the service principal
 * always signed in. No tokens: a session is the account's uid, checked on every call (a deleted
 * or disabled account's calls are refused as unauthenticated, as an ID token would be).
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import { SERVICE_USER, type AuthUser, type IdentityPort, type Unsubscribe } from '@shared/ports/identity.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { requireAdmin } from '@shared/rules/document-rules.js';
import type { MemoryStore } from './store.js';
import { normalizeEmail } from '@shared/email.js';

/** One client's session: who it is signed in as, and the observers of changes. */
export class MemorySession {
  private uid: string | null = null;
  private readonly listeners = new Set<(user: AuthUser | null) => void>();

  /**
   * @param store the shared state
   * @param service true: without a signed-in account the client acts as the service principal
   */
  constructor(
    private readonly store: MemoryStore,
    readonly service: boolean,
  ) {}

  /** The signed-in account's uid, or null. */
  get signedInUid(): string | null {
    return this.uid;
  }

  /** Signs the session in as `uid` (or out with null) and notifies observers. */
  setUid(uid: string | null): void {
    this.uid = uid;
    const user = this.user();
    for (const listener of [...this.listeners]) listener(user);
  }

  /** The identity the client reports: the account, else the service principal, else null. */
  user(): AuthUser | null {
    if (this.uid !== null) {
      const account = this.store.account(this.uid);
      return { uid: this.uid, email: account?.email ?? null };
    }
    return this.service ? SERVICE_USER : null;
  }

  /**
   * Who makes the next call, with the role of their `users/{uid}` record.
   * @throws AppError `unauthenticated` when the signed-in account was deleted or disabled
   */
  principal(): Principal {
    if (this.uid === null) return this.service ? { kind: 'service' } : { kind: 'anon' };
    const account = this.store.account(this.uid);
    if (!account || account.disabled) throw new AppError(ErrorCode.Unauthenticated, 'The account does not exist or is disabled');
    const role = this.store.readDocument('users', account.uid)?.role;
    return { kind: 'user', uid: account.uid, email: account.email, role: role === 'admin' || role === 'user' ? role : null };
  }

  /** Observes session changes (called synchronously on each change). */
  onChange(listener: (user: AuthUser | null) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Drops every observer. */
  close(): void {
    this.listeners.clear();
  }
}

/** IdentityPort of the in-memory backend. */
export class MemoryIdentity implements IdentityPort {
  /**
   * @param store the shared state (accounts)
   * @param session this client's session
   */
  constructor(
    private readonly store: MemoryStore,
    private readonly session: MemorySession,
  ) {}

  async signIn(email: string, password: string): Promise<AuthUser> {
    await this.store.tick();
    const normalised = normalizeEmail(email);
    const account = this.store.accountByEmail(normalised);
    if (!account) throw new AppError(ErrorCode.UserNotFound, 'No account with this email');
    if (typeof password !== 'string' || password !== account.password) throw new AppError(ErrorCode.WrongPassword, 'Incorrect password');
    if (account.disabled) throw new AppError(ErrorCode.UserDisabled, 'The account has been disabled');
    this.session.setUid(account.uid);
    return this.currentUser()!;
  }

  async signOut(): Promise<void> {
    await this.store.tick();
    this.session.setUid(null);
  }

  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe {
    let active = true;
    let stop: Unsubscribe = () => undefined;
    queueMicrotask(() => {
      if (!active) return;
      stop = this.session.onChange(listener);
      listener(this.currentUser());
    });
    return () => {
      active = false;
      stop();
    };
  }

  currentUser(): AuthUser | null {
    return this.session.user();
  }

  async createAccount(email: string, password: string): Promise<AuthUser> {
    await this.store.tick();
    requireAdmin(this.session.principal());
    return this.store.createAccount(email, password);
  }

  async findAccountByEmail(email: string): Promise<AuthUser | null> {
    await this.store.tick();
    requireAdmin(this.session.principal());
    const account = this.store.accountByEmail(email);
    return account ? { uid: account.uid, email: account.email } : null;
  }
}
