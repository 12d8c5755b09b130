/**
 * What the tile map draws, as a MapLibre style: the raster tiles with OpenStreetMap's
 * attribution, and the points as a GeoJSON source clustered by MapLibre (the grid's radius and
 * cluster sizes) drawn by circle layers, with cluster counts and point labels as symbol layers
 * whose images are drawn on demand (ids `count:{n}` and `label:{text}`, see `tile-text-image.ts`).
 *
 * Zoom levels: MapLibre's world is 512 px wide at zoom 0, the maps service's (whose zoom levels
 * the portal uses everywhere) 256 px, so MapLibre zoom = portal zoom − 1.
 */
import type { FilterSpecification, StyleSpecification } from 'maplibre-gl';
import { CLUSTER_COLOR, CLUSTER_MAX_ZOOM, CLUSTER_RADIUS_PX, CLUSTER_SIZES, type MapPoint } from './types.js';

/** MapLibre zoom = portal (256 px world) zoom − 1. */
export const ZOOM_OFFSET = 1;
/** OpenStreetMap's attribution (https://www.openstreetmap.org/copyright asks for it on every map). */
export const OSM_ATTRIBUTION =
  '<a href="https://www.openstreetmap.org/copyright" target="_blank" rel="noopener noreferrer">© OpenStreetMap contributors</a>';

/** The points as the GeoJSON the 'points' source holds (id, label and colour in each feature's properties). */
export function featureCollection(points: readonly MapPoint[]): GeoJSON.FeatureCollection<GeoJSON.Point> {
  return {
    type: 'FeatureCollection',
    features: points.map((p) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [p.lng, p.lat] },
      properties: { id: p.id, label: p.label, color: p.color },
    })),
  };
}

const isCluster: FilterSpecification = ['has', 'point_count'];
const notCluster: FilterSpecification = ['!', ['has', 'point_count']];

const [smallest, ...largerClusters] = CLUSTER_SIZES;

const labelLayer: StyleSpecification['layers'][number] = {
  id: 'point-labels',
  type: 'symbol',
  source: 'points',
  filter: notCluster,
  layout: {
    'icon-image': ['concat', 'label:', ['get', 'label']],
    'icon-anchor': 'top',
    'icon-offset': [0, 11],
    'icon-padding': 2,
  },
};

/**
 * The map's style: tiles from `tilesUrl` (256 px), the points (clustered when `cluster`), and
 * their labels when `showLabels`.
 */
export function style(tilesUrl: string, points: readonly MapPoint[], cluster: boolean, showLabels: boolean): StyleSpecification {
  return {
    version: 8,
    sources: {
      tiles: { type: 'raster', tiles: [tilesUrl], tileSize: 256, maxzoom: 19, attribution: OSM_ATTRIBUTION },
      points: {
        type: 'geojson',
        data: featureCollection(points),
        cluster,
        clusterRadius: CLUSTER_RADIUS_PX,
        clusterMaxZoom: CLUSTER_MAX_ZOOM - ZOOM_OFFSET,
      },
    },
    layers: [
      { id: 'tiles', type: 'raster', source: 'tiles' },
      {
        id: 'clusters',
        type: 'circle',
        source: 'points',
        filter: isCluster,
        paint: {
          'circle-color': CLUSTER_COLOR,
          'circle-radius': [
            'step',
            ['get', 'point_count'],
            smallest.diameterPx / 2,
            ...largerClusters.flatMap((size) => [size.from, size.diameterPx / 2]),
          ],
          'circle-stroke-width': 3,
          'circle-stroke-color': 'rgba(255, 255, 255, 0.9)',
        },
      },
      {
        id: 'cluster-counts',
        type: 'symbol',
        source: 'points',
        filter: isCluster,
        layout: {
          'icon-image': ['concat', 'count:', ['to-string', ['get', 'point_count_abbreviated']]],
          'icon-allow-overlap': true,
          'icon-ignore-placement': true,
        },
      },
      {
        id: 'points',
        type: 'circle',
        source: 'points',
        filter: notCluster,
        paint: {
          'circle-color': ['get', 'color'],
          'circle-radius': 8,
          'circle-stroke-width': 2,
          'circle-stroke-color': '#ffffff',
        },
      },
      ...(showLabels ? [labelLayer] : []),
    ],
  };
}
