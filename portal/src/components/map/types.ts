/**
 * What the key-less maps draw: points with a colour and a label, an optional user
 * position, and how the view starts — shared by the tile map (MapLibre) and the grid fallback.
 */
import type { ReactNode } from 'react';
import type { LatLng } from './viewport.js';

/** One place on the map. */
export interface MapPoint {
  id: string;
  lat: number;
  lng: number;
  /** The marker's accessible name and label (a project's name). */
  label: string;
  /** CSS colour of the marker. */
  color: string;
  /** Colour name, for tests and styling (`data-color`): 'blue', 'green', 'grey'… */
  colorName: string;
}

/** Props of both key-less renderers. */
export interface PointMapProps {
  points: MapPoint[];
  /** Height in CSS pixels. */
  height: number;
  /**
   * How the view starts and re-fits: 'fit' shows every point (at most `maxZoom`); a fixed view
   * centres on `center` at `zoom` (project detail: the project at zoom 14).
   */
  view: { kind: 'fit'; maxZoom?: number } | { kind: 'fixed'; center: LatLng; zoom: number };
  /** Group nearby points into clusters (the project map); off for a single point. */
  cluster: boolean;
  /** Draw each point's label beside it (default true; labels that would overlap are left out). */
  showLabels?: boolean;
  /** The user's position while Current Location is on: a red marker, the view centred on it at `locationZoom`. */
  currentLocation?: LatLng | null;
  locationZoom?: number;
  /** Increments when the view must return to its start (the fit, or the fixed view). */
  refit?: number;
  /** The popup content of a selected point (null: points are not selectable). */
  renderPopup?: ((id: string) => ReactNode) | null;
  /** `data-testid` of the grid's root element (default 'keyless-map'; the tile map's is 'tile-map'). */
  testId?: string;
  /** Accessible name of the map region. */
  label: string;
}

/** The optional props of {@link PointMapProps} with their defaults filled in. */
export type PointMapDefaults = Required<Pick<PointMapProps, 'showLabels' | 'currentLocation' | 'locationZoom' | 'refit' | 'renderPopup'>>;

/**
 * A renderer's props with the defaults of the optional ones where they are left out: labels
 * shown, no current location, zoom 12 on the current location, no re-fit yet, points not selectable.
 */
export function withMapDefaults<P extends PointMapProps>(props: P): P & PointMapDefaults {
  return {
    ...props,
    showLabels: props.showLabels ?? true,
    currentLocation: props.currentLocation ?? null,
    locationZoom: props.locationZoom ?? 12,
    refit: props.refit ?? 0,
    renderPopup: props.renderPopup ?? null,
  };
}

/** The red current-location marker. */
export const CURRENT_LOCATION_COLOR = { name: 'red', hex: '#dc2626' } as const;
/** Cluster circles: neutral slate, not one of the colours. */
export const CLUSTER_COLOR = '#475569';
/**
 * Cluster circle sizes by point count, the same in both renderers: each step's diameter (px)
 * holds from its count up to the next step's.
 */
export const CLUSTER_SIZES = [
  { from: 0, diameterPx: 30 },
  { from: 10, diameterPx: 36 },
  { from: 100, diameterPx: 44 },
] as const;

/** The diameter (px) of a cluster of `count` points ({@link CLUSTER_SIZES}). */
export function clusterDiameter(count: number): number {
  let diameter: number = CLUSTER_SIZES[0].diameterPx;
  for (const step of CLUSTER_SIZES) if (count >= step.from) diameter = step.diameterPx;
  return diameter;
}

/** Supercluster radius in screen pixels, the same in both renderers. */
export const CLUSTER_RADIUS_PX = 48;
/** Zoom above which points are never clustered. */
export const CLUSTER_MAX_ZOOM = 16;
