/** Hands the backend (created outside React, see `lib/backend.ts`) to the component tree. */
import { createContext, useContext, type ReactNode } from 'react';
import type { Backend } from '@shared/ports/index.js';

const BackendContext = createContext<Backend | null>(null);

export function BackendProvider({ backend, children }: { backend: Backend; children: ReactNode }) {
  return <BackendContext.Provider value={backend}>{children}</BackendContext.Provider>;
}

/** The backend of the nearest BackendProvider. */
export function useBackend(): Backend {
  const backend = useContext(BackendContext);
  if (backend === null) throw new Error('useBackend must be used inside a BackendProvider');
  return backend;
}
