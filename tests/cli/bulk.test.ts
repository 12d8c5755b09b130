// `catalog models upload-many` end to end against a fresh embedded server: the dry run plans and
// writes nothing, bad folders (bad camera JSON, files missing for the type, HTML named .glb, Git
// LFS pointer named .ply) are refused with their messages and nothing written, a batch uploads,
// a re-run sends 0 bytes and creates 0 records, and a CLI killed (SIGKILL, or SIGINT as Ctrl-C
// sends) in the middle of a large file completes on the next run with no duplicate record and the same bytes (sha256);
// so does a run whose server was killed mid-file, once the server is back.
import { createHash } from 'node:crypto';
import { rmSync, closeSync, cpSync, mkdirSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../shared/ports/index.js';
import { makeSplatPly } from '../../cli/src/lib/demo-data.js';
import { createLocalBackend } from '../../shared/adapters/local/index.js';
import { cliBin, parseJson, repoRoot, runCli, samplePath, samplesPresent, serviceBackend, startTestServer, tempDir } from './helpers.js';

let server: Awaited<ReturnType<typeof startTestServer>>;
let backend: Backend;
let env: Record<string, string>;
let projectId: string;
const work = tempDir('bulk');
const hasSamples = samplesPresent();

interface BatchResult {
  counts: { planned: number; exists: number; invalid: number; created: number; failed: number };
  models: { folder: string; publicId: string; status: string; problems: string[]; modelId: string | null }[];
  bytesSent?: number;
  bytesSkipped?: number;
  bytesResumed?: number;
}

async function storedModelFiles(): Promise<string[]> {
  const out: string[] = [];
  const walk = async (folder: string) => {
    const listing = await backend.files.list(folder);
    out.push(...listing.items.map((i) => i.path));
    for (const prefix of listing.prefixes) await walk(prefix);
  };
  await walk('models/');
  return out.sort();
}

function writeTree(root: string, files: Record<string, string | Uint8Array>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

const cameras = (name: string) =>
  JSON.stringify([{ id: 0, img_name: name, width: 10, height: 10, position: [0, 0, 1], rotation: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], fx: 5, fy: 5 }]);

beforeAll(async () => {
  server = await startTestServer();
  backend = serviceBackend(server);
  env = { CATALOG_DATA_DIR: server.dataDir };
  const created = await runCli(['projects', 'create', '--name', 'Bulk Tower', '--structure-id', 'BLK-001'], { env });
  projectId = created.stdout.trim();
});

afterAll(async () => {
  await backend?.close();
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog models upload-many', () => {
  const batch = join(work, 'campaign');
  beforeAll(() => {
    writeTree(batch, {
      'a/scan.ply': makeSplatPly({ count: 30, seed: 1 }),
      'a/cameras.json': cameras('p1.jpg'),
      'a/images/p1.jpg': new Uint8Array(300 * 1024).fill(7),
      'b/scan.ply': makeSplatPly({ count: 30, seed: 2 }),
      'c/mesh.ply': makeSplatPly({ count: 30, seed: 3 }),
      'manifest.csv':
        'folder,publicId,name,type,captureDate,reference\n' +
        'a,BLK-A,"Survey A, north face",splat,2025-06-02,true\n' +
        'b,BLK-B,Survey B,,2025-06-03,no\n' +
        'c,BLK-C,Survey C,splat,,\n',
    });
  });

  it('--dry-run prints the plan and writes nothing', async () => {
    const res = await runCli(['models', 'upload-many', batch, '--project', 'BLK-001', '--dry-run', '--json'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    const out = parseJson<BatchResult>(res.stdout);
    if (out.status !== 'ok') throw new Error(res.stdout);
    expect(out.result.counts).toMatchObject({ planned: 3, exists: 0, invalid: 0, created: 0 });
    expect(out.result.models.map((m) => m.publicId)).toEqual(['BLK-A', 'BLK-B', 'BLK-C']);
    expect(await backend.catalog.count('models')).toBe(0);
    expect(await storedModelFiles()).toEqual([]);
    const human = await runCli(['models', 'upload-many', batch, '--project', 'BLK-001', '--dry-run'], { env });
    expect(human.stderr).toMatch(/ready\s+BLK-A\s+Survey A, north face\s+splat/);
    expect(human.stderr).toContain('Nothing was uploaded');
  });

  it('uploads the batch, then a re-run sends 0 bytes and creates 0 records', async () => {
    const res = await runCli(['models', 'upload-many', batch, '--project', projectId, '--concurrency', '2', '--json'], { env });
    expect(res.exitCode, res.stdout + res.stderr).toBe(0);
    const out = parseJson<BatchResult>(res.stdout);
    if (out.status !== 'ok') throw new Error(res.stdout);
    expect(out.result.counts).toMatchObject({ created: 3, failed: 0 });
    expect(out.result.bytesSent).toBeGreaterThan(300 * 1024);
    expect(res.stderr).toContain('[BLK-A] created');
    const models = await backend.catalog.query('models', { where: [['projectId', '==', projectId]] });
    expect(models.map((m) => m.publicId).sort()).toEqual(['BLK-A', 'BLK-B', 'BLK-C']);
    const a = models.find((m) => m.publicId === 'BLK-A');
    expect(a?.name).toBe('Survey A, north face');
    expect(a?.metadata?.captureDate).toBe('2025-06-02');
    expect(a?.files.images).toHaveLength(1);
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBe(a?.id);
    const files = await storedModelFiles();

    const again = await runCli(['models', 'upload-many', batch, '--project', projectId, '--json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    const second = parseJson<BatchResult>(again.stdout);
    if (second.status !== 'ok') throw new Error(again.stdout);
    expect(second.result.counts).toMatchObject({ created: 0, exists: 3 });
    expect(second.result.bytesSent).toBe(0);
    expect(await backend.catalog.count('models')).toBe(3);
    expect(await storedModelFiles()).toEqual(files);
  });

  it('refuses bad folders with their messages, exit 1, nothing written; model.json metadata is read', async () => {
    const bad = join(work, 'bad-campaign');
    writeTree(bad, {
      'cams/scan.ply': makeSplatPly({ count: 10 }),
      'cams/cameras.json': '{oops',
      'cams/model.json': JSON.stringify({ publicId: 'BAD-CAM', name: 'Bad cameras' }),
      'mesh-missing/scan.ply': makeSplatPly({ count: 10 }),
      'mesh-missing/model.json': JSON.stringify({ publicId: 'BAD-MESH', name: 'No GLB', type: 'mesh' }),
      'good/scan.ply': makeSplatPly({ count: 10, seed: 9 }),
      'good/model.json': JSON.stringify({ publicId: 'GOOD-1', name: 'Good one' }),
    });
    if (hasSamples) {
      mkdirSync(join(bad, 'html'));
      cpSync(samplePath('bad/html-named.glb'), join(bad, 'html', 'html-named.glb'));
      writeFileSync(join(bad, 'html', 'model.json'), JSON.stringify({ publicId: 'BAD-HTML', name: 'HTML' }));
      mkdirSync(join(bad, 'lfs'));
      cpSync(samplePath('bad/lfs-pointer-point_cloud.ply'), join(bad, 'lfs', 'point_cloud.ply'));
      writeFileSync(join(bad, 'lfs', 'model.json'), JSON.stringify({ publicId: 'BAD-LFS', name: 'LFS' }));
    }
    const before = await storedModelFiles();
    const count = await backend.catalog.count('models');

    const res = await runCli(['models', 'upload-many', bad, '--project', projectId, '--json'], { env });
    expect(res.exitCode).toBe(1);
    const out = parseJson(res.stdout);
    if (out.status !== 'error') throw new Error(res.stdout);
    expect(out.error.message).toContain('cams: Invalid JSON file');
    expect(out.error.message).toContain('mesh-missing: Required file types are missing based on the selected model type.');
    if (hasSamples) {
      expect(out.error.message).toMatch(/html: html-named\.glb is not a GLB file: it does not start with 'glTF' \(it is an HTML page\)/);
      expect(out.error.message).toContain('lfs: point_cloud.ply is a Git LFS pointer');
    }
    expect(out.error.message).toContain('Nothing was uploaded');
    expect(await backend.catalog.count('models')).toBe(count);
    expect(await storedModelFiles()).toEqual(before);

    const dry = await runCli(['models', 'upload-many', bad, '--project', projectId, '--dry-run', '--json'], { env });
    expect(dry.exitCode).toBe(1);
    const plan = JSON.parse(dry.stdout) as { status: string; result: BatchResult };
    expect(plan.status).toBe('error');
    expect(plan.result.models.find((m) => m.publicId === 'GOOD-1')?.status).toBe('ready');

    const skip = await runCli(['models', 'upload-many', bad, '--project', projectId, '--skip-invalid', '--json'], { env });
    expect(skip.exitCode).toBe(1);
    const partial = JSON.parse(skip.stdout) as { status: string; result: BatchResult };
    expect(partial.result.counts.created).toBe(1);
    expect((await backend.catalog.query('models', { where: [['publicId', '==', 'GOOD-1']] })).length).toBe(1);
    expect((await backend.catalog.query('models', { where: [['publicId', '==', 'BAD-CAM']] })).length).toBe(0);
  });

  it('refuses an unknown project and a directory without models', async () => {
    const res = await runCli(['models', 'upload-many', batch, '--project', 'NOPE-404'], { env });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('Error: Project not found');
    const empty = tempDir('empty');
    const none = await runCli(['models', 'upload-many', empty, '--project', projectId, '--json'], { env });
    expect(none.exitCode).toBe(1);
    expect(parseJson(none.stdout)).toMatchObject({ status: 'error', error: { code: 'not-found' } });
  });
});

describe('resume after an interrupted upload', () => {
  // SIGKILL: the process dies at once; SIGINT: what Ctrl-C sends in a terminal.
  it.each(['SIGKILL', 'SIGINT'] as const)('a CLI stopped by %s in the middle of a large file completes on the next run: one record, same sha256', { timeout: 120_000 }, async (signal) => {
    const publicId = `BIG-${signal}`;
    const dir = join(work, `big-campaign-${signal}`, 'big');
    mkdirSync(dir, { recursive: true });
    const size = 160 * 1024 * 1024;
    const header = Buffer.from(`ply\nformat binary_little_endian 1.0\nelement vertex ${Math.floor(size / 32)}\nproperty float x\nend_header\n`);
    const hash = createHash('sha256');
    const fd = openSync(join(dir, 'big.ply'), 'w');
    writeSync(fd, header);
    hash.update(header);
    const block = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < size / block.length; i++) {
      for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
      writeSync(fd, block);
      hash.update(block);
    }
    closeSync(fd);
    const digest = hash.digest('hex');
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ publicId, name: `Big one ${signal}` }));
    const batchDir = join(work, `big-campaign-${signal}`);
    const total = header.length + size;

    const child = execa('node', [cliBin, 'models', 'upload-many', batchDir, '--project', projectId], {
      cwd: repoRoot,
      env: { CATALOG_DATA_DIR: server.dataDir, PATH: process.env.PATH ?? '' },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no progress: ${text}`)), 60_000);
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/big\.ply|splat/.test(text) && /\((2[5-9]|[3-6]\d)%\)/.test(text)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    child.kill(signal);
    const killed = await child;
    expect(killed.signal).toBe(signal);
    expect(await backend.catalog.query('models', { where: [['publicId', '==', publicId]] })).toHaveLength(0);

    const res = await runCli(['models', 'upload-many', batchDir, '--project', projectId, '--json'], { env, timeout: 90_000 });
    expect(res.exitCode, res.stdout + res.stderr).toBe(0);
    const out = parseJson<BatchResult>(res.stdout);
    if (out.status !== 'ok') throw new Error(res.stdout);
    expect(out.result.counts.created).toBe(1);
    expect(out.result.bytesResumed).toBeGreaterThan(total / 5);
    expect(out.result.bytesSent).toBeLessThan(total - total / 5);
    expect((out.result.bytesSent ?? 0) + (out.result.bytesResumed ?? 0)).toBe(total);

    const models = await backend.catalog.query('models', { where: [['publicId', '==', publicId]] });
    expect(models).toHaveLength(1);
    const path = models[0].files.splatPath as string;
    const response = await fetch(await backend.files.getDownloadUrl(path));
    const stored = createHash('sha256');
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) stored.update(chunk);
    expect(stored.digest('hex')).toBe(digest);
    expect(readFileSync(join(dir, 'big.ply')).length).toBe(total);
  });
});

describe('resume after a lost server', () => {
  it('a server stopped in the middle of a large file: the model fails with no record; after a restart the next run resumes, one record, same bytes', { timeout: 150_000 }, async () => {
    const { createServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const dataDir = join(work, 'lost-server-data');
    const serve = () =>
      execa('node', [cliBin, 'serve', '--port', String(port), '--data-dir', dataDir, '--no-portal', '--json'], {
        cwd: repoRoot,
        reject: false,
        stdin: 'ignore',
        buffer: false,
      });
    const started = async (child: ReturnType<typeof serve>): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('catalog serve did not start')), 30_000);
        child.stdout?.on('data', () => {
          clearTimeout(timer);
          resolve();
        });
      });
    let server = serve();
    await started(server);
    const lostEnv = { CATALOG_DATA_DIR: dataDir };
    const project = await runCli(['projects', 'create', '--name', 'Lost Server Tower', '--structure-id', 'LST-001'], { env: lostEnv });
    const lostProject = project.stdout.trim();

    const dir = join(work, 'lost-campaign', 'big');
    mkdirSync(dir, { recursive: true });
    const size = 160 * 1024 * 1024;
    const header = Buffer.from(`ply\nformat binary_little_endian 1.0\nelement vertex ${Math.floor(size / 32)}\nproperty float x\nend_header\n`);
    const hash = createHash('sha256');
    const fd = openSync(join(dir, 'big.ply'), 'w');
    writeSync(fd, header);
    hash.update(header);
    const block = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < size / block.length; i++) {
      for (let j = 0; j < block.length; j += 4) block.writeUInt32LE((i * 40503 + j * 2654435761) >>> 0, j);
      writeSync(fd, block);
      hash.update(block);
    }
    closeSync(fd);
    const digest = hash.digest('hex');
    writeFileSync(join(dir, 'model.json'), JSON.stringify({ publicId: 'LOST-1', name: 'Lost server model' }));
    const batchDir = join(work, 'lost-campaign');
    const total = header.length + size;

    const upload = execa('node', [cliBin, 'models', 'upload-many', batchDir, '--project', lostProject, '--json'], {
      cwd: repoRoot,
      env: { ...lostEnv, PATH: process.env.PATH ?? '' },
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    await new Promise<void>((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error(`no progress: ${text}`)), 60_000);
      upload.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (/\((2[5-9]|[3-6]\d)%\)/.test(text)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    server.kill('SIGKILL');
    await server;
    const failed = await upload;
    expect(failed.exitCode, failed.stdout).toBe(1);

    server = serve();
    await started(server);
    try {
      const lost = createLocalBackend({ baseUrl: `http://127.0.0.1:${port}`, serviceKey: (JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')) as { key: string }).key });
      expect(await lost.catalog.query('models', { where: [['publicId', '==', 'LOST-1']] })).toHaveLength(0);
      const res = await runCli(['models', 'upload-many', batchDir, '--project', lostProject, '--json'], { env: lostEnv, timeout: 90_000 });
      expect(res.exitCode, res.stdout + res.stderr).toBe(0);
      const out = parseJson<BatchResult>(res.stdout);
      if (out.status !== 'ok') throw new Error(res.stdout);
      expect(out.result.counts.created).toBe(1);
      expect(out.result.bytesResumed).toBeGreaterThan(total / 5);
      expect((out.result.bytesSent ?? 0) + (out.result.bytesResumed ?? 0)).toBe(total);
      const models = await lost.catalog.query('models', { where: [['publicId', '==', 'LOST-1']] });
      expect(models).toHaveLength(1);
      const response = await fetch(await lost.files.getDownloadUrl(models[0].files.splatPath as string));
      const stored = createHash('sha256');
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) stored.update(chunk);
      expect(stored.digest('hex')).toBe(digest);
      await lost.close();
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  });
});
