/**
 * Link builders: the external viewer links, the maps link (a maps query by lat,lng), the maps
 * embed, the project map link, and which file a viewing link is prepared from.
 */
import { MAP_EMBED_ZOOM } from './constants.js';
import type { ModelData, ProjectData } from './types.js';

/** The viewer base without trailing slashes ('https://v.example/app/' → 'https://v.example/app'). */
function viewerBase(viewer: string): string {
  return viewer.trim().replace(/\/+$/, '');
}

/**
 * Route of the built-in 3D viewer in the portal. It answers the external viewer
 * links (`?id=`, `?compareMode=true&id=&referenceId=`) and is `{viewer}` whenever no external viewer is
 * configured (`catalog serve --viewer-url`, `CATALOG_VIEWER_URL`, or `VITE_VIEWER_URL` for a
 * Firebase build).
 */
export const BUILT_IN_VIEWER_PATH = '/viewer';

/**
 * The viewer base URL links are built on: the configured external viewer when there is one,
 * else the portal's own viewer route on `origin`.
 * @param configured the external viewer's base URL, or null/'' when none is configured
 * @param origin the portal's origin, e.g. `http://127.0.0.1:8787`
 * @returns an absolute URL without trailing slash, e.g. `http://127.0.0.1:8787/viewer`
 */
export function resolveViewerBase(configured: string | null | undefined, origin: string): string {
  const external = typeof configured === 'string' ? configured.trim() : '';
  return external !== '' ? viewerBase(external) : `${origin.replace(/\/+$/, '')}${BUILT_IN_VIEWER_PATH}`;
}

/**
 * Built-in viewer demo links, for the landing page's experimental cards when their own hosts are
 * not configured: the viewer shows the demo scene that ships with the portal, to anyone, signed
 * in or not (`demo=splat`: one capture; `demo=compare`: the capture beside its reference).
 */
export const BUILT_IN_VIEWER_DEMO = {
  splat: `${BUILT_IN_VIEWER_PATH}?demo=splat`,
  compare: `${BUILT_IN_VIEWER_PATH}?compareMode=true&demo=compare`,
} as const;

/**
 * The external viewer link for one model: `{viewer}/?id={publicId}`, the publicId URL-encoded.
 * @param viewer the viewer's base URL; a trailing slash is tolerated
 * @param publicId the model's publicId
 */
export function viewerLink(viewer: string, publicId: string): string {
  return `${viewerBase(viewer)}/?id=${encodeURIComponent(publicId)}`;
}

/**
 * The viewer link of one finding: {@link viewerLink} with `&finding={seq}`,
 * which the built-in viewer reads to open its Findings panel on that finding and fly to it (an
 * external viewer ignores the parameter and opens the model).
 * @param viewer the viewer's base URL; a trailing slash is tolerated
 * @param publicId the model's publicId
 * @param seq the finding's number within its model (F-{seq})
 */
export function findingLink(viewer: string, publicId: string, seq: number): string {
  return `${viewerLink(viewer, publicId)}&finding=${seq}`;
}

/**
 * The external viewer link in compare mode:
 * `{viewer}/?compareMode=true&id={publicId}&referenceId={referencePublicId}`, values URL-encoded.
 * @param viewer the viewer's base URL; a trailing slash is tolerated
 * @param publicId the compared model's publicId
 * @param referencePublicId the project's reference model's publicId
 */
export function compareLink(viewer: string, publicId: string, referencePublicId: string): string {
  return `${viewerBase(viewer)}/?compareMode=true&id=${encodeURIComponent(publicId)}&referenceId=${encodeURIComponent(referencePublicId)}`;
}

function coordinate(value: number, name: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new RangeError(`${name} must be a finite number`);
  return String(value);
}

/**
 * The maps-service link for a place:
 * `https://www.google.com/maps/search/?api=1&query={lat},{lng}`.
 * @throws RangeError when lat or lng is not a finite number
 */
export function mapsSearchLink(lat: number, lng: number): string {
  return `https://www.google.com/maps/search/?api=1&query=${coordinate(lat, 'lat')},${coordinate(lng, 'lng')}`;
}

/**
 * The maps embed URL of project detail (place query by lat,lng, zoom 14):
 * `https://maps.google.com/maps?q={lat},{lng}&z=14&output=embed`.
 * @param zoom embed zoom (default 14)
 * @throws RangeError when lat or lng is not a finite number
 */
export function mapsEmbedLink(lat: number, lng: number, zoom: number = MAP_EMBED_ZOOM): string {
  return `https://maps.google.com/maps?q=${coordinate(lat, 'lat')},${coordinate(lng, 'lng')}&z=${zoom}&output=embed`;
}

/** The Map Link of the project-management read view. Opens in a new tab. */
export interface ProjectMapLink {
  href: string;
  label: 'View on Map' | 'View on Google Maps';
}

/**
 * The Map Link of project management: the stored map URL when there is one (label 'View on
 * Map'), otherwise a maps link built from lat and lng (label 'View on Google Maps'), otherwise
 * null.
 */
export function projectMapLink(project: Pick<ProjectData, 'location'>): ProjectMapLink | null {
  const loc = project.location;
  if (!loc) return null;
  // Only http(s) links are followed: a stored `javascript:` (or other scheme) URL is ignored.
  if (typeof loc.mapUrl === 'string' && /^https?:\/\//i.test(loc.mapUrl.trim())) return { href: loc.mapUrl.trim(), label: 'View on Map' };
  if (typeof loc.lat === 'number' && Number.isFinite(loc.lat) && typeof loc.lng === 'number' && Number.isFinite(loc.lng)) {
    return { href: mapsSearchLink(loc.lat, loc.lng), label: 'View on Google Maps' };
  }
  return null;
}

/**
 * The storage path a model's viewing link is prepared from: the splat path,
 * else the glb path; null when the model has neither.
 */
export function viewingFilePath(model: Pick<ModelData, 'files'>): string | null {
  const { splatPath, glbPath } = model.files ?? {};
  if (typeof splatPath === 'string' && splatPath !== '') return splatPath;
  if (typeof glbPath === 'string' && glbPath !== '') return glbPath;
  return null;
}
