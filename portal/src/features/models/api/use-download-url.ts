/**
 * A download/viewing link for a stored path (SPEC.md §7 "Resolve a download or viewing link").
 * A failure is only logged (§8 silent handling): the caller keeps showing 'Preparing...'.
 */
import { useBackend } from '../../../lib/backend-context.js';
import { usePromise, type Resource } from '../../../lib/resource.js';

export function useDownloadUrl(path: string | null | undefined): Resource<string> {
  const { files } = useBackend();
  return usePromise<string>(path ? path : null, () =>
    files.getDownloadUrl(path as string).catch((error: unknown) => {
      console.error(`Could not resolve a link for ${String(path)}`, error);
      throw error;
    }),
  );
}

/** The path a model is viewed from: its splat file, else its GLB file (SPEC.md §2). */
export { viewingFilePath as viewingPath } from '../../../../../shared/links.js';

export { thumbnailPathOf } from '../../../../../shared/projects.js';
