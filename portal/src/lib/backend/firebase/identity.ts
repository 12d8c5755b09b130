/**
 * IdentityPort over Firebase Auth: email/password sign-in, auth
 * state, sign-out, and registration. An admin registers other users from the portal, so
 * accounts are created through a secondary app instance: the admin stays signed in.
 */
import { deleteApp, initializeApp } from 'firebase/app';
import type { FirebaseApp } from 'firebase/app';
import {
  connectAuthEmulator,
  createUserWithEmailAndPassword,
  getAuth,
  inMemoryPersistence,
  onAuthStateChanged,
  signInWithEmailAndPassword,
  signOut,
  setPersistence,
} from 'firebase/auth';
import type { Auth, User } from 'firebase/auth';
import type { AuthUser, IdentityPort, Unsubscribe } from '@shared/ports/index.js';
import { mapAuthError } from './errors.js';

function toAuthUser(user: User | null): AuthUser | null {
  return user === null ? null : { uid: user.uid, email: user.email };
}

/** IdentityPort of the portal's Firebase adapter. */
export class FirebaseIdentity implements IdentityPort {
  private known = false;

  /**
   * @param auth the Auth instance of the app
   * @param authEmulatorUrl the Auth emulator's URL (`http://127.0.0.1:9099`) when emulated
   * @param onChange called on every auth-state change (the catalog forgets cached roles)
   */
  constructor(
    private readonly auth: Auth,
    private readonly authEmulatorUrl: string | null,
    private readonly onChange: () => void = () => undefined,
  ) {
    onAuthStateChanged(auth, () => {
      this.known = true;
      this.onChange();
    });
  }

  async signIn(email: string, password: string): Promise<AuthUser> {
    try {
      const credential = await signInWithEmailAndPassword(this.auth, email.trim(), password);
      return toAuthUser(credential.user)!;
    } catch (error) {
      throw mapAuthError(error);
    }
  }

  async signOut(): Promise<void> {
    try {
      await signOut(this.auth);
    } catch (error) {
      throw mapAuthError(error);
    }
  }

  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe {
    return onAuthStateChanged(this.auth, (user) => listener(toAuthUser(user)));
  }

  currentUser(): AuthUser | null {
    return this.known || this.auth.currentUser ? toAuthUser(this.auth.currentUser) : null;
  }

  async createAccount(email: string, password: string): Promise<AuthUser> {
    // A secondary app so that the new account's sign-in does not replace the admin's session.
    const secondary: FirebaseApp = initializeApp(this.auth.app.options, `register-${Date.now()}-${Math.random().toString(36).slice(2)}`);
    try {
      const auth = getAuth(secondary);
      await setPersistence(auth, inMemoryPersistence);
      if (this.authEmulatorUrl) connectAuthEmulator(auth, this.authEmulatorUrl, { disableWarnings: true });
      const credential = await createUserWithEmailAndPassword(auth, email.trim(), password);
      const created = toAuthUser(credential.user)!;
      await signOut(auth);
      return created;
    } catch (error) {
      throw mapAuthError(error);
    } finally {
      await deleteApp(secondary).catch(() => undefined);
    }
  }
}
