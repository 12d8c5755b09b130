/**
 * Opening the backend inside a command's action: the backend is closed by the output wrapper's
 * cleanup whatever the outcome.
 */
import type { BackendOptions, OpenedBackend } from './backend.js';
import { openBackend } from './backend.js';
import type { CommandContext } from './output.js';

/**
 * Opens the backend for an action and registers its closing.
 * @param options `--data-dir` / `--url`
 * @param ctx the action's context
 * @throws AppError `unauthenticated` (no service key), `unavailable` (server unreachable)
 */
export async function backendFor(options: BackendOptions, ctx: Pick<CommandContext, 'onCleanup'>): Promise<OpenedBackend> {
  const opened = await openBackend(options);
  ctx.onCleanup(async () => {
    await opened.idle?.();
    await opened.backend.close();
  });
  return opened;
}
