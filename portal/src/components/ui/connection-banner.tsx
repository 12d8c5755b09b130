/**
 * The connection banner of the shell (issue 17 "Faults"): shown while the backend's connection
 * capability (`Backend.connection`, the local adapter's live-update stream) says 'offline', gone by
 * itself when it is back. Backends without the capability show nothing.
 */
import { useCallback, useSyncExternalStore } from 'react';
import type { ConnectionPort, ConnectionState } from '@shared/ports/index.js';
import { useBackend } from '../../lib/backend-context.js';

/** The banner's text while the connection is down. */
export const CONNECTION_LOST_TEXT = 'Connection to the catalog server lost. Live updates are paused; reconnecting…';

const ALWAYS_ONLINE = (): ConnectionState => 'online';
const NO_SUBSCRIPTION = () => () => undefined;

/** The backend's connection state ('online' when the backend cannot tell), updated live. */
export function useConnectionState(): ConnectionState {
  const connection: ConnectionPort | undefined = useBackend().connection;
  // Stable per backend: a new subscribe function would resubscribe (and restart the stream) on every render.
  const subscribe = useCallback(
    (onChange: () => void) => (connection ? connection.subscribe(() => onChange()) : NO_SUBSCRIPTION()),
    [connection],
  );
  const getState = useCallback(() => (connection ? connection.state : 'online'), [connection]);
  return useSyncExternalStore(subscribe, getState, ALWAYS_ONLINE);
}

/** A status strip while the connection is down; nothing otherwise. */
export function ConnectionBanner() {
  const state = useConnectionState();
  if (state === 'online') return null;
  return (
    <div className="connection-banner" role="status" data-testid="connection-banner">
      <span aria-hidden="true">⚠</span> {CONNECTION_LOST_TEXT}
    </div>
  );
}
