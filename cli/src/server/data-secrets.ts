/**
 * The data folder's own secrets (`auth-secret`, `service-key.json`, `catalog.db`) are never
 * served: stored files go out only as regular files inside `storage/` reached without a symbolic
 * link, and the portal's static folder may not hold the data folder.
 */
import { realpathSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join, relative, isAbsolute, sep } from 'node:path';
import { AppError, ErrorCode } from '@shared/errors.js';

/**
 * Checks that a stored file can be served as it is: every part of its path below the storage
 * root is a real folder (not a link) and the file a regular file (not a link, a FIFO, a device).
 * The file store only ever renames regular files into place, so anything else was put there by
 * something else and is answered as missing.
 * @param root the storage root (`<dataDir>/storage`)
 * @param path the (validated) storage path, `models/{uuid}/…`
 * @throws AppError `storage/object-not-found` when it is not so
 */
export async function assertPlainStoredFile(root: string, path: string): Promise<void> {
  const parts = path.split('/');
  let current = root;
  for (let i = 0; i < parts.length; i++) {
    current = join(current, parts[i]!);
    const s = await lstat(current).catch(() => null);
    const last = i === parts.length - 1;
    if (!s || s.isSymbolicLink() || (last ? !s.isFile() : !s.isDirectory()))
      throw new AppError(ErrorCode.ObjectNotFound, `No file at ${path}`, { context: { path } });
  }
}

/** True when `inner` is `outer` or lies inside it (both absolute, real paths). */
function isWithin(outer: string, inner: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/**
 * Refuses a portal folder that holds the data folder: the static files route would serve the
 * data folder's secrets (`auth-secret`, `service-key.json`, the database) to anyone.
 * @param portalDir the built portal folder to serve (absolute)
 * @param dataDir the data folder (absolute; it exists)
 * @throws AppError `invalid-argument` saying why, naming both folders
 */
export function assertPortalKeepsOutOfData(portalDir: string, dataDir: string): void {
  let portal: string;
  try {
    portal = realpathSync(portalDir);
  } catch {
    return; // no such folder: nothing of the data folder can be served from it
  }
  const data = realpathSync(dataDir);
  if (isWithin(portal, data))
    throw new AppError(
      ErrorCode.InvalidArgument,
      `The portal folder ${portalDir} holds the data folder ${dataDir}: serving it would expose the data folder's secrets. Serve the built portal (portal/dist) or keep the data folder elsewhere.`,
      { context: { portalDir, dataDir } },
    );
}
