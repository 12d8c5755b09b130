// Model-folder planning (pure) and the content checks of a folder on disk (`inspectModelFolder`),
// used by `catalog validate` and `catalog models upload`.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { planModelFolder } from '@shared/model-folder.js';
import { makeSplatPly, makeTowerGlb } from '../../cli/src/lib/demo-data/index.js';
import { inspectModelFolder } from '../../cli/src/lib/folder.js';
import { HTML_PAGE, LFS_POINTER, pngPhoto, splatFile } from '../support/model-fixtures.js';
import { samplePath, samplesPresent, tempDir } from '../support/paths.js';

/** A folder listing in planModelFolder's shape, from `{ path: size }` in listing order. */
const listing = (files: Record<string, number>) => Object.entries(files).map(([path, size]) => ({ path, size }));

describe('planModelFolder', () => {
  it('reads a flat folder and infers hybrid from a splat and a GLB', () => {
    const plan = planModelFolder(
      listing({
        ...{ 'scan.ply': 1000, 'tower.glb': 200, 'cameras.json': 50, 'images/a.jpg': 10, 'images/b.png': 10 },
        ...{ 'images_thumbnails/t.jpg': 5, 'assets/report.pdf': 7, 'notes.txt': 3, '.DS_Store': 3 },
      }),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.layout).toBe('flat');
    expect(plan.modelType).toBe('hybrid');
    expect(plan.typeInferred).toBe(true);
    expect(plan.splat?.path).toBe('scan.ply');
    expect(plan.glb?.path).toBe('tower.glb');
    expect(plan.cameraMetadata?.path).toBe('cameras.json');
    expect(plan.images.map((f) => f.fileName)).toEqual(['a.jpg', 'b.png']);
    expect(plan.thumbnails.map((f) => f.fileName)).toEqual(['t.jpg']);
    expect(plan.assets.map((f) => f.fileName)).toEqual(['report.pdf']);
    expect(plan.totalBytes).toBe(1000 + 200 + 50 + 10 + 10 + 5 + 7);
    expect(plan.ignored.map((i) => i.path).sort()).toEqual(['.DS_Store', 'notes.txt']);
  });

  it('infers splat and mesh, and accepts camera-metadata.json', () => {
    expect(planModelFolder([{ path: 'model.splat', size: 64 }]).modelType).toBe('splat');
    const mesh = planModelFolder([
      { path: 'a.glb', size: 64 },
      { path: 'camera-metadata.json', size: 3 },
    ]);
    expect(mesh.modelType).toBe('mesh');
    expect(mesh.cameraMetadata?.path).toBe('camera-metadata.json');
  });

  it('takes the highest iteration of a 3DGS training output', () => {
    const cloud = (iteration: number) => `point_cloud/iteration_${iteration}/point_cloud.ply`;
    const plan = planModelFolder(
      listing({
        ...{ [cloud(7000)]: 70, [cloud(30000)]: 300, [cloud(900)]: 9 },
        ...{ 'input.ply': 5, 'cameras.json': 4, cfg_args: 1, 'images/00001.png': 2 },
      }),
    );
    expect(plan.problems).toEqual([]);
    expect(plan.layout).toBe('3dgs');
    expect(plan.splat?.path).toBe('point_cloud/iteration_30000/point_cloud.ply');
    expect(plan.modelType).toBe('splat');
    expect(plan.images).toHaveLength(1);
    expect(plan.ignored.map((i) => i.path)).toEqual(
      expect.arrayContaining(['input.ply', 'point_cloud/iteration_7000/point_cloud.ply', 'point_cloud/iteration_900/point_cloud.ply']),
    );
  });

  it('uses input/ photos of a 3DGS output when there is no images/', () => {
    const plan = planModelFolder(listing({ 'point_cloud/iteration_10/point_cloud.ply': 70, 'input/0001.jpg': 2 }));
    expect(plan.images.map((f) => f.path)).toEqual(['input/0001.jpg']);
  });

  it('reports two splats, two GLBs and two camera files as problems', () => {
    const plan = planModelFolder(
      listing({ 'a.ply': 1, 'b.splat': 32, 'a.glb': 1, 'b.glb': 1, 'cameras.json': 1, 'camera-metadata.json': 1 }),
    );
    expect(plan.problems.map((p) => p.code)).toEqual(['ambiguous-splat', 'ambiguous-glb', 'ambiguous-camera-metadata']);
    expect(plan.problems[0].message).toContain('a.ply, b.splat');
    expect(plan.problems[2].message).toContain('Only one JSON file can be uploaded for camera metadata');
  });

  it('reports a folder without a model file, and an empty folder', () => {
    expect(planModelFolder([{ path: 'images/a.jpg', size: 1 }]).problems.map((p) => p.code)).toEqual(['no-model-file']);
    expect(planModelFolder([]).problems.map((p) => p.code)).toEqual(['empty-folder']);
  });

  it('checks a given type against the files (splat needs a splat, mesh a GLB) and keeps only the files it uses', () => {
    const files = listing({ 'a.ply': 1, 'a.glb': 1 });
    const mesh = planModelFolder(files, { modelType: 'mesh' });
    expect(mesh.problems).toEqual([]);
    expect(mesh.splat).toBeNull();
    expect(mesh.glb?.path).toBe('a.glb');
    const splat = planModelFolder([{ path: 'a.glb', size: 1 }], { modelType: 'splat' });
    expect(splat.problems[0].code).toBe('missing-required-file');
    expect(splat.problems[0].message).toContain('Required file types are missing based on the selected model type.');
  });
});

describe('inspectModelFolder: the content checks over a folder on disk', () => {
  const root = tempDir('model-folder');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** A folder holding `files`, inspected. */
  const inspect = async (name: string, files: Record<string, string | Uint8Array>) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), content);
    }
    return inspectModelFolder(dir);
  };
  const messages = (inspection: Awaited<ReturnType<typeof inspectModelFolder>>) => inspection.problems.map((p) => p.message);

  it('accepts generated demo files and reports their facts', async () => {
    const inspection = await inspect('good', {
      'scan.ply': makeSplatPly({ count: 10 }),
      'tower.glb': await makeTowerGlb(),
      'images/a.png': await pngPhoto(64, 48),
    });
    expect(inspection.problems).toEqual([]);
    expect(inspection.report.splat).toMatchObject({ verdict: 'ok', format: 'ply', gaussians: 10, shDegree: 3 });
    expect(inspection.report.glb?.verdict).not.toBe('refused');
    expect(inspection.report.glb?.meshes).toBeGreaterThan(0);
    expect(inspection.report.photos).toMatchObject({ count: 1, dimensions: [{ width: 64, height: 48, count: 1 }] });
    expect((await inspect('splat', { 'a.splat': splatFile(2) })).report.splat).toMatchObject({ verdict: 'ok', gaussians: 2 });
  });

  it('refuses an HTML page named .glb, a PLY without vertices, a bad .splat size, an empty file, each named', async () => {
    expect(messages(await inspect('html', { 'x.glb': HTML_PAGE }))).toEqual(['This .glb is an HTML page, not a GLB file (x.glb).']);
    const noVertex = 'ply\nformat ascii 1.0\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n';
    const [plyProblem] = messages(await inspect('no-vertex', { 'x.ply': noVertex }));
    expect(plyProblem).toMatch(/^This \.ply .*\(x\.ply\)\.$/);
    expect(messages(await inspect('hello', { 'x.ply': 'hello' }))[0]).toMatch(/^This \.ply .*not a PLY file.*\(x\.ply\)\.$/);
    expect(messages(await inspect('splat-size', { 'x.splat': new Uint8Array(33) }))).toEqual([
      'This .splat is truncated or not a .splat file: its size (33 bytes) is not a multiple of 32 bytes (x.splat).',
    ]);
    expect(messages(await inspect('empty', { 'x.splat': new Uint8Array(0) }))).toEqual(['This .splat is empty (0 bytes) (x.splat).']);
    const inspection = await inspect('bad-photo', { 'x.splat': splatFile(1), 'images/p.jpg': new Uint8Array(500).fill(3) });
    expect(inspection.problems).toEqual([
      { code: 'bad-file', message: 'This .jpg is not an image in a format this catalog knows (p.jpg).', path: 'images/p.jpg' },
    ]);
    expect(inspection.report.photos).toMatchObject({ count: 1, verdict: 'refused' });
  });

  it('names an LFS pointer as such', async () => {
    const inspection = await inspect('lfs', { 'point_cloud.ply': LFS_POINTER });
    expect(inspection.problems).toHaveLength(1);
    expect(inspection.problems[0]).toMatchObject({ code: 'bad-file', path: 'point_cloud.ply' });
    expect(inspection.problems[0]?.message).toMatch(/^This \.ply is a Git LFS pointer \(a \d+-byte text file\), not the splat itself: /);
    expect(inspection.report.splat?.verdict).toBe('refused');
  });

  it.skipIf(!samplesPresent())('refuses the real bad samples and accepts the real good ones', async () => {
    const bad = await inspectModelFolder(samplePath('bad'));
    expect(messages(bad)).toEqual(
      expect.arrayContaining([
        'This .glb is an HTML page, not a GLB file (html-named.glb).',
        expect.stringMatching(/^This \.ply is a Git LFS pointer .*\(lfs-pointer-point_cloud\.ply\)\.$/),
      ]),
    );
    const box = await inspect('box', { 'Box.glb': readFileSync(samplePath('glb/Box.glb')) });
    expect(box.problems).toEqual([]);
    expect(box.report.glb).toMatchObject({ meshes: 1, triangles: 12 });
    const splat = await inspect('real-splat', { 'model.splat': readFileSync(samplePath('splat/model.splat')) });
    expect(splat.problems).toEqual([]);
    const konstruct = await inspectModelFolder(samplePath('3dgs-konstruct'));
    expect(konstruct.problems).toEqual([]);
    expect(konstruct.report.splat).toMatchObject({ gaussians: 9080, shDegree: 3 });
    expect(konstruct.report.cameraMetadata).toMatchObject({ cameras: 304, withPhoto: 5 });
  });
});
