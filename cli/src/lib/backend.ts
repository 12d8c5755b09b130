/**
 * Opening the backend for a command: the embedded server (`catalog serve`) reached over HTTP
 * with the service key it wrote into its data folder.
 *
 * - data folder: `--data-dir`, else env `CATALOG_DATA_DIR`, else `.catalog-data` in the current
 *   directory;
 * - credentials: env `CATALOG_SERVICE_KEY` (path to a service-key.json), else
 *   `<dataDir>/service-key.json` (`{"type":"catalog-service-key","url":…,"key":…}`);
 * - server: `--url`, else env `CATALOG_URL`, else the key file's `url`, else
 *   `http://127.0.0.1:<CATALOG_PORT or 8787>`.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import * as tus from 'tus-js-client';
import { z } from 'zod';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';
import type { Backend } from '@shared/ports/index.js';
import { SERVICE_KEY_FILE, serviceKeyFileSchema, type ServiceKeyFile } from '@shared/wire/service-key.js';
import { routes } from '@shared/wire/routes.js';
import { largeBlockFileReader } from './tus-file-reader.js';

/** Default data folder, relative to the current directory. */
export const DEFAULT_DATA_DIR = '.catalog-data';
/** Default port of `catalog serve`. */
export const DEFAULT_PORT = 8787;

/** Backend options shared by the commands that talk to the server. */
export interface BackendOptions {
  dataDir?: string;
  url?: string;
}

/** Zod shape of {@link BackendOptions}, to spread into a command's schema. */
export const backendOptionsShape = {
  dataDir: z.string().min(1).optional(),
  url: z.string().url().optional(),
};

/**
 * Adds `--data-dir <dir>` and `--url <url>` to a command.
 * @returns the same command
 */
export function addBackendOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', `data folder of the server (env CATALOG_DATA_DIR, default ${DEFAULT_DATA_DIR})`)
    .option('--url <url>', 'server URL (env CATALOG_URL; default: the URL in the service key)');
}

/**
 * The data folder to use, as an absolute path.
 * @param dataDir the `--data-dir` value, if given
 */
export function resolveDataDir(dataDir?: string): string {
  return resolve(dataDir || process.env.CATALOG_DATA_DIR || DEFAULT_DATA_DIR);
}

/**
 * The default port: env `CATALOG_PORT`, else 8787.
 */
export function defaultPort(): number {
  const fromEnv = Number(process.env.CATALOG_PORT || Number.NaN);
  return Number.isInteger(fromEnv) && fromEnv >= 0 ? fromEnv : DEFAULT_PORT;
}

/** A service key as read from disk (`shared/wire/service-key.ts`). */
export type ServiceKey = ServiceKeyFile;

/**
 * Reads the service key (env `CATALOG_SERVICE_KEY`, else `<dataDir>/service-key.json`).
 * @param dataDir absolute data folder
 * @returns the key and the file it came from
 * @throws AppError `unauthenticated` when there is no key file or it is not a service key
 */
export async function readServiceKey(dataDir: string): Promise<{ key: ServiceKey; path: string }> {
  const path = process.env.CATALOG_SERVICE_KEY ? resolve(process.env.CATALOG_SERVICE_KEY) : join(dataDir, SERVICE_KEY_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new AppError(
      ErrorCode.Unauthenticated,
      `No service key found at ${path}. Start the server once with \`catalog serve --data-dir ${dataDir}\` (it writes the key there), or set CATALOG_SERVICE_KEY to the path of a service-key.json.`,
      { context: { path } },
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  const result = serviceKeyFileSchema.safeParse(parsed);
  if (!result.success) {
    throw new AppError(
      ErrorCode.Unauthenticated,
      `${path} is not a catalog service key (expected {"type":"catalog-service-key","key":…}).`,
      {
        context: { path },
      },
    );
  }
  return { key: result.data, path };
}

/**
 * Checks that the server answers `GET /v1/config`.
 * @param baseUrl the server's origin
 * @param timeoutMs how long to wait, in milliseconds
 * @throws AppError `unavailable` ("… is `catalog serve` running?")
 */
export async function checkServer(baseUrl: string, timeoutMs = 5000): Promise<void> {
  try {
    const response = await fetch(new URL(routes.config.path(), baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (error) {
    throw new AppError(
      ErrorCode.Unavailable,
      `Cannot reach the catalog server at ${baseUrl}: is \`catalog serve\` running? (${errorMessage(error)})`,
      { cause: error, context: { baseUrl } },
    );
  }
}

/** An opened backend with where it came from. */
export interface OpenedBackend {
  backend: Backend;
  baseUrl: string;
  dataDir: string;
  /** uid of the principal the CLI acts as (for created_by / owner_uid). */
  actorUid: string;
  /** Resolves when pending upload bookkeeping (the resume file) is written; await before exiting. */
  idle?: () => Promise<void>;
  /** The embedded server's service key (for its service-only routes, e.g. account export); absent for other backends. */
  serviceKey?: string;
}

type FileUrlStorageCtor = new (path: string) => unknown;

/** The methods of a tus-js-client UrlStorage. */
export interface UrlStorageLike {
  findAllUploads(): Promise<unknown[]>;
  findUploadsByFingerprint(fingerprint: string): Promise<unknown[]>;
  removeUpload(urlStorageKey: string): Promise<void>;
  addUpload(fingerprint: string, upload: unknown): Promise<string | undefined>;
}

/** How long a URL-storage call waits for a lock held by another (or a killed) process, in ms (its lock goes stale after 10 s). */
const URL_STORAGE_LOCK_WAIT_MS = 12_000;

/**
 * A URL storage whose calls run one at a time in this process and never fail the upload:
 * tus-js-client's FileUrlStorage locks its file with few retries (which concurrent uploads of
 * `upload-many --concurrency` would exhaust, and a lock left by a killed process outlives), and
 * it removes a finished upload's entry without waiting. Here a locked file is retried until its
 * lock goes stale; any other failure only loses the resume (find → none, add/remove → ignored);
 * `idle()` resolves when every call made so far has finished (await it before exiting, or the
 * lock of a pending removal stays behind).
 * @param inner the storage to serialise
 */
export function serialisedUrlStorage(inner: UrlStorageLike): UrlStorageLike & { idle(): Promise<void> } {
  let chain: Promise<unknown> = Promise.resolve();
  const withRetry = async <T>(fn: () => Promise<T>): Promise<T> => {
    const until = Date.now() + URL_STORAGE_LOCK_WAIT_MS;
    for (;;) {
      try {
        return await fn();
      } catch (error) {
        if ((error as { code?: unknown })?.code !== 'ELOCKED' || Date.now() > until) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  };
  const run = <T>(fn: () => Promise<T>, fallback: T): Promise<T> => {
    const next = chain.then(() => withRetry(fn)).catch(() => fallback);
    chain = next;
    return next;
  };
  return {
    findAllUploads: () => run(() => inner.findAllUploads(), []),
    findUploadsByFingerprint: (fingerprint) => run(() => inner.findUploadsByFingerprint(fingerprint), []),
    removeUpload: (key) => run(() => inner.removeUpload(key), undefined),
    addUpload: (fingerprint, upload) => run(() => inner.addUpload(fingerprint, upload), undefined),
    idle: () => chain.then(() => undefined),
  };
}

/**
 * Opens the backend as the service principal (admin rights).
 * @param options `--data-dir` and `--url`
 * @returns the backend (close it when done), its URL and data folder
 * @throws AppError `unauthenticated` (no service key), `unavailable` (server unreachable)
 */
export async function openBackend(options: BackendOptions = {}): Promise<OpenedBackend> {
  const dataDir = resolveDataDir(options.dataDir);
  if (!options.url && usesFirebase()) return openFirebaseBackend(dataDir);
  const { key } = await readServiceKey(dataDir);
  const baseUrl = (options.url || process.env.CATALOG_URL || key.url || `http://127.0.0.1:${defaultPort()}`).replace(/\/+$/, '');
  await checkServer(baseUrl);
  const FileUrlStorage = (tus as unknown as { FileUrlStorage: FileUrlStorageCtor }).FileUrlStorage;
  const urlStorage = existsSync(dataDir)
    ? serialisedUrlStorage(new FileUrlStorage(join(dataDir, '.upload-urls.json')) as UrlStorageLike)
    : undefined;
  const backend = createLocalBackend({
    baseUrl,
    serviceKey: key.key,
    uploadUrlStorage: urlStorage,
    uploadFileReader: largeBlockFileReader(),
  });
  const actorUid = backend.identity.currentUser()?.uid ?? 'service';
  return { backend, baseUrl, dataDir, actorUid, serviceKey: key.key, ...(urlStorage ? { idle: urlStorage.idle } : {}) };
}

/**
 * True when the CLI talks to Firebase instead of `catalog serve`: env
 * `GOOGLE_APPLICATION_CREDENTIALS` (a real project) or any Firebase emulator variable
 * (`FIRESTORE_EMULATOR_HOST`, `FIREBASE_AUTH_EMULATOR_HOST`, `FIREBASE_STORAGE_EMULATOR_HOST`)
 * is set, and `CATALOG_BACKEND` is not 'local'. `--url` always selects the embedded server.
 */
export function usesFirebase(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.CATALOG_BACKEND === 'local') return false;
  return Boolean(
    env.GOOGLE_APPLICATION_CREDENTIALS ||
    env.FIRESTORE_EMULATOR_HOST ||
    env.FIREBASE_AUTH_EMULATOR_HOST ||
    env.FIREBASE_STORAGE_EMULATOR_HOST,
  );
}

/**
 * Opens the firebase-admin backend (loaded on demand, so the local path never loads the Admin SDK).
 * @param dataDir the data folder (unused by Firebase; reported back for symmetry)
 * @returns the backend acting as the service principal; baseUrl is `firebase:<projectId>`
 * @throws AppError `unauthenticated` when no project id can be resolved
 */
async function openFirebaseBackend(dataDir: string): Promise<OpenedBackend> {
  const { createFirebaseAdminBackend, resolveFirebaseProject } = await import('../adapters/firebase-admin/index.js');
  const projectId = resolveFirebaseProject() ?? undefined;
  const backend = createFirebaseAdminBackend({ projectId });
  return { backend, baseUrl: `firebase:${projectId}`, dataDir, actorUid: backend.identity.currentUser()?.uid ?? 'service' };
}
