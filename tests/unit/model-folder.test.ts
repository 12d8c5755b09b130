// Model-folder planning and first-byte file checks (pure modules used by `catalog validate` and
// `catalog models upload`).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkModelFileHead, checkedKindOf, isLfsPointer, readPlyHeader } from '@shared/file-checks.js';
import { planModelFolder } from '@shared/model-folder.js';
import { makeSplatPly, makeTowerGlb } from '../../cli/src/lib/demo-data.js';
import { samplePath, samplesPresent } from '../support/paths.js';

const bytes = (text: string) => new TextEncoder().encode(text);
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

  it('checks a given type against the files (SPEC §5) and keeps only the files it uses', () => {
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

describe('file checks', () => {
  it('accepts generated demo files', async () => {
    const ply = makeSplatPly({ count: 10 });
    expect(checkModelFileHead('ply', ply.subarray(0, 4096), ply.length, 'a.ply')).toBeNull();
    expect(readPlyHeader(ply)).toMatchObject({ format: 'binary_little_endian 1.0', vertexCount: 10 });
    expect(readPlyHeader(ply)?.properties).toHaveLength(62);
    const glb = await makeTowerGlb();
    expect(checkModelFileHead('glb', glb, glb.length, 'a.glb')).toBeNull();
    expect(checkModelFileHead('splat', new Uint8Array(64), 64, 'a.splat')).toBeNull();
  });

  it('refuses an HTML page named .glb, a PLY without vertices, a bad .splat size, an empty file', () => {
    const html = bytes('<!DOCTYPE html><html><body>404</body></html>');
    expect(checkModelFileHead('glb', html, html.length, 'x.glb')).toMatchObject({ code: 'not-glb' });
    const noVertex = bytes('ply\nformat ascii 1.0\nelement face 2\nproperty list uchar int vertex_indices\nend_header\n');
    expect(checkModelFileHead('ply', noVertex, noVertex.length, 'x.ply')).toMatchObject({ code: 'ply-no-vertex' });
    expect(checkModelFileHead('ply', bytes('hello'), 5, 'x.ply')).toMatchObject({ code: 'not-ply' });
    expect(checkModelFileHead('splat', new Uint8Array(33), 33, 'x.splat')).toMatchObject({ code: 'splat-size' });
    expect(checkModelFileHead('splat', new Uint8Array(0), 0, 'x.splat')).toMatchObject({ code: 'empty-file' });
  });

  it('names an LFS pointer as such', () => {
    const pointer = bytes('version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 115570275\n');
    expect(isLfsPointer(pointer)).toBe(true);
    const problem = checkModelFileHead('ply', pointer, pointer.length, 'point_cloud.ply');
    expect(problem?.code).toBe('lfs-pointer');
    expect(problem?.message).toContain('Git LFS pointer');
  });

  it('maps extensions to checks', () => {
    expect(checkedKindOf('A.PLY')).toBe('ply');
    expect(checkedKindOf('m.splat')).toBe('splat');
    expect(checkedKindOf('m.glb')).toBe('glb');
    expect(checkedKindOf('m.gltf')).toBeNull();
  });

  it.skipIf(!samplesPresent())('refuses the real bad samples and accepts the real good ones', () => {
    const html = readFileSync(samplePath('bad/html-named.glb'));
    expect(checkModelFileHead('glb', html.subarray(0, 65536), html.length, 'html-named.glb')?.code).toBe('not-glb');
    const lfs = readFileSync(samplePath('bad/lfs-pointer-point_cloud.ply'));
    expect(checkModelFileHead('ply', lfs, lfs.length, 'p.ply')?.code).toBe('lfs-pointer');
    const box = readFileSync(samplePath('glb/Box.glb'));
    expect(checkModelFileHead('glb', box, box.length, 'Box.glb')).toBeNull();
    const splat = readFileSync(samplePath('splat/model.splat'));
    expect(checkModelFileHead('splat', splat.subarray(0, 64), splat.length, 'model.splat')).toBeNull();
    const ply = readFileSync(samplePath('3dgs-konstruct/point_cloud/iteration_7000/point_cloud.ply'));
    expect(readPlyHeader(ply.subarray(0, 65536))?.vertexCount).toBe(9080);
  });
});
