/**
 * Web-Mercator geometry of the key-less maps (the project map, and its grid fallback
 * when tiles cannot load): the same view rules as the maps-service map. A view is a centre and a zoom level; pixel
 * positions use 256px tiles, like the maps service, so zoom 10 here is zoom 10 there.
 */
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@shared/constants.js';

export interface LatLng {
  lat: number;
  lng: number;
}

export interface MapView {
  center: LatLng;
  zoom: number;
}

const TILE = 256;
const MAX_LAT = 85.05112878;
/** Zoom bounds of the key-less map. */
export const MIN_ZOOM = 2;
export const MAX_ZOOM = 18;

/** World pixel coordinates of a point at `zoom` (Web Mercator, 256px tiles). */
export function project(point: LatLng, zoom: number): { x: number; y: number } {
  const scale = TILE * 2 ** zoom;
  const lat = Math.max(-MAX_LAT, Math.min(MAX_LAT, point.lat));
  const sin = Math.sin((lat * Math.PI) / 180);
  return {
    x: ((point.lng + 180) / 360) * scale,
    y: (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * scale,
  };
}

/** The point at world pixel coordinates (inverse of {@link project}). */
export function unproject(x: number, y: number, zoom: number): LatLng {
  const scale = TILE * 2 ** zoom;
  const lng = (x / scale) * 360 - 180;
  const n = Math.PI - (2 * Math.PI * y) / scale;
  const lat = (180 / Math.PI) * Math.atan(0.5 * (Math.exp(n) - Math.exp(-n)));
  return { lat, lng };
}

/** Screen position of `point` in a `width`×`height` viewport showing `view`. */
export function toScreen(point: LatLng, view: MapView, width: number, height: number): { x: number; y: number } {
  const p = project(point, view.zoom);
  const c = project(view.center, view.zoom);
  return { x: p.x - c.x + width / 2, y: p.y - c.y + height / 2 };
}

/**
 * The view that shows every point (the maps service's fitBounds): centred on the bounds, at the
 * largest whole zoom where they fit inside the viewport less `padding` px on each side, capped at
 * `maxZoom`. No points: the default centre and zoom. One point: that point at `maxZoom`.
 */
export function fitView(points: readonly LatLng[], width: number, height: number, padding = 48, maxZoom = 15): MapView {
  if (points.length === 0) return { center: { ...MAP_DEFAULT_CENTER }, zoom: MAP_DEFAULT_ZOOM };
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const south = Math.min(...lats);
  const north = Math.max(...lats);
  const west = Math.min(...lngs);
  const east = Math.max(...lngs);
  const sw0 = project({ lat: south, lng: west }, 0);
  const ne0 = project({ lat: north, lng: east }, 0);
  const center = unproject((sw0.x + ne0.x) / 2, (sw0.y + ne0.y) / 2, 0);
  const spanX = Math.abs(ne0.x - sw0.x);
  const spanY = Math.abs(sw0.y - ne0.y);
  const usableW = Math.max(1, width - 2 * padding);
  const usableH = Math.max(1, height - 2 * padding);
  let zoom = maxZoom;
  while (zoom > MIN_ZOOM && (spanX * 2 ** zoom > usableW || spanY * 2 ** zoom > usableH)) zoom--;
  return { center, zoom };
}

/** Graticule spacing in degrees for a zoom level (a line every few hundred pixels). */
export function graticuleStep(zoom: number): number {
  const steps = [30, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001];
  const degreesPer300px = (300 / (TILE * 2 ** zoom)) * 360;
  return steps.find((s) => s <= degreesPer300px) ?? steps[steps.length - 1]!;
}

/** The view moved by a drag of (dx, dy) screen pixels (content follows the pointer); latitude stays on the map. */
export function panBy(view: MapView, dx: number, dy: number): MapView {
  const c = project(view.center, view.zoom);
  const scale = TILE * 2 ** view.zoom;
  const y = Math.max(0, Math.min(scale, c.y - dy));
  const moved = unproject(c.x - dx, y, view.zoom);
  const lng = ((((moved.lng + 180) % 360) + 360) % 360) - 180;
  return { center: { lat: moved.lat, lng }, zoom: view.zoom };
}

/** The [west, south, east, north] degrees a `width`×`height` viewport shows, grown by `margin` px and clamped to the world. */
export function visibleBounds(view: MapView, width: number, height: number, margin = 0): [number, number, number, number] {
  const c = project(view.center, view.zoom);
  const nw = unproject(c.x - width / 2 - margin, c.y - height / 2 - margin, view.zoom);
  const se = unproject(c.x + width / 2 + margin, c.y + height / 2 + margin, view.zoom);
  const west = se.lng - nw.lng >= 360 ? -180 : Math.max(-180, nw.lng);
  const east = se.lng - nw.lng >= 360 ? 180 : Math.min(180, se.lng);
  return [west, Math.max(-90, se.lat), east, Math.min(90, nw.lat)];
}
