/**
 * The in-memory backend: the ports of `shared/ports` over maps in this process,
 * behaving as the embedded backend (`catalog serve`) does — same document semantics, queries,
 * atomic batches, live updates, role table, identity codes and storage rules —
 * so that workflows and screens can be tested without a server. The contract suite
 * (`tests/contract/memory.test.ts`) holds it to the same behaviour as the other backends.
 *
 * Several clients share one store, as clients of one server share its database:
 *
 * ```ts
 * const store = createMemoryStore({
 *   accounts: [{ uid: 'admin-uid', email: 'admin@demo.lab', role: 'admin' }],
 *   documents: { projects: [{ id: 'p1', name: 'Tower', structure_id: 'T-1' }] },
 * });
 * const admin = createMemoryBackend({ store, signedInAs: 'admin-uid' }); // signed in at once
 * const service = createMemoryBackend({ store, service: true });
 * const anon = createMemoryBackend({ store });
 * ```
 *
 * Pure TypeScript (no Node modules): runs in Node and in jsdom.
 */
import type { Backend, BackendCapabilities } from '@shared/ports/index.js';
import type { Role } from '@shared/types.js';
import { NO_SERVER_JOBS } from '@shared/adapters/common.js';
import { MemoryCatalog } from './catalog.js';
import { MemoryFiles } from './files.js';
import { MemoryIdentity, MemorySession } from './identity.js';
import type { MemoryStore, MemoryStoreOptions } from './store.js';
import { createMemoryStore } from './store.js';

export { createMemoryStore, MemoryStore } from './store.js';
export { createMemoryStoredFileChecks } from './stored-file-checks.js';
export type { MemoryStoredFileChecks } from './stored-file-checks.js';
export { createMemoryStoredWebCopies } from './stored-web-copies.js';
export type { MemoryStoredWebCopies, MemoryWebSplatMaker } from './stored-web-copies.js';
export type {
  MemoryAccount,
  MemoryAccountSeed,
  MemoryDocSeed,
  MemoryFile,
  MemoryFileSeed,
  MemorySeed,
  MemoryStoreOptions,
} from './store.js';

/** Options of {@link createMemoryBackend}. */
export interface MemoryBackendOptions {
  /** The shared state; default a new empty store (then the client is alone with it). */
  store?: MemoryStore;
  /**
   * Act as the service principal (admin rights) when no account is signed in, as a client with
   * the embedded backend's service key does.
   */
  service?: boolean;
  /**
   * Start signed in as this account (its uid), synchronously: `currentUser()` reports it at once.
   * @throws (from createMemoryBackend) when the store has no such account
   */
  signedInAs?: string;
}

/** A backend made by {@link createMemoryBackend}: the ports plus the store it runs on. */
export interface MemoryBackend extends Backend {
  readonly kind: 'memory';
  /** The shared state this client reads and writes (seed it, or read it back, in tests). */
  readonly store: MemoryStore;
}

/** The in-memory backend's capabilities: lookups and atomic batches yes; uploads do not resume across processes. */
const CAPABILITIES: BackendCapabilities = Object.freeze({
  lookupUsers: true,
  atomicBatches: true,
  resumableUploads: false,
  fileStorage: true,
});

/**
 * Creates one client of an in-memory backend.
 * @param options the store to share, and who the client is (see {@link MemoryBackendOptions})
 * @returns a {@link MemoryBackend} (`kind: 'memory'`); `close()` ends its subscriptions (the store stays)
 * @throws Error when `signedInAs` names no account of the store
 */
export function createMemoryBackend(options: MemoryBackendOptions = {}): MemoryBackend {
  const store = options.store ?? createMemoryStore();
  const session = new MemorySession(store, options.service === true);
  if (options.signedInAs !== undefined) {
    if (!store.account(options.signedInAs)) throw new Error(`createMemoryBackend: no account ${options.signedInAs} in the store`);
    session.setUid(options.signedInAs);
  }
  const identity = new MemoryIdentity(store, session);
  const catalog = new MemoryCatalog(store, session);
  const files = new MemoryFiles(store, session);
  return {
    kind: 'memory',
    store,
    identity,
    catalog,
    files,
    // no server computes anything by itself here, as on Firebase
    jobs: NO_SERVER_JOBS,
    capabilities: CAPABILITIES,
    async close() {
      catalog.close();
      session.close();
    },
  };
}

/** Options of {@link createMemoryBackendAs}. */
export interface MemoryBackendAsOptions extends MemoryStoreOptions {
  /** The store to use instead of a new one made from the seed options. */
  store?: MemoryStore;
  /** The account's uid; default `${role}-uid` (or 'no-role-uid'). */
  uid?: string;
  /** The account's email; default `${role}@memory.test` (or 'no-role@memory.test'). */
  email?: string;
}

/**
 * A client signed in synchronously with a role, for component and workflow tests: the account
 * (and its `users/{uid}` record with `role`) is added to the store when missing.
 * @param role 'admin' or 'user'; 'none' signs in an account without a record (a first sign-in);
 *   null gives a signed-out client
 * @param options the store (or seed options for a new one), and the account's uid and email
 * @returns the client; its `store` is the shared state
 */
export function createMemoryBackendAs(role: Role | 'none' | null, options: MemoryBackendAsOptions = {}): MemoryBackend {
  const { store: given, uid: givenUid, email: givenEmail, ...seed } = options;
  const store = given ?? createMemoryStore(seed);
  if (given) store.seed(seed);
  if (role === null) return createMemoryBackend({ store });
  const label = role === 'none' ? 'no-role' : role;
  const uid = givenUid ?? `${label}-uid`;
  if (!store.account(uid)) store.addAccount({ uid, email: givenEmail ?? `${label}@memory.test`, role: role === 'none' ? null : role });
  return createMemoryBackend({ store, signedInAs: uid });
}
