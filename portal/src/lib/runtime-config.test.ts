import { describe, expect, it } from 'vitest';
import { buildTimeConfig, loadRuntimeConfig, mapTilesUrlOf } from './runtime-config.js';

describe('runtime config', () => {
  it('a Firebase build carries its viewer URLs and Maps key (Hosting has no /v1/config)', () => {
    expect(
      buildTimeConfig(
        {
          VITE_BACKEND: 'firebase',
          VITE_VIEWER_URL: 'https://viewer.lab.example/',
          VITE_MAPS_API_KEY: 'k-123',
          VITE_SPLAT_VIEWER_URL: 'https://splats.lab.example',
        },
        'https://catalog.web.app',
      ),
    ).toEqual({
      viewerUrl: 'https://viewer.lab.example',
      mapsApiKey: 'k-123',
      toolViewerUrls: { splatViewer: 'https://splats.lab.example', dualViewer: null },
      mapTilesUrl: null,
    });
  });

  it('without an external viewer the links use the built-in viewer route', () => {
    expect(buildTimeConfig({ VITE_BACKEND: 'firebase' }, 'https://catalog.web.app')).toEqual({
      viewerUrl: 'https://catalog.web.app/viewer',
      mapsApiKey: null,
      toolViewerUrls: { splatViewer: null, dualViewer: null },
      mapTilesUrl: null,
    });
  });

  it('the embedded-backend build reads GET /v1/config', async () => {
    expect(buildTimeConfig({ VITE_BACKEND: 'local', VITE_VIEWER_URL: 'https://ignored.example' }, 'http://x')).toBeNull();
    expect(buildTimeConfig({}, 'http://x')).toBeNull();
    const requested: string[] = [];
    const reply = (body: unknown) =>
      (async (url: URL) => {
        requested.push(url.toString());
        return new Response(JSON.stringify(body), { status: 200 });
      }) as unknown as typeof fetch;
    expect(await loadRuntimeConfig('http://127.0.0.1:8787', reply({ viewerUrl: 'https://v.example', mapsApiKey: null }))).toEqual({
      viewerUrl: 'https://v.example',
      mapsApiKey: null,
      toolViewerUrls: { splatViewer: null, dualViewer: null },
      mapTilesUrl: null,
    });
    expect(requested).toEqual(['http://127.0.0.1:8787/v1/config']);
    expect((await loadRuntimeConfig('http://127.0.0.1:8787', reply({ viewerUrl: null, mapsApiKey: null }))).viewerUrl).toBe(
      'http://127.0.0.1:8787/viewer',
    );
  });

  it('the key-less map tiles: the configured template (server or VITE_MAP_TILES_URL), else OpenStreetMap', async () => {
    const tiles = 'http://127.0.0.1:9/tiles/{z}/{x}/{y}.png';
    const reply = (async () => new Response(JSON.stringify({ mapTilesUrl: tiles }), { status: 200 })) as unknown as typeof fetch;
    const served = await loadRuntimeConfig('http://127.0.0.1:8787', reply);
    expect(mapTilesUrlOf(served)).toBe(tiles);
    expect(mapTilesUrlOf(buildTimeConfig({ VITE_BACKEND: 'firebase', VITE_MAP_TILES_URL: tiles }, 'https://x.web.app'))).toBe(tiles);
    const osm = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
    expect(mapTilesUrlOf(null)).toBe(osm);
    expect(mapTilesUrlOf({ mapTilesUrl: null })).toBe(osm);
    // a template without the placeholders, or not http(s), is not used
    expect(mapTilesUrlOf({ mapTilesUrl: 'https://tiles.example/tile.png' })).toBe(osm);
    expect(mapTilesUrlOf({ mapTilesUrl: 'javascript:{z}{x}{y}' })).toBe(osm);
  });
});
