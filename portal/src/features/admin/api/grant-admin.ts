/** Give a user the admin role through the shared workflow. */
import { useCallback } from 'react';
import { grantAdmin } from '@shared/workflows/index.js';
import { useBackend } from '../../../lib/backend-context.js';

export function useGrantAdmin(): (uid: string) => Promise<void> {
  const { catalog } = useBackend();
  return useCallback((uid) => grantAdmin(catalog, uid), [catalog]);
}
