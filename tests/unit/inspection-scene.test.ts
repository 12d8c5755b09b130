// The generated inspection scene (tests/support/inspection-scene.ts, for the findings tests) is consistent:
// its cameras.json is valid camera metadata; shared/photo-projection.ts puts each surface point
// where three.js drew it (two independent implementations agree within 0.5 px) and on the right
// colour of the PNG photo actually written; with the face's normal, camerasSeeingPoint returns
// the cameras facing that face and not those behind the box (without it, the math knows no
// occlusion and returns all that have the point in their image); the GLB has the stated size.
import { rmSync } from 'node:fs';
import { getBounds, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { cameraAxes } from '@shared/camera-poses.js';
import { camerasSeeingPoint } from '@shared/photo-projection.js';
import type { ModelPoint } from '@shared/types.js';
import {
  drawnPixel,
  INSPECTION_BOX,
  SCENE_BACKGROUND,
  SCENE_CAMERA_COUNT,
  writeInspectionScene,
  type InspectionSceneFiles,
  type SurfacePointName,
} from '../support/inspection-scene.js';
import { tempDir } from '../support/paths.js';
import { readFileSync } from 'node:fs';

let scene: InspectionSceneFiles;
const dir = tempDir('inspection-scene');
const photos: { data: Buffer; width: number; height: number; channels: number }[] = [];

beforeAll(async () => {
  scene = await writeInspectionScene(dir);
  for (const path of scene.photos) {
    const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
    photos.push({ data, width: info.width, height: info.height, channels: info.channels });
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The sRGB colour of the photo pixel that contains (u, v) (pixel (i, j) covers [i, i+1) × [j, j+1)). */
function colourAt(k: number, u: number, v: number): [number, number, number] {
  const photo = photos[k]!;
  const at = (Math.floor(v) * photo.width + Math.floor(u)) * photo.channels;
  return [photo.data[at]!, photo.data[at + 1]!, photo.data[at + 2]!];
}
const hex = (h: string): [number, number, number] => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
const faceColour = (name: string) => hex(INSPECTION_BOX.faces.find((f) => f.name === name)!.colour);

describe('the generated inspection scene', () => {
  it('writes valid camera metadata of six cameras with proper rotations, 640×480 photos and a GLB of the stated size', async () => {
    const parsed = parseCameraMetadata(readFileSync(scene.cameras, 'utf8'));
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.cameras).toHaveLength(SCENE_CAMERA_COUNT);
    for (const camera of parsed.cameras) expect(() => cameraAxes(camera)).not.toThrow();
    expect(photos.map((ph) => [ph.width, ph.height])).toEqual(Array.from({ length: 6 }, () => [640, 480]));

    const doc = await new NodeIO().read(scene.glb);
    const bounds = getBounds(doc.getRoot().listScenes()[0]!);
    expect(bounds.min).toEqual([INSPECTION_BOX.min.x, INSPECTION_BOX.min.y, INSPECTION_BOX.min.z]);
    expect(bounds.max).toEqual([INSPECTION_BOX.max.x, INSPECTION_BOX.max.y, INSPECTION_BOX.max.z]);
    expect([bounds.max[0] - bounds.min[0], bounds.max[1] - bounds.min[1], bounds.max[2] - bounds.min[2]]).toEqual([2, 1, 1]);
  });

  // Cameras k = 0…5 stand at azimuth k·60° from +z towards +x, 3 m from the box's vertical axis and
  // 1.2 m above its centre: the front (+z) face is in front of 0, 1 and 5 (z = 3, 1.5, 1.5 > 0.5),
  // the right end (+x) in front of 1 and 2 (x = 2.6 > 1), the back (−z) in front of 2, 3 and 4, the
  // top (+y) in front of all six (y = 1.7 > 1).
  const facing: Record<SurfacePointName, number[]> = {
    frontCentre: [0, 1, 5],
    frontRight: [0, 1, 5],
    rightCentre: [1, 2],
    topLeft: [0, 1, 2, 3, 4, 5],
    backCentre: [2, 3, 4],
  };

  it('with the face normal, camerasSeeingPoint returns the cameras facing each named point, and not those behind the box', () => {
    for (const [name, expected] of Object.entries(facing) as [SurfacePointName, number[]][]) {
      const { point, normal } = INSPECTION_BOX.points[name];
      const views = camerasSeeingPoint(scene.entries, point, { normal });
      expect(
        views.map((view) => view.camera.id).sort((a, b) => a - b),
        name,
      ).toEqual(expected);
    }
    // straight on and nearest first: camera 0 for the front face's centre, camera 3 for the back's
    expect(
      camerasSeeingPoint(scene.entries, INSPECTION_BOX.points.frontCentre.point, { normal: INSPECTION_BOX.points.frontCentre.normal })[0]!
        .camera.id,
    ).toBe(0);
    expect(
      camerasSeeingPoint(scene.entries, INSPECTION_BOX.points.backCentre.point, { normal: INSPECTION_BOX.points.backCentre.normal })[0]!
        .camera.id,
    ).toBe(3);
  });

  it('without a normal there is no occlusion test: the cameras behind the box still have the front centre in their image', () => {
    const views = camerasSeeingPoint(scene.entries, INSPECTION_BOX.points.frontCentre.point);
    expect(views.map((view) => view.camera.id).sort()).toEqual([0, 1, 2, 3, 4, 5]);
    // but the ones facing it rank first (nearer)
    expect(
      views
        .slice(0, 3)
        .map((view) => view.camera.id)
        .sort(),
    ).toEqual([0, 1, 5]);
  });

  it('puts every named point where three.js drew it (within 0.5 px), on the black dot of the photo', () => {
    let checked = 0;
    for (const [name, expected] of Object.entries(facing) as [SurfacePointName, number[]][]) {
      const { point, normal } = INSPECTION_BOX.points[name];
      for (const view of camerasSeeingPoint(scene.entries, point, { normal })) {
        const drawn = drawnPixel(view.camera.id, point)!;
        expect(Math.abs(view.u - drawn.u), `${name} cam ${view.camera.id} u`).toBeLessThan(0.5);
        expect(Math.abs(view.v - drawn.v), `${name} cam ${view.camera.id} v`).toBeLessThan(0.5);
        expect(colourAt(view.camera.id, view.u, view.v), `${name} cam ${view.camera.id}`).toEqual([0, 0, 0]);
        checked += 1;
      }
      expect(expected.length).toBeGreaterThan(0);
    }
    expect(checked).toBe(3 + 3 + 2 + 6 + 3);
  });

  it('lands unnamed surface points on their face colour, and a point beside the box on the background', () => {
    const cases: { point: ModelPoint; normal: ModelPoint; face: string; cameras: number[] }[] = [
      { point: { x: -0.6, y: 0.3, z: 0.5 }, normal: { x: 0, y: 0, z: 1 }, face: '+z', cameras: [0, 1, 5] },
      { point: { x: 1, y: 0.3, z: -0.25 }, normal: { x: 1, y: 0, z: 0 }, face: '+x', cameras: [1, 2] },
      { point: { x: -1, y: 0.6, z: 0.2 }, normal: { x: -1, y: 0, z: 0 }, face: '-x', cameras: [4, 5] },
      { point: { x: 0.4, y: 1, z: -0.3 }, normal: { x: 0, y: 1, z: 0 }, face: '+y', cameras: [0, 1, 2, 3, 4, 5] },
      { point: { x: 0.7, y: 0.25, z: -0.5 }, normal: { x: 0, y: 0, z: -1 }, face: '-z', cameras: [2, 3, 4] },
    ];
    for (const { point, normal, face, cameras } of cases) {
      const views = camerasSeeingPoint(scene.entries, point, { normal });
      expect(views.map((view) => view.camera.id).sort(), face).toEqual(cameras);
      for (const view of views) expect(colourAt(view.camera.id, view.u, view.v), `${face} cam ${view.camera.id}`).toEqual(faceColour(face));
    }
    // 0.3 m in front of the front face, beside the box's left end: background in camera 0's photo
    const beside = camerasSeeingPoint(scene.entries, { x: -1.4, y: 0.5, z: 0.8 }).find((view) => view.camera.id === 0)!;
    expect(colourAt(0, beside.u, beside.v)).toEqual(hex(SCENE_BACKGROUND));
  });
});
