/**
 * `catalog serve`: the embedded backend with the built portal, until SIGINT/SIGTERM.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { isMapTilesUrl } from '@shared/wire/config.js';
import { defaultPort, resolveDataDir } from '../lib/backend.js';
import { examplesHelp, leafCommand } from '../lib/command.js';
import { packageRoot } from '../lib/package-root.js';

/** The package's built portal (`portal/dist`), when it exists. */
export function builtPortalDir(): string | null {
  const dir = join(packageRoot(), 'portal', 'dist');
  return existsSync(join(dir, 'index.html')) ? `${dir}/` : null;
}

const schema = z.object({
  port: z.coerce.number().int().min(0).max(65535).optional(),
  host: z.string().min(1).optional(),
  dataDir: z.string().min(1).optional(),
  viewerUrl: z.string().url().optional(),
  mapTilesUrl: z
    .string()
    .refine(isMapTilesUrl, 'must be an http(s) URL template with {z}, {x} and {y}, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png')
    .optional(),
  portal: z.boolean().default(true),
  changeMaps: z.boolean().default(true),
});

/** Resolves when the process receives SIGINT or SIGTERM. */
function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `catalog serve [--port] [--host] [--data-dir] [--viewer-url] [--map-tiles-url] [--no-portal] [--no-change-maps]` */
export const serveCommand = leafCommand({
  command: new Command('serve')
    .description('run the embedded catalog server (SQLite + files on disk) and serve the portal')
    .option('-p, --port <port>', 'port to listen on; 0 picks a free port (env CATALOG_PORT, default 8787)')
    .option('--host <host>', 'interface to listen on (default 127.0.0.1)')
    .option('--data-dir <dir>', 'data folder (env CATALOG_DATA_DIR, default .catalog-data)')
    .option('--viewer-url <url>', 'external 3D viewer URL given to the portal (env CATALOG_VIEWER_URL)')
    .option(
      '--map-tiles-url <template>',
      'raster tiles of the key-less map, {z}/{x}/{y} (env CATALOG_MAP_TILES_URL, default OpenStreetMap)',
    )
    .option('--no-portal', 'serve only the API, not the built portal')
    .option('--no-change-maps', 'do not compute change maps in the background (run `catalog models changes` instead)'),
  schema,
  help: examplesHelp(['catalog serve --port 8787 --data-dir ./.catalog-data']),
  run: async (input, ctx) => {
    const dataDir = resolveDataDir(input.dataDir);
    const portalDir = input.portal ? builtPortalDir() : null;
    const stopped = untilSignal();
    // loaded here so that other commands do not pay for the server's dependencies
    const { startServer } = await import('../server/index.js');
    const server = await startServer({
      dataDir,
      port: input.port ?? defaultPort(),
      ...(input.host ? { host: input.host } : {}),
      portalDir,
      ...((input.viewerUrl ?? process.env.CATALOG_VIEWER_URL) ? { viewerUrl: input.viewerUrl ?? process.env.CATALOG_VIEWER_URL } : {}),
      ...(input.mapTilesUrl ? { mapTilesUrl: input.mapTilesUrl } : {}),
      changeMaps: input.changeMaps,
    });
    const keepAlive = stopped.then(async (signal) => {
      ctx.log(`Received ${signal}, stopping…`);
      await server.close();
      ctx.log('Catalog server stopped.');
    });
    if (input.portal && portalDir === null) ctx.log('No built portal found (run `npm run build`): serving the API only.');
    return {
      result: { url: server.url, port: server.port, dataDir, serviceKeyPath: server.serviceKeyPath, portalDir },
      text: server.url,
      summary: `Catalog server running at ${server.url} (data in ${dataDir}). Press Ctrl+C to stop.`,
      keepAlive,
    };
  },
});
