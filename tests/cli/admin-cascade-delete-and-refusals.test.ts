// Admin rules through the `catalog` command against a fresh embedded server:
// `projects delete --with-models` (files and records gone: the data folder's storage/models/
// folders are listed), a UID without an account is not promoted, a hidden model cannot become
// the reference and the reference cannot be hidden, and capture dates print as YYYY-MM-DD
// (--json keeps the stored value).
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noAccountWithUid, ProjectMessages, ValidationMessages, projectHasModels } from '@shared/messages.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model } from '@shared/types.js';
import { jsonCli, runCli } from '../support/cli.js';
import { gaussianPly } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let backend: Backend;
let env: Record<string, string>;
const work = tempDir('admin-cascade');

const { ok, fails } = jsonCli(() => env);

/** The model folders in the data folder's file storage. */
const storedModelFolders = (): string[] => {
  const dir = join(server.dataDir, 'storage', 'models');
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

/** Uploads a model folder with a small 3DGS PLY to project `project`. */
async function upload(project: string, publicId: string): Promise<Model> {
  const folder = join(work, publicId);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'scan.ply'), gaussianPly(8));
  return (
    await ok<{ model: Model }>(['models', 'upload', folder, '--project', project, '--public-id', publicId, '--name', `Survey ${publicId}`])
  ).model;
}

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'admin-cascade' });
  ({ service: backend, env } = server);
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog admin: deleting a project with its models, refused promotions and references, readable capture dates', () => {
  it('projects delete --with-models deletes every model file and record, then the project, after one typed name', async () => {
    const keep = (await ok<{ id: string }>(['projects', 'create', '--name', 'Kept Mast', '--structure-id', 'KPT-001'])).id;
    const kept = await upload('KPT-001', 'KPT-001-A');
    const gone = (await ok<{ id: string }>(['projects', 'create', '--name', 'Old Tower', '--structure-id', 'OLD-001'])).id;
    const models = [await upload('OLD-001', 'OLD-001-A'), await upload('OLD-001', 'OLD-001-B'), await upload('OLD-001', 'OLD-001-C')];
    await ok(['projects', 'set-reference', 'OLD-001', 'OLD-001-B']);
    await ok(['models', 'hide', 'OLD-001-C']);
    writeFileSync(join(work, 'notes.txt'), 'field notes');
    await ok(['files', 'add', models[0]!.id, join(work, 'notes.txt'), '--kind', 'assets']);
    expect(storedModelFolders()).toEqual([kept, ...models].map((m) => m.uuid).sort());

    // without --with-models: refused (a project with models), and the flag is named on stderr
    const plain = await runCli(['projects', 'delete', 'OLD-001', '--confirm', 'Old Tower'], { env });
    expect(plain.exitCode).toBe(1);
    expect(plain.stderr).toContain(projectHasModels(3));
    expect(plain.stderr).toContain('--with-models');
    // a wrong name deletes nothing
    expect((await fails(['projects', 'delete', 'OLD-001', '--with-models', '--confirm', 'Old Towers'])).message).toBe(
      ValidationMessages.projectNameMismatch,
    );
    expect(await backend.catalog.count('models', { where: [['projectId', '==', gone]] })).toBe(3);
    expect(storedModelFolders()).toHaveLength(4);

    const done = await ok<{ id: string; name: string; modelsDeleted: number; filesDeleted: number }>([
      'projects',
      'delete',
      'OLD-001',
      '--with-models',
      '--confirm',
      ' Old Tower ',
    ]);
    expect(done).toMatchObject({ id: gone, name: 'Old Tower', modelsDeleted: 3 });
    // each model: its PLY and web-sized copy (and one asset on the first)
    expect(done.filesDeleted).toBe(7);
    expect(await backend.catalog.get('projects', gone)).toBeNull();
    expect(await backend.catalog.count('models', { where: [['projectId', '==', gone]] })).toBe(0);
    for (const model of models) expect(await backend.catalog.get('models', model.id)).toBeNull();
    // nothing orphaned: only the kept project's model folder is left in storage
    expect(storedModelFolders()).toEqual([kept.uuid]);
    expect(await backend.catalog.get('projects', keep)).not.toBeNull();
    expect((await ok<Model[]>(['models', 'list'])).map((m) => m.publicId)).toEqual(['KPT-001-A']);
    // the human summary names the models deleted
    await ok(['projects', 'create', '--name', 'Empty Mast', '--structure-id', 'EMP-001']);
    const human = await runCli(['projects', 'delete', 'EMP-001', '--with-models', '--confirm', 'Empty Mast'], { env });
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stderr).toContain('Project "Empty Mast" and its 0 models have been deleted successfully.');
  });

  it("users promote refuses a UID without an account ('No account with UID …') and writes nothing", async () => {
    expect(await fails(['users', 'promote', 'no-such-uid'])).toEqual({ code: 'not-found', message: noAccountWithUid('no-such-uid') });
    expect(await backend.catalog.get('users', 'no-such-uid')).toBeNull();
    const reg = await ok<{ uid: string }>(['users', 'register', 'crew@lab.example', '--password', 'secret-1']);
    expect(await ok(['users', 'promote', reg.uid])).toMatchObject({ uid: reg.uid, email: 'crew@lab.example', role: 'admin' });
  });

  it('a hidden model cannot become the reference; the reference cannot be hidden', async () => {
    await ok(['projects', 'create', '--name', 'Ref Mast', '--structure-id', 'REF-001']);
    const a = await upload('REF-001', 'REF-001-A');
    const b = await upload('REF-001', 'REF-001-B');
    await ok(['projects', 'set-reference', 'REF-001', 'REF-001-A']);
    await ok(['models', 'hide', b.id]);
    expect(await fails(['projects', 'set-reference', 'REF-001', 'REF-001-B'])).toEqual({
      code: 'failed-precondition',
      message: ProjectMessages.hiddenReference,
    });
    expect(await fails(['models', 'hide', a.id])).toEqual({ code: 'failed-precondition', message: ProjectMessages.hideReferenceRefused });
    expect((await backend.catalog.get('models', a.id))?.visible).toBe(true);
    const project = (await backend.catalog.query('projects', { where: [['structure_id', '==', 'REF-001']] }))[0];
    expect(project?.reference_model_id).toBe(a.id);
  });

  it('prints a capture date stored as a timestamp as YYYY-MM-DD; --json keeps what is stored', async () => {
    const model = await upload('KPT-001', 'KPT-001-B');
    await backend.catalog.update('models', model.id, { 'metadata.captureDate': '2025-07-15T00:00:00.000Z' });
    const list = await runCli(['models', 'list', '--project', 'KPT-001'], { env });
    expect(list.exitCode, list.stderr).toBe(0);
    const row = list.stdout.split('\n').find((line) => line.startsWith('KPT-001-B'));
    expect(row).toMatch(/\s2025-07-15\s/);
    expect(list.stdout).not.toContain('T00:00:00');
    const show = await runCli(['models', 'show', model.id], { env });
    expect(show.stdout).toContain('"captureDate": "2025-07-15"');
    expect(show.stdout).not.toContain('T00:00:00');
    const projectShow = await runCli(['projects', 'show', 'KPT-001'], { env });
    expect(projectShow.stdout).toContain('"captureDate": "2025-07-15"');
    expect(projectShow.stdout).not.toContain('"captureDate": "2025-07-15T');
    expect((await ok<Model>(['models', 'show', model.id])).metadata?.captureDate).toBe('2025-07-15T00:00:00.000Z');
  });
});
