/**
 * Identity port: email and password sign-in, auth-state
 * observation, sign-out and account creation. Implemented by the embedded backend's HTTP client
 * and (later) by Firebase Auth.
 */

/** Signed-in identity. `uid` is the identity service's user id. */
export interface AuthUser {
  uid: string;
  email: string | null;
  /** True for a service principal (the CLI's service key); it acts with the admin role. */
  service?: boolean;
}

/**
 * The service principal's identity, the same in every backend: uid 'service', no email,
 * `service: true` (it acts with the admin role). What a service-key session of the embedded and
 * in-memory backends, and the CLI's firebase-admin adapter, report as the signed-in user.
 */
export const SERVICE_USER: Readonly<AuthUser & { service: true }> = Object.freeze({ uid: 'service', email: null, service: true });

/** Unsubscribes a listener. */
export type Unsubscribe = () => void;

export interface IdentityPort {
  /**
   * Signs in with email and password.
   * @returns the signed-in user
   * @throws AppError with an identity code (`auth/wrong-password`, `auth/user-not-found`,
   *   `auth/invalid-email`, `auth/user-disabled`, `auth/invalid-credential`…)
   */
  signIn(email: string, password: string): Promise<AuthUser>;

  /** Signs out; observers receive `null`. */
  signOut(): Promise<void>;

  /**
   * Observes the auth state. The listener is called once with the current state as soon as it
   * is known (after any stored session is restored), then on every change.
   */
  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe;

  /** The current user, or null when signed out or not yet known. */
  currentUser(): AuthUser | null;

  /**
   * Creates an email/password account. Admin or service only on the
   * embedded backend.
   * @returns the new account's identity
   * @throws AppError `auth/email-already-in-use`, `auth/invalid-email`, `auth/weak-password`
   */
  createAccount(email: string, password: string): Promise<AuthUser>;

  /**
   * Looks an account up by email (admin API; the CLI's `users promote <email>`).
   * Present only when `capabilities.lookupUsers` is true.
   * @returns the account, or null when no account has that email
   */
  findAccountByEmail?(email: string): Promise<AuthUser | null>;
}
