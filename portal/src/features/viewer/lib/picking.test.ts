/**
 * Picking a point and model coordinates (three.js without WebGL: rays against plain meshes; the
 * splat's own raycasting is exercised in the browser, tests/e2e/inspect-pick.test.ts).
 */
import { BoxGeometry, Group, Mesh, MeshBasicMaterial, PerspectiveCamera, Vector3, type Object3D } from 'three';
import { describe, expect, it } from 'vitest';
import {
  canvasToNdc,
  flyToPlacement,
  modelToWorld,
  nearestHit,
  upInModel,
  worldDirectionToModel,
  worldToModel,
  type PickTarget,
} from './picking.js';

const W = 800;
const H = 600;

function camera(from: [number, number, number], at: [number, number, number] = [0, 0, 0]): PerspectiveCamera {
  const c = new PerspectiveCamera(50, W / H, 0.01, 1000);
  c.position.set(...from);
  c.lookAt(...at);
  c.updateMatrixWorld();
  return c;
}

/** A 2×1×1 box centred at `at`. */
function box(at: [number, number, number] = [0, 0, 0]): Mesh {
  const mesh = new Mesh(new BoxGeometry(2, 1, 1), new MeshBasicMaterial());
  mesh.position.set(...at);
  return mesh;
}

/** A y-down splat frame: the viewer's 180° turn about x. */
function flipped(): Group {
  const group = new Group();
  group.quaternion.set(1, 0, 0, 0);
  group.updateMatrixWorld(true);
  return group;
}

const target = (part: 'splat' | 'mesh', object: Object3D, visible = true): PickTarget => ({ part, object, visible });

describe('canvasToNdc', () => {
  it('maps the corners and the centre of the canvas', () => {
    expect(canvasToNdc(0, 0, W, H).toArray()).toEqual([-1, 1]);
    expect(canvasToNdc(W, H, W, H).toArray()).toEqual([1, -1]);
    expect(canvasToNdc(W / 2, H / 2, W, H).toArray()).toEqual([0, -0]);
  });
});

describe('nearestHit', () => {
  it('hits the face of a box under the centre of the view, at the right distance', () => {
    const hit = nearestHit(camera([5, 0, 0]), W / 2, H / 2, W, H, [target('mesh', box())]);
    expect(hit?.part).toBe('mesh');
    expect(hit?.point.x).toBeCloseTo(1, 6);
    expect(hit?.distance).toBeCloseTo(4, 6);
  });

  it('returns null when the ray misses, and never picks a hidden part', () => {
    expect(nearestHit(camera([5, 0, 0]), 5, 5, W, H, [target('mesh', box())])).toBeNull();
    expect(nearestHit(camera([5, 0, 0]), W / 2, H / 2, W, H, [target('mesh', box(), false)])).toBeNull();
  });

  it('takes the nearest hit over every visible part', () => {
    const near = box([2, 0, 0]); // front face at x = 3
    const far = box(); // front face at x = 1
    const hit = nearestHit(camera([10, 0, 0]), W / 2, H / 2, W, H, [target('splat', far), target('mesh', near)]);
    expect(hit?.part).toBe('mesh');
    expect(hit?.point.x).toBeCloseTo(3, 6);
    const hidden = nearestHit(camera([10, 0, 0]), W / 2, H / 2, W, H, [target('splat', far), target('mesh', near, false)]);
    expect(hidden?.part).toBe('splat');
    expect(hidden?.point.x).toBeCloseTo(1, 6);
  });

  it('finds the meshes inside a GLB scene (recursively)', () => {
    const scene = new Group();
    const inner = new Group();
    inner.add(box());
    scene.add(inner);
    expect(nearestHit(camera([0, 0, 5]), W / 2, H / 2, W, H, [target('mesh', scene)])?.point.z).toBeCloseTo(0.5, 6);
  });
});

describe('model coordinates', () => {
  it('undo the y-down fix (a world point of a flipped frame has y and z negated)', () => {
    const frame = flipped();
    const model = worldToModel(new Vector3(1, 2, 3), frame);
    expect(model.x).toBeCloseTo(1, 9);
    expect(model.y).toBeCloseTo(-2, 9);
    expect(model.z).toBeCloseTo(-3, 9);
    expect(
      modelToWorld(model, frame)
        .toArray()
        .map((v) => Math.round(v * 1e9) / 1e9),
    ).toEqual([1, 2, 3]);
  });

  it('are the world coordinates for an unturned frame', () => {
    expect(worldToModel(new Vector3(1, 2, 3), new Group())).toEqual({ x: 1, y: 2, z: 3 });
  });

  it('pick a point of a flipped box in its file coordinates', () => {
    const frame = flipped();
    const mesh = box([0, 3, 0]); // in the file: centre y = 3, shown at y = −3
    frame.add(mesh);
    const hit = nearestHit(camera([5, -3, 0], [0, -3, 0]), W / 2, H / 2, W, H, [target('mesh', mesh)]);
    expect(hit).not.toBeNull();
    const model = worldToModel(hit!.point, frame);
    expect(model.x).toBeCloseTo(1, 6);
    expect(model.y).toBeCloseTo(3, 6);
  });

  it('give the displayed up axis in the model frame', () => {
    expect(upInModel(new Group())).toEqual({ x: 0, y: 1, z: 0 });
    const up = upInModel(flipped());
    expect(up.x).toBeCloseTo(0, 9);
    expect(up.y).toBeCloseTo(-1, 9);
    expect(up.z).toBeCloseTo(0, 9);
    expect(Object.is(up.x, -0)).toBe(false);
  });
});

describe('flyToPlacement', () => {
  it('moves the target onto the point and the camera closer, from the same direction, looking at it', () => {
    const fly = flyToPlacement(new Vector3(0, 0, 10), new Vector3(0, 0, 0), new Vector3(1, 1, 1), 2);
    expect(fly.target.toArray()).toEqual([1, 1, 1]);
    expect(fly.position.toArray().map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 1, 3]);
    const forward = new Vector3(0, 0, -1).applyQuaternion(fly.quaternion);
    expect(forward.z).toBeCloseTo(-1, 9);
  });

  it('never moves the camera further away than it was from its target', () => {
    const fly = flyToPlacement(new Vector3(0, 0, 1), new Vector3(0, 0, 0), new Vector3(5, 0, 0), 10);
    expect(fly.position.distanceTo(fly.target)).toBeCloseTo(1, 9);
  });
});

describe('surface normals', () => {
  it('come with a mesh hit, facing the camera, and turn into the model frame', () => {
    const hit = nearestHit(camera([5, 0, 0]), W / 2, H / 2, W, H, [target('mesh', box())]);
    expect(hit?.normal?.toArray().map((v) => Math.round(v * 1e9) / 1e9)).toEqual([1, 0, 0]);
    const up = worldDirectionToModel(new Vector3(0, 1, 0), flipped());
    expect(up.y).toBeCloseTo(-1, 9);
  });
});
