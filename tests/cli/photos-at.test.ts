// `catalog models photos-at <model> --point X,Y,Z` against a fresh embedded server: the
// generated inspection scene (tests/support/inspection-scene.ts) uploaded as a mesh model with its
// cameras and photos gives back the cameras that see a box point, at the pixels three.js drew it,
// with their stored photos; the real 3DGS sample's cameras give the hand-computed pixels of
// tests/unit/photo-projection.test.ts and photos matched by index (skipped with a printed reason
// when ../shared/samples is absent); a bad --point, a model without camera metadata and an
// unknown model are refused with clear messages.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '@shared/types.js';
import { jsonCli, runCli } from '../support/cli.js';
import { drawnPixel, INSPECTION_BOX, writeInspectionScene } from '../support/inspection-scene.js';
import { gaussianPly } from '../support/model-fixtures.js';
import { samplePath, tempDir } from '../support/paths.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

interface PhotosAt {
  model: { id: string; publicId: string };
  point: { x: number; y: number; z: number };
  cameraCount: number;
  cameras: { id: number; img_name: string; u: number; v: number; distance: number; angle: number; score: number; photo: string | null }[];
}

const SAMPLE = samplePath('3dgs-konstruct');
const hasSample = existsSync(join(SAMPLE, 'cameras.json')) && existsSync(join(SAMPLE, 'images', '00000.png'));
if (!hasSample) console.warn(`[photos-at] ${SAMPLE} is absent: the real-sample run is skipped (see ../shared/samples/SOURCES.md)`);

let server: EmbeddedServer;
let env: Record<string, string>;
const work = tempDir('photos-at');
let box: Model;

const { ok, fails } = jsonCli(() => env);

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'photos-at' });
  ({ env } = server);
  await ok(['projects', 'create', '--name', 'Inspection Box', '--structure-id', 'BOX-001']);
  await writeInspectionScene(join(work, 'box'));
  box = (
    await ok<{ model: Model }>(['models', 'upload', join(work, 'box'), '--project', 'BOX-001', '--public-id', 'BOX-001-A', '--name', 'Box'])
  ).model;
});

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('catalog models photos-at', () => {
  it('lists the cameras that see a point of the generated scene, best first, at the pixels three.js drew it, with their photos', async () => {
    expect(box.files.cameraMetadata).toBeTruthy();
    expect(box.files.images).toHaveLength(6);
    // the top of the box, towards its left end: in front of all six cameras
    const { point } = INSPECTION_BOX.points.topLeft;
    const result = await ok<PhotosAt>(['models', 'photos-at', 'BOX-001-A', '--point', `${point.x},${point.y},${point.z}`]);
    expect(result.model).toEqual({ id: box.id, publicId: 'BOX-001-A' });
    expect(result.point).toEqual(point);
    expect(result.cameraCount).toBe(6);
    expect(result.cameras.map((c) => c.id).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (let i = 1; i < result.cameras.length; i += 1)
      expect(result.cameras[i]!.score).toBeGreaterThanOrEqual(result.cameras[i - 1]!.score);
    for (const camera of result.cameras) {
      const drawn = drawnPixel(camera.id, point)!;
      expect(Math.abs(camera.u - drawn.u)).toBeLessThan(0.5);
      expect(Math.abs(camera.v - drawn.v)).toBeLessThan(0.5);
      expect(camera.img_name).toBe(`cam_0${camera.id}.png`);
      expect(camera.photo).toBe(`models/${box.uuid}/images/cam_0${camera.id}.png`);
      expect(camera.distance).toBeGreaterThan(0);
      expect(camera.angle).toBeGreaterThanOrEqual(0);
    }
    // left end, nearest cameras first: 4 and 5 stand on the −x side
    expect(
      result.cameras
        .slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual([4, 5]);

    // the human table: a header and one row a camera
    const text = await runCli(['models', 'photos-at', box.id, '--point', '-0.5,1,0.1'], { env });
    expect(text.exitCode, text.stderr).toBe(0);
    const lines = text.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+IMG_NAME\s+U\s+V\s+DISTANCE\s+ANGLE\s+PHOTO$/);
    expect(lines).toHaveLength(7);
    expect(lines[1]).toContain(`models/${box.uuid}/images/cam_0`);
    expect(text.stderr).toContain('6 cameras of 6 see (-0.5, 1, 0.1) in BOX-001-A');

    // a point high above the box: behind every camera (they look down at it)
    const none = await ok<PhotosAt>(['models', 'photos-at', 'BOX-001-A', '--point=0,40,0']);
    expect(none.cameras).toEqual([]);
    const noneText = await runCli(['models', 'photos-at', 'BOX-001-A', '--point', '0,40,0'], { env });
    expect(noneText.stdout.trim()).toBe('No camera sees this point (6 cameras checked)');
  });

  it('refuses a --point that is not three numbers, a model without camera metadata and an unknown model', async () => {
    const bads = ['1,2', '1,2,3,4', 'a,b,c', '1,,3', 'Infinity,0,0'];
    const errors = await Promise.all(bads.map((bad) => fails(['models', 'photos-at', 'BOX-001-A', `--point=${bad}`])));
    errors.forEach((error, i) =>
      expect(error, bads[i]).toEqual({ code: 'invalid-argument', message: '--point must be three numbers X,Y,Z' }),
    );
    const human = await runCli(['models', 'photos-at', 'BOX-001-A', '--point', '1;2;3'], { env });
    expect(human.exitCode).toBe(1);
    expect(human.stderr).toContain('--point must be three numbers X,Y,Z');
    expect(human.stdout).toBe('');

    mkdirSync(join(work, 'plain'), { recursive: true });
    writeFileSync(join(work, 'plain', 'scan.ply'), gaussianPly(8));
    await ok(['models', 'upload', join(work, 'plain'), '--project', 'BOX-001', '--public-id', 'BOX-001-B', '--name', 'No cameras']);
    expect(await fails(['models', 'photos-at', 'BOX-001-B', '--point', '0,0,0'])).toEqual({
      code: 'failed-precondition',
      message: 'Model BOX-001-B has no camera metadata',
    });
    expect(await fails(['models', 'photos-at', 'NOPE-404', '--point', '0,0,0'])).toEqual({
      code: 'not-found',
      message: 'Model NOPE-404 not found',
    });
  });

  it.skipIf(!hasSample)('gives the hand-computed pixels of the real sample cameras, with photos matched by index', async () => {
    // a splat model folder with the sample's 304 cameras and its 5 photos (00000.png … named by camera index)
    const folder = join(work, 'sample');
    mkdirSync(join(folder, 'images'), { recursive: true });
    writeFileSync(join(folder, 'scan.ply'), gaussianPly(8));
    copyFileSync(join(SAMPLE, 'cameras.json'), join(folder, 'cameras.json'));
    for (const name of ['00000.png', '00001.png', '00002.png', '00100.png', '00150.png']) {
      copyFileSync(join(SAMPLE, 'images', name), join(folder, 'images', name));
    }
    const model = (
      await ok<{ model: Model }>(['models', 'upload', folder, '--project', 'BOX-001', '--public-id', 'KON-001', '--name', 'Sample cameras'])
    ).model;
    const result = await ok<PhotosAt>(['models', 'photos-at', 'KON-001', '--point', '-0.5,0.2,0.3']);
    expect(result.cameraCount).toBe(304);
    const byId = new Map(result.cameras.map((c) => [c.id, c]));
    // tests/unit/photo-projection.test.ts computes these by hand
    for (const [id, u, v, photo] of [
      [0, 339.797, 978.588, '00000.png'],
      [100, 796.605, 998.897, '00100.png'],
      [150, 824.742, 976.721, '00150.png'],
    ] as const) {
      const camera = byId.get(id)!;
      expect(camera, `camera ${id}`).toBeDefined();
      expect(Math.abs(camera.u - u)).toBeLessThan(0.5);
      expect(Math.abs(camera.v - v)).toBeLessThan(0.5);
      expect(camera.img_name).toBe(`frame_${String(id + 1).padStart(5, '0')}.jpg`);
      expect(camera.photo).toBe(`models/${model.uuid}/images/${photo}`);
    }
    // a camera without a stored photo has photo null
    expect(result.cameras.some((c) => c.photo === null)).toBe(true);
  });
});
