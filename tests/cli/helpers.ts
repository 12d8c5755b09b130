// Helpers of the CLI tests: where the samples are, running `node cli/bin/catalog.js` with execa,
// and a fresh embedded server on a free port with a temporary data folder.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { startServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '../../shared/adapters/local/index.js';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const cliBin = join(repoRoot, 'cli/bin/catalog.js');
/** `../shared/samples` beside the repository (never copied into the project). */
export const samplesDir = resolve(repoRoot, '..', 'shared', 'samples');

let warned = false;
/** True when the real samples are present; prints the reason once when they are not. */
export function samplesPresent(): boolean {
  const present = existsSync(join(samplesDir, 'SOURCES.md'));
  if (!present && !warned) {
    warned = true;
    console.warn(`[cli tests] skipping sample-based tests: ${samplesDir} is absent`);
  }
  return present;
}

/** Absolute path of a sample file or folder. */
export function samplePath(relative: string): string {
  return join(samplesDir, relative);
}

/** A temporary folder removed by the returned cleanup. */
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `catalog-${prefix}-`));
}

/** The test process's environment without the CLI's own variables (tests set them explicitly). */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('CATALOG_')) env[key] = value;
  }
  return env;
}

/** Runs the CLI; never throws on a non-zero exit. */
export async function runCli(args: string[], options: { env?: Record<string, string>; cwd?: string; timeout?: number } = {}) {
  const result = await execa('node', [cliBin, ...args], {
    reject: false,
    cwd: options.cwd ?? repoRoot,
    env: { ...cleanEnv(), ...options.env },
    extendEnv: false,
    stdin: 'ignore',
    timeout: options.timeout ?? 60_000,
  });
  return { exitCode: result.exitCode, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/** Parses the single JSON document a `--json` run prints on stdout. */
export function parseJson<T = unknown>(stdout: string): { status: 'ok'; result: T } | { status: 'error'; error: { code: string; message: string } } {
  return JSON.parse(stdout);
}

/** A fresh embedded server on port 0 with a temporary data folder. */
export async function startTestServer() {
  const dataDir = tempDir('data');
  const server = await startServer({ dataDir, port: 0 });
  return {
    ...server,
    dataDir,
    async stop() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A service backend on a test server, to read back what the CLI wrote. */
export function serviceBackend(server: { url: string; serviceKeyPath: string }) {
  const key = JSON.parse(readFileSync(server.serviceKeyPath, 'utf8')) as { key: string };
  return createLocalBackend({ baseUrl: server.url, serviceKey: key.key });
}
