import { describe, expect, it } from 'vitest';
import { buildTimeConfig, loadRuntimeConfig } from './runtime-config.js';

describe('runtime config', () => {
  it('a Firebase build carries its viewer URL and Maps key (Hosting has no /v1/config)', () => {
    expect(buildTimeConfig({ VITE_BACKEND: 'firebase', VITE_VIEWER_URL: 'https://viewer.lab.example', VITE_MAPS_API_KEY: 'k-123' })).toEqual({
      viewerUrl: 'https://viewer.lab.example',
      mapsApiKey: 'k-123',
    });
    expect(buildTimeConfig({ VITE_BACKEND: 'firebase' })).toEqual({ viewerUrl: 'https://viewer.example.com', mapsApiKey: null });
  });

  it('the embedded-backend build reads GET /v1/config', async () => {
    expect(buildTimeConfig({ VITE_BACKEND: 'local', VITE_VIEWER_URL: 'https://ignored.example' })).toBeNull();
    expect(buildTimeConfig({})).toBeNull();
    const requested: string[] = [];
    const fetchStub = (async (url: URL) => {
      requested.push(url.toString());
      return new Response(JSON.stringify({ viewerUrl: 'https://v.example', mapsApiKey: null }), { status: 200 });
    }) as unknown as typeof fetch;
    expect(await loadRuntimeConfig('http://127.0.0.1:8787', fetchStub)).toEqual({ viewerUrl: 'https://v.example', mapsApiKey: null });
    expect(requested).toEqual(['http://127.0.0.1:8787/v1/config']);
  });
});
