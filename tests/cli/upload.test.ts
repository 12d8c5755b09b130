// `catalog validate` and `catalog models upload`, end to end against a fresh embedded server:
// the real 3DGS sample uploads with its files and sizes; bad camera metadata, an HTML page named
// .glb and a Git LFS pointer are refused before anything is written.
import { cpSync, mkdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import type { Backend } from '@shared/ports/index.js';
import type { Model, ValidationReport } from '@shared/types.js';
import { makeSplatPly } from '../../cli/src/lib/demo-data/index.js';
import { createProjectWithCli, parseJson, runCli, storedModelFiles, writeTree } from '../support/cli.js';
import { samplePath, samplesPresent, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

let server: EmbeddedServer;
let backend: Backend;
let env: Record<string, string>;
let projectId: string;
const work = tempDir('folders');
const hasSamples = samplesPresent();

/** A flat folder with a small generated splat and the given extra files. */
function folderWith(name: string, files: Record<string, string | Uint8Array>): string {
  return writeTree(join(work, name), files);
}

beforeAll(async () => {
  server = await startEmbeddedServer();
  ({ service: backend, env } = server);
  projectId = await createProjectWithCli('Upload Test Tower', 'UPL-001', { env });
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog validate', () => {
  it.skipIf(!hasSamples)('reads the 3DGS sample as a splat with cameras and images, writes nothing', async () => {
    const res = await runCli(['validate', samplePath('3dgs-konstruct'), '--json']);
    expect(res.exitCode, res.stderr).toBe(0);
    const out = parseJson<{
      layout: string;
      modelType: string;
      cameraCount: number;
      files: { kind: string; path: string }[];
      report: ValidationReport;
    }>(res.stdout);
    if (out.status !== 'ok') throw new Error(res.stdout);
    expect(out.result).toMatchObject({ layout: '3dgs', modelType: 'splat', cameraCount: 304 });
    expect(out.result.files.find((f) => f.kind === 'splat')?.path).toBe('point_cloud/iteration_7000/point_cloud.ply');
    expect(out.result.files.filter((f) => f.kind === 'image')).toHaveLength(5);
    // the content checks' report
    expect(out.result.report.splat).toMatchObject({ verdict: 'ok', format: 'ply', gaussians: 9080, shDegree: 3 });
    expect(out.result.report.splat?.boundingBox?.min).toHaveLength(3);
    expect(out.result.report.cameraMetadata).toMatchObject({ verdict: 'ok', cameras: 304, withPhoto: 5 });
    expect(out.result.report.photos).toMatchObject({ verdict: 'ok', count: 5 });

    const human = await runCli(['validate', samplePath('3dgs-konstruct')]);
    expect(human.exitCode).toBe(0);
    expect(human.stdout).toContain('3DGS training output');
    expect(human.stdout).toMatch(/splat\s+ok\s+point_cloud\.ply .*: 9,080 Gaussians, SH degree 3, .*bounding box \(/);
    expect(human.stdout).toMatch(/cameras\s+ok\s+cameras\.json .*: 304 cameras, 5 with a photo/);
    expect(human.stdout).toMatch(/photos\s+ok\s+5 photos .*: 531×946/);
  });

  it.skipIf(!hasSamples)('refuses the HTML page named .glb and the LFS pointer, exit 1', async () => {
    const res = await runCli(['validate', samplePath('bad'), '--json']);
    expect(res.exitCode).toBe(1);
    const out = parseJson(res.stdout);
    if (out.status !== 'error') throw new Error(res.stdout);
    expect(out.error.message).toMatch(
      /This \.ply is a Git LFS pointer \(a \d+-byte text file\), not the splat itself: .*\(lfs-pointer-point_cloud\.ply\)\./,
    );
    expect(out.error.message).toContain('This .glb is an HTML page, not a GLB file (html-named.glb).');
    // the report comes with the refusal: each refused file's verdict
    const failed = JSON.parse(res.stdout) as { result: { report: ValidationReport } };
    expect(failed.result.report.glb).toMatchObject({ verdict: 'refused', fileName: 'html-named.glb' });
    expect(failed.result.report.splat).toMatchObject({ verdict: 'refused', fileName: 'lfs-pointer-point_cloud.ply' });
  });

  it('reports an ambiguous folder and a missing folder', async () => {
    const dir = folderWith('two-splats', { 'a.ply': makeSplatPly({ count: 5 }), 'b.splat': new Uint8Array(64) });
    const res = await runCli(['validate', dir]);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('Found 2 splat files');
    const missing = await runCli(['validate', join(work, 'nope'), '--json']);
    expect(missing.exitCode).toBe(1);
    expect(parseJson(missing.stdout)).toMatchObject({ status: 'error', error: { code: 'not-found' } });
  });
});

describe('catalog models upload', () => {
  it.skipIf(!hasSamples)('uploads the 3DGS sample; the record has the spec paths and real sizes', async () => {
    const res = await runCli(
      [
        'models',
        'upload',
        samplePath('3dgs-konstruct'),
        '--project',
        projectId,
        '--public-id',
        'UPL-001-KONSTRUCT',
        '--name',
        'KonStruct scan',
        '--capture-date',
        '2025-03-01',
        '--reference',
        '--json',
      ],
      { env },
    );
    expect(res.exitCode, res.stderr).toBe(0);
    const out = parseJson<{ model: Model; referenceUpdated: boolean }>(res.stdout);
    if (out.status !== 'ok') throw new Error(res.stdout);
    expect(out.result.referenceUpdated).toBe(true);
    expect(res.stderr).toMatch(/completed splat point_cloud\/iteration_7000\/point_cloud\.ply .*\(100%\)/);

    const model = await backend.catalog.get('models', out.result.model.id);
    expect(model).not.toBeNull();
    if (model === null) return;
    const uuid = model.uuid;
    const plyBytes = statSync(samplePath('3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply')).size;
    expect(model).toMatchObject({
      publicId: 'UPL-001-KONSTRUCT',
      name: 'KonStruct scan',
      projectId,
      modelType: 'splat',
      isReference: true,
    });
    expect(model.metadata).toMatchObject({ captureDate: '2025-03-01', displayOrder: 0, annotationsCount: 0 });
    expect(model.files.splatPath).toBe(`models/${uuid}/model.ply`);
    expect(model.files.splatSize).toBe(plyBytes);
    expect(model.files.glbPath ?? null).toBeNull();
    expect(model.files.cameraMetadata).toBe(`models/${uuid}/camera-metadata.json`);
    expect(model.files.images?.slice().sort()).toEqual(
      ['00000.png', '00001.png', '00002.png', '00100.png', '00150.png'].map((n) => `models/${uuid}/images/${n}`),
    );
    expect((await backend.files.getMetadata(`models/${uuid}/model.ply`)).size).toBe(plyBytes);
    expect((await backend.files.getMetadata(`models/${uuid}/images/00000.png`)).size).toBe(
      statSync(samplePath('3dgs-konstruct/images/00000.png')).size,
    );
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBe(model.id);

    // the stored report, a thumbnail from the first photo, the web-sized copy beside the PLY
    expect(model.validation?.splat).toMatchObject({ verdict: 'ok', gaussians: 9080, shDegree: 3 });
    expect(model.validation?.cameraMetadata).toMatchObject({ cameras: 304, withPhoto: 5 });
    expect(model.files.thumbnails).toEqual([`models/${uuid}/images_thumbnails/thumbnail.jpg`]);
    expect(model.files.webSplatPath).toBe(`models/${uuid}/model.spz`);
    expect(model.files.webSplatSize).toBe((await backend.files.getMetadata(`models/${uuid}/model.spz`)).size);
    expect(model.files.webSplatSize).toBeLessThan(plyBytes / 5);

    const shown = await runCli(['models', 'show', model.id], { env });
    expect(shown.exitCode, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/splat\s+ok\s+point_cloud\.ply .*: 9,080 Gaussians, SH degree 3/);
    expect(shown.stdout).toMatch(/cameras\s+ok\s+cameras\.json .*: 304 cameras, 5 with a photo/);
    const shownJson = parseJson<Model>((await runCli(['models', 'show', model.id, '--json'], { env })).stdout);
    if (shownJson.status !== 'ok') throw new Error('models show --json failed');
    expect(shownJson.result.validation?.splat?.gaussians).toBe(9080);
  });

  it('asks before replacing a reference: no terminal → error naming --yes; --yes replaces it', async () => {
    const dir = folderWith('small', { 'scan.ply': makeSplatPly({ count: 20 }) });
    const first = await runCli(
      ['models', 'upload', dir, '--project', projectId, '--public-id', 'UPL-001-A', '--name', 'A', '--reference', '--yes', '--json'],
      { env },
    );
    expect(first.exitCode, first.stdout + first.stderr).toBe(0);
    const firstId = (parseJson<{ model: Model }>(first.stdout) as { result: { model: Model } }).result.model.id;
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBe(firstId);

    const filesBefore = await storedModelFiles(backend);
    const asked = await runCli(
      ['models', 'upload', dir, '--project', projectId, '--public-id', 'UPL-001-B', '--name', 'B', '--reference'],
      { env },
    );
    expect(asked.exitCode).toBe(1);
    expect(asked.stderr).toContain('This project already has a reference model. Do you want to replace it?');
    expect(asked.stderr).toContain('--yes');
    expect(await backend.catalog.query('models', { where: [['publicId', '==', 'UPL-001-B']] })).toHaveLength(0);
    expect(await storedModelFiles(backend)).toEqual(filesBefore);

    const yes = await runCli(
      ['models', 'upload', dir, '--project', projectId, '--public-id', 'UPL-001-B', '--name', 'B', '--reference', '--yes', '--json'],
      { env },
    );
    expect(yes.exitCode, yes.stdout).toBe(0);
    const out = parseJson<{ model: Model; referenceUpdated: boolean }>(yes.stdout);
    if (out.status !== 'ok') throw new Error(yes.stdout);
    expect(out.result.referenceUpdated).toBe(true);
    expect((await backend.catalog.get('models', firstId))?.isReference).toBe(false);
    expect((await backend.catalog.get('projects', projectId))?.reference_model_id).toBe(out.result.model.id);
  });

  it('refuses bad camera metadata with the spec message: exit 1, no record, no file', async () => {
    const badCameras = JSON.stringify([{ id: 'one', img_name: 'a.jpg', position: [0, 0], rotation: [[1, 0, 0]], width: 10, height: 10 }]);
    const expected = parseCameraMetadata(badCameras);
    expect(expected.ok).toBe(false);
    const dir = folderWith('bad-cameras', { 'scan.ply': makeSplatPly({ count: 20 }), 'cameras.json': badCameras });
    const filesBefore = await storedModelFiles(backend);
    const res = await runCli(
      ['models', 'upload', dir, '--project', projectId, '--public-id', 'UPL-BAD-CAM', '--name', 'Bad cameras', '--json'],
      { env },
    );
    expect(res.exitCode).toBe(1);
    const out = parseJson(res.stdout);
    if (out.status !== 'error') throw new Error(res.stdout);
    expect(out.error.message).toBe(expected.ok ? '' : expected.message);
    expect(out.error.message).toMatch(/^JSON format error: Camera 1:/);

    const notJson = folderWith('not-json-cameras', { 'scan.ply': makeSplatPly({ count: 20 }), 'cameras.json': '{oops' });
    const res2 = await runCli(
      ['models', 'upload', notJson, '--project', projectId, '--public-id', 'UPL-BAD-CAM', '--name', 'Bad cameras'],
      { env },
    );
    expect(res2.exitCode).toBe(1);
    expect(res2.stderr).toContain('Invalid JSON file');

    expect(await backend.catalog.query('models', { where: [['publicId', '==', 'UPL-BAD-CAM']] })).toHaveLength(0);
    expect(await storedModelFiles(backend)).toEqual(filesBefore);
  });

  it.skipIf(!hasSamples)('refuses an HTML page named .glb and an LFS pointer named .ply: no record, no file', async () => {
    const html = join(work, 'html-glb');
    mkdirSync(html);
    symlinkSync(samplePath('bad/html-named.glb'), join(html, 'html-named.glb'));
    const lfs = join(work, 'lfs-ply');
    mkdirSync(lfs);
    cpSync(samplePath('bad/lfs-pointer-point_cloud.ply'), join(lfs, 'point_cloud.ply'));
    const filesBefore = await storedModelFiles(backend);

    const r1 = await runCli(
      ['models', 'upload', html, '--project', projectId, '--public-id', 'UPL-BAD-GLB', '--name', 'Bad GLB', '--json'],
      { env },
    );
    expect(r1.exitCode).toBe(1);
    expect(parseJson(r1.stdout)).toMatchObject({
      status: 'error',
      error: { message: expect.stringContaining('This .glb is an HTML page, not a GLB file (html-named.glb).') },
    });
    const r2 = await runCli(['models', 'upload', lfs, '--project', projectId, '--public-id', 'UPL-BAD-LFS', '--name', 'Bad PLY'], { env });
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toContain('This .ply is a Git LFS pointer');

    const bad = await backend.catalog.query('models', { where: [['projectId', '==', projectId]] });
    expect(bad.filter((m) => m.publicId.startsWith('UPL-BAD'))).toEqual([]);
    expect(await storedModelFiles(backend)).toEqual(filesBefore);
  });

  it('refuses a missing public ID, an unknown project and a bad capture date', async () => {
    const dir = folderWith('small2', { 'scan.ply': makeSplatPly({ count: 20 }) });
    const noId = await runCli(['models', 'upload', dir, '--project', projectId, '--name', 'X', '--json'], { env });
    expect(noId.exitCode).toBe(1);
    expect(parseJson(noId.stdout)).toMatchObject({
      status: 'error',
      error: { message: expect.stringContaining('Please enter Public ID and Model Name.') },
    });
    const noProject = await runCli(['models', 'upload', dir, '--project', 'nope', '--public-id', 'X', '--name', 'X', '--json'], { env });
    expect(noProject.exitCode).toBe(1);
    expect(parseJson(noProject.stdout)).toMatchObject({ status: 'error', error: { code: 'not-found', message: 'Project not found' } });
    const badDate = await runCli(
      ['models', 'upload', dir, '--project', projectId, '--public-id', 'X', '--name', 'X', '--capture-date', 'someday', '--json'],
      { env },
    );
    expect(parseJson(badDate.stdout)).toMatchObject({ status: 'error', error: { message: 'Please enter a valid date' } });
  });
});
