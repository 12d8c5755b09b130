/**
 * Demo data generated in code (DESIGN.md §6: the project ships no sample files): a small GLB
 * tower written with @gltf-transform/core, a small 3D Gaussian-splat PLY in the 3DGS training
 * layout, a camera-metadata JSON array (SPEC.md §3 camera entry) and small PNG photos and
 * thumbnails. Everything is deterministic: the same call gives the same bytes.
 */
import { crc32, deflateSync } from 'node:zlib';
import { Document, NodeIO } from '@gltf-transform/core';
import type { CameraMetadataEntry } from '../../../shared/types.js';

/** Property names of a 3DGS splat PLY vertex, in file order (62 float32 values). */
export const SPLAT_PLY_PROPERTIES: readonly string[] = [
  'x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2',
  ...Array.from({ length: 45 }, (_, i) => `f_rest_${i}`),
  'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3',
];

/** A small deterministic pseudo-random generator (mulberry32), values in [0, 1). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Spherical-harmonics DC coefficient for a colour channel in [0, 1]. */
const SH_C0 = 0.28209479177387814;
const toDc = (c: number) => (c - 0.5) / SH_C0;
const logit = (p: number) => Math.log(p / (1 - p));

/**
 * A 3DGS splat PLY (binary_little_endian 1.0, one `vertex` element with the 62 float properties
 * of {@link SPLAT_PLY_PROPERTIES}) shaped like a lattice tower.
 * @param options.count number of splats (default 400)
 * @param options.height tower height in scene units (default 10)
 * @param options.seed random seed (default 1)
 * @param options.tint RGB in [0, 1] mixed into the steel grey (default a red/white mast)
 * @returns the file's bytes: header + count × 62 × 4 bytes
 */
export function makeSplatPly(options: { count?: number; height?: number; seed?: number; tint?: [number, number, number] } = {}): Uint8Array<ArrayBuffer> {
  const count = options.count ?? 400;
  const height = options.height ?? 10;
  const rand = random(options.seed ?? 1);
  const tint = options.tint ?? [0.85, 0.2, 0.2];
  const header =
    `ply\nformat binary_little_endian 1.0\nelement vertex ${count}\n` +
    SPLAT_PLY_PROPERTIES.map((p) => `property float ${p}\n`).join('') +
    'end_header\n';
  const headerBytes = new TextEncoder().encode(header);
  const stride = SPLAT_PLY_PROPERTIES.length * 4;
  const out = new Uint8Array(headerBytes.length + count * stride);
  out.set(headerBytes, 0);
  const view = new DataView(out.buffer, headerBytes.length);
  for (let i = 0; i < count; i += 1) {
    const h = rand() * height;
    const half = 1.5 * (1 - h / (height * 1.25));
    const leg = Math.floor(rand() * 4);
    const along = rand() < 0.7 ? 1 : rand() * 2 - 1;
    const sx = leg % 2 === 0 ? 1 : -1;
    const sz = leg < 2 ? 1 : -1;
    const x = half * (along === 1 ? sx : along) + (rand() - 0.5) * 0.05;
    const z = half * (along === 1 ? sz : sz) + (rand() - 0.5) * 0.05;
    const band = Math.floor(h / (height / 6)) % 2 === 0;
    const colour: [number, number, number] = band ? tint : [0.92, 0.92, 0.9];
    const values = new Array<number>(SPLAT_PLY_PROPERTIES.length).fill(0);
    values[0] = x;
    values[1] = h;
    values[2] = z;
    values[6] = toDc(colour[0]);
    values[7] = toDc(colour[1]);
    values[8] = toDc(colour[2]);
    values[54] = logit(0.9);
    values[55] = Math.log(0.05);
    values[56] = Math.log(0.05);
    values[57] = Math.log(0.05);
    values[58] = 1; // rot_0 (w): identity quaternion
    values.forEach((v, j) => view.setFloat32(i * stride + j * 4, v, true));
  }
  return out;
}

type Vec3 = [number, number, number];

/** Appends the six faces of a box given its 8 corners (bottom 0..3, top 4..7, counter-clockwise). */
function pushBox(corners: Vec3[], positions: number[], normals: number[], indices: number[]): void {
  const faces = [
    [0, 3, 2, 1], // bottom
    [4, 5, 6, 7], // top
    [0, 1, 5, 4],
    [1, 2, 6, 5],
    [2, 3, 7, 6],
    [3, 0, 4, 7],
  ];
  for (const face of faces) {
    const [a, b, c] = face.map((k) => corners[k]);
    const u: Vec3 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
    const v: Vec3 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
    const n: Vec3 = [u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]];
    const len = Math.hypot(...n) || 1;
    const base = positions.length / 3;
    for (const k of face) {
      positions.push(...corners[k]);
      normals.push(n[0] / len, n[1] / len, n[2] / len);
    }
    indices.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
}

function frustum(bottomHalf: number, topHalf: number, y0: number, y1: number): Vec3[] {
  const ring = (h: number, y: number): Vec3[] => [
    [-h, y, h],
    [h, y, h],
    [h, y, -h],
    [-h, y, -h],
  ];
  return [...ring(bottomHalf, y0), ...ring(topHalf, y1)];
}

/**
 * A small GLB (glTF 2.0 binary) of a tapered tower with an antenna mast, written with
 * @gltf-transform/core.
 * @param options.height tower height in metres (default 10)
 * @param options.color base colour RGBA in [0, 1] (default steel grey)
 * @returns the GLB bytes (start with the magic 'glTF')
 */
export async function makeTowerGlb(options: { height?: number; color?: [number, number, number, number] } = {}): Promise<Uint8Array<ArrayBuffer>> {
  const height = options.height ?? 10;
  const positions: number[] = [];
  const normals: number[] = [];
  const indices: number[] = [];
  pushBox(frustum(1.5, 0.4, 0, height), positions, normals, indices);
  pushBox(frustum(0.08, 0.05, height, height * 1.3), positions, normals, indices);

  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc.createAccessor('POSITION').setType('VEC3').setArray(new Float32Array(positions)).setBuffer(buffer);
  const normal = doc.createAccessor('NORMAL').setType('VEC3').setArray(new Float32Array(normals)).setBuffer(buffer);
  const index = doc.createAccessor('indices').setType('SCALAR').setArray(new Uint16Array(indices)).setBuffer(buffer);
  const material = doc
    .createMaterial('steel')
    .setBaseColorFactor(options.color ?? [0.62, 0.64, 0.68, 1])
    .setMetallicFactor(0.6)
    .setRoughnessFactor(0.5);
  const primitive = doc.createPrimitive().setAttribute('POSITION', position).setAttribute('NORMAL', normal).setIndices(index).setMaterial(material);
  const mesh = doc.createMesh('tower').addPrimitive(primitive);
  const node = doc.createNode('tower').setMesh(mesh);
  doc.createScene('scene').addChild(node);
  return new NodeIO().writeBinary(doc);
}

/**
 * Camera metadata (SPEC.md §3 camera entry): `count` cameras on a circle around the tower,
 * each looking at its centre, with `img_name` `frame_00001.png`… and `fx`/`fy` as 3DGS writes them.
 * @param options.count number of cameras (default 4)
 * @param options.radius circle radius in scene units (default 12)
 * @param options.width image width in pixels (default 64)
 * @param options.height image height in pixels (default 48)
 */
export function makeCameraMetadata(options: { count?: number; radius?: number; width?: number; height?: number } = {}): CameraMetadataEntry[] {
  const count = options.count ?? 4;
  const radius = options.radius ?? 12;
  const width = options.width ?? 64;
  const height = options.height ?? 48;
  const cameras: CameraMetadataEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const angle = (2 * Math.PI * i) / count;
    const position: Vec3 = [radius * Math.cos(angle), 5, radius * Math.sin(angle)];
    // camera-to-world rotation whose third column (forward) looks at (0, 5, 0)
    const f: Vec3 = [-Math.cos(angle), 0, -Math.sin(angle)];
    const up: Vec3 = [0, 1, 0];
    const r: Vec3 = [f[1] * up[2] - f[2] * up[1], f[2] * up[0] - f[0] * up[2], f[0] * up[1] - f[1] * up[0]];
    const d: Vec3 = [f[1] * r[2] - f[2] * r[1], f[2] * r[0] - f[0] * r[2], f[0] * r[1] - f[1] * r[0]];
    const round = (x: number) => Math.round(x * 1e6) / 1e6;
    cameras.push({
      id: i,
      img_name: `frame_${String(i + 1).padStart(5, '0')}.png`,
      width,
      height,
      position: position.map(round) as Vec3,
      rotation: [
        [round(r[0]), round(d[0]), round(f[0])],
        [round(r[1]), round(d[1]), round(f[1])],
        [round(r[2]), round(d[2]), round(f[2])],
      ],
      fy: 60,
      fx: 60,
    });
  }
  return cameras;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  const typeBytes = new TextEncoder().encode(type);
  out.set(typeBytes, 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * A small valid PNG (8-bit RGB, no interlace): a sky-to-ground gradient with a tower silhouette
 * in the given colour, encoded with node:zlib.
 * @param options.width width in pixels (default 64)
 * @param options.height height in pixels (default 48)
 * @param options.color tower colour as RGB 0..255 (default dark red)
 * @returns the PNG bytes
 */
export function makePng(options: { width?: number; height?: number; color?: [number, number, number] } = {}): Uint8Array<ArrayBuffer> {
  const width = options.width ?? 64;
  const height = options.height ?? 48;
  const color = options.color ?? [150, 30, 30];
  const raw = new Uint8Array(height * (1 + width * 3));
  for (let y = 0; y < height; y += 1) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x += 1) {
      const t = y / height;
      let rgb: number[] = t < 0.8 ? [110 + 100 * t, 160 + 60 * t, 230] : [90, 120, 70];
      const half = ((1 - t) * 0.2 + 0.04) * width;
      if (Math.abs(x - width / 2) < half && t > 0.1 && t < 0.85) rgb = color;
      raw.set(rgb.map((v) => Math.round(v)), row + 1 + x * 3);
    }
  }
  const ihdr = new Uint8Array(13);
  const view = new DataView(ihdr.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Demo sign-ins (engineer interfaces: seeded accounts). */
export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.lab', password: 'demo-admin-1', role: 'admin' },
  { email: 'user@demo.lab', password: 'demo-user-1', role: 'user' },
] as const;

/** A demo project and the models seeded into it. */
export interface DemoProject {
  name: string;
  structure_id: string;
  description: string;
  address?: string;
  lat?: number;
  lng?: number;
  models: DemoModel[];
}

/** A demo model: which generated files it gets. */
export interface DemoModel {
  publicId: string;
  name: string;
  modelType: 'hybrid' | 'splat' | 'mesh';
  captureDate: string;
  reference: boolean;
  hidden: boolean;
  /** Which files to generate. */
  files: { splat: boolean; glb: boolean; cameras: boolean; images: number };
  seed: number;
  tint: [number, number, number];
}

/**
 * The demo catalog: 'North Ridge Telecom Tower' (TWR-001, located, two visible models, the older
 * one the reference, plus one hidden draft for the admin view), 'Grand River Footbridge'
 * (BRG-002, located, one mesh model) and 'Harbour Light Mast' (MST-003, no location, no models).
 */
export const DEMO_PROJECTS: readonly DemoProject[] = [
  {
    name: 'North Ridge Telecom Tower',
    structure_id: 'TWR-001',
    description:
      '45 m self-supporting lattice telecom tower on North Ridge. Surveyed by drone in 2024 and 2025 to follow bolt corrosion on the lower sections and antenna mount alignment.',
    address: 'North Ridge Road, Waterloo, ON',
    lat: 43.4723,
    lng: -80.5449,
    models: [
      {
        publicId: 'TWR-001-2024-05',
        name: 'North Ridge Tower, May 2024 survey',
        modelType: 'hybrid',
        captureDate: '2024-05-14',
        reference: true,
        hidden: false,
        files: { splat: true, glb: true, cameras: true, images: 3 },
        seed: 11,
        tint: [0.85, 0.2, 0.2],
      },
      {
        publicId: 'TWR-001-2025-06',
        name: 'North Ridge Tower, June 2025 survey',
        modelType: 'splat',
        captureDate: '2025-06-02',
        reference: false,
        hidden: false,
        files: { splat: true, glb: false, cameras: true, images: 2 },
        seed: 12,
        tint: [0.8, 0.3, 0.2],
      },
      {
        publicId: 'TWR-001-DRAFT',
        name: 'North Ridge Tower, draft reconstruction',
        modelType: 'splat',
        captureDate: '2025-06-03',
        reference: false,
        hidden: true,
        files: { splat: true, glb: false, cameras: false, images: 0 },
        seed: 13,
        tint: [0.5, 0.5, 0.5],
      },
    ],
  },
  {
    name: 'Grand River Footbridge',
    structure_id: 'BRG-002',
    description: 'Steel truss pedestrian bridge over the Grand River. Girder corrosion and deck joints are inspected every spring.',
    address: 'Grand River Trail, Kitchener, ON',
    lat: 43.4312,
    lng: -80.4701,
    models: [
      {
        publicId: 'BRG-002-2025-04',
        name: 'Grand River Footbridge, April 2025',
        modelType: 'mesh',
        captureDate: '2025-04-20',
        reference: true,
        hidden: false,
        files: { splat: false, glb: true, cameras: false, images: 1 },
        seed: 21,
        tint: [0.3, 0.4, 0.7],
      },
    ],
  },
  {
    name: 'Harbour Light Mast',
    structure_id: 'MST-003',
    description: 'Lighting mast at the harbour entrance, scheduled for its first inspection.',
    models: [],
  },
];

/** Generated files of one demo model, as the `addModel` workflow takes them. */
export interface DemoModelFiles {
  splat?: { name: string; bytes: Uint8Array<ArrayBuffer> };
  glb?: { name: string; bytes: Uint8Array<ArrayBuffer> };
  cameraMetadata?: { name: string; text: string };
  images: { name: string; bytes: Uint8Array<ArrayBuffer> }[];
  thumbnails: { name: string; bytes: Uint8Array<ArrayBuffer> }[];
}

/**
 * Generates the files of a demo model: splat PLY (3DGS layout, a few hundred splats), GLB tower,
 * camera JSON whose `img_name`s match the photos, photos and one thumbnail.
 * @param model the demo model
 */
export async function makeDemoModelFiles(model: DemoModel): Promise<DemoModelFiles> {
  const rgb = model.tint.map((c) => Math.round(c * 255)) as [number, number, number];
  const files: DemoModelFiles = { images: [], thumbnails: [{ name: 'thumbnail.png', bytes: makePng({ width: 96, height: 72, color: rgb }) }] };
  if (model.files.splat) files.splat = { name: 'point_cloud.ply', bytes: makeSplatPly({ count: 300, seed: model.seed, tint: model.tint }) };
  if (model.files.glb) files.glb = { name: 'model.glb', bytes: await makeTowerGlb({ color: [...model.tint, 1] as [number, number, number, number] }) };
  const cameras = makeCameraMetadata({ count: Math.max(model.files.images, 1) });
  if (model.files.cameras) files.cameraMetadata = { name: 'cameras.json', text: `${JSON.stringify(cameras, null, 2)}\n` };
  for (let i = 0; i < model.files.images; i += 1) {
    files.images.push({ name: cameras[i].img_name, bytes: makePng({ color: rgb }) });
  }
  return files;
}
