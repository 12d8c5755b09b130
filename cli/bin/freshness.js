// Is a build older than its sources? Used by `catalog` (cli/bin/catalog.js: the CLI bundle) and
// `npm start` (scripts/start.js: the portal build).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * True when some file below `dir` was modified after `time`. Skips node_modules and dist.
 * @param {string} dir folder to walk
 * @param {number} time modification time in ms since the epoch (e.g. a build output's mtimeMs)
 * @returns {boolean}
 */
export function changedSince(dir, time) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory() ? changedSince(path, time) : statSync(path).mtimeMs > time) return true;
  }
  return false;
}
