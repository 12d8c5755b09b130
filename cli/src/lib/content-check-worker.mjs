// Worker thread of cli/src/server/content-check-pool.ts (a piscina pool): runs the content check
// of a received file off the server's event loop. Plain JavaScript so it starts the same whether
// the server runs from the CLI bundle or from its sources: it loads the check's TypeScript through
// tsx (with the repository's tsconfig, for its @shared/… paths).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
register({ tsconfig: join(root, 'tsconfig.json') });
const { checkReceivedFile } = await import('./content-check-job.ts');

export default checkReceivedFile;
