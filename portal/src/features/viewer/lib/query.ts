/**
 * The viewer's URL contract: `?id={publicId}` opens one
 * model; `?compareMode=true&id={publicId}&referenceId={referencePublicId}` opens compare mode.
 * The route answers `/viewer` and `/viewer/` alike (links are built as `{viewer}/?id=`). The
 * built-in viewer also answers `?demo=splat` and `?compareMode=true&demo=compare` (the landing
 * page's experimental cards: the demo scene that ships with the portal, for anyone), and keeps the
 * user's up-axis choice in `up=y-down|y-up` (single view), and opens a finding with
 * `finding={seq}` (the findings report's links, `findingLink` in shared/links.ts).
 */
import { parseUpAxis, type UpAxis } from './up-axis.js';

/** What a viewer URL asks for. */
export type ViewerRequest =
  | { mode: 'single'; id: string }
  | { mode: 'compare'; id: string; referenceId: string }
  | { mode: 'demo'; kind: 'splat' | 'compare' }
  | { mode: 'invalid'; reason: string };

/**
 * Reads a viewer URL's query. Values are trimmed; `compareMode` counts only as the exact string
 * 'true' (as the viewer links write it).
 * @param search `location.search` (with or without the leading '?')
 * @returns what to show; `invalid` (with a sentence for the page) when `id` or, in compare
 * mode, `referenceId` is missing
 */
export function parseViewerQuery(search: string): ViewerRequest {
  const params = new URLSearchParams(search);
  const id = params.get('id')?.trim() ?? '';
  const compare = params.get('compareMode') === 'true';
  const demo = params.get('demo');
  if (id === '' && (demo === 'splat' || demo === 'compare'))
    return { mode: 'demo', kind: compare || demo === 'compare' ? 'compare' : 'splat' };
  if (id === '') return { mode: 'invalid', reason: 'No model given: the link needs ?id={publicId}.' };
  if (!compare) return { mode: 'single', id };
  const referenceId = params.get('referenceId')?.trim() ?? '';
  if (referenceId === '') return { mode: 'invalid', reason: 'Compare mode needs &referenceId={publicId} of the reference model.' };
  return { mode: 'compare', id, referenceId };
}

/** The up-axis choice in a viewer URL (`up=y-down|y-up`), or null when unset or unknown. */
export function upAxisFromQuery(search: string): UpAxis | null {
  return parseUpAxis(new URLSearchParams(search).get('up'));
}

/**
 * `search` with `up` set to the choice (other parameters kept, in order).
 * @returns a search string with its leading '?'
 */
export function withUpAxis(search: string, up: UpAxis): string {
  const params = new URLSearchParams(search);
  params.set('up', up);
  return `?${params.toString()}`;
}

/**
 * The finding a viewer URL opens (`finding=3`, also `finding=F-3`), or null when unset or not a
 * whole number of 1 or more.
 */
export function findingFromQuery(search: string): number | null {
  const raw = new URLSearchParams(search).get('finding')?.trim().replace(/^F-/i, '') ?? '';
  if (!/^\d+$/.test(raw)) return null;
  const seq = Number(raw);
  return seq >= 1 ? seq : null;
}
