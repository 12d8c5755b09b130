/**
 * The viewer's URL contract (SPEC.md §7 "External viewer links"): `?id={publicId}` opens one
 * model; `?compareMode=true&id={publicId}&referenceId={referencePublicId}` opens compare mode.
 * The built-in viewer also answers `?demo=splat` and `?compareMode=true&demo=compare` (the landing
 * page's experimental cards: the viewer picks a demo model of the catalog itself), and keeps the
 * user's up-axis choice in `up=y-down|y-up`.
 */

/** What a viewer URL asks for. */
export type ViewerRequest =
  | { mode: 'single'; id: string }
  | { mode: 'compare'; id: string; referenceId: string }
  | { mode: 'demo'; kind: 'splat' | 'compare' }
  | { mode: 'invalid'; reason: string };

/**
 * Reads a viewer URL's query.
 * @param search `location.search` (with or without the leading '?')
 */
export function parseViewerQuery(search: string): ViewerRequest {
  const params = new URLSearchParams(search);
  const id = params.get('id')?.trim() ?? '';
  const compare = params.get('compareMode') === 'true';
  const demo = params.get('demo');
  if (id === '' && (demo === 'splat' || demo === 'compare')) return { mode: 'demo', kind: compare || demo === 'compare' ? 'compare' : 'splat' };
  if (id === '') return { mode: 'invalid', reason: 'No model given: the link needs ?id={publicId}.' };
  if (!compare) return { mode: 'single', id };
  const referenceId = params.get('referenceId')?.trim() ?? '';
  if (referenceId === '') return { mode: 'invalid', reason: 'Compare mode needs &referenceId={publicId}.' };
  return { mode: 'compare', id, referenceId };
}

/** The up-axis choice stored in the URL: true for the y-down fix (3DGS), false for y-up, null when unset. */
export function upAxisFromQuery(search: string): boolean | null {
  const up = new URLSearchParams(search).get('up');
  return up === 'y-down' ? true : up === 'y-up' ? false : null;
}

/** `search` with `up` set to the choice (other parameters kept, in order). */
export function withUpAxis(search: string, yDown: boolean): string {
  const params = new URLSearchParams(search);
  params.set('up', yDown ? 'y-down' : 'y-up');
  return `?${params.toString()}`;
}
