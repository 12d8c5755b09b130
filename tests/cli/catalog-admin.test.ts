// The admin commands end to end against a fresh embedded server: users list, projects
// show/update/delete/set-reference, models list/show/update/hide/unhide/delete, files
// add/list/delete, doctor, and seed → export → import into a fresh data folder giving an
// identical catalog. Bad paths: their spec messages, exit code 1, nothing written.
import { createHash, randomUUID } from 'node:crypto';
import { rmSync, existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '@shared/ports/index.js';
import type { Model, Project } from '@shared/types.js';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { createProject } from '@shared/workflows/index.js';
import { createAnnotation } from '@shared/workflows/annotations.js';
import { saveChangeMap } from '@shared/workflows/change-maps.js';
import { changeMapInputFile } from '@shared/change-map-document.js';
import { changeValuesPath } from '@shared/paths.js';
import { makeSplatPly } from '../../cli/src/lib/demo-data/index.js';
import { jsonCli, noisyJpeg, parseJson, runCli, storedModelFiles } from '../support/cli.js';
import { cameraEntry, gaussianPly, jpegPhoto } from '../support/model-fixtures.js';
import { tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';
import { testSeedArgs } from '../support/seed-template.js';

let server: EmbeddedServer;
let backend: Backend;
let env: Record<string, string>;
const work = tempDir('admin');

const { ok, fails } = jsonCli(() => env);

beforeAll(async () => {
  server = await startEmbeddedServer();
  ({ service: backend, env } = server);
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('users, projects, models, files', () => {
  let projectId: string;
  let model: Model;
  const folder = join(work, 'scan');

  beforeAll(async () => {
    projectId = (await ok<{ id: string }>(['projects', 'create', '--name', 'Admin Tower', '--structure-id', 'ADM-001'])).id;
    await ok(['projects', 'create', '--name', 'Empty Mast', '--structure-id', 'ADM-002']);
    writeFileSync(join(work, 'scan.ply'), makeSplatPly({ count: 10 }));
    const { mkdirSync, copyFileSync } = await import('node:fs');
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(work, 'scan.ply'), join(folder, 'scan.ply'));
    const up = await ok<{ model: Model }>([
      'models',
      'upload',
      folder,
      '--project',
      'ADM-001',
      '--public-id',
      'ADM-001-M1',
      '--name',
      'First survey',
    ]);
    model = up.model;
  });

  it('users register, list (by role) and promote by email', async () => {
    await ok(['users', 'register', 'field@lab.example', '--password', 'secret-1']);
    const users = await ok<{ email: string; role: string }[]>(['users', 'list']);
    expect(users.map((u) => [u.email, u.role])).toEqual([['field@lab.example', 'user']]);
    await ok(['users', 'promote', 'field@lab.example']);
    expect((await ok<{ email: string }[]>(['users', 'list', '--role', 'admin'])).map((u) => u.email)).toEqual(['field@lab.example']);
  });

  it('projects show and update with the form rules', async () => {
    const shown = await ok<Project & { models: Model[] }>(['projects', 'show', 'ADM-001']);
    expect(shown.id).toBe(projectId);
    expect(shown.models.map((m) => m.publicId)).toEqual(['ADM-001-M1']);
    const updated = await ok<Project>([
      'projects',
      'update',
      projectId,
      '--description',
      'Lattice tower',
      '--lat',
      '43.5',
      '--lng',
      '-80.5',
    ]);
    expect(updated.description).toBe('Lattice tower');
    expect(updated.location?.lat).toBe(43.5);
    expect(updated.name).toBe('Admin Tower');
    const bad = await fails(['projects', 'update', projectId, '--lat', 'north']);
    expect(bad.message).toMatch(/latitude|number/i);
    expect((await backend.catalog.get('projects', projectId))?.location?.lat).toBe(43.5);
  });

  it('projects delete: unknown project, project with models, wrong typed name, no TTY without --confirm', async () => {
    expect((await fails(['projects', 'delete', 'NOPE-1', '--confirm', 'x'])).message).toBe('Project not found');
    expect((await fails(['projects', 'delete', 'ADM-001', '--confirm', 'Admin Tower'])).message).toBe(
      'Cannot delete this project because it has 1 associated models. Please delete these models first.',
    );
    expect((await fails(['projects', 'delete', 'ADM-002', '--confirm', 'Empty'])).message).toBe(
      "Project name doesn't match. Deletion canceled.",
    );
    const noTty = await fails(['projects', 'delete', 'ADM-002'], { json: false });
    expect(noTty.message).toContain('--confirm');
    expect(await backend.catalog.count('projects')).toBe(2);
    await ok(['projects', 'delete', 'ADM-002', '--confirm', '  Empty Mast ']);
    expect(await backend.catalog.count('projects')).toBe(1);
  });

  it('models list, show, update, hide/unhide and set-reference', async () => {
    const listed = await ok<Model[]>(['models', 'list', '--project', 'ADM-001']);
    expect(listed.map((m) => m.publicId)).toEqual(['ADM-001-M1']);
    expect((await ok<Model>(['models', 'show', 'ADM-001-M1'])).id).toBe(model.id);
    const updated = await ok<Model>(['models', 'update', 'ADM-001-M1', '--name', 'First survey (final)', '--capture-date', '2025-06-02']);
    expect(updated.name).toBe('First survey (final)');
    expect(updated.metadata?.captureDate).toBe('2025-06-02');
    expect((await fails(['models', 'update', model.id, '--public-id', 'bad id!'])).message).toBe(
      'Public ID can only contain letters, numbers, hyphens, and underscores',
    );
    expect((await fails(['models', 'update', model.id, '--capture-date', '2025-02-30'])).message).toBe('Please enter a valid date');
    await ok(['models', 'hide', model.id]);
    expect((await backend.catalog.get('models', model.id))?.visible).toBe(false);
    await ok(['models', 'unhide', model.id]);
    expect((await backend.catalog.get('models', model.id))?.visible).toBe(true);
    await ok(['projects', 'set-reference', 'ADM-001', 'ADM-001-M1']);
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBe(model.id);
    expect((await fails(['models', 'show', 'NOPE-404'])).code).toBe('not-found');
  });

  it('files add (images, cameras), list and delete; bad camera JSON and main files refused', async () => {
    // a photo that is not one is refused with the content check's message, nothing written
    const fake = join(work, 'IMG_FAKE.jpg');
    writeFileSync(fake, new Uint8Array(400 * 1024).fill(3));
    const unchanged = JSON.stringify(await backend.catalog.get('models', model.id));
    expect((await fails(['files', 'add', model.id, fake, '--kind', 'images'])).message).toBe(
      'This .jpg is not an image in a format this catalog knows (IMG_FAKE.jpg).',
    );
    expect(JSON.stringify(await backend.catalog.get('models', model.id))).toBe(unchanged);
    expect((await backend.files.list(`models/${model.uuid}/images/`)).items).toEqual([]);

    const photo = join(work, 'IMG_0001.jpg');
    writeFileSync(photo, await noisyJpeg(400 * 1024));
    await ok(['files', 'add', model.id, photo, '--kind', 'images']);
    const cams = join(work, 'cameras.json');
    writeFileSync(cams, JSON.stringify([cameraEntry({ id: 0, img_name: 'IMG_0001.jpg' })]));
    const added = await runCli(['files', 'add', model.id, cams, '--kind', 'cameras'], { env });
    expect(added.exitCode, added.stderr).toBe(0);
    expect(added.stderr).toContain('Camera metadata uploaded successfully. 1 camera position information saved.');
    const badCams = join(work, 'bad-cameras.json');
    writeFileSync(
      badCams,
      JSON.stringify([{ id: 'x', img_name: 'a.jpg', position: [0, 0], rotation: [[1, 0, 0]], width: 10, height: 10 }]),
    );
    const before = JSON.stringify(await backend.catalog.get('models', model.id));
    expect((await fails(['files', 'add', model.id, badCams, '--kind', 'cameras'])).message).toMatch(/^JSON format error: Camera 1:/);
    expect(JSON.stringify(await backend.catalog.get('models', model.id))).toBe(before);

    const listed = await ok<{ path: string; type: string }[]>(['files', 'list', model.id]);
    // a model without a thumbnail gets one from its first photo; the web-sized copy (model.spz) is a splat entry
    expect(listed.map((f) => f.type).sort()).toEqual(['cameraMetadata', 'image', 'splat', 'splat', 'thumbnail']);
    expect(listed.filter((f) => f.type === 'splat').map((f) => f.path.split('/').pop())).toEqual(
      expect.arrayContaining(['model.ply', 'model.spz']),
    );
    const record = await backend.catalog.get('models', model.id);
    expect(record?.files.images).toEqual([`models/${model.uuid}/images/IMG_0001.jpg`]);
    expect(record?.files.thumbnails).toEqual([`models/${model.uuid}/images_thumbnails/thumbnail.jpg`]);
    expect(record?.validation?.photos).toMatchObject({ count: 1, verdict: 'ok' });

    expect((await fails(['files', 'delete', model.id, 'model.ply', '--yes'])).message).toBe(
      'Cannot delete main model files. Delete the entire model instead.',
    );
    expect((await fails(['files', 'delete', model.id, 'images/IMG_0001.jpg'], { json: false })).message).toContain('--yes');
    await ok(['files', 'delete', model.id, 'images/IMG_0001.jpg', '--yes']);
    expect((await backend.catalog.get('models', model.id))?.files.images).toEqual([]);
  });

  it('models delete needs the typed name; then the project can go', async () => {
    expect((await fails(['models', 'delete', model.id, '--confirm', 'nope'])).message).toBe("Model name doesn't match. Deletion canceled.");
    expect((await fails(['models', 'delete', model.id], { json: false })).message).toContain('--confirm');
    expect(await backend.catalog.get('models', model.id)).not.toBeNull();
    const res = await runCli(['models', 'delete', model.id, '--confirm', 'First survey (final)'], { env });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toContain('Model "First survey (final)" has been deleted successfully.');
    expect(await backend.catalog.get('models', model.id)).toBeNull();
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBeNull();
    expect((await backend.files.list(`models/${model.uuid}/`)).items).toEqual([]);
  });
});

describe('doctor', () => {
  it('finds each kind of problem, --fix asks first, then repairs', async () => {
    const projectId = await createProject(backend.catalog, {
      name: 'Doctor Tower',
      structure_id: 'DOC-001',
      description: '',
      slug: '',
      address: '',
      mapUrl: '',
      lat: '',
      lng: '',
    });
    const dir = join(work, 'doc-scan');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'images'), { recursive: true });
    writeFileSync(join(dir, 'scan.ply'), makeSplatPly({ count: 10, seed: 4 }));
    writeFileSync(join(dir, 'images', 'a.jpg'), await jpegPhoto());
    const { model } = await ok<{ model: Model }>([
      'models',
      'upload',
      dir,
      '--project',
      projectId,
      '--public-id',
      'DOC-M1',
      '--name',
      'Doc model',
    ]);
    await backend.files.delete(model.files.images?.[0] as string);
    const orphan = randomUUID();
    await backend.files.upload(`models/${orphan}/model.ply`, new Blob([gaussianPly(2)]));
    await backend.catalog.set('models', 'ghost', { uuid: 'ghost', publicId: 'GHOST', name: 'Ghost', projectId: 'gone', files: {} });
    // a record from before `visible` was written on create
    await backend.catalog.set('models', 'old', {
      uuid: 'old',
      publicId: 'DOC-OLD',
      name: 'Old model',
      projectId,
      modelType: 'splat',
      files: { splatPath: model.files.splatPath },
    });
    await backend.catalog.update('projects', projectId, { reference_model_id: 'missing-model' });
    // a model as stored before the content checks existed: no report, no thumbnail, no web-sized copy
    const dir2 = join(work, 'doc-scan-2');
    mkdirSync(join(dir2, 'images'), { recursive: true });
    writeFileSync(join(dir2, 'scan.ply'), makeSplatPly({ count: 10, seed: 5 }));
    writeFileSync(join(dir2, 'images', 'b.jpg'), await jpegPhoto(640, 480));
    const { model: before } = await ok<{ model: Model }>([
      'models',
      'upload',
      dir2,
      '--project',
      projectId,
      '--public-id',
      'DOC-M2',
      '--name',
      'Older',
    ]);
    for (const path of [...(before.files.thumbnails ?? []), before.files.webSplatPath as string]) await backend.files.delete(path);
    await backend.catalog.update('models', before.id, {
      validation: null,
      'files.thumbnails': [],
      'files.webSplatPath': null,
      'files.webSplatSize': null,
    });

    // a findings count written by hand (2, one finding stored) and a finding whose model is gone
    const counted = await createAnnotation(
      backend.catalog,
      model.id,
      { title: 'Crack', category: 'crack', severity: 2, points: [{ x: 0, y: 0, z: 0 }] },
      { uid: 'cli', email: null },
    );
    await backend.catalog.update('models', model.id, { 'metadata.annotationsCount': 2, 'metadata.annotationsSeq': 0 });
    const { id: _id, ...data } = counted;
    await backend.catalog.set('annotations', 'vanished_1', { ...data, modelId: 'vanished', seq: 1 });

    // the orphan was stored just now: --grace 0 (else it is left alone as an upload in progress or resumable)
    const res = await runCli(['doctor', '--grace', '0', '--json'], { env });
    expect(res.exitCode).toBe(1);
    const out = JSON.parse(res.stdout) as { status: string; result: { problems: number; report: Record<string, unknown[]> } };
    expect(out.status).toBe('error');
    expect(out.result.report.recordsWithoutFiles).toHaveLength(1);
    expect(out.result.report.filesWithoutRecords).toEqual([{ uuid: orphan, files: [`models/${orphan}/model.ply`] }]);
    expect(out.result.report.modelsWithoutProject).toMatchObject([{ modelId: 'ghost' }]);
    expect(out.result.report.projectsWithMissingReference).toMatchObject([{ projectId, referenceModelId: 'missing-model' }]);
    expect(out.result.report.modelsWithoutVisibility).toEqual([
      { modelId: 'ghost', publicId: 'GHOST' },
      { modelId: 'old', publicId: 'DOC-OLD' },
    ]);
    expect(out.result.report.modelsToBackfill).toEqual([
      { modelId: before.id, publicId: 'DOC-M2', missing: ['report', 'thumbnail', 'webSplat'] },
      { modelId: 'old', publicId: 'DOC-OLD', missing: ['report', 'webSplat'] },
    ]);
    expect(out.result.report.findingCounts).toEqual([
      { modelId: model.id, publicId: 'DOC-M1', count: 2, stored: 1, seq: 0, highestSeq: 1 },
    ]);
    expect(out.result.report.findingsWithoutModel).toEqual([{ id: 'vanished_1', modelId: 'vanished' }]);
    const human = await runCli(['doctor', '--grace', '0'], { env });
    expect(human.stdout).toContain(
      `finding count: model DOC-M1 (${model.id}) says 2 finding(s), 1 stored; its last number 0 is below F-1 (--fix sets them from what is stored)`,
    );
    expect(human.stdout).toContain(
      'stored before file checks: model DOC-OLD (old) has no validation report, no web-sized copy of its splat (--fix makes it)',
    );
    const unchecked = await runCli(['models', 'show', 'old'], { env });
    expect(unchecked.stdout).toContain('No file checks stored (uploaded before checks existed): run catalog doctor --fix');
    expect(
      (parseJson<Model>((await runCli(['models', 'show', 'old', '--json'], { env })).stdout) as { result: Model }).result.validation,
    ).toBeNull();

    const noYes = await runCli(['doctor', '--fix', '--grace', '0'], { env });
    expect(noYes.exitCode).toBe(1);
    expect(noYes.stderr).toContain('pass --yes');
    expect(await backend.catalog.get('models', 'ghost')).not.toBeNull();

    const fixed = await runCli(['doctor', '--fix', '--yes', '--grace', '0', '--json'], { env });
    expect(fixed.exitCode, fixed.stdout + fixed.stderr).toBe(0);
    expect(await backend.catalog.get('models', 'ghost')).toBeNull();
    expect((await backend.files.list(`models/${orphan}/`)).items).toEqual([]);
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBeNull();
    expect((await backend.catalog.get('models', model.id))?.files.images).toEqual([]);
    expect((await backend.catalog.get('models', 'old'))?.visible).toBe(true);
    expect((await backend.catalog.get('models', model.id))?.visible).toBe(true);
    expect((await backend.catalog.get('models', model.id))?.metadata).toMatchObject({ annotationsCount: 1, annotationsSeq: 1 });
    expect(await backend.catalog.get('annotations', 'vanished_1')).toBeNull();
    // backfilled: the report from the stored files, a thumbnail from the first photo, the web-sized copy
    const older = await backend.catalog.get('models', before.id);
    expect(older?.validation?.splat).toMatchObject({ verdict: 'ok', format: 'ply' });
    expect(older?.validation?.photos).toMatchObject({ count: 1, dimensions: [{ width: 640, height: 480, count: 1 }] });
    expect(older?.files.thumbnails).toEqual([`models/${before.uuid}/images_thumbnails/thumbnail.jpg`]);
    expect((await backend.files.getMetadata(`models/${before.uuid}/images_thumbnails/thumbnail.jpg`)).size).toBeGreaterThan(0);
    expect(older?.files.webSplatPath).toBe(`models/${before.uuid}/model.spz`);
    expect(older?.files.webSplatSize).toBe((await backend.files.getMetadata(`models/${before.uuid}/model.spz`)).size);
    const old = await backend.catalog.get('models', 'old');
    expect(old?.validation?.splat?.verdict).toBe('ok');
    expect(old?.files.webSplatPath).toBe(`models/${model.uuid}/model.spz`);
    const shown = await runCli(['models', 'show', before.id], { env });
    expect(shown.stdout).toContain('Checked by catalog doctor --fix from the stored files');
    expect((await runCli(['doctor'], { env })).exitCode).toBe(0);
  });
});

describe('seed → export → import', () => {
  function tree(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    const walk = (d: string) => {
      for (const name of readdirSync(d)) {
        const p = join(d, name);
        if (statSync(p).isDirectory()) walk(p);
        else out[relative(dir, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
      }
    };
    walk(dir);
    return out;
  }

  it('gives an identical catalog in a fresh data folder', { timeout: 90_000 }, async () => {
    const source = await startEmbeddedServer();
    const target = await startEmbeddedServer();
    try {
      const seeded = await runCli(testSeedArgs(source.dataDir), { timeout: 90_000 });
      expect(seeded.exitCode, seeded.stderr).toBe(0);
      // a finding, an alignment (one accepted from the change map: 'icp', with the manual one it replaced) and a
      // change map (with its values file) travel with the catalog
      const [m1, m2] = await source.service.catalog.query('models', { orderBy: [['publicId', 'asc']], limit: 2 });
      const finding = await createAnnotation(
        source.service.catalog,
        m1!.id,
        { title: 'Crack at the weld', category: 'crack', severity: 4, points: [{ x: 0.5, y: 1, z: -2 }] },
        { uid: 'cli', email: null },
      );
      await source.service.catalog.set('alignments', `${m1!.id}__${m2!.id}`, {
        referenceModelId: m1!.id,
        modelId: m2!.id,
        projectId: m1!.projectId ?? null,
        matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1],
        method: 'icp',
        pairs: [],
        rmsError: 0.004,
        previous: { method: 'same-frame', matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], pairs: [], rmsError: 0 },
        created_by: 'cli',
      });
      const values = changeValuesPath(m2!.uuid || m2!.id, m1!.id);
      await source.service.files.upload(values, new Blob([new Uint8Array(64).fill(3)]), { contentType: 'application/octet-stream' });
      await saveChangeMap(source.service.catalog, source.service.files, {
        referenceModelId: m1!.id,
        modelId: m2!.id,
        inputs: { modelFile: changeMapInputFile(m2!), referenceFile: changeMapInputFile(m1!), alignment: null },
        registration: { matrix: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], rmsError: 0.004, iterations: 6, pairs: 16 },
        levelOfDetection: 0.02,
        pointCount: 16,
        referencePointCount: 16,
        histogram: { min: -0.01, max: 0.01, counts: [8, 8] },
        regions: [],
        computedBy: 'cli',
      });
      // a finding made from a change region keeps its region
      const changeRegion = { referenceModelId: m1!.id, regionId: 1, maxDistance: -0.25 };
      const fromRegion = await createAnnotation(
        source.service.catalog,
        m2!.id,
        { title: 'Change region 1: removed', category: 'other', severity: 3, points: [{ x: 0, y: 1, z: 0 }] },
        { uid: 'cli', email: null },
        { changeRegion },
      );
      const first = join(work, 'export-1');
      const exp = await runCli(['export', first, '--data-dir', source.dataDir, '--json']);
      expect(exp.exitCode, exp.stdout + exp.stderr).toBe(0);
      expect(existsSync(join(first, 'catalog.json'))).toBe(true);
      expect(JSON.parse(readFileSync(join(first, 'documents', 'models.json'), 'utf8')).length).toBeGreaterThan(0);
      const exportedFindings = JSON.parse(readFileSync(join(first, 'documents', 'annotations.json'), 'utf8')) as { id: string }[];
      // every stored finding (the demo's and this one), each once
      const storedFindings = await source.service.catalog.query('annotations');
      expect(exportedFindings.map((f) => f.id).sort()).toEqual(storedFindings.map((f) => f.id).sort());
      expect(exportedFindings.map((f) => f.id)).toContain(finding.id);
      expect(JSON.parse(readFileSync(join(first, 'documents', 'alignments.json'), 'utf8'))).toHaveLength(1);
      // every stored change map (those the server computed for the demo's captures, and this one), each once
      const exportedMaps = JSON.parse(readFileSync(join(first, 'documents', 'changeMaps.json'), 'utf8')) as { id: string }[];
      const storedMaps = await source.service.catalog.query('changeMaps');
      expect(exportedMaps.map((m) => m.id).sort()).toEqual(storedMaps.map((m) => m.id).sort());
      expect(exportedMaps.map((m) => m.id)).toContain(`${m1!.id}__${m2!.id}`);
      expect(existsSync(join(first, 'files', values))).toBe(true);

      const imp = await runCli(['import', first, '--data-dir', target.dataDir, '--json']);
      expect(imp.exitCode, imp.stdout + imp.stderr).toBe(0);
      const again = await runCli(['import', first, '--data-dir', target.dataDir, '--json']);
      expect(parseJson<{ bytesSent: number }>(again.stdout)).toMatchObject({ status: 'ok', result: { bytesSent: 0 } });

      const second = join(work, 'export-2');
      expect((await runCli(['export', second, '--data-dir', target.dataDir])).exitCode).toBe(0);
      const a = tree(first);
      const b = tree(second);
      delete a['catalog.json'];
      delete b['catalog.json'];
      expect(Object.keys(a).length).toBeGreaterThan(5);
      expect(b).toEqual(a);
      const manifest = (dir: string) => {
        const m = JSON.parse(readFileSync(join(dir, 'catalog.json'), 'utf8')) as { counts: unknown; files: unknown };
        return { counts: m.counts, files: m.files };
      };
      expect(manifest(second)).toEqual(manifest(first));
      expect((await target.service.catalog.get('annotations', finding.id))?.title).toBe('Crack at the weld');
      expect((await target.service.catalog.get('annotations', fromRegion.id))?.changeRegion).toEqual(changeRegion);
      expect((await target.service.catalog.get('changeMaps', `${m1!.id}__${m2!.id}`))?.valuesPath).toBe(values);
      expect(await target.service.catalog.get('alignments', `${m1!.id}__${m2!.id}`)).toMatchObject({
        method: 'icp',
        previous: { method: 'same-frame', pairs: [], rmsError: 0 },
      });
      expect((await target.service.files.getMetadata(values)).size).toBe(64);
      const sourceModel = await source.service.catalog.get('models', m1!.id);
      expect((await target.service.catalog.get('models', m1!.id))?.metadata).toMatchObject({
        annotationsCount: sourceModel!.metadata!.annotationsCount,
        annotationsSeq: finding.seq,
      });
      expect(await target.service.catalog.count('annotations', { where: [['modelId', '==', m1!.id]] })).toBe(
        sourceModel!.metadata!.annotationsCount,
      );

      // an export made before findings or change maps existed (no findings, alignments or change maps files) still imports
      rmSync(join(first, 'documents', 'annotations.json'));
      rmSync(join(first, 'documents', 'alignments.json'));
      rmSync(join(first, 'documents', 'changeMaps.json'));
      const older = await runCli(['import', first, '--data-dir', target.dataDir, '--json']);
      expect(older.exitCode, older.stdout + older.stderr).toBe(0);
      expect(parseJson<{ counts: Record<string, number> }>(older.stdout)).toMatchObject({
        status: 'ok',
        result: { counts: { annotations: 0, alignments: 0, changeMaps: 0 } },
      });

      expect(existsSync(join(first, 'accounts.json'))).toBe(true);
      const users = JSON.parse(readFileSync(join(first, 'documents', 'users.json'), 'utf8')) as { id: string; email: string }[];
      const admin = users.find((u) => u.email === 'admin@demo.lab');
      const client = createLocalBackend({ baseUrl: target.url });
      try {
        expect((await client.identity.signIn('admin@demo.lab', 'demo-admin-1')).uid).toBe(admin?.id);
      } finally {
        await client.close();
      }

      const notExport = await runCli(['import', work, '--data-dir', target.dataDir, '--json']);
      expect(notExport.exitCode).toBe(1);
      expect(parseJson(notExport.stdout)).toMatchObject({
        status: 'error',
        error: { message: expect.stringContaining('is not a readable catalog export') },
      });
    } finally {
      await source.stop();
      await target.stop();
    }
  });

  it(
    'refuses an export whose models break the Public ID rule, naming the clashes, before writing anything',
    { timeout: 90_000 },
    async () => {
      const source = await startEmbeddedServer();
      const target = await startEmbeddedServer();
      try {
        expect((await runCli(testSeedArgs(source.dataDir), { timeout: 90_000 })).exitCode).toBe(0);
        const dir = join(work, 'export-bad-ids');
        expect((await runCli(['export', dir, '--data-dir', source.dataDir])).exitCode).toBe(0);
        const modelsFile = join(dir, 'documents', 'models.json');
        const models = JSON.parse(readFileSync(modelsFile, 'utf8')) as Array<Model & { id: string }>;
        const [a, b] = models.filter((m, _i, all) => all.filter((o) => o.projectId === m.projectId).length >= 2);
        const c = models.find((m) => m.id !== a.id && m.id !== b.id) as Model;
        b.publicId = a.publicId;
        c.publicId = 'BAD PUB/ID <b>x</b>';
        writeFileSync(modelsFile, JSON.stringify(models));

        const res = await runCli(['import', dir, '--data-dir', target.dataDir, '--json']);
        expect(res.exitCode).toBe(1);
        const out = parseJson(res.stdout);
        if (out.status !== 'error') throw new Error(res.stdout);
        expect(out.error.code).toBe('invalid-argument');
        expect(out.error.message).toContain('breaks the Public ID rule');
        expect(out.error.message).toContain('nothing was imported');
        expect(out.error.message).toContain(
          `model ${c.id}: Public ID "BAD PUB/ID <b>x</b>" is not allowed (Public ID can only contain letters, numbers, hyphens, and underscores)`,
        );
        expect(out.error.message).toContain(`Public ID ${a.publicId} is used by 2 models of project ${a.projectId}: ${a.id}, ${b.id}`);
        expect(await target.service.catalog.count('models')).toBe(0);
        expect(await target.service.catalog.count('projects')).toBe(0);
        expect(await storedModelFiles(target.service)).toEqual([]);
      } finally {
        await source.stop();
        await target.stop();
      }
    },
  );
});
