/**
 * The plain-grid map (issue 17) in jsdom: clustering keeps 1,000 points to a bounded number of
 * elements, labels never overlap, drag-pan moves the centre, a cluster click zooms in, the
 * key-less map falls back to the grid without WebGL.
 */
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import Supercluster from 'supercluster';
import { afterEach, describe, expect, it } from 'vitest';
import { GridMap, gridItems, placeLabels } from './grid-map.js';
import { GRID_NOTES, KeylessMap } from './keyless-map.js';
import type { MapPoint } from './types.js';

afterEach(cleanup);

// jsdom has no PointerEvent: a MouseEvent with the pointer fields stands in for it.
if (typeof window.PointerEvent === 'undefined') {
  class PointerEventShim extends MouseEvent {
    pointerId: number;
    pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? 'mouse';
    }
  }
  (window as unknown as { PointerEvent: unknown }).PointerEvent = PointerEventShim;
}

function points(n: number): MapPoint[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `p${i}`,
    lat: 42.5 + ((i * 37) % 100) / 30,
    lng: -82 + ((i * 53) % 100) / 15,
    label: `Site ${i}`,
    color: '#94a3b8',
    colorName: 'grey',
  }));
}

describe('grid clustering and labels', () => {
  it('gridItems: 1,000 points become a few dozen clusters and points that account for every point', () => {
    const list = points(1000);
    const index = new Supercluster<{ id: string }>({ radius: 48, extent: 256, maxZoom: 16 });
    index.load(list.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties: { id: p.id } })));
    const byId = new Map(list.map((p) => [p.id, p]));
    const items = gridItems(index, byId, { center: { lat: 44.2, lng: -78.7 }, zoom: 6 }, 900, 500);
    expect(items.length).toBeLessThan(100);
    const total = items.reduce((n, item) => n + (item.kind === 'cluster' ? item.count : 1), 0);
    expect(total).toBe(1000);
    for (const item of items) if (item.kind === 'cluster') expect(item.expansionZoom).toBeGreaterThan(6);
    // without clustering, only the points inside the viewport are drawn
    const unclustered = gridItems(null, byId, { center: { lat: 43.47, lng: -80.54 }, zoom: 14 }, 900, 500);
    expect(unclustered.length).toBeLessThan(1000);
  });

  it('placeLabels leaves out a label that would overlap one placed before', () => {
    const shown = placeLabels([
      { id: 'a', x: 100, y: 100, label: 'North Ridge Tower' },
      { id: 'b', x: 110, y: 105, label: 'South Ridge Tower' },
      { id: 'c', x: 400, y: 100, label: 'Far Away Mast' },
      { id: 'd', x: 100, y: 160, label: 'Lower Bridge' },
    ]);
    expect([...shown].sort()).toEqual(['a', 'c', 'd']);
  });
});

describe('GridMap', () => {
  const fit = { kind: 'fit', maxZoom: 15 } as const;

  it('draws clusters instead of 1,000 markers, with the note; a cluster click zooms in', () => {
    render(<GridMap points={points(1000)} height={500} view={fit} cluster label="Project map" note={GRID_NOTES.tiles} />);
    const map = screen.getByTestId('keyless-map');
    const clusters = screen.getAllByTestId('map-cluster');
    expect(clusters.length).toBeGreaterThan(0);
    expect(clusters.length + screen.queryAllByTestId('map-marker').length).toBeLessThan(100);
    expect(map.querySelectorAll('*').length).toBeLessThan(600);
    expect(screen.getByTestId('map-note').textContent).toBe('Map tiles could not be loaded; showing project locations on a plain grid.');
    const zoom = Number(map.getAttribute('data-zoom'));
    fireEvent.click(clusters[0]!);
    expect(Number(map.getAttribute('data-zoom'))).toBeGreaterThan(zoom);
  });

  it('drag-pan: dragging right and down moves the centre west and north; a short press does not move it', () => {
    render(<GridMap points={points(20)} height={500} view={fit} cluster label="Project map" note="n" />);
    const map = screen.getByTestId('keyless-map');
    const before = map.getAttribute('data-center')!;
    act(() => {
      fireEvent.pointerDown(map, { pointerId: 1, clientX: 200, clientY: 200, button: 0, pointerType: 'mouse' });
      fireEvent.pointerMove(map, { pointerId: 1, clientX: 202, clientY: 201 });
    });
    expect(map.getAttribute('data-center')).toBe(before);
    act(() => {
      fireEvent.pointerMove(map, { pointerId: 1, clientX: 300, clientY: 260 });
      fireEvent.pointerUp(map, { pointerId: 1, clientX: 300, clientY: 260 });
    });
    const [lat0, lng0] = before.split(',').map(Number) as [number, number];
    const [lat1, lng1] = map.getAttribute('data-center')!.split(',').map(Number) as [number, number];
    expect(lng1).toBeLessThan(lng0);
    expect(lat1).toBeGreaterThan(lat0);
  });
});

describe('KeylessMap', () => {
  it('without WebGL (jsdom) shows the grid with the no-WebGL note, without loading the tile map', () => {
    render(<KeylessMap points={points(3)} height={300} view={{ kind: 'fit' }} cluster label="Project map" />);
    expect(screen.getByTestId('keyless-map').getAttribute('data-renderer')).toBe('grid');
    expect(screen.getByTestId('map-note').textContent).toBe(GRID_NOTES.webgl);
    expect(screen.queryByTestId('tile-map')).toBeNull();
  });
});
