/** Register a user with a role, recorded as created by the admin. */
import { useCallback } from 'react';
import type { Role, UserRecord } from '@shared/types.js';
import { registerUser } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useRegisterUser(): (input: { email: string; password: string; role: Role }) => Promise<UserRecord> {
  const backend = useBackend();
  return useCallback((input) => registerUser(backend, input, backend.identity.currentUser()?.uid ?? null), [backend]);
}
