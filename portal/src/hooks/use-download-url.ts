/**
 * A download/viewing link for a stored path.
 * A failure is only logged, never shown: the caller keeps showing 'Preparing...'.
 */
import { useMemo } from 'react';
import { useBackend } from '../lib/backend-context.js';
import { createPromiseCache, type PromiseCache } from '@shared/promise-cache.js';
import { success, usePromise, type Resource } from '../lib/resource.js';

/**
 * Links one screen has asked for, by path: a path is resolved once per screen, however many
 * components ask for it and however often a virtualised list re-mounts its rows. Failures are
 * not kept (the next mount asks again). Scoped to the screen, not the session, so a replaced
 * file gets a fresh link on the next visit.
 */
export interface DownloadUrlCache {
  /** The files port the links come from (a new cache for a new backend). */
  files: unknown;
  /** The links asked for, by path (a failed one is dropped, so the next mount asks again). */
  pending: PromiseCache<string>;
  /** The links already resolved, by path (shown at once, without a loading render). */
  resolved: Map<string, string>;
}

/** A {@link DownloadUrlCache} for the calling screen (a new one when the backend changes). */
export function useDownloadUrlCache(): DownloadUrlCache {
  const { files } = useBackend();
  return useMemo(() => ({ files, pending: createPromiseCache<string>(), resolved: new Map<string, string>() }), [files]);
}

export function useDownloadUrl(path: string | null | undefined, cache?: DownloadUrlCache): Resource<string> {
  const { files } = useBackend();
  const known = path && cache ? cache.resolved.get(path) : undefined;
  const result = usePromise<string>(path && known === undefined ? path : null, () => {
    const key = path as string;
    const resolve = () =>
      files.getDownloadUrl(key).then(
        (url) => {
          cache?.resolved.set(key, url);
          return url;
        },
        (error: unknown) => {
          console.error(`Could not resolve a link for ${key}`, error);
          throw error;
        },
      );
    return cache ? cache.pending.get(key, resolve) : resolve();
  });
  return known === undefined ? result : success(known);
}

/** The path a model is viewed from: its splat file, else its GLB file. */
export { viewingFilePath as viewingPath } from '@shared/links.js';

export { thumbnailPathOf } from '@shared/projects.js';
