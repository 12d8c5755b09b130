// `catalog doctor --fix` beside live uploads, end to end against a fresh embedded server: a
// `doctor --fix` loop (default grace) and a storage-repair loop with grace 0 beside
// `upload-many` of 4 model folders lose no acknowledged file and no model; files without a record
// younger than the grace period are left alone and said so; a bad --grace is refused.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referencedPaths } from '@shared/workflows/index.js';
import { routes } from '@shared/wire/routes.js';
import { makeSplatPly } from '../../cli/src/lib/demo-data/index.js';
import { createProjectWithCli, noisyJpeg, parseJson, runCli, writeTree } from '../support/cli.js';
import { jpegPhoto } from '../support/model-fixtures.js';
import { cliBin, repoRoot, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let projectId: string;
const work = tempDir('doctor-live');
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'doctor-live' });
  projectId = await createProjectWithCli('Live Tower', 'LIV-001', { env: server.env });
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog doctor beside live uploads', () => {
  it('leaves alone files without a record younger than the grace period, says so, and refuses a bad --grace', async () => {
    const orphan = 'aaaaaaaa-0000-4000-8000-000000000001';
    await server.service.files.upload(`models/${orphan}/assets/part.bin`, new Blob(['an upload that may still resume']));
    const human = await runCli(['doctor'], { env: server.env });
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stdout).toContain(
      `left alone (upload in progress or resumable): models/${orphan}/ holds 1 file(s) no model owns yet; younger than the grace period of 24 h (--grace changes it)`,
    );
    const bad = await runCli(['doctor', '--fix', '--yes', '--grace', 'soon', '--json'], { env: server.env });
    expect(bad.exitCode).toBe(1);
    expect(parseJson(bad.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'invalid-argument', message: expect.stringContaining("Invalid grace period 'soon'") },
    });
    expect((await server.service.files.list(`models/${orphan}/assets/`)).items).toHaveLength(1);
  });

  it(
    'a doctor --fix loop and storage repairs with grace 0 beside upload-many lose no acknowledged file and no model',
    { timeout: 300_000 },
    async () => {
      const batch = join(work, 'campaign');
      const tree: Record<string, Uint8Array> = {};
      const folders = ['m1', 'm2', 'm3', 'm4'];
      for (const [k, folder] of folders.entries()) {
        tree[`${folder}/scan.ply`] = makeSplatPly({ count: 40, seed: k + 1 });
        // nine small photos (a file batch) and one over the resumable threshold (tus)
        for (let i = 0; i < 9; i += 1) tree[`${folder}/images/p${i}.jpg`] = await jpegPhoto(32 + i, 24 + k);
        tree[`${folder}/images/big.jpg`] = await noisyJpeg(300 * 1024, k);
        tree[`${folder}/model.json`] = new TextEncoder().encode(JSON.stringify({ publicId: `LIV-${k + 1}`, name: `Live ${k + 1}` }));
      }
      writeTree(batch, tree);

      const uploading = execa(
        'node',
        [cliBin, 'models', 'upload-many', batch, '--project', projectId, '--concurrency', '2', '--yes', '--json'],
        {
          cwd: repoRoot,
          env: { ...server.env, PATH: process.env.PATH ?? '' },
          extendEnv: false,
          reject: false,
          stdin: 'ignore',
          timeout: 240_000,
        },
      );
      let finished = false;
      void uploading.finally(() => (finished = true));
      const doctorRuns: (number | undefined)[] = [];
      let repairs = 0;
      // the server's storage repair with grace 0: only what is being stored now protects a file
      const repairing = (async () => {
        while (!finished) {
          const response = await fetch(`${server.url}${routes.storageRepair.path(0)}`, {
            method: 'POST',
            headers: { authorization: `Bearer ${server.serviceKey}` },
          });
          expect(response.status, await response.text()).toBe(200);
          repairs += 1;
        }
      })();
      // doctor --fix with the default grace, again and again while upload-many runs
      while (!finished) {
        const run = await runCli(['doctor', '--fix', '--yes', '--json'], { env: server.env });
        expect([0, 1], run.stdout + run.stderr).toContain(run.exitCode);
        expect(run.stdout).not.toContain('"internal"');
        doctorRuns.push(run.exitCode);
      }
      await repairing;
      const uploaded = await uploading;
      expect(uploaded.exitCode, String(uploaded.stdout) + String(uploaded.stderr)).toBe(0);
      expect(doctorRuns.length).toBeGreaterThan(0);
      expect(repairs).toBeGreaterThan(0);
      const out = parseJson<{ counts: { created: number }; models: { folder: string; publicId: string; modelId: string | null }[] }>(
        String(uploaded.stdout),
      );
      if (out.status !== 'ok') throw new Error(String(uploaded.stdout));
      expect(out.result.counts.created).toBe(4);

      // every model is there, every file its record names is stored (record and bytes) with the content sent
      for (const [k, folder] of folders.entries()) {
        const entry = out.result.models.find((m) => m.folder === folder);
        const model = await server.service.catalog.get('models', entry?.modelId ?? '');
        expect(model?.publicId).toBe(`LIV-${k + 1}`);
        const paths = referencedPaths(model!);
        // the splat, 10 photos, the thumbnail made from the first photo
        expect(paths).toHaveLength(12);
        for (const path of [...paths, model!.files.webSplatPath as string]) {
          const meta = await server.service.files.getMetadata(path);
          const onDisk = join(server.dataDir, 'storage', ...path.split('/'));
          expect(existsSync(onDisk), path).toBe(true);
          expect(readFileSync(onDisk).length).toBe(meta.size);
        }
        expect(sha(readFileSync(join(server.dataDir, 'storage', ...model!.files.splatPath!.split('/'))))).toBe(
          sha(tree[`${folder}/scan.ply`]!),
        );
        for (const path of model!.files.images ?? []) {
          const name = path.slice(path.lastIndexOf('/') + 1);
          expect(sha(readFileSync(join(server.dataDir, 'storage', ...path.split('/'))))).toBe(sha(tree[`${folder}/images/${name}`]!));
        }
      }
      // nothing left to repair (the young orphan of the first test is still left alone)
      const after = await runCli(['doctor', '--json'], { env: server.env });
      expect(after.exitCode, after.stdout).toBe(0);
      expect(parseJson<{ report: { leftAlone: { uuid: string }[] } }>(after.stdout)).toMatchObject({
        status: 'ok',
        result: { report: { leftAlone: [{ uuid: 'aaaaaaaa-0000-4000-8000-000000000001' }] } },
      });
    },
  );
});
