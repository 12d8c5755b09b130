/**
 * Helpers of the admin screens. Their live data comes from the hooks the other features already
 * have (`useModels`, `useProjects`, `useProjectModels`: the catalog gives an admin hidden models
 * too).
 */

/** The message of an error for '…: {detail}' texts. */
export function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
