/**
 * The plain-grid map in jsdom: clustering keeps 1,000 points to a bounded number of
 * elements, labels never overlap, drag-pan moves the centre, a cluster click zooms in, the
 * key-less map falls back to the grid without WebGL.
 */
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import Supercluster from 'supercluster';
import { afterEach, describe, expect, it } from 'vitest';
import { GridMap } from './grid-map.js';
import { gridItems } from './grid-items.js';
import { labelShift, placeLabels } from './marker-labels.js';
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

  it('labelShift keeps a label centred where it fits and moves one near an edge inward', () => {
    expect(labelShift(200, 100, 400)).toBe(-50); // centred
    expect(labelShift(20, 100, 400)).toBe(-16); // starts 4 px from the left edge
    expect(labelShift(390, 100, 400)).toBe(-94); // ends 4 px from the right edge
    expect(labelShift(100, 500, 400)).toBe(-96); // wider than the map: from its left edge
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

describe('GridMap by keyboard', () => {
  const fit = { kind: 'fit', maxZoom: 15 } as const;
  const popup = (id: string) => (
    <div>
      <p>About {id}</p>
      <button type="button">Other</button>
      <button type="button" data-popup-focus>
        View {id}
      </button>
    </div>
  );

  it('is a named, focusable region: arrow keys pan, + and − zoom; keys on a marker do not move it', () => {
    render(<GridMap points={points(20)} height={500} view={fit} cluster={false} label="Project map" note="n" />);
    const map = screen.getByRole('region', { name: 'Project map' });
    expect(map.tabIndex).toBe(0);
    expect(document.getElementById(map.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/Arrow keys pan/);
    const centre = () => map.getAttribute('data-center')!.split(',').map(Number) as [number, number];
    const [lat0, lng0] = centre();
    fireEvent.keyDown(map, { key: 'ArrowRight' });
    expect(centre()[1]).toBeGreaterThan(lng0);
    fireEvent.keyDown(map, { key: 'ArrowUp' });
    expect(centre()[0]).toBeGreaterThan(lat0);
    const zoom = Number(map.getAttribute('data-zoom'));
    fireEvent.keyDown(map, { key: '+' });
    expect(Number(map.getAttribute('data-zoom'))).toBe(zoom + 1);
    fireEvent.keyDown(map, { key: '-' });
    expect(Number(map.getAttribute('data-zoom'))).toBe(zoom);
    const before = map.getAttribute('data-center');
    fireEvent.keyDown(screen.getAllByTestId('map-marker')[0]!, { key: 'ArrowRight' });
    expect(map.getAttribute('data-center')).toBe(before);
  });

  it("a marker's popup is a dialog: focus on its marked control, Tab kept inside, Escape and Close give focus back", () => {
    render(<GridMap points={points(3)} height={500} view={fit} cluster={false} label="Project map" note="n" renderPopup={popup} />);
    const marker = screen.getByRole('button', { name: 'Site 1' });
    expect(marker.getAttribute('aria-haspopup')).toBe('dialog');
    marker.focus();
    fireEvent.click(marker);
    const dialog = screen.getByRole('dialog', { name: 'Site 1' });
    const view = within(dialog).getByRole('button', { name: 'View p1' });
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(view);
    fireEvent.keyDown(view, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(view);
    fireEvent.keyDown(view, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(marker);
    fireEvent.click(marker);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(marker);
  });

  it('a cluster button zooms in and hands focus to the nearest cluster or marker of the new view', () => {
    render(<GridMap points={points(1000)} height={500} view={fit} cluster label="Project map" note="n" />);
    const cluster = screen.getAllByTestId('map-cluster')[0]!;
    cluster.focus();
    fireEvent.click(cluster);
    const now = document.activeElement as HTMLElement;
    expect(now).not.toBe(cluster);
    expect(['map-cluster', 'map-marker']).toContain(now.getAttribute('data-testid'));
    expect(screen.getByTestId('keyless-map').contains(now)).toBe(true);
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
