/**
 * How a key-less map's view starts and when it starts again: a fixed view as given, or the
 * fit of every point (48 px padding, at most zoom 15 unless the view says otherwise), the same in
 * the grid (its own Web-Mercator fit) and the tile map (MapLibre's fitBounds); and the key that
 * changes when the view asked for changes (the maps re-fit then).
 */
import type { MapPoint, PointMapProps } from './types.js';
import { fitView, type MapView } from './viewport.js';

/** Padding kept around the points when the view fits them, px. */
export const FIT_PADDING_PX = 48;

/** The largest zoom a fit of the points goes to (portal zoom, 256 px tiles): the view's own cap, else 15. */
export function fitMaxZoom(view: Extract<PointMapProps['view'], { kind: 'fit' }>): number {
  return view.maxZoom ?? 15;
}

/** A key of the view asked for: it changes exactly when the fixed centre and zoom, or the fit's cap, change. */
export function viewKey(view: PointMapProps['view']): string {
  return view.kind === 'fixed' ? `${view.center.lat},${view.center.lng},${view.zoom}` : `fit${view.maxZoom ?? ''}`;
}

/** The start view of `props.view` for a viewport. */
export function startView(view: PointMapProps['view'], points: readonly MapPoint[], width: number, height: number): MapView {
  if (view.kind === 'fixed') return { center: { ...view.center }, zoom: view.zoom };
  return fitView(points, width, height, FIT_PADDING_PX, fitMaxZoom(view));
}
