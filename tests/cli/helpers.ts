// Helpers of the CLI tests: where the samples are, running `node cli/bin/catalog.js` with execa,
// and a fresh embedded server on a free port with a temporary data folder.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { startServer } from '../../cli/src/server/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend } from '@shared/ports/index.js';
import { listFilesDeep } from '@shared/workflows/util.js';

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

/** Every stored file path under `models/`, sorted. */
export async function storedModelFiles(backend: Backend): Promise<string[]> {
  return (await listFilesDeep(backend.files, 'models/')).sort();
}

/**
 * Writes a model folder `<dir>` with a large binary splat `big.ply` (a PLY header, then
 * `megabytes` MiB of patterned bytes) and a `model.json` with `publicId` and `name`.
 * @returns the splat's sha256 (hex) and size in bytes
 */
export function writeBigModelFolder(dir: string, megabytes: number, model: { publicId: string; name: string }): { digest: string; total: number } {
  mkdirSync(dir, { recursive: true });
  const size = megabytes * 1024 * 1024;
  const header = Buffer.from(`ply\nformat binary_little_endian 1.0\nelement vertex ${Math.floor(size / 32)}\nproperty float x\nend_header\n`);
  const hash = createHash('sha256');
  const fd = openSync(join(dir, 'big.ply'), 'w');
  writeSync(fd, header);
  hash.update(header);
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  writeFileSync(join(dir, 'model.json'), JSON.stringify(model));
  return { digest: hash.digest('hex'), total: header.length + size };
}

/** sha256 (hex) of a stored file, downloaded through its download link. */
export async function storedSha256(backend: Backend, path: string): Promise<string> {
  const response = await fetch(await backend.files.getDownloadUrl(path));
  const hash = createHash('sha256');
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Resolves once the CLI's stderr shows a file between 25 % and 69 % uploaded.
 * @throws Error after 60 s without such progress
 */
export function midUpload(stderr: NodeJS.ReadableStream | null | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no progress: ${text}`)), 60_000);
    stderr?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (/\((2[5-9]|[3-6]\d)%\)/.test(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

/** A TCP port that was free on 127.0.0.1 a moment ago (one helper for every test harness). */
export { freePort } from '../firebase/emulators.js';

/**
 * Starts `catalog serve` as a child process (so a test can SIGKILL it) and waits for its first
 * output line. Resolves with `{ child }`: an execa subprocess is itself a promise, and returning
 * it would await its exit. Stop it with `child.kill(...)` then `await child`.
 */
export async function serveInChild(port: number, dataDir: string): Promise<{ child: ResultPromise }> {
  const child = execa('node', [cliBin, 'serve', '--port', String(port), '--data-dir', dataDir, '--no-portal', '--json'], { cwd: repoRoot, reject: false, stdin: 'ignore', buffer: false });
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error('catalog serve did not start')), 30_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolveStart();
    });
  });
  return { child };
}
