/**
 * Camera frustums and picking them on the screen (three.js without WebGL: geometry and
 * projection only; the drawn pixels are checked in tests/e2e/viewer.test.ts).
 */
import { Group, PerspectiveCamera, Vector3, type LineSegments } from 'three';
import { describe, expect, it } from 'vitest';
import { lookAtRotation, type Vec3 } from '@shared/camera-poses.js';
import { CameraOverlay } from './camera-overlay.js';

const W = 800;
const H = 600;

/** A camera of the metadata at `eye` looking at the origin (y-down world, as 3DGS writes). */
const entry = (eye: Vec3) => ({ position: eye, rotation: lookAtRotation(eye, [0, 0, 0]), width: 640, height: 480, fx: 500, fy: 500 });

/** A viewer camera at `from` looking at the origin. */
function viewer(from: Vec3): PerspectiveCamera {
  const camera = new PerspectiveCamera(50, W / H, 0.01, 1000);
  camera.position.set(...from);
  camera.lookAt(0, 0, 0);
  camera.updateMatrixWorld();
  return camera;
}

function screenOf(point: Vec3, camera: PerspectiveCamera): [number, number] {
  const v = new Vector3(...point).project(camera);
  return [((v.x + 1) / 2) * W, ((1 - v.y) / 2) * H];
}

describe('CameraOverlay', () => {
  const cameras = [
    { entry: entry([10, 0, 0]), hasPhoto: true },
    { entry: entry([0, 0, 10]), hasPhoto: false },
    {
      entry: {
        ...entry([-10, 0, 0]),
        rotation: [
          [2, 0, 0],
          [0, 1, 0],
          [0, 0, 1],
        ] as [Vec3, Vec3, Vec3],
      },
      hasPhoto: true,
    },
  ];

  it('draws the cameras with and without a photo apart, leaves out a malformed pose, and highlights the selected one', () => {
    const overlay = new CameraOverlay(cameras);
    expect(overlay.drawn).toEqual([true, true, false]);
    expect(overlay.depth).toBeGreaterThan(0);
    const lines = overlay.group.children as LineSegments[];
    // 11 segments, 22 points a frustum: one drawn camera without a photo, one with
    expect(lines.map((l) => l.geometry.getAttribute('position').count)).toEqual([22, 22]);
    overlay.select(0);
    expect(overlay.group.children).toHaveLength(3);
    expect(overlay.selected).toBe(0);
    overlay.select(null);
    expect(overlay.group.children).toHaveLength(2);
    expect(overlay.entryAt(2)).toBeNull();
    expect(overlay.entryAt(0)).toBe(cameras[0]!.entry);
    overlay.dispose();
  });

  it('picks the frustum whose lines pass under the pointer, within a few pixels, in the frame it is drawn in', () => {
    const overlay = new CameraOverlay(cameras);
    const frame = new Group();
    frame.add(overlay.group);
    const camera = viewer([30, 20, 30]);
    const [x0, y0] = screenOf([10, 0, 0], camera);
    expect(overlay.pick(camera, x0 + 2, y0 - 1, W, H)).toBe(0);
    const [x1, y1] = screenOf([0, 0, 10], camera);
    expect(overlay.pick(camera, x1, y1, W, H)).toBe(1);
    expect(overlay.pick(camera, 5, 5, W, H)).toBeNull();
    // The frame turns (the up-axis fix): the apex moves with it.
    frame.quaternion.set(1, 0, 0, 0);
    frame.updateMatrixWorld(true);
    const [xt, yt] = screenOf([0, 0, -10], camera);
    expect(overlay.pick(camera, xt, yt, W, H)).toBe(1);
    // Hidden frustums cannot be picked.
    overlay.group.visible = false;
    expect(overlay.pick(camera, xt, yt, W, H)).toBeNull();
  });

  it('ignores frustums behind the viewer', () => {
    const overlay = new CameraOverlay([{ entry: entry([10, 0, 0]), hasPhoto: true }]);
    const camera = viewer([5, 0, 0]); // between the camera and the origin, looking away from it
    camera.lookAt(0, 0, 0);
    camera.updateMatrixWorld();
    expect(overlay.pick(camera, W / 2, H / 2, W, H)).toBeNull();
  });
});
