#!/usr/bin/env node
// `npm start`: builds the portal when needed, starts `catalog serve` (embedded backend + portal),
// seeds the demo data (idempotent: only the first run writes anything) and prints the URL and
// the demo sign-ins. Installs nothing. Ctrl-C stops the server.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { changedSince } from '../cli/bin/freshness.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const catalog = join(root, 'cli', 'bin', 'catalog.js');
const port = Number(process.env.CATALOG_PORT ?? 8787);
const dataDir = process.env.CATALOG_DATA_DIR ?? join(root, '.catalog-data');
const url = `http://127.0.0.1:${port}`;

const builtIndex = join(root, 'portal', 'dist', 'index.html');
const sourcesChanged = () => {
  const built = statSync(builtIndex).mtimeMs;
  return changedSince(join(root, 'portal'), built) || changedSince(join(root, 'shared'), built);
};
if (!existsSync(builtIndex) || sourcesChanged()) {
  console.error('Building the portal…');
  const build = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'portal/vite.config.ts', '--logLevel', 'warn'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [catalog, 'serve', '--port', String(port), '--data-dir', dataDir], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'inherit'],
});
let stopping = false;
server.on('exit', (code) => {
  if (!stopping) console.error(`catalog serve exited with code ${code}`);
  process.exit(code ?? 1);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}

async function waitForServer(timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`${url}/v1/config`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`catalog serve did not answer on ${url} within ${timeoutMs / 1000} s`);
}

try {
  await waitForServer(30_000);
} catch (error) {
  console.error(error.message);
  server.kill();
  process.exit(1);
}

const seed = spawnSync(process.execPath, [catalog, 'seed', '--data-dir', dataDir, '--json'], { cwd: root, encoding: 'utf8' });
if (seed.status !== 0) {
  console.error(`Seeding the demo data failed:\n${seed.stdout}${seed.stderr}`);
  stopping = true;
  server.kill();
  process.exit(1);
}

console.log(`
  Inspection model catalog is running.

    Portal:   ${url}
    Admin:    admin@demo.lab / demo-admin-1
    User:     user@demo.lab  / demo-user-1
    Data:     ${dataDir}

  CLI: npx catalog --help   (it finds the server through ${join(dataDir, 'service-key.json')})
  Stop with Ctrl-C.
`);
