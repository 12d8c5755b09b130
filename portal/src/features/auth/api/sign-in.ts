/** Sign-in through the identity port; sign-out is the session's (`lib/session`). */
import { useCallback } from 'react';
import type { AuthUser } from '@shared/ports/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useSignIn(): (email: string, password: string) => Promise<AuthUser> {
  const { identity } = useBackend();
  return useCallback((email, password) => identity.signIn(email, password), [identity]);
}
