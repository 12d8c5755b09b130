// The CLI harness: running `node cli/bin/catalog.js` with execa, reading its --json output,
// `catalog serve` as a child process, model folders on disk, and what the CLI stored.
import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { expect } from 'vitest';
import type { Backend } from '@shared/ports/index.js';
import { listFilesDeep } from '@shared/workflows/util.js';
import { fillSplatBlock } from './model-fixtures.js';
import { cliBin, repoRoot } from './paths.js';

export { noisyJpeg } from './model-fixtures.js';

/** The test process's environment without the CLI's own variables (tests set them explicitly). */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith('CATALOG_')) env[key] = value;
  }
  return env;
}

/** What a CLI run gave: its exit code and its whole stdout and stderr. */
export interface CliResult {
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** Options of {@link runCli}: extra environment variables, working folder (default the repository), timeout in ms. */
export interface CliOptions {
  env?: Record<string, string>;
  cwd?: string;
  timeout?: number;
}

/**
 * Runs the CLI (`node cli/bin/catalog.js ...args`) in the repository with the test's environment
 * minus every `CATALOG_*` variable, plus `options.env`; never throws on a non-zero exit.
 * @param options.timeout milliseconds before the run is killed (default 60 s)
 */
export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
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

/**
 * {@link runCli} for a run that must succeed.
 * @throws Error naming the arguments, with the exit code, stdout and stderr, when the exit code is not 0
 */
export async function runCliOk(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const result = await runCli(args, options);
  if (result.exitCode !== 0)
    throw new Error(`catalog ${args.join(' ')} failed (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  return result;
}

/**
 * Creates a project with `catalog projects create --name <name> --structure-id <structureId>`,
 * which must succeed.
 * @returns the new project's id (what the command prints without --json)
 * @throws Error with the CLI's output when it fails
 */
export async function createProjectWithCli(name: string, structureId: string, options: CliOptions = {}): Promise<string> {
  return (await runCliOk(['projects', 'create', '--name', name, '--structure-id', structureId], options)).stdout.trim();
}

/** Parses the single JSON document a `--json` run prints on stdout. */
export function parseJson<T = unknown>(
  stdout: string,
): { status: 'ok'; result: T } | { status: 'error'; error: { code: string; message: string } } {
  return JSON.parse(stdout);
}

/** The `--json` runs of a CLI test file against one server: see {@link jsonCli}. */
export interface JsonCli {
  /**
   * Runs `catalog ...args --json`, which must exit 0 with status 'ok'.
   * @returns the `result` of the JSON document
   * @throws Error naming the arguments, with stdout and stderr, otherwise
   */
  ok<T = unknown>(args: string[]): Promise<T>;
  /**
   * Runs `catalog ...args --json` (without `--json` when `opts.json` is false), which must exit 1
   * (a failed expectation otherwise).
   * @returns the `error` of the JSON document (`code`, `message`); without `--json`, stderr as the
   *   message and an empty code
   * @throws Error with stdout when the JSON document's status is not 'error'
   */
  fails(args: string[], opts?: { json?: boolean }): Promise<{ code: string; message: string }>;
}

/**
 * `ok` and `fails` for the CLI tests that run many `--json` commands against one server.
 * @param env called at each run for the environment with which the CLI reaches the server (the
 *   server usually starts in a `beforeAll`, after this is called)
 * @returns the two runners
 */
export function jsonCli(env: () => Record<string, string>): JsonCli {
  return {
    async ok<T = unknown>(args: string[]): Promise<T> {
      const res = await runCli([...args, '--json'], { env: env() });
      const out = parseJson<T>(res.stdout);
      if (res.exitCode !== 0 || out.status !== 'ok') throw new Error(`${args.join(' ')}: ${res.stdout} ${res.stderr}`);
      return out.result;
    },
    async fails(args: string[], opts: { json?: boolean } = {}): Promise<{ code: string; message: string }> {
      const res = await runCli(opts.json === false ? args : [...args, '--json'], { env: env() });
      expect(res.exitCode, res.stdout + res.stderr).toBe(1);
      if (opts.json === false) return { message: res.stderr, code: '' };
      const out = parseJson(res.stdout);
      if (out.status !== 'error') throw new Error(res.stdout);
      return out.error;
    },
  };
}

/** Writes `files` (relative path → content) under `root`, creating `root` and its subfolders; returns `root`. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): string {
  mkdirSync(root, { recursive: true });
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** Every stored file path under `models/`, sorted. */
export async function storedModelFiles(backend: Backend): Promise<string[]> {
  return (await listFilesDeep(backend.files, 'models/')).sort();
}

/**
 * Writes a model folder `<dir>` with a large valid compact splat `big.splat` (`megabytes` MiB of
 * 32-byte records: finite patterned positions, patterned scales, colours and rotations, so the
 * content checks accept it; a `.splat` gets no web-sized copy, which keeps the upload tests
 * about the upload) and a `model.json` with `publicId` and `name`.
 * @returns the splat's sha256 (hex) and size in bytes
 */
export function writeBigModelFolder(
  dir: string,
  megabytes: number,
  model: { publicId: string; name: string },
): { digest: string; total: number } {
  mkdirSync(dir, { recursive: true });
  const size = megabytes * 1024 * 1024;
  const hash = createHash('sha256');
  const fd = openSync(join(dir, 'big.splat'), 'w');
  const block = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < megabytes; i++) {
    fillSplatBlock(block, i);
    writeSync(fd, block);
    hash.update(block);
  }
  closeSync(fd);
  writeFileSync(join(dir, 'model.json'), JSON.stringify(model));
  return { digest: hash.digest('hex'), total: size };
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

/**
 * Starts `catalog serve` as a child process (so a test can SIGKILL it) and waits for its first
 * output line. Resolves with `{ child }`: an execa subprocess is itself a promise, and returning
 * it would await its exit. Stop it with `child.kill(...)` then `await child`.
 * @param port the port to serve on (0: any free one)
 */
export async function serveInChild(port: number, dataDir: string): Promise<{ child: ResultPromise }> {
  const args = [cliBin, 'serve', '--port', String(port), '--data-dir', dataDir, '--no-portal', '--no-change-maps', '--json'];
  const child = execa('node', args, { cwd: repoRoot, reject: false, stdin: 'ignore', buffer: false });
  await new Promise<void>((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error('catalog serve did not start')), 30_000);
    child.stdout?.once('data', () => {
      clearTimeout(timer);
      resolveStart();
    });
  });
  return { child };
}
