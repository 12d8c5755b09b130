/** The detail of a caught error for the catalogue's '…: {detail}' messages. */

/** The message of an error for '…: {detail}' texts. */
export function detailOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
