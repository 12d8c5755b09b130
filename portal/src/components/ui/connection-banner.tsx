/**
 * The connection banner of the shell: shown while the backend's connection
 * capability (`Backend.connection`, the local adapter's live-update stream) says 'offline', gone by
 * itself when it is back. Backends without the capability show nothing.
 *
 * The live region (role=status) is always there, empty while online, so a screen reader
 * announces the banner when its text arrives (a region inserted with its text often is not).
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

/** A live region holding a status strip while the connection is down, empty otherwise. */
export function ConnectionBanner() {
  const state = useConnectionState();
  return (
    <div className="connection-status" role="status" data-testid="connection-status">
      {state === 'online' ? null : (
        <div className="connection-banner" data-testid="connection-banner">
          <span aria-hidden="true">⚠</span> {CONNECTION_LOST_TEXT}
        </div>
      )}
    </div>
  );
}
