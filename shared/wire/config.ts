/**
 * The embedded backend's public runtime configuration route (`GET /v1/config`), on
 * its own: the portal reads it in every build, and a Firebase build must not carry the rest of the
 * route table (`shared/wire/routes.ts` includes this one in its table).
 */
import { z } from 'zod';

/** Path of the runtime configuration route. */
export const CONFIG_PATH = '/v1/config';

/**
 * Its reply: the external viewer's URL, the Maps API key, the tool viewers' hosts and the
 * key-less map's raster tile URL template, each a string or null.
 */
export const runtimeConfigSchema = z.object({
  viewerUrl: z.string().nullish(),
  mapsApiKey: z.string().nullish(),
  splatViewerUrl: z.string().nullish(),
  dualViewerUrl: z.string().nullish(),
  mapTilesUrl: z.string().nullish(),
});

/** The key-less map's default raster tiles: OpenStreetMap's standard tile server, 256 px tiles. */
export const DEFAULT_MAP_TILES_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';

/**
 * True for a raster tile URL template the key-less map can use: an absolute http(s) URL holding
 * the `{z}`, `{x}` and `{y}` placeholders (e.g. {@link DEFAULT_MAP_TILES_URL}).
 * @param text the template
 * @returns whether it is usable (no exception)
 */
export function isMapTilesUrl(text: string): boolean {
  if (!text.includes('{z}') || !text.includes('{x}') || !text.includes('{y}')) return false;
  try {
    const url = new URL(text.replace(/\{[xyz]\}/g, '0'));
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
