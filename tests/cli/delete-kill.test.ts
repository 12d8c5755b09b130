// `catalog models delete` with the server killed (SIGKILL) in the middle of deleting the model's
// files: the CLI reports a partial delete as an error (exit 1) naming what was left, and after a
// restart `catalog doctor --fix --grace 0` (the leftovers are seconds old) leaves no file without a record and no record without a file —
// neither in the catalog nor between the server's file records and its disk.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import type { ResultPromise } from 'execa';
import { describe, expect, it } from 'vitest';
import { makeSplatPly } from '../../cli/src/lib/demo-data/index.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { createProjectWithCli, parseJson, runCli, serveInChild, storedModelFiles } from '../support/cli.js';
import { jpegPhoto } from '../support/model-fixtures.js';
import { freePort } from '../support/net.js';
import { cliBin, repoRoot, tempDir } from '../support/paths.js';

/** Files on disk under `dir` (recursive), as paths relative to it. */
function filesOnDisk(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
      .sort();
  } catch {
    return [];
  }
}

describe('a server killed in the middle of `models delete`', () => {
  it(
    'the CLI exits 1 listing what was left; after a restart doctor --fix leaves records and files consistent',
    { timeout: 150_000 },
    async () => {
      const work = tempDir('delete-kill');
      const dataDir = join(work, 'data');
      const port = await freePort();
      const env = { CATALOG_DATA_DIR: dataDir };
      let server: ResultPromise | null = null;
      const serve = () => serveInChild(port, dataDir);
      try {
        server = (await serve()).child;
        const project = await createProjectWithCli('Kill Tower', 'KIL-001', { env });
        const folder = join(work, 'model');
        mkdirSync(join(folder, 'images'), { recursive: true });
        writeFileSync(join(folder, 'scan.ply'), makeSplatPly({ count: 50, seed: 7 }));
        // real (small) photos, which the content checks accept
        const photos = await Promise.all(Array.from({ length: 8 }, (_, k) => jpegPhoto(16 + k, 12)));
        for (let i = 0; i < 400; i += 1) writeFileSync(join(folder, 'images', `img-${String(i).padStart(4, '0')}.jpg`), photos[i % 8]);
        const uploaded = await runCli(
          ['models', 'upload', folder, '--project', project, '--public-id', 'KIL-M', '--name', 'Kill model', '--json'],
          { env, timeout: 90_000 },
        );
        expect(uploaded.exitCode, uploaded.stdout + uploaded.stderr).toBe(0);
        const uuid = (parseJson<{ model: { id: string } }>(uploaded.stdout) as { result: { model: { id: string } } }).result.model.id;
        const modelDir = join(dataDir, 'storage', 'models', uuid);
        const before = filesOnDisk(modelDir).length;
        // the splat, 400 photos, the thumbnail made from the first photo and the web-sized copy
        expect(before).toBe(403);

        const deleting = execa('node', [cliBin, 'models', 'delete', 'KIL-M', '--project', project, '--confirm', 'Kill model', '--json'], {
          cwd: repoRoot,
          env: { ...env, PATH: process.env.PATH ?? '' },
          extendEnv: false,
          reject: false,
          stdin: 'ignore',
        });
        // kill the server as soon as some of the files are gone
        const deadline = Date.now() + 60_000;
        while (filesOnDisk(modelDir).length > before - 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
        const killed: ResultPromise = server;
        server = null;
        killed.kill('SIGKILL');
        await killed;
        const left = filesOnDisk(modelDir).length;
        expect(left, 'the kill came in the middle of the deletes').toBeGreaterThan(0);
        const result = await deleting;
        expect(result.exitCode).toBe(1);
        const out = JSON.parse(result.stdout) as { status: string; result: { filesNotDeleted: string[] } | null };
        expect(out.status).toBe('error');
        expect(out.result?.filesNotDeleted.length).toBeGreaterThan(0);

        server = (await serve()).child;
        const key = (JSON.parse(readFileSync(join(dataDir, 'service-key.json'), 'utf8')) as { key: string }).key;
        const backend = createLocalBackend({ baseUrl: `http://127.0.0.1:${port}`, serviceKey: key });
        try {
          const found = await runCli(['doctor', '--grace', '0', '--json'], { env });
          expect(found.exitCode).toBe(1);
          const fixed = await runCli(['doctor', '--fix', '--yes', '--grace', '0', '--json'], { env });
          expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
          const clean = await runCli(['doctor', '--grace', '0', '--json'], { env });
          expect(clean.exitCode, clean.stdout).toBe(0);
          // the model is gone everywhere: no record, no file record, no bytes
          expect(await backend.catalog.query('models', { where: [['publicId', '==', 'KIL-M']] })).toEqual([]);
          expect((await storedModelFiles(backend)).filter((p) => p.includes(uuid))).toEqual([]);
          expect(filesOnDisk(modelDir)).toEqual([]);
          // and every file on disk has its record, every record its file
          const storage = join(dataDir, 'storage');
          expect(filesOnDisk(storage)).toEqual(await storedModelFiles(backend));
        } finally {
          await backend.close();
        }
      } finally {
        if (server) {
          server.kill('SIGTERM');
          await server;
        }
      }
    },
  );
});
