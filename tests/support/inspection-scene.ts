/**
 * A generated but consistent inspection scene (for the viewer's "Photos that see this point"): a GLB of
 * a 2×1×1 box with a differently coloured face on each side, a `cameras.json` of six cameras in a
 * ring around it looking at its centre, and one photo per camera DRAWN from that camera's pose,
 * so a 3D point of the box lands in each photo where the geometry puts it. (The real 3DGS
 * sample's splat and cameras come from different scenes, samples/SOURCES.md.)
 *
 * Everything is in the GLB's own frame (y up, metres), which is the model coordinate frame of a
 * mesh-only model, and so the frame of its `cameras.json`.
 *
 * The photos are drawn independently of `shared/photo-projection.ts`: each camera is a three.js
 * `PerspectiveCamera` placed with `lookAt` (world up +y); the box's front-facing faces are
 * projected with three's `Vector3.project` (NDC → pixels: `u = (x + 1)·W/2`, `v = (1 − y)·H/2`)
 * and rasterised as SVG polygons by sharp, with a black dot on each named surface point that
 * the camera faces. The `cameras.json` entry of the camera is written from the same three.js
 * camera: `rotation` = three's camera-to-world rotation with its y and z columns negated (OpenCV
 * axes: x right, y down, z forward), `position` its position, `fx = fy` = the focal length of its
 * vertical field of view in pixels, `width`×`height` 640×480.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { PerspectiveCamera, Vector3 } from 'three';
import type { CameraMetadataEntry, ModelPoint } from '@shared/types.js';

/** Photo size of every camera, pixels. */
export const SCENE_PHOTO_WIDTH = 640;
export const SCENE_PHOTO_HEIGHT = 480;
/** Focal length of every camera, pixels (fx = fy; vertical field of view 2·atan(240/500) ≈ 51.3°). */
export const SCENE_FOCAL = 500;
/** Background colour of the photos (sRGB hex). */
export const SCENE_BACKGROUND = '#d5dade';
/** Colour of the dots drawn on the named surface points in the photos. */
export const SCENE_DOT = '#000000';
/** Radius of those dots, pixels. */
export const SCENE_DOT_RADIUS = 5;

/** A face of the box. */
export interface BoxFace {
  name: '+x' | '-x' | '+y' | '-y' | '+z' | '-z';
  /** Outward unit normal. */
  normal: ModelPoint;
  /** Centre of the face. */
  centre: ModelPoint;
  /** Fill colour, sRGB hex (the photos) and the GLB material's base colour. */
  colour: string;
  /** Corners, counter-clockwise seen from outside (the GLB's triangle winding). */
  corners: [ModelPoint, ModelPoint, ModelPoint, ModelPoint];
}

/** A named point on the box's surface. */
export interface SurfacePoint {
  point: ModelPoint;
  /** The face it lies on. */
  face: BoxFace['name'];
  /** That face's outward normal. */
  normal: ModelPoint;
}

const SIZE = { x: 2, y: 1, z: 1 };
const CENTRE = { x: 0, y: 0.5, z: 0 };
const MIN = { x: CENTRE.x - SIZE.x / 2, y: CENTRE.y - SIZE.y / 2, z: CENTRE.z - SIZE.z / 2 };
const MAX = { x: CENTRE.x + SIZE.x / 2, y: CENTRE.y + SIZE.y / 2, z: CENTRE.z + SIZE.z / 2 };

const p = (x: number, y: number, z: number): ModelPoint => ({ x, y, z });

const FACES: BoxFace[] = [
  {
    name: '+x',
    normal: p(1, 0, 0),
    centre: p(MAX.x, CENTRE.y, CENTRE.z),
    colour: '#d62728',
    corners: [p(MAX.x, MIN.y, MAX.z), p(MAX.x, MIN.y, MIN.z), p(MAX.x, MAX.y, MIN.z), p(MAX.x, MAX.y, MAX.z)],
  },
  {
    name: '-x',
    normal: p(-1, 0, 0),
    centre: p(MIN.x, CENTRE.y, CENTRE.z),
    colour: '#17becf',
    corners: [p(MIN.x, MIN.y, MIN.z), p(MIN.x, MIN.y, MAX.z), p(MIN.x, MAX.y, MAX.z), p(MIN.x, MAX.y, MIN.z)],
  },
  {
    name: '+y',
    normal: p(0, 1, 0),
    centre: p(CENTRE.x, MAX.y, CENTRE.z),
    colour: '#2ca02c',
    corners: [p(MIN.x, MAX.y, MAX.z), p(MAX.x, MAX.y, MAX.z), p(MAX.x, MAX.y, MIN.z), p(MIN.x, MAX.y, MIN.z)],
  },
  {
    name: '-y',
    normal: p(0, -1, 0),
    centre: p(CENTRE.x, MIN.y, CENTRE.z),
    colour: '#e377c2',
    corners: [p(MIN.x, MIN.y, MIN.z), p(MAX.x, MIN.y, MIN.z), p(MAX.x, MIN.y, MAX.z), p(MIN.x, MIN.y, MAX.z)],
  },
  {
    name: '+z',
    normal: p(0, 0, 1),
    centre: p(CENTRE.x, CENTRE.y, MAX.z),
    colour: '#1f4fd6',
    corners: [p(MIN.x, MIN.y, MAX.z), p(MAX.x, MIN.y, MAX.z), p(MAX.x, MAX.y, MAX.z), p(MIN.x, MAX.y, MAX.z)],
  },
  {
    name: '-z',
    normal: p(0, 0, -1),
    centre: p(CENTRE.x, CENTRE.y, MIN.z),
    colour: '#f2c40f',
    corners: [p(MAX.x, MIN.y, MIN.z), p(MIN.x, MIN.y, MIN.z), p(MIN.x, MAX.y, MIN.z), p(MAX.x, MAX.y, MIN.z)],
  },
];

const faceNormal = (name: BoxFace['name']): ModelPoint => FACES.find((f) => f.name === name)!.normal;
const onFace = (face: BoxFace['name'], point: ModelPoint): SurfacePoint => ({ point, face, normal: faceNormal(face) });

/** The box's geometry facts, model coordinates (metres, y up). */
export const INSPECTION_BOX = {
  /** Edge lengths: 2 along x, 1 along y and z. */
  size: SIZE,
  /** Centre of the box (its bottom face lies on y = 0). */
  centre: CENTRE,
  /** Bounding box corners. */
  min: MIN,
  max: MAX,
  faces: FACES,
  /** Named points on the surface (each drawn as a black dot in the photos of the cameras facing it). */
  points: {
    /** Centre of the front face (+z, blue). */
    frontCentre: onFace('+z', p(0, 0.5, 0.5)),
    /** Off the centre of the front face, to the right (+x) and up. */
    frontRight: onFace('+z', p(0.6, 0.7, 0.5)),
    /** Centre of the right end (+x, red). */
    rightCentre: onFace('+x', p(1, 0.5, 0)),
    /** On the top (+y, green), towards the left end. */
    topLeft: onFace('+y', p(-0.5, 1, 0.1)),
    /** Centre of the back face (−z, yellow). */
    backCentre: onFace('-z', p(0, 0.5, -0.5)),
  } satisfies Record<string, SurfacePoint>,
} as const;

/** Names of {@link INSPECTION_BOX}.points. */
export type SurfacePointName = keyof typeof INSPECTION_BOX.points;

/** Horizontal distance of the cameras from the box's vertical axis, and their height above its centre. */
const RING_RADIUS = 3;
const RING_HEIGHT = 1.2;
/** Number of cameras: one every 60°, camera k at azimuth k·60° from +z towards +x. */
export const SCENE_CAMERA_COUNT = 6;

/** The three.js camera of camera `k` (k = 0…5): at azimuth k·60°, 1.2 m above the box's centre, looking at it. */
function threeCamera(k: number): PerspectiveCamera {
  const a = (k * 2 * Math.PI) / SCENE_CAMERA_COUNT;
  const fovY = (2 * Math.atan(SCENE_PHOTO_HEIGHT / 2 / SCENE_FOCAL) * 180) / Math.PI;
  const camera = new PerspectiveCamera(fovY, SCENE_PHOTO_WIDTH / SCENE_PHOTO_HEIGHT, 0.05, 100);
  camera.position.set(CENTRE.x + RING_RADIUS * Math.sin(a), CENTRE.y + RING_HEIGHT, CENTRE.z + RING_RADIUS * Math.cos(a));
  camera.up.set(0, 1, 0);
  camera.lookAt(CENTRE.x, CENTRE.y, CENTRE.z);
  camera.updateMatrixWorld(true);
  return camera;
}

/** The photo file name of camera k (`img_name` in cameras.json, the file under images/). */
export const scenePhotoName = (k: number): string => `cam_${String(k).padStart(2, '0')}.png`;

/**
 * The scene's camera metadata: six entries in the 3DGS `cameras.json` convention, from the
 * three.js cameras (module doc).
 * @returns entries with id k, img_name `cam_0k.png`, position, rotation (camera-to-world, OpenCV
 *   axes, row-major), width 640, height 480, fx = fy = 500
 */
export function inspectionCameras(): CameraMetadataEntry[] {
  return Array.from({ length: SCENE_CAMERA_COUNT }, (_, k) => {
    const camera = threeCamera(k);
    const e = camera.matrixWorld.elements; // column-major: column j is e[4j..4j+2]
    const col = (j: number) => [e[4 * j]!, e[4 * j + 1]!, e[4 * j + 2]!];
    const [x, y, z] = [col(0), col(1), col(2)];
    // OpenCV: right = three's x, down = −(three's y), forward = −(three's z)
    const rotation = [0, 1, 2].map((i) => [x[i]!, -y[i]!, -z[i]!]) as CameraMetadataEntry['rotation'];
    return {
      id: k,
      img_name: scenePhotoName(k),
      width: SCENE_PHOTO_WIDTH,
      height: SCENE_PHOTO_HEIGHT,
      position: [camera.position.x, camera.position.y, camera.position.z],
      rotation,
      fx: SCENE_FOCAL,
      fy: SCENE_FOCAL,
    };
  });
}

/** Where three.js puts a world point in camera k's photo, pixels from the top-left corner (null when behind it). */
export function drawnPixel(k: number, point: ModelPoint): { u: number; v: number } | null {
  const camera = threeCamera(k);
  const local = new Vector3(point.x, point.y, point.z).applyMatrix4(camera.matrixWorldInverse);
  if (local.z >= 0) return null; // three's camera looks down its −z
  const ndc = new Vector3(point.x, point.y, point.z).project(camera);
  return { u: ((ndc.x + 1) * SCENE_PHOTO_WIDTH) / 2, v: ((1 - ndc.y) * SCENE_PHOTO_HEIGHT) / 2 };
}

/** Whether camera k sees the front of a face (it is on the side the face's normal points to). */
export function facesCamera(k: number, face: BoxFace['name']): boolean {
  const f = FACES.find((x) => x.name === face)!;
  const c = threeCamera(k).position;
  return f.normal.x * (c.x - f.centre.x) + f.normal.y * (c.y - f.centre.y) + f.normal.z * (c.z - f.centre.z) > 0;
}

/** The SVG of camera k's photo: background, the faces it faces (a convex box: no overlaps), the dots. */
function photoSvg(k: number): string {
  const parts = [`<rect width="100%" height="100%" fill="${SCENE_BACKGROUND}"/>`];
  for (const face of FACES) {
    if (!facesCamera(k, face.name)) continue;
    const pts = face.corners.map((c) => drawnPixel(k, c)!);
    const list = pts.map(({ u, v }) => `${u.toFixed(3)},${v.toFixed(3)}`).join(' ');
    parts.push(`<polygon points="${list}" fill="${face.colour}" stroke="#333333" stroke-width="1.5" stroke-linejoin="round"/>`);
  }
  for (const named of Object.values(INSPECTION_BOX.points)) {
    if (!facesCamera(k, named.face)) continue;
    const { u, v } = drawnPixel(k, named.point)!;
    parts.push(`<circle cx="${u.toFixed(3)}" cy="${v.toFixed(3)}" r="${SCENE_DOT_RADIUS}" fill="${SCENE_DOT}"/>`);
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SCENE_PHOTO_WIDTH}" height="${SCENE_PHOTO_HEIGHT}">${parts.join('')}</svg>`;
}

/** sRGB hex → linear [r, g, b] (glTF base colours are linear). */
function linearColour(hex: string): [number, number, number] {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return [channel(0), channel(1), channel(2)];
}

/**
 * The box as a GLB (glTF 2.0, @gltf-transform/core): one primitive per face with its own
 * material (the face's colour as base colour, not metallic), positions and normals, two
 * counter-clockwise triangles a face.
 * @returns the GLB bytes
 */
export async function inspectionBoxGlb(): Promise<Uint8Array> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'catalog tests: inspection scene';
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh('box');
  for (const face of FACES) {
    const positions = new Float32Array(face.corners.flatMap((c) => [c.x, c.y, c.z]));
    const normals = new Float32Array([0, 1, 2, 3].flatMap(() => [face.normal.x, face.normal.y, face.normal.z]));
    const material = doc
      .createMaterial(`face ${face.name}`)
      .setBaseColorFactor([...linearColour(face.colour), 1])
      .setMetallicFactor(0)
      .setRoughnessFactor(0.9);
    const prim = doc
      .createPrimitive()
      .setAttribute('POSITION', doc.createAccessor().setType('VEC3').setArray(positions).setBuffer(buffer))
      .setAttribute('NORMAL', doc.createAccessor().setType('VEC3').setArray(normals).setBuffer(buffer))
      .setIndices(
        doc
          .createAccessor()
          .setType('SCALAR')
          .setArray(new Uint16Array([0, 1, 2, 0, 2, 3]))
          .setBuffer(buffer),
      )
      .setMaterial(material);
    mesh.addPrimitive(prim);
  }
  doc.createScene('scene').addChild(doc.createNode('box').setMesh(mesh));
  return new NodeIO().writeBinary(doc);
}

/** What {@link writeInspectionScene} wrote. */
export interface InspectionSceneFiles {
  /** The folder (a model folder `catalog models upload` takes: flat layout). */
  dir: string;
  /** `<dir>/box.glb` */
  glb: string;
  /** `<dir>/cameras.json` */
  cameras: string;
  /** `<dir>/images/cam_00.png` … `cam_05.png`, camera order. */
  photos: string[];
  /** The camera entries written. */
  entries: CameraMetadataEntry[];
}

/**
 * Writes the scene into `dir` (created if needed): `box.glb`, `cameras.json` and one PNG photo per
 * camera under `images/` (module doc).
 * @param dir an empty or new folder
 * @returns the paths and the camera entries
 */
export async function writeInspectionScene(dir: string): Promise<InspectionSceneFiles> {
  mkdirSync(join(dir, 'images'), { recursive: true });
  const glb = join(dir, 'box.glb');
  writeFileSync(glb, await inspectionBoxGlb());
  const entries = inspectionCameras();
  const cameras = join(dir, 'cameras.json');
  writeFileSync(cameras, `${JSON.stringify(entries, null, 2)}\n`);
  const photos: string[] = [];
  for (let k = 0; k < SCENE_CAMERA_COUNT; k += 1) {
    const path = join(dir, 'images', scenePhotoName(k));
    await sharp(Buffer.from(photoSvg(k)))
      .png()
      .toFile(path);
    photos.push(path);
  }
  return { dir, glb, cameras, photos, entries };
}
