/**
 * The local adapter: the backend ports of `shared/ports` over HTTP to the embedded backend
 * (`catalog serve`). Fetch-based, so the same code runs in the browser (the portal)
 * and in Node 20 (the CLI, tests).
 */
import type { Backend, BackendCapabilities } from '../../ports/index.js';
import { assembleBackend } from '../common.js';
import { LocalCatalog } from './catalog.js';
import { LocalFiles } from './files.js';
import { Transport } from './http.js';
import { LocalIdentity } from './identity.js';
import { LocalJobs } from './jobs.js';
import type { SessionStorage } from './identity.js';

export type { SessionStorage } from './identity.js';

/** Options of {@link createLocalBackend}. */
export interface LocalBackendOptions {
  /** Server origin, e.g. 'http://127.0.0.1:8787'; the portal passes window.location.origin. */
  baseUrl: string;
  /** Secret from `service-key.json`: without a user session, requests act as the service principal (admin rights). */
  serviceKey?: string;
  /** Session persistence; the portal passes window.localStorage. Without it the session lives in memory. */
  storage?: SessionStorage;
  /** fetch implementation; default globalThis.fetch. */
  fetch?: typeof fetch;
  /** tus-js-client UrlStorage for resuming uploads across processes (the CLI passes tus FileUrlStorage). */
  uploadUrlStorage?: unknown;
  /** tus-js-client `fileReader` for resumable uploads (the CLI passes one that reads local files in large blocks); default tus-js-client's own. */
  uploadFileReader?: unknown;
}

/**
 * Creates the local backend client.
 * @param options see {@link LocalBackendOptions}
 * @returns a {@link Backend} (`kind: 'local'`) with `connection` (the live stream's state); call `close()` to stop the live stream and token refresh
 * @throws nothing synchronously; every call reports failures as AppError (codes of `shared/errors.ts`)
 */
export function createLocalBackend(options: LocalBackendOptions): Backend {
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  const transport = new Transport(options.baseUrl.replace(/\/+$/, ''), fetchFn);
  const identity = new LocalIdentity(transport, { storage: options.storage, serviceKey: options.serviceKey });
  const catalog = new LocalCatalog(transport, identity);
  const files = new LocalFiles(transport, identity, options.uploadUrlStorage, options.uploadFileReader);
  // the server computes change maps by itself: their jobs are followed through the catalog's event stream
  const jobs = new LocalJobs(identity, catalog);
  const capabilities: BackendCapabilities = { lookupUsers: true, atomicBatches: true, resumableUploads: true, fileStorage: true };
  const backend = assembleBackend('local', { identity, catalog, files, jobs }, capabilities, async () => {
    catalog.close();
    identity.close();
  });
  return { ...backend, connection: catalog.connection };
}
