import { describe, expect, it } from 'vitest';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM } from '@shared/constants.js';
import { fitView, project, toScreen, unproject } from './viewport.js';

describe('key-less map geometry', () => {
  it('uses the default centre (around 43.47, -80.54) and zoom 10 without points', () => {
    expect(fitView([], 800, 500)).toEqual({ center: MAP_DEFAULT_CENTER, zoom: MAP_DEFAULT_ZOOM });
    expect(MAP_DEFAULT_CENTER.lat).toBeCloseTo(43.47, 1);
    expect(MAP_DEFAULT_CENTER.lng).toBeCloseTo(-80.54, 1);
  });

  it('projects and unprojects Web Mercator with 256px tiles', () => {
    expect(project({ lat: 0, lng: 0 }, 0)).toEqual({ x: 128, y: 128 });
    const back = unproject(...(Object.values(project({ lat: 43.47, lng: -80.54 }, 10)) as [number, number]), 10);
    expect(back.lat).toBeCloseTo(43.47, 6);
    expect(back.lng).toBeCloseTo(-80.54, 6);
  });

  it('fits all points inside the padded viewport at the largest whole zoom', () => {
    const points = [
      { lat: 43.5, lng: -80.6 },
      { lat: 43.4, lng: -80.4 },
    ];
    const view = fitView(points, 800, 500, 48);
    for (const p of points) {
      const s = toScreen(p, view, 800, 500);
      expect(s.x).toBeGreaterThanOrEqual(48);
      expect(s.x).toBeLessThanOrEqual(752);
      expect(s.y).toBeGreaterThanOrEqual(48);
      expect(s.y).toBeLessThanOrEqual(452);
    }
    const closer = { ...view, zoom: view.zoom + 1 };
    const outside = points.map((p) => toScreen(p, closer, 800, 500)).some((s) => s.x < 48 || s.x > 752 || s.y < 48 || s.y > 452);
    expect(outside).toBe(true);
  });

  it('centres a single point at the maximum zoom', () => {
    const view = fitView([{ lat: 10, lng: 20 }], 800, 500, 48, 15);
    expect(view.zoom).toBe(15);
    expect(view.center.lat).toBeCloseTo(10, 6);
    expect(view.center.lng).toBeCloseTo(20, 6);
  });
});
