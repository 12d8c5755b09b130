/**
 * The backend: the three ports the portal and the CLI use. Adapters are
 * factories (`createLocalBackend(opts)`, later `createFirebaseBackend(app)`) that return this.
 */
import type { CatalogPort } from './catalog.js';
import type { FileStorePort } from './files.js';
import type { IdentityPort, Unsubscribe } from './identity.js';
import type { ServerJobsPort } from './jobs.js';

export type * from './catalog.js';
export type * from './files.js';
export type * from './identity.js';
export type * from './jobs.js';
export type * from './stored-file-checks.js';
export { SERVER_TIMESTAMP, isServerTimestamp } from './catalog.js';

/** What an adapter can do beyond the common contract (capability flags instead of silent gaps). */
export interface BackendCapabilities {
  /** `identity.findAccountByEmail` is available (admin APIs: firebase-admin, service key). */
  lookupUsers: boolean;
  /** Multi-document batches are atomic. */
  atomicBatches: boolean;
  /** Uploads resume across processes (tus URL storage / resumable sessions). */
  resumableUploads: boolean;
  /**
   * There is a file store behind `files`. False for the firebase-admin
   * adapter on the emulators without the Storage emulator: model files cannot be stored, so
   * `catalog seed` writes model records without files.
   */
  fileStorage: boolean;
}

/**
 * Whether the backend is reachable: for the local adapter, whether its live-update stream to the
 * embedded server is up (a failed request also counts as down, a reconnected stream as up); for
 * the Firebase web adapter, the browser's online/offline state. The portal's
 * connection banner shows while the state is 'offline' and clears itself on reconnect.
 */
export type ConnectionState = 'online' | 'offline';

/**
 * The connection capability of an adapter (optional on {@link Backend}: absent where the adapter
 * cannot tell — the memory backend, firebase-admin).
 */
export interface ConnectionPort {
  /** The state now ('online' until something failed). */
  readonly state: ConnectionState;
  /**
   * Listens to the state. While at least one listener is registered the local adapter keeps its
   * live-update stream open (reconnecting with back-off), so the state recovers by itself.
   * @param listener called once at once with the current state, then on every change
   * @returns stops listening
   */
  subscribe(listener: (state: ConnectionState) => void): Unsubscribe;
}

export interface Backend {
  /** Short name for logs: 'local', 'firebase', or 'memory' (the in-memory backend of tests, `shared/adapters/memory`). */
  readonly kind: 'local' | 'firebase' | 'memory';
  readonly identity: IdentityPort;
  readonly catalog: CatalogPort;
  readonly files: FileStorePort;
  /** What the backend's own server computes by itself (change maps on the embedded backend; none on Firebase). */
  readonly jobs: ServerJobsPort;
  readonly capabilities: BackendCapabilities;
  /** Reachability of the backend; absent when the adapter cannot tell. */
  readonly connection?: ConnectionPort;
  /** Releases connections and listeners. */
  close(): Promise<void>;
}
