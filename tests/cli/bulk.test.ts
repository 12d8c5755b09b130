// `catalog models upload-many` end to end against a fresh embedded server: the dry run plans and
// writes nothing, bad folders (bad camera JSON, files missing for the type, HTML named .glb, Git
// LFS pointer named .ply) are refused with their messages and nothing written, a batch uploads,
// a re-run sends 0 bytes and creates 0 records, and a CLI killed (SIGKILL, or SIGINT as Ctrl-C
// sends) in the middle of a large file completes on the next run with no duplicate record and the same bytes (sha256);
// so does a run whose server was killed mid-file, once the server is back.
import { rmSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '@shared/ports/index.js';
import { makeSplatPly } from '../../cli/src/lib/demo-data/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import {
  createProjectWithCli,
  midUpload,
  parseJson,
  runCli,
  serveInChild,
  storedModelFiles,
  storedSha256,
  noisyJpeg,
  writeBigModelFolder,
  writeTree,
} from '../support/cli.js';
import { cameraEntry } from '../support/model-fixtures.js';
import { freePort } from '../support/net.js';
import { cliBin, repoRoot, samplePath, samplesPresent, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
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

const cameras = (name: string) => JSON.stringify([cameraEntry({ id: 0, img_name: name })]);

beforeAll(async () => {
  server = await startEmbeddedServer();
  ({ service: backend, env } = server);
  projectId = await createProjectWithCli('Bulk Tower', 'BLK-001', { env });
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog models upload-many', () => {
  const batch = join(work, 'campaign');
  beforeAll(async () => {
    writeTree(batch, {
      'a/scan.ply': makeSplatPly({ count: 30, seed: 1 }),
      'a/cameras.json': cameras('p1.jpg'),
      // a real photo over the resumable threshold (256 KB), so it goes by tus
      'a/images/p1.jpg': await noisyJpeg(300 * 1024),
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
    expect(await storedModelFiles(backend)).toEqual([]);
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
    const files = await storedModelFiles(backend);

    const again = await runCli(['models', 'upload-many', batch, '--project', projectId, '--json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    const second = parseJson<BatchResult>(again.stdout);
    if (second.status !== 'ok') throw new Error(again.stdout);
    expect(second.result.counts).toMatchObject({ created: 0, exists: 3 });
    expect(second.result.bytesSent).toBe(0);
    expect(await backend.catalog.count('models')).toBe(3);
    expect(await storedModelFiles(backend)).toEqual(files);
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
    const before = await storedModelFiles(backend);
    const count = await backend.catalog.count('models');

    const res = await runCli(['models', 'upload-many', bad, '--project', projectId, '--json'], { env });
    expect(res.exitCode).toBe(1);
    const out = parseJson(res.stdout);
    if (out.status !== 'error') throw new Error(res.stdout);
    expect(out.error.message).toContain('cams: Invalid JSON file');
    expect(out.error.message).toContain('mesh-missing: Required file types are missing based on the selected model type.');
    if (hasSamples) {
      expect(out.error.message).toContain('html: This .glb is an HTML page, not a GLB file (html-named.glb).');
      expect(out.error.message).toMatch(
        /lfs: This \.ply is a Git LFS pointer \(a \d+-byte text file\), not the splat itself: .*\(point_cloud\.ply\)\./,
      );
    }
    expect(out.error.message).toContain('Nothing was uploaded');
    expect(await backend.catalog.count('models')).toBe(count);
    expect(await storedModelFiles(backend)).toEqual(before);

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
  it.each(['SIGKILL', 'SIGINT'] as const)(
    'a CLI stopped by %s in the middle of a large file completes on the next run: one record, same sha256',
    { timeout: 120_000 },
    async (signal) => {
      const publicId = `BIG-${signal}`;
      const batchDir = join(work, `big-campaign-${signal}`);
      const { digest, total } = writeBigModelFolder(join(batchDir, 'big'), 160, { publicId, name: `Big one ${signal}` });

      const child = execa('node', [cliBin, 'models', 'upload-many', batchDir, '--project', projectId], {
        cwd: repoRoot,
        env: { CATALOG_DATA_DIR: server.dataDir, PATH: process.env.PATH ?? '' },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      await midUpload(child.stderr);
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
      expect(await storedSha256(backend, models[0].files.splatPath as string)).toBe(digest);
    },
  );
});

describe('resume after a lost server', () => {
  it(
    'a server stopped in the middle of a large file: the model fails with no record; after a restart the next run resumes, one record, same bytes',
    { timeout: 150_000 },
    async () => {
      // the same port after the restart: the upload URLs the CLI keeps name it
      const port = await freePort();
      const dataDir = join(work, 'lost-server-data');
      const lostEnv = { CATALOG_DATA_DIR: dataDir };
      const serve = () => serveInChild(port, dataDir);
      let server = (await serve()).child;
      const lostProject = await createProjectWithCli('Lost Server Tower', 'LST-001', { env: lostEnv });
      const batchDir = join(work, 'lost-campaign');
      const { digest, total } = writeBigModelFolder(join(batchDir, 'big'), 160, { publicId: 'LOST-1', name: 'Lost server model' });

      const upload = execa('node', [cliBin, 'models', 'upload-many', batchDir, '--project', lostProject, '--json'], {
        cwd: repoRoot,
        env: { ...lostEnv, PATH: process.env.PATH ?? '' },
        extendEnv: false,
        reject: false,
        stdin: 'ignore',
      });
      await midUpload(upload.stderr);
      server.kill('SIGKILL');
      await server;
      const failed = await upload;
      expect(failed.exitCode, failed.stdout).toBe(1);

      server = (await serve()).child;
      const lost = createLocalBackend({
        baseUrl: `http://127.0.0.1:${port}`,
        serviceKey: (JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')) as { key: string }).key,
      });
      try {
        expect(await lost.catalog.query('models', { where: [['publicId', '==', 'LOST-1']] })).toHaveLength(0);
        const res = await runCli(['models', 'upload-many', batchDir, '--project', lostProject, '--json'], {
          env: lostEnv,
          timeout: 90_000,
        });
        expect(res.exitCode, res.stdout + res.stderr).toBe(0);
        const out = parseJson<BatchResult>(res.stdout);
        if (out.status !== 'ok') throw new Error(res.stdout);
        expect(out.result.counts.created).toBe(1);
        expect(out.result.bytesResumed).toBeGreaterThan(total / 5);
        expect((out.result.bytesSent ?? 0) + (out.result.bytesResumed ?? 0)).toBe(total);
        const models = await lost.catalog.query('models', { where: [['publicId', '==', 'LOST-1']] });
        expect(models).toHaveLength(1);
        expect(await storedSha256(lost, models[0].files.splatPath as string)).toBe(digest);
      } finally {
        await lost.close();
        server.kill('SIGTERM');
        await server;
      }
    },
  );
});
