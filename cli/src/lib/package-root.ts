/**
 * The package's root folder, found from this module's location whether it runs from its
 * TypeScript source (`cli/src/lib/`) or from the CLI bundle (`cli/dist/`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * Absolute path of the folder holding the package's `package.json` (the first one above this
 * module).
 * @returns the folder path, without a trailing separator
 * @throws Error when no package.json is found above this module
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
  root = dir;
  return dir;
}

/**
 * The package's version from its package.json.
 * @returns a semver string such as '0.1.0'
 */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
