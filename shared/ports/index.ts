/**
 * The backend: the three ports the portal and the CLI use (DESIGN.md §2). Adapters are
 * factories (`createLocalBackend(opts)`, later `createFirebaseBackend(app)`) that return this.
 */
import type { CatalogPort } from './catalog.js';
import type { FileStorePort } from './files.js';
import type { IdentityPort } from './identity.js';

export type * from './catalog.js';
export type * from './files.js';
export type * from './identity.js';
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
   * There is a file store behind `files` (SPEC.md §7 file storage). False for the firebase-admin
   * adapter on the emulators without the Storage emulator: model files cannot be stored, so
   * `catalog seed` writes model records without files.
   */
  fileStorage: boolean;
}

export interface Backend {
  /** Short name for logs: 'local', 'firebase', or 'memory' (the in-memory backend of tests, `shared/adapters/memory`). */
  readonly kind: 'local' | 'firebase' | 'memory';
  readonly identity: IdentityPort;
  readonly catalog: CatalogPort;
  readonly files: FileStorePort;
  readonly capabilities: BackendCapabilities;
  /** Releases connections and listeners. */
  close(): Promise<void>;
}
