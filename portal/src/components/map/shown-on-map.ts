/**
 * What the tile map shows, as the entries of its keyboard list: MapLibre draws
 * clusters and points on a canvas, so a keyboard user reaches them through a list of buttons
 * built from the rendered features.
 */

/** A rendered feature as MapLibre's queryRenderedFeatures gives it (only what is read here). */
export interface RenderedFeature {
  properties: Record<string, unknown>;
  geometry: { type: string; coordinates?: unknown };
}

/** One entry of the keyboard list: a cluster (its id, size and place) or a point (its id and label). */
export type ShownItem =
  | { kind: 'cluster'; key: string; clusterId: number; count: number; lng: number; lat: number }
  | { kind: 'point'; key: string; id: string; label: string };

/**
 * The clusters and points among rendered features, once each (a feature can be drawn in several
 * tiles): clusters first, largest first, then points by label.
 * @param clusters features of the 'clusters' layer (properties cluster_id, point_count)
 * @param points features of the 'points' layer (properties id, label)
 */
export function shownOnMap(clusters: ReadonlyArray<RenderedFeature>, points: ReadonlyArray<RenderedFeature>): ShownItem[] {
  const byKey = new Map<string, ShownItem>();
  for (const feature of clusters) {
    const clusterId = Number(feature.properties.cluster_id);
    const coordinates = feature.geometry.coordinates;
    if (!Number.isFinite(clusterId) || feature.geometry.type !== 'Point' || !Array.isArray(coordinates)) continue;
    const [lng, lat] = coordinates as [number, number];
    byKey.set(`c${clusterId}`, {
      kind: 'cluster',
      key: `c${clusterId}`,
      clusterId,
      count: Number(feature.properties.point_count),
      lng,
      lat,
    });
  }
  for (const feature of points) {
    const id = feature.properties.id;
    if (typeof id !== 'string') continue;
    byKey.set(`p${id}`, {
      kind: 'point',
      key: `p${id}`,
      id,
      label: typeof feature.properties.label === 'string' ? feature.properties.label : id,
    });
  }
  const items = [...byKey.values()];
  const clustered = items.filter((i) => i.kind === 'cluster').sort((a, b) => b.count - a.count);
  const single = items.filter((i) => i.kind === 'point').sort((a, b) => a.label.localeCompare(b.label));
  return [...clustered, ...single];
}
