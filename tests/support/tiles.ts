// A raster tile server on 127.0.0.1 for the key-less map's browser tests: every tile is the same
// 256×256 PNG of one colour (there is no internet here, so OpenStreetMap's tiles never load).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A running tile server. */
export interface TileServer {
  /** The tile URL template to hand the catalog server (`mapTilesUrl`), `http://127.0.0.1:N/tiles/{z}/{x}/{y}.png`. */
  url: string;
  /** The paths of the tiles asked for so far (clear it with `length = 0`). */
  requests: string[];
  /** Stops the server; never throws. */
  close(): Promise<void>;
}

/**
 * Starts a tile server on a free port whose every `/tiles/{z}/{x}/{y}.png` is a plain PNG of `rgb`
 * (CORS open, not cached); other paths are 404.
 * @param rgb the tiles' colour, 0–255 per channel
 */
export async function startTileServer(rgb: { r: number; g: number; b: number }): Promise<TileServer> {
  const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: rgb } })
    .png()
    .toBuffer();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    if (/^\/tiles\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      requests.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*', 'cache-control': 'no-store' });
      response.end(png);
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tiles/{z}/{x}/{y}.png`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
