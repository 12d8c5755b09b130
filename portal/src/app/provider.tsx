/** App-wide providers: backend (created outside React), runtime config, session. */
import type { ReactNode } from 'react';
import type { Backend } from '@shared/ports/index.js';
import { BackendProvider } from '../lib/backend-context.js';
import { RuntimeConfigProvider, type RuntimeConfig } from '../lib/runtime-config.js';
import { SessionProvider } from '../lib/session.js';

export function AppProvider({ backend, config, children }: { backend: Backend; config?: RuntimeConfig; children: ReactNode }) {
  return (
    <BackendProvider backend={backend}>
      <RuntimeConfigProvider value={config}>
        <SessionProvider>{children}</SessionProvider>
      </RuntimeConfigProvider>
    </BackendProvider>
  );
}
