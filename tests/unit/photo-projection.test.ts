// shared/photo-projection.ts (the viewer's "Photos that see this point"): projections of a known
// point into cameras of the real 3DGS sample's cameras.json, computed by hand below from the
// matrix entries written out (not with the code under test), within 0.5 px; points behind a
// camera or outside its image excluded; the ranking by distance and angle; cameras without
// fx/fy as shared/camera-poses.ts treats them. The real-sample checks are skipped with a printed
// reason when ../shared/samples is absent.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cameraIntrinsics, DEFAULT_FOV_Y, projectPoint } from '@shared/camera-poses.js';
import { isAppError } from '@shared/errors.js';
import { camerasSeeingPoint, pixelInPhoto, pointViewScore } from '@shared/photo-projection.js';
import type { CameraMetadataEntry, ModelPoint } from '@shared/types.js';
import { samplePath } from '../support/paths.js';

const CAMERAS = resolve(samplePath('3dgs-konstruct'), 'cameras.json');
const hasSample = existsSync(CAMERAS);
if (!hasSample)
  console.warn(`[photo-projection] ${CAMERAS} is absent: the real-sample checks are skipped (see ../shared/samples/SOURCES.md)`);
const sample: CameraMetadataEntry[] = hasSample ? JSON.parse(readFileSync(CAMERAS, 'utf8')) : [];

/** Within half a pixel. */
const nearPx = (actual: number, expected: number) => expect(Math.abs(actual - expected), `${actual} vs ${expected}`).toBeLessThan(0.5);

type M3 = CameraMetadataEntry['rotation'];
const IDENTITY: M3 = [
  [1, 0, 0],
  [0, 1, 0],
  [0, 0, 1],
];

/** A synthetic camera: identity rotation (looks down world +z, image down = world +y), 200×100 px, fx = fy = 100. */
function cam(position: [number, number, number], extra: Partial<CameraMetadataEntry> = {}): CameraMetadataEntry {
  return { id: 0, img_name: 'a.jpg', position, rotation: IDENTITY, width: 200, height: 100, fx: 100, fy: 100, ...extra };
}

describe.skipIf(!hasSample)('projection into the real sample cameras.json, by hand', () => {
  // The point P = (−0.5, 0.2, 0.3) of the sample's world, seen by cameras 0, 100 and 150 (three
  // sides of the capture orbit). For each: d = P − position; c = rotationᵀ·d, i.e. c.x = column 0
  // of rotation · d (rotation[0][0]·d.x + rotation[1][0]·d.y + rotation[2][0]·d.z), c.y with
  // column 1, c.z with column 2; u = fx·c.x/c.z + 1062/2, v = fy·c.y/c.z + 1893/2.
  const P: ModelPoint = { x: -0.5, y: 0.2, z: 0.3 };
  const fx = 1402.6909979105187; // every camera of the sample has these
  const fy = 1401.170026727728;

  it('the entries written out below are those of the file', () => {
    expect(sample).toHaveLength(304);
    for (const i of [0, 100, 150]) {
      expect(sample[i]!.width).toBe(1062);
      expect(sample[i]!.height).toBe(1893);
      expect(sample[i]!.fx).toBe(fx);
      expect(sample[i]!.fy).toBe(fy);
    }
    expect(sample[0]!.position).toEqual([-2.39484296043598, -0.3285242355952652, -4.201444317712193]);
    expect(sample[0]!.rotation).toEqual([
      [0.8598260724178763, -0.053202428056327564, 0.5078076671726808],
      [0.010148361391046823, 0.9961407776711818, 0.08718120107987606],
      [-0.5104861760630992, -0.06980725398957015, 0.8570477299070981],
    ]);
    expect(sample[100]!.position).toEqual([4.029818996241172, 0.28671945245409797, 2.5616376648420767]);
    expect(sample[100]!.rotation).toEqual([
      [-0.6045273216149465, -0.05921597129420677, -0.7943803787636894],
      [-0.03435947099771289, 0.9982434187757298, -0.048264931613959394],
      [0.7958430399103935, -0.0018829802512322713, -0.605500049720524],
    ]);
    expect(sample[150]!.position).toEqual([0.757532908666491, 0.3004902247677851, 5.360468675929658]);
    expect(sample[150]!.rotation).toEqual([
      [-0.9969573127479869, -0.06906467906880462, -0.03614120451001852],
      [-0.06811285533838417, 0.9973138964903089, -0.026937535243034754],
      [0.0379045577202045, -0.024393892113404276, -0.9989835747056078],
    ]);
  });

  it('camera 0 (frame_00001.jpg): u ≈ 339.80, v ≈ 978.59', () => {
    // d = (−0.5 + 2.39484296043598, 0.2 + 0.3285242355952652, 0.3 + 4.201444317712193)
    //   = (1.89484296043598, 0.5285242355952652, 4.501444317712193)
    const d = [-0.5 + 2.39484296043598, 0.2 + 0.3285242355952652, 0.3 + 4.201444317712193];
    // c.x = 0.85982607·1.89484296 + 0.01014836·0.52852424 − 0.51048618·4.50144432 = −0.66332606
    const cx = 0.8598260724178763 * d[0]! + 0.010148361391046823 * d[1]! + -0.5104861760630992 * d[2]!;
    // c.y = −0.05320243·1.89484296 + 0.99614078·0.52852424 − 0.06980725·4.50144432 = 0.11144083
    const cy = -0.053202428056327564 * d[0]! + 0.9961407776711818 * d[1]! + -0.06980725398957015 * d[2]!;
    // c.z = 0.50780767·1.89484296 + 0.08718120·0.52852424 + 0.85704773·4.50144432 = 4.86624579
    const cz = 0.5078076671726808 * d[0]! + 0.08718120107987606 * d[1]! + 0.8570477299070981 * d[2]!;
    expect(cx).toBeCloseTo(-0.66332606, 7);
    expect(cy).toBeCloseTo(0.11144083, 7);
    expect(cz).toBeCloseTo(4.86624579, 7);
    // u = 1402.69100 · (−0.66332606 / 4.86624579) + 531 = 1402.69100 · −0.13631165 + 531 = 339.797
    // v = 1401.17003 · (0.11144083 / 4.86624579) + 946.5 = 1401.17003 · 0.02290076 + 946.5 = 978.588
    const u = fx * (cx / cz) + 531;
    const v = fy * (cy / cz) + 946.5;
    expect(u).toBeCloseTo(339.797, 2);
    expect(v).toBeCloseTo(978.588, 2);

    const got = pixelInPhoto(sample[0]!, P)!;
    nearPx(got.u, 339.797);
    nearPx(got.v, 978.588);
    expect(got.depth).toBeCloseTo(4.86624579, 6);
  });

  it('camera 100 (frame_00101.jpg): u ≈ 796.61, v ≈ 998.90', () => {
    // d = (−0.5 − 4.029818996241172, 0.2 − 0.28671945245409797, 0.3 − 2.5616376648420767)
    //   = (−4.529818996241172, −0.08671945245409797, −2.2616376648420767)
    const d = [-0.5 - 4.029818996241172, 0.2 - 0.28671945245409797, 0.3 - 2.5616376648420767];
    // c.x = −0.60452732·−4.52981900 − 0.03435947·−0.08671945 + 0.79584304·−2.26163766 = 0.94147039
    const cx = -0.6045273216149465 * d[0]! + -0.03435947099771289 * d[1]! + 0.7958430399103935 * d[2]!;
    // c.y = −0.05921597·−4.52981900 + 0.99824342·−0.08671945 − 0.00188298·−2.26163766 = 0.18592913
    const cy = -0.05921597129420677 * d[0]! + 0.9982434187757298 * d[1]! + -0.0018829802512322713 * d[2]!;
    // c.z = −0.79438038·−4.52981900 − 0.04826493·−0.08671945 − 0.60550005·−2.26163766 = 4.97200656
    const cz = -0.7943803787636894 * d[0]! + -0.048264931613959394 * d[1]! + -0.605500049720524 * d[2]!;
    expect(cx).toBeCloseTo(0.94147039, 7);
    expect(cy).toBeCloseTo(0.18592913, 7);
    expect(cz).toBeCloseTo(4.97200656, 7);
    // u = 1402.69100 · (0.94147039 / 4.97200656) + 531 = 1402.69100 · 0.18935421 + 531 = 796.605
    // v = 1401.17003 · (0.18592913 / 4.97200656) + 946.5 = 1401.17003 · 0.03739519 + 946.5 = 998.897
    const u = fx * (cx / cz) + 531;
    const v = fy * (cy / cz) + 946.5;
    expect(u).toBeCloseTo(796.605, 2);
    expect(v).toBeCloseTo(998.897, 2);

    const got = pixelInPhoto(sample[100]!, P)!;
    nearPx(got.u, 796.605);
    nearPx(got.v, 998.897);
  });

  it('camera 150 (frame_00151.jpg): u ≈ 824.74, v ≈ 976.72', () => {
    // d = (−0.5 − 0.757532908666491, 0.2 − 0.3004902247677851, 0.3 − 5.360468675929658)
    //   = (−1.257532908666491, −0.1004902247677851, −5.060468675929658)
    const d = [-0.5 - 0.757532908666491, 0.2 - 0.3004902247677851, 0.3 - 5.360468675929658];
    // c.x = −0.99695731·−1.25753291 − 0.06811286·−0.10049022 + 0.03790456·−5.06046868 = 1.06873648
    const cx = -0.9969573127479869 * d[0]! + -0.06811285533838417 * d[1]! + 0.0379045577202045 * d[2]!;
    // c.y = −0.06906468·−1.25753291 + 0.99731390·−0.10049022 − 0.02439389·−5.06046868 = 0.11007534
    const cy = -0.06906467906880462 * d[0]! + 0.9973138964903089 * d[1]! + -0.024393892113404276 * d[2]!;
    // c.z = −0.03614120·−1.25753291 − 0.02693754·−0.10049022 − 0.99898357·−5.06046868 = 5.10348080
    const cz = -0.03614120451001852 * d[0]! + -0.026937535243034754 * d[1]! + -0.9989835747056078 * d[2]!;
    expect(cx).toBeCloseTo(1.06873648, 7);
    expect(cy).toBeCloseTo(0.11007534, 7);
    expect(cz).toBeCloseTo(5.1034808, 7);
    // u = 1402.69100 · (1.06873648 / 5.10348080) + 531 = 1402.69100 · 0.20941327 + 531 = 824.742
    // v = 1401.17003 · (0.11007534 / 5.10348080) + 946.5 = 1401.17003 · 0.02156868 + 946.5 = 976.721
    const u = fx * (cx / cz) + 531;
    const v = fy * (cy / cz) + 946.5;
    expect(u).toBeCloseTo(824.742, 2);
    expect(v).toBeCloseTo(976.721, 2);

    const got = pixelInPhoto(sample[150]!, P)!;
    nearPx(got.u, 824.742);
    nearPx(got.v, 976.721);
  });

  it('a point 2 units in front of camera 0 and 0.5 to its right lands at u = fx·0.5/2 + 531 ≈ 881.67, v = 946.5', () => {
    const [px, py, pz] = sample[0]!.position;
    const r = sample[0]!.rotation;
    // P = position + 2·(column 2: forward) + 0.5·(column 0: right), so c = (0.5, 0, 2)
    const point = {
      x: px + 2 * r[0][2] + 0.5 * r[0][0],
      y: py + 2 * r[1][2] + 0.5 * r[1][0],
      z: pz + 2 * r[2][2] + 0.5 * r[2][0],
    };
    // u = 1402.6909979105187 · 0.5 / 2 + 1062 / 2 = 350.67274948 + 531 = 881.67274948; v = 0 + 1893 / 2 = 946.5
    const got = pixelInPhoto(sample[0]!, point)!;
    nearPx(got.u, 881.6727);
    nearPx(got.v, 946.5);
    expect(got.depth).toBeCloseTo(2, 6);
    // 2 units behind camera 0: not in front, excluded
    const behind = { x: px - 2 * r[0][2], y: py - 2 * r[1][2], z: pz - 2 * r[2][2] };
    expect(pixelInPhoto(sample[0]!, behind)).toBeNull();
    // 1 unit in front and 1 to the right: u = fx + 531 ≈ 1933.7 > 1062, outside the image
    const outside = { x: px + r[0][2] + r[0][0], y: py + r[1][2] + r[1][0], z: pz + r[2][2] + r[2][0] };
    expect(pixelInPhoto(sample[0]!, outside)).toBeNull();
  });

  it('camerasSeeingPoint over all 304 cameras: the three above among them with the same pixels, every view inside its image, best score first', () => {
    const views = camerasSeeingPoint(sample, P);
    expect(views.length).toBeGreaterThan(3);
    expect(views.length).toBeLessThan(304);
    const byId = new Map(views.map((view) => [view.camera.id, view]));
    for (const [id, u, v] of [
      [0, 339.797, 978.588],
      [100, 796.605, 998.897],
      [150, 824.742, 976.721],
    ] as const) {
      const view = byId.get(id)!;
      expect(view, `camera ${id}`).toBeDefined();
      expect(view.index).toBe(id);
      nearPx(view.u, u);
      nearPx(view.v, v);
    }
    // camera 0: distance |d| = √(1.89484296² + 0.52852424² + 4.50144432²) = √(3.59043 + 0.27934 + 20.26300) = 4.91251
    expect(byId.get(0)!.distance).toBeCloseTo(4.91251, 4);
    // angle = atan(√(c.x² + c.y²) / c.z) = atan(0.67262 / 4.86625) = 7.870°
    expect(byId.get(0)!.angle).toBeCloseTo(7.87, 2);
    for (const view of views) {
      expect(view.u).toBeGreaterThanOrEqual(0);
      expect(view.u).toBeLessThan(1062);
      expect(view.v).toBeGreaterThanOrEqual(0);
      expect(view.v).toBeLessThan(1893);
      expect(view.score).toBeCloseTo(pointViewScore(view.distance, view.angle), 9);
    }
    for (let i = 1; i < views.length; i += 1) expect(views[i]!.score).toBeGreaterThanOrEqual(views[i - 1]!.score);
    // every camera left out is behind the point or has it outside its image, by camera-poses' own projection
    const seen = new Set(views.map((view) => view.index));
    sample.forEach((camera, i) => {
      if (seen.has(i)) return;
      const pixel = projectPoint(camera, [P.x, P.y, P.z]);
      expect(pixel === null || pixel.x < 0 || pixel.x >= 1062 || pixel.y < 0 || pixel.y >= 1893, `camera ${i}`).toBe(true);
    });
  });
});

describe('pixelInPhoto on synthetic cameras', () => {
  it('hand-computed pixels of an identity camera: u = 100·x/z + 100, v = 100·y/z + 50', () => {
    // point (0.5, −0.25, 2) from a camera at the origin: u = 100·0.25 + 100 = 125, v = 100·−0.125 + 50 = 37.5
    expect(pixelInPhoto(cam([0, 0, 0]), { x: 0.5, y: -0.25, z: 2 })).toEqual({ u: 125, v: 37.5, depth: 2 });
    // the same from a camera at (1, 1, 1): d = (−0.5, −1.25, 1): u = 100·−0.5 + 100 = 50, v = 100·−1.25 + 50 = −75: above the image
    expect(pixelInPhoto(cam([1, 1, 1]), { x: 0.5, y: -0.25, z: 2 })).toBeNull();
  });

  it('excludes points behind the camera and in its plane (depth ≤ 0)', () => {
    expect(pixelInPhoto(cam([0, 0, 0]), { x: 0, y: 0, z: -1 })).toBeNull();
    expect(pixelInPhoto(cam([0, 0, 0]), { x: 0, y: 0, z: 0 })).toBeNull();
    expect(pixelInPhoto(cam([0, 0, 0]), { x: 1, y: 0, z: 0 })).toBeNull();
  });

  it('keeps [0, width) × [0, height): the left and top edges are in, the right and bottom edges out', () => {
    const c = cam([0, 0, 0]);
    expect(pixelInPhoto(c, { x: -1, y: 0, z: 1 })).toEqual({ u: 0, v: 50, depth: 1 });
    expect(pixelInPhoto(c, { x: 1, y: 0, z: 1 })).toBeNull(); // u = 200 = width
    expect(pixelInPhoto(c, { x: 0, y: -0.5, z: 1 })).toEqual({ u: 100, v: 0, depth: 1 });
    expect(pixelInPhoto(c, { x: 0, y: 0.5, z: 1 })).toBeNull(); // v = 100 = height
    expect(pixelInPhoto(c, { x: 0.99, y: 0.49, z: 1 })).toEqual({ u: 199, v: 99, depth: 1 });
  });

  it('a camera without fx/fy gets the 60° vertical field of view of camera-poses; with only fx, fy = fx', () => {
    const point = { x: 0.2, y: 0.1, z: 1 };
    const none = cam([0, 0, 0], { fx: undefined, fy: undefined });
    // f = (100 / 2) / tan(30°) = 86.6025; u = 86.6025·0.2 + 100 = 117.3205, v = 86.6025·0.1 + 50 = 58.6603
    const f = 50 / Math.tan(DEFAULT_FOV_Y / 2);
    expect(f).toBeCloseTo(86.6025, 4);
    const got = pixelInPhoto(none, point)!;
    expect(got.u).toBeCloseTo(117.3205, 4);
    expect(got.v).toBeCloseTo(58.6603, 4);
    const poses = projectPoint(none, [0.2, 0.1, 1])!;
    expect([got.u, got.v]).toEqual([poses.x, poses.y]);
    // only fx = 300: fy = 300 too (cameraIntrinsics); u = 300·0.2 + 100 = 160, v = 300·0.1 + 50 = 80
    const onlyFx = cam([0, 0, 0], { fx: 300, fy: undefined });
    expect(cameraIntrinsics(onlyFx).fy).toBe(300);
    const g2 = pixelInPhoto(onlyFx, point)!;
    expect(g2.u).toBeCloseTo(160, 9);
    expect(g2.v).toBeCloseTo(80, 9);
  });

  it('throws invalid-argument for a malformed camera or point', () => {
    const bad = {
      ...cam([0, 0, 0]),
      rotation: [
        [2, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
    } as CameraMetadataEntry;
    const thrown = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return null;
    };
    const e1 = thrown(() => pixelInPhoto(bad, { x: 0, y: 0, z: 1 }));
    expect(isAppError(e1) && e1.code).toBe('invalid-argument');
    const e2 = thrown(() => pixelInPhoto(cam([0, 0, 0]), { x: 0, y: Number.NaN, z: 1 }));
    expect(isAppError(e2) && e2.code).toBe('invalid-argument');
  });
});

describe('camerasSeeingPoint ranking', () => {
  // Square 400×400 images, f = 100, identity rotation: the point at the origin is seen by all of:
  const S3 = Math.sqrt(3);
  const far = cam([0, 0, -3], { id: 10, width: 400, height: 400 }); // straight on, distance 3: score 3
  const near = cam([0, 0, -2], { id: 11, width: 400, height: 400 }); // straight on, distance 2: score 2
  // 30° off its axis at distance 1.2: position (−0.6, 0, −1.2·cos 30°); score 1.2·(1 + 30/30) = 2.4
  const oblique = cam([-0.6, 0, -0.6 * S3], { id: 12, width: 400, height: 400 });
  const behind = cam([0, 0, 1], { id: 13, width: 400, height: 400 }); // the point is behind it
  const aside = cam([5, 0, -1], { id: 14, width: 400, height: 400 }); // u = 100·−5 + 200 < 0: outside
  const origin = { x: 0, y: 0, z: 0 };

  it('ranks by distance × (1 + angle / 30°): the nearer oblique camera loses to the straight one, and leaves out the blind ones', () => {
    const views = camerasSeeingPoint([far, behind, near, aside, oblique], origin);
    expect(views.map((view) => [view.camera.id, view.index])).toEqual([
      [11, 2],
      [12, 4],
      [10, 0],
    ]);
    const [a, b, c] = views;
    expect(a!.distance).toBeCloseTo(2, 12);
    expect(a!.angle).toBeCloseTo(0, 12);
    expect(a!.score).toBeCloseTo(2, 12);
    expect(b!.distance).toBeCloseTo(1.2, 12);
    expect(b!.angle).toBeCloseTo(30, 9);
    expect(b!.score).toBeCloseTo(2.4, 9);
    // u = 100·tan 30° + 200 = 257.735, v = 200
    expect(b!.u).toBeCloseTo(200 + 100 / S3, 9);
    expect(b!.v).toBeCloseTo(200, 9);
    expect(c!.score).toBeCloseTo(3, 12);
    expect(camerasSeeingPoint([far, behind, near, aside, oblique], origin, { limit: 2 }).map((view) => view.index)).toEqual([2, 4]);
  });

  it('keeps the input order on equal scores, skips malformed cameras, refuses a bad limit', () => {
    const twin = cam([0, 0, -3], { id: 20, width: 400, height: 400 });
    const broken = {
      ...near,
      rotation: [
        [0, 0, 0],
        [0, 0, 0],
        [0, 0, 0],
      ],
    } as CameraMetadataEntry;
    const noSize = { ...near, width: 0 } as CameraMetadataEntry;
    expect(camerasSeeingPoint([twin, broken, far, noSize], origin).map((view) => view.index)).toEqual([0, 2]);
    expect(camerasSeeingPoint([], origin)).toEqual([]);
    expect(() => camerasSeeingPoint([far], origin, { limit: -1 })).toThrow(/limit/);
    expect(() => camerasSeeingPoint([far], { x: 0, y: 0, z: Number.POSITIVE_INFINITY })).toThrow(/finite/);
  });
});

describe('camerasSeeingPoint with a surface normal (back-face test)', () => {
  it('keeps only the cameras on the side the normal points to', () => {
    // two cameras facing each other across the point at the origin, both see it in their image
    const front = cam([0, 0, -2], { id: 1, width: 400, height: 400 }); // looks down +z
    const back = {
      ...cam([0, 0, 2], { id: 2, width: 400, height: 400 }),
      rotation: [
        [-1, 0, 0],
        [0, 1, 0],
        [0, 0, -1],
      ],
    } as CameraMetadataEntry; // looks down −z
    const origin = { x: 0, y: 0, z: 0 };
    expect(camerasSeeingPoint([front, back], origin).map((view) => view.camera.id)).toEqual([1, 2]);
    // a surface facing −z (towards `front`): `back` looks at its back
    expect(camerasSeeingPoint([front, back], origin, { normal: { x: 0, y: 0, z: -3 } }).map((view) => view.camera.id)).toEqual([1]);
    expect(camerasSeeingPoint([front, back], origin, { normal: { x: 0, y: 0, z: 1 } }).map((view) => view.camera.id)).toEqual([2]);
    // a surface edge-on to both (normal ⟂ both rays): neither is on its front side
    expect(camerasSeeingPoint([front, back], origin, { normal: { x: 1, y: 0, z: 0 } })).toEqual([]);
    expect(() => camerasSeeingPoint([front], origin, { normal: { x: 0, y: 0, z: 0 } })).toThrow(/normal/);
    expect(() => camerasSeeingPoint([front], origin, { normal: { x: 0, y: Number.NaN, z: 1 } })).toThrow(/normal must have finite/);
  });
});
