// Worker thread of cli/src/lib/change-map/compare-in-worker.ts: compares capture files with their
// reference files (compareCaptureFiles: read, ICP, change map, values file; with their camera
// metadata files, when they have them) off the caller's event
// loop, one task at a time as they come, posting each step as it starts and the outcome at the end
// (its typed arrays moved, not copied). It is kept between tasks (starting one costs about a
// second). Plain JavaScript so it starts the same whether the server runs from the CLI bundle or
// from its sources: it loads the comparison's TypeScript through tsx (with the repository's
// tsconfig, for its @shared/… paths).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..');
register({ tsconfig: join(root, 'tsconfig.json') });
const { compareCaptureFiles } = await import('./compare-files.ts');

parentPort.on('message', async ({ id, capturePath, referencePath, initial, names, cameras }) => {
  try {
    const onStep = (step) => parentPort.postMessage({ id, kind: 'step', step });
    const outcome = await compareCaptureFiles(capturePath, referencePath, initial, names, onStep, cameras);
    const { map, values } = outcome;
    const moved = new Set([values.buffer, map.distances.buffer, map.regionOf.buffer, map.referenceRegionOf.buffer]);
    parentPort.postMessage({ id, kind: 'done', outcome }, [...moved]);
  } catch (error) {
    const code = typeof error?.code === 'string' ? error.code : null;
    parentPort.postMessage({ id, kind: 'failed', code, message: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ kind: 'ready' });
