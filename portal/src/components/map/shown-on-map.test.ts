/** The tile map's keyboard list entries: each rendered cluster and point once, clusters first. */
import { describe, expect, it } from 'vitest';
import { shownOnMap } from './shown-on-map.js';

const point = (id: string, label: string) => ({ properties: { id, label }, geometry: { type: 'Point', coordinates: [0, 0] } });
const cluster = (id: number, count: number, lng: number, lat: number) => ({
  properties: { cluster: true, cluster_id: id, point_count: count },
  geometry: { type: 'Point', coordinates: [lng, lat] },
});

describe('shownOnMap', () => {
  it('lists each cluster and point once (features repeat across tiles): clusters largest first, then points by label', () => {
    const items = shownOnMap(
      [cluster(7, 3, -80.5, 43.4), cluster(9, 40, -80.6, 43.5), cluster(7, 3, -80.5, 43.4)],
      [point('b', 'Bridge'), point('a', 'Antenna'), point('b', 'Bridge')],
    );
    expect(items).toEqual([
      { kind: 'cluster', key: 'c9', clusterId: 9, count: 40, lng: -80.6, lat: 43.5 },
      { kind: 'cluster', key: 'c7', clusterId: 7, count: 3, lng: -80.5, lat: 43.4 },
      { kind: 'point', key: 'pa', id: 'a', label: 'Antenna' },
      { kind: 'point', key: 'pb', id: 'b', label: 'Bridge' },
    ]);
  });

  it('skips features without an id or a cluster id, and names a point without a label by its id', () => {
    expect(
      shownOnMap(
        [{ properties: {}, geometry: { type: 'Point', coordinates: [0, 0] } }],
        [
          { properties: { label: 'x' }, geometry: { type: 'Point', coordinates: [0, 0] } },
          { properties: { id: 'q' }, geometry: { type: 'Point' } },
        ],
      ),
    ).toEqual([{ kind: 'point', key: 'pq', id: 'q', label: 'q' }]);
  });
});
