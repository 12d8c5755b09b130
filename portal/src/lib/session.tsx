/**
 * The session: loading, then signed in with a role, or no role. The role is
 * resolved with the shared `resolveRole` workflow whenever the identity signs in (including
 * a session restored from storage).
 */
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { resolveRole } from '@shared/workflows/resolve-role.js';
import type { AuthUser } from '@shared/ports/index.js';
import type { Role } from '@shared/types.js';
import { useBackend } from './backend-context.js';
import { loading, success, type Resource } from './resource.js';

export interface SessionData {
  user: AuthUser;
  /** null when the role could not be resolved: treated as no role (redirect to /login). */
  role: Role | null;
}

/** `data` is null when signed out. */
export type Session = Resource<SessionData | null>;

const SessionContext = createContext<Session>(loading);

export function SessionProvider({ children }: { children: ReactNode }) {
  const backend = useBackend();
  const [session, setSession] = useState<Session>(loading);
  useEffect(() => {
    let generation = 0;
    const unsubscribe = backend.identity.onAuthStateChanged((user) => {
      const current = ++generation;
      if (user === null) {
        setSession(success(null));
        return;
      }
      setSession(loading);
      resolveRole(backend.catalog, user).then(
        (role) => current === generation && setSession(success({ user, role })),
        (error: unknown) => {
          console.error('Role resolution failed', error);
          if (current === generation) setSession(success({ user, role: null }));
        },
      );
    });
    return () => {
      generation++;
      unsubscribe();
    };
  }, [backend]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

/** The current session. */
export function useSession(): Session {
  return useContext(SessionContext);
}

/** The signed-in role, or null while loading / signed out. */
export function useRole(): Role | null {
  const session = useSession();
  return session.status === 'success' ? (session.data?.role ?? null) : null;
}

/**
 * Signs out through the identity port; the shell's 'Sign Out' and the
 * sign-out after registering a user both end the session this way.
 */
export function useSignOut(): () => Promise<void> {
  const { identity } = useBackend();
  return useCallback(() => identity.signOut(), [identity]);
}
