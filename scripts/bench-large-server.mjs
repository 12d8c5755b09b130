#!/usr/bin/env node
// The embedded server for `npm run bench:large`: starts `catalog serve`'s server in this process
// (as `catalog serve` does) with perf_hooks' event-loop delay monitor on, prints `{"url": …}`,
// and on SIGTERM closes it and prints `{"maxDelayMs", "p99DelayMs", "peakRssKiB"}` (the peak
// includes the server's worker threads: content checks and web-sized copies).
// Usage: node scripts/bench-large-server.mjs DATA_DIR
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const root = fileURLToPath(new URL('..', import.meta.url));
register({ tsconfig: join(root, 'tsconfig.json') });
const { startServer } = await import(pathToFileURL(join(root, 'cli/src/server/index.ts')).href);

const server = await startServer({ dataDir: process.argv[2], port: 0, portalDir: null });
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.once('SIGTERM', async () => {
  delay.disable();
  await server.close();
  process.stdout.write(
    `${JSON.stringify({
      maxDelayMs: Math.round(delay.max / 1e6),
      p99DelayMs: Math.round(delay.percentile(99) / 1e6),
      peakRssKiB: process.resourceUsage().maxRSS,
    })}\n`,
  );
  process.exit(0);
});
