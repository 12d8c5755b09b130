/**
 * What the plain-grid map draws at a view: the clusters and single points inside the viewport
 * (supercluster over the points, with the same radius as the tile map), and which of them is drawn
 * nearest a place on screen (where focus goes after a cluster zooms in).
 */
import Supercluster, { type ClusterProperties } from 'supercluster';
import { CLUSTER_MAX_ZOOM, CLUSTER_RADIUS_PX, type MapPoint } from './types.js';
import { MAX_ZOOM, visibleBounds, type LatLng, type MapView } from './viewport.js';

/** The properties each point carries in the cluster index. */
export type PointProps = { id: string };

/** What the grid draws at a zoom: clusters (count, expansion zoom) and single points. */
export type GridItem =
  | { kind: 'cluster'; key: string; lat: number; lng: number; count: number; expansionZoom: number }
  | { kind: 'point'; key: string; point: MapPoint };

/** A supercluster index of `points` at the shared cluster radius, up to the zoom above which points stay single. */
export function clusterIndex(points: readonly MapPoint[]): Supercluster<PointProps> {
  const sc = new Supercluster<PointProps>({ radius: CLUSTER_RADIUS_PX, extent: 256, maxZoom: CLUSTER_MAX_ZOOM, minZoom: 0 });
  sc.load(points.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties: { id: p.id } })));
  return sc;
}

/**
 * The clusters and points of `points` inside a viewport (with a margin), at a whole zoom.
 * @param index supercluster over the points (null: no clustering)
 */
export function gridItems(
  index: Supercluster<PointProps> | null,
  byId: ReadonlyMap<string, MapPoint>,
  view: MapView,
  width: number,
  height: number,
): GridItem[] {
  const bounds = visibleBounds(view, width, height, 64);
  const [west, south, east, north] = bounds;
  if (!index) {
    return [...byId.values()]
      .filter((p) => p.lng >= west && p.lng <= east && p.lat >= south && p.lat <= north)
      .map((point) => ({ kind: 'point', key: point.id, point }));
  }
  const items: GridItem[] = [];
  for (const feature of index.getClusters(bounds, Math.round(view.zoom))) {
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const props = feature.properties as Partial<ClusterProperties> & Partial<PointProps>;
    if (props.cluster && typeof props.cluster_id === 'number') {
      items.push({
        kind: 'cluster',
        key: `c${props.cluster_id}`,
        lat,
        lng,
        count: props.point_count ?? 0,
        expansionZoom: Math.min(MAX_ZOOM, index.getClusterExpansionZoom(props.cluster_id)),
      });
    } else if (props.id !== undefined) {
      const point = byId.get(props.id);
      if (point) items.push({ kind: 'point', key: point.id, point });
    }
  }
  return items;
}

/** The key of the item drawn nearest to (x, y) on screen, or null when there is none. */
export function nearestItemKey(
  items: readonly GridItem[],
  at: (p: LatLng) => { x: number; y: number },
  x: number,
  y: number,
): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const item of items) {
    const place = at(item.kind === 'cluster' ? item : item.point);
    const distance = Math.hypot(place.x - x, place.y - y);
    if (best === null || distance < best.distance) best = { key: item.key, distance };
  }
  return best?.key ?? null;
}
