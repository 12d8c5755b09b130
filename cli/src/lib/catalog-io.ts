/**
 * The embedded server's service-only APIs that export, import and `catalog doctor` call over HTTP
 * (sign-in accounts, the storage scan and repair), and the deep listing of stored files that export
 * and import share. Export writing lives in `catalog-export.ts`; import in `catalog-import.ts`
 * (checking in `catalog-import-plan.ts`, undoing in `catalog-import-undo.ts`).
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import type { FileStorePort, StoredFile } from '@shared/ports/index.js';
import { routes, type ReplyOf, type StorageScanReport } from '@shared/wire/routes.js';

/** Reading and writing sign-in accounts (password hashes): the embedded server's service-only API. */
export interface AccountsApi {
  /** The accounts, or null when the backend cannot export them. */
  read(): Promise<unknown[] | null>;
  write(accounts: unknown[]): Promise<void>;
}

/**
 * The embedded server's account API (`routes.exportAccounts`, `routes.importAccounts`; service key only).
 * @param baseUrl the server's origin
 * @param serviceKey the service key
 */
export function embeddedAccountsApi(baseUrl: string, serviceKey: string): AccountsApi {
  const headers = { authorization: `Bearer ${serviceKey}`, 'content-type': 'application/json' };
  return {
    async read() {
      const response = await fetch(`${baseUrl}${routes.exportAccounts.path()}`, { method: routes.exportAccounts.method, headers });
      if (response.status === 404) return null;
      if (!response.ok)
        throw new AppError(ErrorCode.PermissionDenied, `Account export refused: HTTP ${response.status} ${await response.text()}`);
      return ((await response.json()) as ReplyOf<typeof routes.exportAccounts>).accounts;
    },
    async write(accounts) {
      const response = await fetch(`${baseUrl}${routes.importAccounts.path()}`, {
        method: routes.importAccounts.method,
        headers,
        body: JSON.stringify({ accounts }),
      });
      if (!response.ok)
        throw new AppError(ErrorCode.PermissionDenied, `Account import refused: HTTP ${response.status} ${await response.text()}`);
    },
  };
}

/** Files on the embedded server's disk compared with its file records (`routes.storageScan`, service key only). */
export interface StorageScanApi {
  /**
   * `untracked`: files on disk without a record; `missing`: records without bytes on disk
   * (storage paths); what a repair leaves alone and why; the model folders with an upload in
   * progress or resumable.
   * @param graceMs the grace period in ms (default: the server's, 24 h)
   */
  scan(graceMs?: number): Promise<StorageScanReport>;
  /** Removes both kinds, leaving alone what the scan leaves alone; returns how many files and records went and what stayed. */
  repair(graceMs?: number): Promise<ReplyOf<typeof routes.storageRepair>>;
}

/**
 * The embedded server's storage scan (`catalog doctor`): what the file listing cannot show,
 * because a listing reads the records.
 * @param baseUrl the server's origin
 * @param serviceKey the service key
 * @throws AppError `permission-denied` when the server refuses
 */
export function embeddedStorageScanApi(baseUrl: string, serviceKey: string): StorageScanApi {
  const headers = { authorization: `Bearer ${serviceKey}` };
  const call = async <R extends typeof routes.storageScan | typeof routes.storageRepair>(
    route: R,
    graceMs?: number,
  ): Promise<ReplyOf<R>> => {
    const response = await fetch(`${baseUrl}${route.path(graceMs)}`, { method: route.method, headers });
    if (!response.ok)
      throw new AppError(ErrorCode.PermissionDenied, `Storage scan refused: HTTP ${response.status} ${await response.text()}`);
    return (await response.json()) as ReplyOf<R>;
  };
  return {
    scan: (graceMs) => call(routes.storageScan, graceMs),
    repair: (graceMs) => call(routes.storageRepair, graceMs),
  };
}

/**
 * Every file under `folder`, recursively, with its listed metadata (size, content type): the
 * listing already carries them, so no request per file.
 * @param files the backend's file store
 * @param folder a storage folder path ending in '/', e.g. `models/`
 * @returns the stored files, in the order the listings give them (callers sort)
 * @throws storage/network errors of the listing
 */
export async function listStoredDeep(files: FileStorePort, folder: string): Promise<StoredFile[]> {
  const listing = await files.list(folder);
  const items = [...listing.items];
  for (const prefix of listing.prefixes) items.push(...(await listStoredDeep(files, prefix)));
  return items;
}
