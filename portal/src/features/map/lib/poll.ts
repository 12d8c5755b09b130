/**
 * Maps initialisation polling: check every 500 ms whether the maps API is ready and
 * give up after 10 s.
 */
import { MAP_INIT_POLL_INTERVAL_MS, MAP_INIT_TIMEOUT_MS } from '@shared/constants.js';

/**
 * Resolves true as soon as `ready()` holds (checked now, then every `intervalMs`), false once
 * `timeoutMs` passed without it. `signal` stops the polling (resolves false).
 */
export function pollUntil(
  ready: () => boolean,
  {
    intervalMs = MAP_INIT_POLL_INTERVAL_MS,
    timeoutMs = MAP_INIT_TIMEOUT_MS,
    signal,
  }: { intervalMs?: number; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<boolean> {
  return new Promise((resolve) => {
    if (ready()) {
      resolve(true);
      return;
    }
    const started = Date.now();
    const timer = setInterval(() => {
      if (signal?.aborted) {
        clearInterval(timer);
        resolve(false);
      } else if (ready()) {
        clearInterval(timer);
        resolve(true);
      } else if (Date.now() - started >= timeoutMs) {
        clearInterval(timer);
        resolve(false);
      }
    }, intervalMs);
  });
}
