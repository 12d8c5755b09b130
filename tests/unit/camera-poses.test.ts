// shared/camera-poses.ts: hand-computed poses (identity, a 90° yaw, a camera looking at the
// origin), three.js agreeing on the convention, frustums, depths, photo matching, and the real
// 3DGS cameras.json of ../shared/samples (skipped with a printed reason when absent).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Group, Object3D, PerspectiveCamera, Quaternion, Vector3 } from 'three';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FOV_Y,
  Y_DOWN_TO_Y_UP,
  cameraAxes,
  cameraFrustum,
  cameraIntrinsics,
  cameraPose,
  cameraToWorld,
  cameraView,
  camerasFocus,
  camerasSeeing,
  lineSegments,
  lookAtRotation,
  makeProjector,
  matchCameraImage,
  matchCameraImages,
  matrixFromQuaternion,
  projectPoint,
  quaternionFromMatrix,
  rotatePoint,
  rotatePose,
  suggestedFrustumDepth,
  unprojectPixel,
  worldToCamera,
} from '@shared/camera-poses.js';
import type { CameraLike, Mat3, Quat, Vec3 } from '@shared/camera-poses.js';
import { parseCameraMetadata } from '@shared/camera-metadata.js';
import { isAppError } from '@shared/errors.js';
import type { CameraMetadataEntry } from '@shared/types.js';
import { samplePath } from '../support/paths.js';

const SAMPLE = samplePath('3dgs-konstruct');
const hasSample = existsSync(resolve(SAMPLE, 'cameras.json')) && existsSync(resolve(SAMPLE, 'point_cloud/iteration_7000/point_cloud.ply'));
if (!hasSample) console.warn(`[camera-poses] ${SAMPLE} is absent: the real-sample checks are skipped (see ../shared/samples/SOURCES.md)`);

const I: Mat3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];
const S = Math.SQRT1_2;

function cam(rotation: Mat3, position: Vec3 = [0, 0, 0], extra: Partial<CameraLike> = {}): CameraLike {
  return { position, rotation, width: 200, height: 100, fx: 100, fy: 100, ...extra };
}

const close = (actual: readonly number[], expected: readonly number[], digits = 9) => {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, digits));
};

/** The pose applied to a three.js object: where its local −z (view) and +y (up) point in world. */
function objectAxes(pose: { position: Vec3; quaternion: Quat }): { view: Vec3; up: Vec3 } {
  const q = new Quaternion().fromArray(pose.quaternion);
  return { view: new Vector3(0, 0, -1).applyQuaternion(q).toArray(), up: new Vector3(0, 1, 0).applyQuaternion(q).toArray() };
}

describe('cameraPose (3DGS camera-to-world, OpenCV axes → three.js, looking down −z)', () => {
  it('identity rotation: looks along world +z with image-down = world +y, so R_gl is a 180° turn about x', () => {
    const pose = cameraPose(cam(I, [1, 2, 3]));
    expect(pose.position).toEqual([1, 2, 3]);
    close(pose.quaternion, [1, 0, 0, 0]);
    const { view, up } = objectAxes(pose);
    close(view, [0, 0, 1]);
    close(up, [0, -1, 0]);
  });

  it('a 90° yaw in a y-up world: the three.js camera turned +90° about y (looking down −x)', () => {
    // columns: right (0,0,−1), down (0,−1,0), forward (−1,0,0)
    const rotation: Mat3 = [
      [0, 0, -1],
      [0, -1, 0],
      [-1, 0, 0],
    ];
    const pose = cameraPose(cam(rotation));
    close(pose.quaternion, [0, S, 0, S]);
    const { view, up } = objectAxes(pose);
    close(view, [-1, 0, 0]);
    close(up, [0, 1, 0]);
  });

  it('a 90° yaw in a y-down world (rotation = Ry(90°)): looks along +x, image top towards −y', () => {
    const rotation: Mat3 = [
      [0, 0, 1],
      [0, 1, 0],
      [-1, 0, 0],
    ];
    const pose = cameraPose(cam(rotation));
    // R_gl = [[0,0,−1],[0,−1,0],[−1,0,0]]: 180° about (1,0,−1)/√2
    close(matrixFromQuaternion(pose.quaternion).flat(), [0, 0, -1, 0, -1, 0, -1, 0, 0]);
    expect(Math.abs(pose.quaternion[0])).toBeCloseTo(S, 9);
    expect(pose.quaternion[2]).toBeCloseTo(-pose.quaternion[0], 9);
    const { view, up } = objectAxes(pose);
    close(view, [1, 0, 0]);
    close(up, [0, -1, 0]);
  });

  it('a camera looking at the origin agrees with three.js PerspectiveCamera.lookAt', () => {
    const eye: Vec3 = [10, 4, -3];
    const rotation = lookAtRotation(eye, [0, 0, 0], [0, 1, 0]);
    const three = new PerspectiveCamera();
    three.position.set(...eye);
    three.lookAt(0, 0, 0);
    const pose = cameraPose(cam(rotation, eye));
    close(pose.quaternion, three.quaternion.toArray() as number[]);
    const p = projectPoint(cam(rotation, eye), [0, 0, 0]);
    expect(p?.x).toBeCloseTo(100, 9);
    expect(p?.y).toBeCloseTo(50, 9);
    expect(p?.depth).toBeCloseTo(Math.hypot(...eye), 9);
  });

  it('lookAtRotation in a y-down world from (0,0,−5) to the origin is the identity', () => {
    close(lookAtRotation([0, 0, -5], [0, 0, 0]).flat(), I.flat());
    expect(() => lookAtRotation([0, 0, 0], [0, 0, 0])).toThrow(/own position/);
    expect(() => lookAtRotation([0, 5, 0], [0, 0, 0])).toThrow(/parallel/);
  });

  it('refuses malformed and non-rotation matrices with invalid-argument; tolerates rounding', () => {
    const bad: unknown[] = [
      [
        [1, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      [
        [2, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      [
        [-1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ], // a reflection
      [
        [Number.NaN, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    ];
    for (const rotation of bad) {
      let caught: unknown;
      try {
        cameraPose(cam(rotation as Mat3));
      } catch (error) {
        caught = error;
      }
      expect(isAppError(caught, 'invalid-argument'), JSON.stringify(rotation)).toBe(true);
    }
    expect(() => cameraPose({ position: [0, 0] as unknown as Vec3, rotation: I })).toThrow(/position/);
    const rounded: Mat3 = [
      [0.999999, 0, 0],
      [0, 1, 0.000001],
      [0, 0, 1],
    ];
    close(cameraPose(cam(rounded)).quaternion, [1, 0, 0, 0], 5);
    const axes = cameraAxes({ rotation: rounded });
    expect(Math.hypot(...axes.right)).toBeCloseTo(1, 12);
  });

  it('quaternionFromMatrix and matrixFromQuaternion invert each other (w ≥ 0)', () => {
    for (const q of [
      [0.1, -0.7, 0.3, 0.5],
      [0.9, 0.1, 0.1, -0.2],
      [0, 0, 1, 0],
      [0.5, 0.5, 0.5, 0.5],
    ] as Quat[]) {
      const n = Math.hypot(...q) * (q[3] < 0 ? -1 : 1);
      const back = quaternionFromMatrix(matrixFromQuaternion(q));
      if (q[3] === 0) close(matrixFromQuaternion(back).flat(), matrixFromQuaternion(q).flat());
      else
        close(
          back,
          q.map((v) => v / n),
        );
    }
  });
});

describe('rotatePose / rotatePoint (the viewer turns y-down splats 180° about x)', () => {
  it('is what three.js gives for a pose inside a group with quaternion (1, 0, 0, 0)', () => {
    const rotation = lookAtRotation([3, -2, 4], [0, -1, 0]); // y-down world
    const local = cameraPose(cam(rotation, [3, -2, 4]));
    const group = new Group();
    group.quaternion.set(1, 0, 0, 0);
    const child = new Object3D();
    child.position.fromArray(local.position);
    child.quaternion.fromArray(local.quaternion);
    group.add(child);
    group.updateMatrixWorld(true);
    const scene = rotatePose(local, Y_DOWN_TO_Y_UP);
    close(scene.position, child.getWorldPosition(new Vector3()).toArray(), 12);
    const world = child.getWorldQuaternion(new Quaternion()).toArray();
    const sign = world[3]! < 0 ? -1 : 1;
    close(
      scene.quaternion,
      world.map((v) => v * sign),
      12,
    );
    expect(scene.position).toEqual([3, 2, -4]);
    // in the turned scene the camera is upright: its up has a positive y
    expect(objectAxes(scene).up[1]).toBeGreaterThan(0.9);
    close(rotatePoint(Y_DOWN_TO_Y_UP, [1, 2, 3]), [1, -2, -3]);
  });

  it('cameraView: the turned pose and the lens for a PerspectiveCamera', () => {
    const entry = cam(lookAtRotation([3, -2, 4], [0, -1, 0]), [3, -2, 4], { fy: 50 });
    const view = cameraView(entry, Y_DOWN_TO_Y_UP);
    expect(view).toMatchObject({ ...rotatePose(cameraPose(entry), Y_DOWN_TO_Y_UP), aspect: 2 });
    expect(view.fovYDegrees).toBeCloseTo(90, 9);
    expect(cameraView(entry).position).toEqual([3, -2, 4]);
  });
});

describe('intrinsics, projection and frustums', () => {
  it('uses fx/fy, one for both, or a 60° vertical field of view', () => {
    expect(cameraIntrinsics({ width: 200, height: 100, fx: 100, fy: 50 })).toMatchObject({
      fx: 100,
      fy: 50,
      cx: 100,
      cy: 50,
      aspect: 2,
      fromEntry: true,
    });
    expect(cameraIntrinsics({ width: 200, height: 100, fy: 80 })).toMatchObject({ fx: 80, fy: 80 });
    const d = cameraIntrinsics({ width: 200, height: 100, fx: 'x', fy: -1 });
    expect(d.fromEntry).toBe(false);
    expect(d.fovY).toBeCloseTo(DEFAULT_FOV_Y, 12);
    expect(d.fovYDegrees).toBeCloseTo(60, 9);
    expect(d.fx).toBeCloseTo(50 / Math.tan(Math.PI / 6), 9);
    expect(cameraIntrinsics({ width: 200, height: 100, fx: 100 }).fovX).toBeCloseTo(Math.PI / 2, 12);
    expect(() => cameraIntrinsics({ width: 0, height: 100 })).toThrow(/width and height/);
  });

  it('projects, unprojects and changes frames consistently', () => {
    const c = cam(lookAtRotation([4, -3, 7], [0, -2, 0]), [4, -3, 7], { fx: 120, fy: 110 });
    const p: Vec3 = [0.5, -2.5, 0.3];
    const pixel = projectPoint(c, p)!;
    close(unprojectPixel(c, [pixel.x, pixel.y], pixel.depth), p);
    close(cameraToWorld(c, worldToCamera(c, p)), p);
    expect(makeProjector(c)(p)).toEqual(pixel);
    expect(projectPoint(cam(I), [0, 0, -1])).toBeNull();
    expect(projectPoint(cam(I), [0, 0, 1])).toEqual({ x: 100, y: 50, depth: 1, inside: true });
    expect(projectPoint(cam(I), [1.5, 0, 1])?.inside).toBe(false);
  });

  it('cameraFrustum: hand-computed corners and up triangle; lineSegments: 11 segments a frustum', () => {
    const f = cameraFrustum(cam(I), 2);
    expect(f.apex).toEqual([0, 0, 0]);
    close(f.corners.flat(), [-2, -1, 2, 2, -1, 2, 2, 1, 2, -2, 1, 2]);
    close(f.up.flat(), [-0.8, -1, 2, 0.8, -1, 2, 0, -1.4, 2]);
    const segments = lineSegments(f);
    expect(segments).toHaveLength(66);
    close(segments.slice(0, 6), [0, 0, 0, -2, -1, 2]);
    expect(lineSegments([f, f])).toHaveLength(132);
    // the default field of view: the top edge is 30° above the axis
    const g = cameraFrustum({ position: [0, 0, 0], rotation: I, width: 200, height: 100 }, 1);
    expect(-g.corners[0][1]).toBeCloseTo(Math.tan(Math.PI / 6), 12);
    expect(() => cameraFrustum(cam(I), 0)).toThrow(/depth/);
  });

  it('suggestedFrustumDepth: half the neighbour spacing, capped by the ring size, a fallback otherwise', () => {
    const line = Array.from({ length: 10 }, (_, i) => ({ position: [i, 0, 0] as Vec3 }));
    expect(suggestedFrustumDepth(line)).toBeCloseTo(0.5, 12);
    const ring = (n: number, r: number) =>
      Array.from({ length: n }, (_, i) => ({
        position: [r * Math.cos((2 * Math.PI * i) / n), 0, r * Math.sin((2 * Math.PI * i) / n)] as Vec3,
      }));
    expect(suggestedFrustumDepth(ring(20, 10))).toBeCloseTo(0.5 * 2 * 10 * Math.sin(Math.PI / 20), 9);
    expect(suggestedFrustumDepth(ring(4, 10))).toBeCloseTo(2.5, 9); // capped at a quarter of the radius
    expect(suggestedFrustumDepth([{ position: [1, 1, 1] }])).toBe(1);
    expect(suggestedFrustumDepth([{ position: [1, 1, 1] }, { position: [1, 1, 1] }], { fallback: 3 })).toBe(3);
    expect(suggestedFrustumDepth([])).toBe(1);
  });

  it('camerasFocus finds where a ring looks; camerasSeeing lists the cameras that see a point, nearest first', () => {
    const centre: Vec3 = [1, -5, 2];
    const ring = Array.from({ length: 8 }, (_, i) => {
      const a = (2 * Math.PI * i) / 8;
      const eye: Vec3 = [centre[0] + (10 + i) * Math.cos(a), -8, centre[2] + (10 + i) * Math.sin(a)];
      return { ...cam(lookAtRotation(eye, centre), eye), id: i };
    });
    close(camerasFocus(ring)!, centre, 9);
    expect(camerasFocus([])).toBeNull();
    expect(camerasFocus([ring[0]!, ring[0]!])).toBeNull();
    const seeing = camerasSeeing(ring, centre);
    expect(seeing.map((s) => s.entry.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(camerasSeeing(ring, [1000, 0, 0]).length).toBeLessThan(8);
  });
});

describe('matchCameraImage (img_name with or without extension, SOURCES.md)', () => {
  const paths = [
    'models/u/images/frame_00001.png',
    'models/u/images/frame_00002.JPG',
    'models/u/images/frame_00003.jpg',
    'models/u/images/frame_00003.png',
    'models/u/images/IMG.0004.jpeg',
  ];
  it.each([
    ['frame_00001.png', 'models/u/images/frame_00001.png'],
    ['frame_00001', 'models/u/images/frame_00001.png'],
    ['frame_00001.jpg', 'models/u/images/frame_00001.png'],
    ['frame_00002.jpg', 'models/u/images/frame_00002.JPG'],
    ['frame_00003.png', 'models/u/images/frame_00003.png'],
    ['frame_00003.PNG', 'models/u/images/frame_00003.png'],
    ['frame_00003.tif', 'models/u/images/frame_00003.jpg'],
    ['frame_00003', 'models/u/images/frame_00003.jpg'],
    ['images/frame_00003.jpg', 'models/u/images/frame_00003.jpg'],
    ['IMG.0004', 'models/u/images/IMG.0004.jpeg'],
    ['IMG.0004.jpeg', 'models/u/images/IMG.0004.jpeg'],
    ['Frame_00001', null],
    ['frame_0001', null],
    ['frame_00009.png', null],
    ['', null],
  ])('%s → %s', (imgName, expected) => {
    expect(matchCameraImage(imgName, paths)).toBe(expected);
  });

  it('matches every camera of a list, null where no photo', () => {
    const entries = [{ img_name: 'frame_00001' }, { img_name: 'nothing' }];
    expect(matchCameraImages(entries, paths)).toEqual([
      { entry: entries[0], imagePath: 'models/u/images/frame_00001.png', matchedBy: 'name' },
      { entry: entries[1], imagePath: null, matchedBy: null },
    ]);
  });

  it("falls back to the 3DGS render script's index names only when no name matches at all", () => {
    // render.py writes the ground-truth photos as {idx:05d}.png: the sample's images/00000.png… (SOURCES.md)
    const renders = ['models/u/images/00000.png', 'models/u/images/00002.png', 'models/u/images/00150.png', 'models/u/images/notes.png'];
    const cameras = [0, 1, 2, 150, 151].map((id) => ({ id, img_name: `frame_${String(id + 1).padStart(5, '0')}.jpg` }));
    expect(matchCameraImages(cameras, renders).map((m) => [m.entry.id, m.imagePath, m.matchedBy])).toEqual([
      [0, 'models/u/images/00000.png', 'index'],
      [1, null, null],
      [2, 'models/u/images/00002.png', 'index'],
      [150, 'models/u/images/00150.png', 'index'],
      [151, null, null],
    ]);
    // one name match anywhere: names only
    const mixed = [...renders, 'models/u/images/frame_00002.jpg'];
    expect(matchCameraImages(cameras, mixed).map((m) => m.matchedBy)).toEqual([null, 'name', null, null, null]);
    // an id that is not an integer never matches by index
    expect(matchCameraImages([{ id: 0.5, img_name: 'x' }], renders)[0]!.imagePath).toBeNull();
  });
});

/** Splat centres of a binary little-endian 3DGS PLY (x, y, z float properties). */
function readPlyCentres(bytes: Buffer): Vec3[] {
  const end = bytes.indexOf('end_header\n');
  const header = bytes.subarray(0, end).toString('latin1').split('\n');
  const count = Number(header.find((l) => l.startsWith('element vertex'))?.split(' ')[2]);
  const props = header.filter((l) => l.startsWith('property float')).map((l) => l.split(' ')[2]);
  const stride = props.length * 4;
  const [ix, iy, iz] = ['x', 'y', 'z'].map((p) => props.indexOf(p) * 4);
  const base = end + 'end_header\n'.length;
  return Array.from(
    { length: count },
    (_, i) =>
      [
        bytes.readFloatLE(base + i * stride + ix!),
        bytes.readFloatLE(base + i * stride + iy!),
        bytes.readFloatLE(base + i * stride + iz!),
      ] as Vec3,
  );
}

describe('the real 3DGS output (../shared/samples/3dgs-konstruct)', () => {
  it.skipIf(!hasSample)('every camera has a pose; image-down is world +y (y-down), so turned 180° about x the cameras are upright', () => {
    const parsed = parseCameraMetadata(readFileSync(resolve(SAMPLE, 'cameras.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    const cameras = parsed.cameras;
    expect(cameras).toHaveLength(304);
    const downY = cameras.map((c) => cameraAxes(c).down[1]);
    expect(downY.filter((y) => y > 0.9).length / cameras.length).toBeGreaterThan(0.9);
    const upright = cameras.filter((c) => objectAxes(rotatePose(cameraPose(c), Y_DOWN_TO_Y_UP)).up[1] > 0.9);
    expect(upright.length / cameras.length).toBeGreaterThan(0.9);
    // fx/fy are pixels of width×height: a portrait phone video, about 41° × 68°
    const k = cameraIntrinsics(cameras[0]!);
    expect(k.fromEntry).toBe(true);
    expect(k.fovYDegrees).toBeGreaterThan(60);
    expect(k.fovYDegrees).toBeLessThan(75);
    // frustums neither vanish nor swallow the orbit: a fraction of the distance to the focus
    const focus = camerasFocus(cameras)!;
    const depth = suggestedFrustumDepth(cameras);
    const distance = Math.hypot(...cameras[0]!.position.map((v, i) => v - focus[i]!));
    expect(depth).toBeGreaterThan(distance / 200);
    expect(depth).toBeLessThan(distance / 4);
  });

  it.skipIf(!hasSample)('the cameras look at one region: their viewing axes meet, most within 15° of the common focus', () => {
    const cameras = JSON.parse(readFileSync(resolve(SAMPLE, 'cameras.json'), 'utf8')) as CameraMetadataEntry[];
    const focus = camerasFocus(cameras);
    expect(focus).not.toBeNull();
    const angles = cameras.map((c) => {
      const p = worldToCamera(c, focus!);
      return (Math.atan2(Math.hypot(p[0], p[1]), p[2]) * 180) / Math.PI;
    });
    expect(angles.every((a) => a < 45)).toBe(true);
    expect(angles.filter((a) => a < 15).length / angles.length).toBeGreaterThan(0.9);
    expect(camerasSeeing(cameras, focus!).length / cameras.length).toBeGreaterThan(0.95);
  });

  it.skipIf(!hasSample)(
    'against the splat of the same folder (a different scene, SOURCES.md): most cameras do not see its median (printed)',
    () => {
      // SOURCES.md: "The splat and the cameras are of different scenes". The check the viewer would
      // want — cameras look at the median of the splat centres — cannot hold here; the same check
      // on generated data, where it must hold, is in tests/unit/demo-data.test.ts.
      const cameras = JSON.parse(readFileSync(resolve(SAMPLE, 'cameras.json'), 'utf8')) as CameraMetadataEntry[];
      const centres = readPlyCentres(readFileSync(resolve(SAMPLE, 'point_cloud/iteration_7000/point_cloud.ply')));
      expect(centres).toHaveLength(9080);
      const med = [0, 1, 2].map((k) => centres.map((c) => c[k]!).sort((a, b) => a - b)[centres.length >> 1]!) as Vec3;
      const seeing = camerasSeeing(cameras, med).length;
      console.info(
        `[camera-poses] sample splat median ${med.map((v) => v.toFixed(1)).join(', ')}: in the image of ${seeing} of ${cameras.length} cameras (different scenes, SOURCES.md)`,
      );
      expect(seeing).toBeLessThan(cameras.length / 2);
    },
  );
});
