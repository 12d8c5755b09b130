// `catalog seed`, `users`, `projects`, output conventions and backend errors, end to end: the
// real CLI (node cli/bin/catalog.js) against a fresh embedded server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend } from '@shared/ports/index.js';
import { matchCameraImage } from '@shared/camera-poses.js';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import type { Project } from '@shared/types.js';
import { listChangeMaps } from '@shared/workflows/change-maps.js';
import { DEMO_REFERENCE_GAUSSIANS } from '../../cli/src/lib/demo-data/index.js';
import { parseJson, runCli } from '../support/cli.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let backend: Backend;
let env: Record<string, string>;

beforeAll(async () => {
  server = await startEmbeddedServer();
  ({ service: backend, env } = server);
});

afterAll(async () => {
  await server?.stop();
});

describe('catalog seed', () => {
  it('refuses a tower density outside 5,000 to 1,000,000 Gaussians and creates nothing', async () => {
    for (const value of ['1.5', '100', 'many']) {
      const res = await runCli(['seed', '--tower-gaussians', value], { env });
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toContain('--tower-gaussians: must be a whole number from 5,000 to 1,000,000');
    }
    expect(await backend.catalog.query('projects')).toEqual([]);
  });

  // the first run waits for the server's change maps of the demo captures
  it('seeds the demo catalog once; a second run creates nothing', { timeout: 120_000 }, async () => {
    const first = await runCli(['seed', '--json'], { env, timeout: 90_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    const firstOut = parseJson<{ created: number; items: { kind: string; key: string; created: boolean }[]; changeMaps: string[] }>(
      first.stdout,
    );
    expect(firstOut.status).toBe('ok');
    if (firstOut.status !== 'ok') return;
    expect(firstOut.result.created).toBe(2 + 3 + 5);
    expect(firstOut.result.changeMaps).toEqual(['TWR-001-2025-09']);

    const second = await runCli(['seed', '--json'], { env });
    expect(second.exitCode, second.stderr).toBe(0);
    const secondOut = parseJson<{ created: number }>(second.stdout);
    expect(secondOut.status === 'ok' && secondOut.result.created).toBe(0);

    const projects = await backend.catalog.query('projects');
    expect(projects.map((p) => p.structure_id).sort()).toEqual(['BRG-002', 'MST-003', 'TWR-001']);
    const models = await backend.catalog.query('models');
    expect(models).toHaveLength(5);
    const tower = projects.find((p) => p.structure_id === 'TWR-001') as Project;
    const towerModels = models.filter((m) => m.projectId === tower.id);
    expect(towerModels).toHaveLength(4);
    const reference = towerModels.find((m) => m.isReference);
    expect(reference?.publicId).toBe('TWR-001-2024-05');
    expect(tower.reference_model_id).toBe(reference?.id);
    expect(tower.location).toMatchObject({ lat: expect.any(Number), lng: expect.any(Number) });
    expect(projects.find((p) => p.structure_id === 'MST-003')?.location?.lat ?? null).toBeNull();
    expect(models.filter((m) => m.visible === false).map((m) => m.publicId)).toEqual(['TWR-001-DRAFT']);

    // the hybrid reference has real files with their sizes
    expect(reference?.modelType).toBe('hybrid');
    const splat = await backend.files.getMetadata(reference?.files.splatPath as string);
    expect(splat.size).toBe(reference?.files.splatSize);
    // the reference survey's Gaussians (dense enough for the changed capture's change map), 62 floats each, and a header
    expect(splat.size).toBeGreaterThan(DEMO_REFERENCE_GAUSSIANS * 62 * 4);
    const glb = await backend.files.getMetadata(reference?.files.glbPath as string);
    expect(glb.size).toBe(reference?.files.glbSize);
    expect(reference?.files.thumbnails).toHaveLength(1);
    expect(reference?.files.cameraMetadata).toBe(`models/${reference?.uuid}/camera-metadata.json`);
    expect(splat.size).toBeLessThan(DEMO_REFERENCE_GAUSSIANS * 62 * 4 + 4096);

    // the viewer's demo: every camera of the camera metadata has its photo under images/
    const camerasUrl = await backend.files.getDownloadUrl(reference?.files.cameraMetadata as string);
    const cameras = parseCameraMetadata(await (await fetch(camerasUrl)).text());
    if (!cameras.ok) throw new Error(cameras.message);
    expect(cameras.cameras).toHaveLength(20);
    expect(reference?.files.images).toHaveLength(20);
    for (const path of reference?.files.images ?? [])
      expect(path).toMatch(new RegExp(`^models/${reference?.uuid}/images/frame_\\d{5}\\.png$`));
    expect(cameras.cameras.map((c) => matchCameraImage(c.img_name, reference?.files.images ?? [])).filter(Boolean)).toHaveLength(20);
    const june = models.find((m) => m.publicId === 'TWR-001-2025-06');
    expect([june?.modelType, june?.files.images?.length, june?.files.cameraMetadata]).toEqual([
      'splat',
      12,
      `models/${june?.uuid}/camera-metadata.json`,
    ]);
    // the changed capture has its change map against the reference: the bent brace, the cabinet, the antenna gone
    const september = models.find((m) => m.publicId === 'TWR-001-2025-09');
    expect([september?.modelType, september?.metadata?.captureDate, september?.isReference]).toEqual(['splat', '2025-09-16', false]);
    const [map, ...others] = await listChangeMaps(backend.catalog, september!.id);
    expect(others).toHaveLength(0);
    expect(map).toMatchObject({ referenceModelId: reference?.id, modelId: september?.id, inputs: { alignment: null } });
    expect(map!.regions.map((r) => r.side).sort()).toEqual(['capture', 'capture', 'reference']);
    // with the camera metadata of its own flight, and each region with the sign of its change: the
    // cabinet (the largest) stands out of the gravel and the brace is bowed out (positive), the panel gone (negative)
    expect([september?.files.cameraMetadata, september?.files.images?.length]).toEqual([
      `models/${september?.uuid}/camera-metadata.json`,
      16,
    ]);
    const [cabinet, brace] = map!.regions.filter((r) => r.side === 'capture').sort((a, b) => b.count - a.count);
    expect([cabinet!.maxDistance, cabinet!.meanDistance].every((d) => d > 0.5)).toBe(true);
    expect(brace!.maxDistance).toBeGreaterThan(0.2);
    expect(map!.regions.find((r) => r.side === 'reference')!.maxDistance).toBeLessThan(0);
    expect((await backend.files.getMetadata(map!.valuesPath)).size).toBeGreaterThan(0);
    const bridge = models.find((m) => m.publicId === 'BRG-002-2025-04');
    expect([bridge?.modelType, bridge?.files.glbPath, bridge?.files.splatPath ?? null]).toEqual([
      'mesh',
      `models/${bridge?.uuid}/model.glb`,
      null,
    ]);
  });

  it('seeded sign-ins work; the user does not see the hidden model', async () => {
    await runCli(['seed'], { env });
    const user = createLocalBackend({ baseUrl: server.url });
    try {
      await user.identity.signIn('user@demo.lab', 'demo-user-1');
      const visible = await user.catalog.query('models');
      expect(visible.map((m) => m.publicId).sort()).toEqual(['BRG-002-2025-04', 'TWR-001-2024-05', 'TWR-001-2025-06', 'TWR-001-2025-09']);
      const record = await user.catalog.get('users', user.identity.currentUser()?.uid as string);
      expect(record?.role).toBe('user');
    } finally {
      await user.close();
    }
    const admin = createLocalBackend({ baseUrl: server.url });
    try {
      await admin.identity.signIn('admin@demo.lab', 'demo-admin-1');
      const record = await admin.catalog.get('users', admin.identity.currentUser()?.uid as string);
      expect(record?.role).toBe('admin');
      expect(await admin.catalog.query('models')).toHaveLength(5);
    } finally {
      await admin.close();
    }
  });
});

describe('catalog users', () => {
  it('registers a user, refuses the same email again, and promotes by email', async () => {
    const reg = await runCli(['users', 'register', 'Inspector@Lab.test', '--password', 'secret-1', '--json'], { env });
    expect(reg.exitCode, reg.stderr).toBe(0);
    const out = parseJson<{ uid: string; email: string; role: string }>(reg.stdout);
    if (out.status !== 'ok') throw new Error(reg.stdout);
    expect(out.result).toMatchObject({ email: 'inspector@lab.test', role: 'user' });
    expect((await backend.catalog.get('users', out.result.uid))?.role).toBe('user');

    const again = await runCli(['users', 'register', 'inspector@lab.test', '--password', 'secret-1', '--json'], { env });
    expect(again.exitCode).toBe(1);
    expect(parseJson(again.stdout)).toEqual({
      status: 'error',
      error: { code: 'already-exists', message: 'This email is already registered.' },
    });

    const promote = await runCli(['users', 'promote', 'inspector@lab.test'], { env });
    expect(promote.exitCode, promote.stderr).toBe(0);
    expect(promote.stdout.trim()).toBe(out.result.uid);
    expect(promote.stderr).toContain('has been set as admin');
    expect((await backend.catalog.get('users', out.result.uid))?.role).toBe('admin');
  });

  it('registers an admin and promotes by uid', async () => {
    const reg = await runCli(['users', 'register', 'boss@lab.test', '--password', 'secret-2', '--role', 'admin', '--json'], { env });
    const out = parseJson<{ uid: string; role: string }>(reg.stdout);
    if (out.status !== 'ok') throw new Error(reg.stdout);
    expect(out.result.role).toBe('admin');
    const promote = await runCli(['users', 'promote', out.result.uid, '--json'], { env });
    expect(parseJson(promote.stdout)).toMatchObject({ status: 'ok', result: { uid: out.result.uid, role: 'admin' } });
  });

  it('gives the spec messages for a short password and a missing password, exit 1', async () => {
    const short = await runCli(['users', 'register', 'short@lab.test', '--password', '12345', '--json'], { env });
    expect(short.exitCode).toBe(1);
    expect(parseJson(short.stdout)).toMatchObject({ status: 'error', error: { message: 'Password must be at least 6 characters long.' } });
    const missing = await runCli(['users', 'register', 'nopass@lab.test'], { env });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain('--password');
    const unknown = await runCli(['users', 'promote', 'nobody@lab.test'], { env });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('Error setting admin role');
  });
});

describe('catalog projects', () => {
  it('creates a project and lists it sorted by structure ID with counts', async () => {
    const created = await runCli(
      [
        'projects',
        'create',
        '--name',
        'Old Mill Chimney',
        '--structure-id',
        'CHM-010',
        '--lat',
        '43.5',
        '--lng',
        '-80.3',
        '--address',
        'Mill St',
        '--json',
      ],
      { env },
    );
    expect(created.exitCode, created.stderr).toBe(0);
    const out = parseJson<Project>(created.stdout);
    if (out.status !== 'ok') throw new Error(created.stdout);
    expect(out.result).toMatchObject({ name: 'Old Mill Chimney', structure_id: 'CHM-010', slug: 'old-mill-chimney' });
    expect(out.result.location).toMatchObject({ lat: 43.5, lng: -80.3, address: 'Mill St' });

    const human = await runCli(['projects', 'create', '--name', 'Water Tower', '--structure-id', 'AAA-000'], { env });
    expect(human.exitCode, human.stderr).toBe(0);
    expect(human.stderr).toContain('Project created successfully!');
    const id = human.stdout.trim();
    expect((await backend.catalog.get('projects', id))?.name).toBe('Water Tower');

    const list = await runCli(['projects', 'list', '--json'], { env });
    const listed = parseJson<Array<Project & { modelCount: number }>>(list.stdout);
    if (listed.status !== 'ok') throw new Error(list.stdout);
    const ids = listed.result.map((p) => p.structure_id);
    expect(ids.indexOf('AAA-000')).toBeLessThan(ids.indexOf('CHM-010'));
    expect(listed.result.find((p) => p.structure_id === 'CHM-010')?.modelCount).toBe(0);

    const table = await runCli(['projects', 'list'], { env });
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain('Old Mill Chimney');
  });

  it('refuses invalid forms with the spec messages, before writing', async () => {
    const before = (await backend.catalog.query('projects')).length;
    const noName = await runCli(['projects', 'create', '--name', '  ', '--structure-id', 'X-1', '--json'], { env });
    expect(noName.exitCode).toBe(1);
    expect(parseJson(noName.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'invalid-argument', message: 'Project name cannot be empty' },
    });
    const badLat = await runCli(['projects', 'create', '--name', 'A', '--structure-id', 'X-1', '--lat', 'north'], { env });
    expect(badLat.exitCode).toBe(1);
    const noStructure = await runCli(['projects', 'create', '--name', 'A', '--json'], { env });
    expect(noStructure.exitCode).toBe(1);
    expect(parseJson(noStructure.stdout)).toMatchObject({ status: 'error', error: { message: expect.stringContaining('--structure-id') } });
    expect(await backend.catalog.query('projects')).toHaveLength(before);
  });
});

describe('conventions', () => {
  it('--help shows an example; unknown options exit 1', async () => {
    const help = await runCli(['models', 'upload', '--help']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('Example:');
    const rootHelp = await runCli(['--help']);
    expect(rootHelp.stdout).toContain('seed');
    const unknown = await runCli(['projects', 'list', '--bogus', '--json']);
    expect(unknown.exitCode).toBe(1);
    expect(parseJson(unknown.stdout)).toMatchObject({ status: 'error' });
  });

  it('says clearly when there is no service key or no server', async () => {
    const empty = tempDir('nokey');
    const noKey = await runCli(['projects', 'list', '--data-dir', empty, '--json']);
    expect(noKey.exitCode).toBe(1);
    expect(parseJson(noKey.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'unauthenticated', message: expect.stringContaining('catalog serve') },
    });
    const down = await runCli(['projects', 'list', '--url', 'http://127.0.0.1:9', '--json'], { env });
    expect(down.exitCode).toBe(1);
    expect(parseJson(down.stdout)).toMatchObject({
      status: 'error',
      error: { code: 'unavailable', message: expect.stringContaining('is `catalog serve` running?') },
    });
  });
});
