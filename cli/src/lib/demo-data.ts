/**
 * Demo data generated in code (DESIGN.md §7: the project ships no sample files), made to be
 * looked at in the built-in viewer (DESIGN.md §6):
 * - a lattice telecom tower (40 m lattice, mast to 49 m) as a 3D Gaussian-splat PLY in the 3DGS training layout
 *   ({@link makeSplatPly}: a few thousand Gaussians stretched along the steel members) and as a
 *   GLB of boxes with materials ({@link makeTowerGlb}), built from one list of parts so the two
 *   line up;
 * - a steel footbridge span as a GLB ({@link makeBridgeGlb}: I-girders, cross girders, deck,
 *   Warren trusses, abutments);
 * - camera metadata (SPEC.md §3 camera entries plus `fx`/`fy`) of a drone orbit around the tower
 *   ({@link makeCameraMetadata}), and the photos of exactly those cameras, drawn by a small
 *   software renderer ({@link renderView}) that projects with shared/camera-poses.ts, the same
 *   convention the viewer uses;
 * - PNG encoding ({@link encodePng}).
 *
 * Coordinates: metres. The GLB is y-up (glTF). The splat and its cameras are y-down, like real
 * 3DGS output (COLMAP frame): a y-up point (x, y, z) is stored as (x, −y, −z) ({@link toYDown}),
 * and camera rotations as `diag(1, −1, −1) · R`. The viewer turns splats 180° about x by default
 * (its up-axis fix, on unless the user flips it), which maps them back onto the y-up GLB: the hybrid model's two files
 * coincide in the viewer, and camera markers drawn in the splat's group sit where the photos were
 * taken.
 *
 * Everything is deterministic: the same call gives the same bytes.
 */
import { crc32, deflateSync } from 'node:zlib';
import { Document, NodeIO } from '@gltf-transform/core';
import { cameraAxes, cameraIntrinsics, lookAtRotation, makeProjector, quaternionFromMatrix } from '@shared/camera-poses.js';
import type { CameraLike, ImagePoint, Mat3 } from '@shared/camera-poses.js';
import { add, cross, dot, length as len, normalize as unit, scale as mul, sub, type Vec3 } from '@shared/vec3.js';
import type { AnnotationInput } from '@shared/annotations.js';
import type {
  AnnotationCategory,
  AnnotationSeverity,
  AnnotationStatus,
  CameraMetadataEntry,
  MeasureKind,
  ModelPoint,
} from '@shared/types.js';
import { TRAINING_PLY_PROPERTIES } from '@shared/content-check/splat.js';

/**
 * A small deterministic pseudo-random generator (mulberry32), for demo data and benchmarks that
 * must give the same bytes on every run.
 * @param seed any 32-bit integer
 * @returns a function giving the next value in [0, 1)
 */
export function random(seed: number): () => number {
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

type RGB = [number, number, number];

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

/**
 * The y-up → y-down change of frame of 3DGS output: a 180° turn about x, (x, y, z) → (x, −y, −z).
 * Its own inverse; the viewer's default splat rotation.
 * @param p a point or direction `[x, y, z]`
 */
export function toYDown(p: Vec3): Vec3 {
  return [p[0], -p[1] + 0, -p[2] + 0];
}

// ---------------------------------------------------------------------------------------------
// Structures as parts (y-up, metres)

/** Named colours (sRGB, 0..1); each becomes one GLB material. */
type MaterialName = 'paint' | 'white' | 'steel' | 'antenna' | 'concrete' | 'gravel' | 'light' | 'deck';

const BASE_PALETTE: Record<Exclude<MaterialName, 'paint'>, RGB> = {
  white: [0.93, 0.93, 0.9],
  steel: [0.6, 0.62, 0.64],
  antenna: [0.86, 0.87, 0.88],
  concrete: [0.66, 0.65, 0.61],
  gravel: [0.55, 0.52, 0.47],
  light: [0.9, 0.12, 0.08],
  deck: [0.6, 0.59, 0.56],
};
const RUST: RGB = [0.52, 0.27, 0.13];

/**
 * A part of a structure: an oriented box from `a` to `b` with a `w` × `t` cross-section (`w`
 * along `side`, default horizontal), or a disc (a short cylinder, e.g. a microwave dish).
 */
type Part =
  | { kind: 'beam'; a: Vec3; b: Vec3; w: number; t: number; side?: Vec3; material: MaterialName; role?: 'leg' | 'brace' | 'ground' }
  | { kind: 'disc'; centre: Vec3; normal: Vec3; radius: number; depth: number; material: MaterialName };

const beam = (
  a: Vec3,
  b: Vec3,
  w: number,
  material: MaterialName,
  extra: { t?: number; side?: Vec3; role?: 'leg' | 'brace' | 'ground' } = {},
): Part => ({
  kind: 'beam',
  a,
  b,
  w,
  t: extra.t ?? w,
  material,
  ...(extra.side ? { side: extra.side } : {}),
  ...(extra.role ? { role: extra.role } : {}),
});

/** An axis-aligned box as a vertical beam. */
const box = (min: Vec3, max: Vec3, material: MaterialName, role?: 'ground'): Part =>
  beam(
    [(min[0] + max[0]) / 2, min[1], (min[2] + max[2]) / 2],
    [(min[0] + max[0]) / 2, max[1], (min[2] + max[2]) / 2],
    max[0] - min[0],
    material,
    {
      t: max[2] - min[2],
      side: [1, 0, 0],
      ...(role ? { role } : {}),
    },
  );

/** The axes of a beam: along (unit), side (unit, `w`), third (unit, `t`), and its length. */
function beamFrame(p: Extract<Part, { kind: 'beam' }>): { d: Vec3; u: Vec3; v: Vec3; length: number } {
  const axis = sub(p.b, p.a);
  const length = len(axis);
  const d = unit(axis);
  let u = p.side ? sub(p.side, mul(d, dot(p.side, d))) : cross([0, 1, 0], d);
  if (len(u) < 1e-6) u = cross([0, 0, 1], d);
  u = unit(u);
  return { d, u, v: cross(d, u), length };
}

/** Options of the demo tower (both files). */
export interface TowerOptions {
  /** Height of the lattice body in metres (default 40; the mast and lightning rod add about 9 m). */
  height?: number;
  /** Aviation-paint colour of the red bands, sRGB in [0, 1] (default red). */
  tint?: RGB;
  /** Panel antennas per sector, three sectors (default 2). */
  antennaPanels?: number;
  /** Turn of the third antenna sector away from its design azimuth, degrees (default 0): a misaligned mount. */
  sectorTwist?: number;
}

/** Panel levels of the lattice body as fractions of its height: 7 panels, taller at the bottom. */
const TOWER_LEVELS = [0, 0.2, 0.375, 0.525, 0.6625, 0.7875, 0.9, 1];

/**
 * The tower as parts, y-up, metres: four tapering legs, horizontals and X-bracing on every face
 * of 7 panels painted in alternating aviation bands, an antenna platform with three sectors of
 * panel antennas, two microwave dishes, a top mast with a lightning rod and obstruction light,
 * four concrete footings on a gravel pad.
 */
function towerParts(options: TowerOptions = {}): Part[] {
  const s = (options.height ?? 40) / 40;
  const H = 40 * s;
  const half = (y: number) => (3.5 + (1.0 - 3.5) * (y / H)) * s;
  const parts: Part[] = [];
  const levels = TOWER_LEVELS.map((f) => f * H);
  const corners = (y: number): Vec3[] => {
    const h = half(y);
    return [
      [h, y, h],
      [-h, y, h],
      [-h, y, -h],
      [h, y, -h],
    ];
  };
  for (let i = 0; i + 1 < levels.length; i += 1) {
    const material: MaterialName = i % 2 === 0 ? 'paint' : 'white';
    const lo = corners(levels[i]!);
    const hi = corners(levels[i + 1]!);
    for (let k = 0; k < 4; k += 1) {
      const k1 = (k + 1) % 4;
      parts.push(beam(lo[k]!, hi[k]!, 0.3 * s, material, { role: 'leg' }));
      parts.push(beam(lo[k]!, hi[k1]!, 0.11 * s, material, { role: 'brace' }));
      parts.push(beam(lo[k1]!, hi[k]!, 0.11 * s, material, { role: 'brace' }));
      parts.push(beam(hi[k]!, hi[k1]!, 0.14 * s, material, { role: 'brace' }));
      if (i === 0) parts.push(beam(lo[k]!, lo[k1]!, 0.14 * s, material, { role: 'brace' }));
    }
    // a plan brace across the middle of the lower panels keeps the faces from looking hollow
    if (i < 3) parts.push(beam(hi[0]!, hi[2]!, 0.1 * s, material, { role: 'brace' }));
  }
  // antenna platform at 90 % of the body, 2 m wide walkway
  const py = levels[6]!;
  const ph = half(py) + 1.0 * s;
  parts.push(box([-ph, py - 0.06 * s, -ph], [ph, py, ph], 'steel'));
  const rail: Vec3[] = [
    [ph, py + 1.1 * s, ph],
    [-ph, py + 1.1 * s, ph],
    [-ph, py + 1.1 * s, -ph],
    [ph, py + 1.1 * s, -ph],
  ];
  for (let k = 0; k < 4; k += 1) {
    parts.push(beam(rail[k]!, rail[(k + 1) % 4]!, 0.07 * s, 'steel'));
    parts.push(beam([rail[k]![0], py, rail[k]![2]], rail[k]!, 0.07 * s, 'steel'));
  }
  // three sectors of panel antennas on mounting pipes above the platform
  const panels = options.antennaPanels ?? 2;
  for (let sector = 0; sector < 3; sector += 1) {
    const azimuth = ((30 + sector * 120 + (sector === 2 ? (options.sectorTwist ?? 0) : 0)) * Math.PI) / 180;
    const out: Vec3 = [Math.cos(azimuth), 0, Math.sin(azimuth)];
    const tangent: Vec3 = [-out[2], 0, out[0]];
    for (let p = 0; p < panels; p += 1) {
      const offset = (p - (panels - 1) / 2) * 0.55 * s;
      const base = add(mul(out, ph + 0.25 * s), mul(tangent, offset));
      parts.push(beam([base[0], py + 0.2 * s, base[2]], [base[0], py + 3.0 * s, base[2]], 0.08 * s, 'steel'));
      const front = add(base, mul(out, 0.14 * s));
      parts.push(
        beam([front[0], py + 0.6 * s, front[2]], [front[0], py + 2.7 * s, front[2]], 0.32 * s, 'antenna', { t: 0.12 * s, side: tangent }),
      );
    }
  }
  // two microwave dishes on the leg faces at 75 % of the height
  for (const [az, y] of [
    [0.25 * Math.PI, 0.75 * H],
    [1.1 * Math.PI, 0.68 * H],
  ] as const) {
    const out: Vec3 = [Math.cos(az), 0, Math.sin(az)];
    const centre = add(mul(out, half(y) * 1.1 + 0.5 * s), [0, y, 0]);
    parts.push({ kind: 'disc', centre, normal: out, radius: 0.6 * s, depth: 0.35 * s, material: 'antenna' });
  }
  // top mast, lightning rod, obstruction light
  parts.push(beam([0, levels[6]!, 0], [0, H + 5 * s, 0], 0.35 * s, 'paint'));
  parts.push(beam([0, H + 5 * s, 0], [0, H + 7.5 * s, 0], 0.14 * s, 'white'));
  parts.push(beam([0, H + 7.5 * s, 0], [0, H + 9 * s, 0], 0.04 * s, 'steel'));
  parts.push(box([-0.2 * s, H + 5 * s, -0.2 * s], [0.2 * s, H + 5.35 * s, 0.2 * s], 'light'));
  // footings and the gravel pad of the compound
  for (const [x, z] of [
    [1, 1],
    [-1, 1],
    [-1, -1],
    [1, -1],
  ] as const) {
    const h = half(0);
    parts.push(box([x * h - 0.6 * s, -0.05 * s, z * h - 0.6 * s], [x * h + 0.6 * s, 0.45 * s, z * h + 0.6 * s], 'concrete', 'ground'));
  }
  parts.push(box([-7 * s, -0.05 * s, -7 * s], [7 * s, 0, 7 * s], 'gravel', 'ground'));
  return parts;
}

/** Options of the demo footbridge. */
export interface BridgeOptions {
  /** Span in metres (default 30). */
  span?: number;
  /** Paint colour of the steelwork, sRGB in [0, 1] (default blue-grey). */
  tint?: RGB;
}

/**
 * A steel footbridge as parts, y-up, metres, along x and centred on the origin: two plate girders
 * (I-sections: flanges and web) on bearings, cross girders every 2 m, a concrete deck, a Warren
 * pony truss with verticals and a handrail on each side, and concrete abutments.
 */
function bridgeParts(options: BridgeOptions = {}): Part[] {
  const span = options.span ?? 30;
  const L = span / 2;
  const parts: Part[] = [];
  const seat = 3.0; // top of the abutments
  const girderZ = 1.6;
  // abutments and bearings
  for (const sign of [-1, 1]) {
    parts.push(box([sign > 0 ? L - 0.4 : -L - 2.2, 0, -2.6], [sign > 0 ? L + 2.2 : -L + 0.4, seat, 2.6], 'concrete', 'ground'));
    for (const z of [-girderZ, girderZ])
      parts.push(box([sign * (L - 0.1) - 0.25, seat, z - 0.25], [sign * (L - 0.1) + 0.25, seat + 0.08, z + 0.25], 'steel'));
  }
  // main girders: bottom flange, web, top flange
  const g0 = seat + 0.08;
  const depth = 0.9;
  const iBeam = (a: Vec3, b: Vec3, height: number, flange: number, web: number, thickness: number, side: Vec3) => {
    // a and b are the bottom-flange centre line
    const up: Vec3 = [0, 1, 0];
    parts.push(beam(a, b, flange, 'paint', { t: thickness, side }));
    parts.push(beam(add(a, mul(up, height - thickness)), add(b, mul(up, height - thickness)), flange, 'paint', { t: thickness, side }));
    parts.push(beam(add(a, mul(up, height / 2)), add(b, mul(up, height / 2)), web, 'paint', { t: height - 2 * thickness, side }));
  };
  for (const z of [-girderZ, girderZ]) iBeam([-L - 0.2, g0 + 0.02, z], [L + 0.2, g0 + 0.02, z], depth, 0.42, 0.025, 0.04, [0, 0, 1]);
  const top = g0 + depth;
  // cross girders every 2 m, hung between the main girders, flush with their top
  for (let x = -L + 1; x <= L - 1 + 1e-9; x += 2)
    iBeam([x, top - 0.45 + 0.015, -girderZ + 0.02], [x, top - 0.45 + 0.015, girderZ - 0.02], 0.45, 0.2, 0.015, 0.03, [1, 0, 0]);
  // deck slab
  parts.push(box([-L - 0.2, top, -1.45], [L + 0.2, top + 0.2, 1.45], 'deck'));
  // Warren pony trusses with verticals and a handrail
  const trussTop = top + 1.8;
  const panels = Math.max(2, Math.round(span / 3));
  const panel = span / panels;
  for (const z of [-girderZ, girderZ]) {
    parts.push(beam([-L + panel / 2, trussTop, z], [L - panel / 2, trussTop, z], 0.24, 'paint'));
    for (let k = 0; k < panels; k += 1) {
      const x0 = -L + k * panel;
      const apex: Vec3 = [x0 + panel / 2, trussTop, z];
      parts.push(beam([x0, top, z], apex, 0.17, 'paint'));
      parts.push(beam(apex, [x0 + panel, top, z], 0.17, 'paint'));
      parts.push(beam([x0 + panel / 2, top, z], apex, 0.1, 'paint'));
    }
    const rz = z - Math.sign(z) * 0.15;
    parts.push(beam([-L, top + 1.1, rz], [L, top + 1.1, rz], 0.06, 'steel'));
  }
  return parts;
}

// ---------------------------------------------------------------------------------------------
// Gaussians from parts

/** Gaussians in memory: per splat a centre, σ per local axis, a rotation (w, x, y, z), an sRGB colour and an opacity. */
interface Gaussians {
  count: number;
  position: Float32Array;
  sigma: Float32Array;
  rotation: Float32Array;
  colour: Float32Array;
  opacity: Float32Array;
}

/** Faces of a box part that get Gaussians: [centre, u axis, v axis, du, dv]; faces touching the ground skip their bottom. */
function boxFaces(p: Extract<Part, { kind: 'beam' }>): { c: Vec3; u: Vec3; v: Vec3; n: Vec3; du: number; dv: number }[] {
  const { d, u, v, length } = beamFrame(p);
  const mid = mul(add(p.a, p.b), 0.5);
  const faces = [
    { c: add(mid, mul(d, length / 2)), u, v, n: d, du: p.w, dv: p.t },
    { c: add(mid, mul(d, -length / 2)), u, v, n: mul(d, -1), du: p.w, dv: p.t },
    { c: add(mid, mul(u, p.w / 2)), u: d, v, n: u, du: length, dv: p.t },
    { c: add(mid, mul(u, -p.w / 2)), u: d, v, n: mul(u, -1), du: length, dv: p.t },
    { c: add(mid, mul(v, p.t / 2)), u: d, v: u, n: v, du: length, dv: p.w },
    { c: add(mid, mul(v, -p.t / 2)), u: d, v: u, n: mul(v, -1), du: length, dv: p.w },
  ];
  return faces.filter((f) => f.du > 0.05 && f.dv > 0.05 && !(p.role === 'ground' && f.n[1] < -0.5));
}

const isThin = (p: Extract<Part, { kind: 'beam' }>) => Math.max(p.w, p.t) <= 0.35;

/**
 * Turns parts into exactly `count` Gaussians: thin members get Gaussians strung along their axis
 * and stretched along it (so a member reads as a solid bar), plates and blocks get flat
 * Gaussians on a jittered grid over their faces (cells 1.6 × the member spacing, 3 × on the
 * ground), discs a sunflower pattern.
 */
function partsToGaussians(
  parts: Part[],
  count: number,
  options: {
    seed: number;
    palette: Record<MaterialName, RGB>;
    rust?: number;
    rustBelow?: number;
    joints?: number[];
    jitter?: number;
    floaters?: number;
  },
): Gaussians {
  const rand = random(options.seed);
  const floaters = Math.min(count, Math.round(count * (options.floaters ?? 0)));
  const budget = count - floaters;
  // weights: members by length (thicker ones a little more), areas by area / cell², cells 1.6 ×
  // the member spacing (3 × on the ground, which would otherwise take a quarter of the budget)
  const items: { part: Part; linear: number; area: number }[] = parts.map((part) => {
    if (part.kind === 'disc') return { part, linear: 0, area: (Math.PI * part.radius ** 2) / 1.6 ** 2 };
    const { length } = beamFrame(part);
    if (isThin(part)) return { part, linear: length * (0.7 + 2 * Math.max(part.w, part.t)), area: 0 };
    return { part, linear: 0, area: boxFaces(part).reduce((a, f) => a + f.du * f.dv, 0) / (part.role === 'ground' ? 3 : 1.6) ** 2 };
  });
  const B = items.reduce((a, i) => a + i.linear, 0);
  const A = items.reduce((a, i) => a + i.area, 0);
  // Σ linear·x + Σ area·x² = budget, x = 1 / spacing
  const x = A > 0 ? (-B + Math.sqrt(B * B + 4 * A * budget)) / (2 * A) : budget / (B || 1);
  const wanted = items.map((i) => i.linear * x + i.area * x * x);
  const counts = wanted.map(Math.floor);
  let left = budget - counts.reduce((a, n) => a + n, 0);
  const order = wanted.map((w, i) => [w - Math.floor(w), i] as const).sort((p, q) => q[0] - p[0] || p[1] - q[1]);
  for (let k = 0; left > 0 && order.length > 0; k = (k + 1) % order.length, left -= 1) counts[order[k]![1]]! += 1;

  const g: Gaussians = {
    count,
    position: new Float32Array(count * 3),
    sigma: new Float32Array(count * 3),
    rotation: new Float32Array(count * 4),
    colour: new Float32Array(count * 3),
    opacity: new Float32Array(count),
  };
  let n = 0;
  const jitter = options.jitter ?? 1;
  const emit = (p: Vec3, axes: [Vec3, Vec3, Vec3], sigma: Vec3, colour: RGB, opacity: number) => {
    // a right-handed frame (the third axis' sign does not matter to a Gaussian)
    const third = cross(axes[0], axes[1]);
    const m: Mat3 = [
      [axes[0][0], axes[1][0], third[0]],
      [axes[0][1], axes[1][1], third[1]],
      [axes[0][2], axes[1][2], third[2]],
    ];
    const q = quaternionFromMatrix(m); // [x, y, z, w]
    g.position.set(p, n * 3);
    g.sigma.set(sigma, n * 3);
    g.rotation.set([q[3], q[0], q[1], q[2]], n * 4);
    const shade = 0.93 + 0.12 * rand();
    g.colour.set(
      colour.map((c) => clamp01(c * shade)),
      n * 3,
    );
    g.opacity[n] = opacity;
    n += 1;
  };
  const rustBelow = options.rustBelow ?? 0;
  const joints = options.joints ?? [];
  const colourAt = (part: Part, p: Vec3): RGB => {
    const base = options.palette[part.material];
    if (part.kind === 'beam' && (part.role === 'leg' || part.role === 'brace') && options.rust && p[1] < rustBelow) {
      const nearJoint = joints.some((y) => Math.abs(p[1] - y) < 0.7);
      if (nearJoint && rand() < options.rust) return RUST;
    }
    return base;
  };

  items.forEach(({ part }, index) => {
    const k = counts[index]!;
    if (k === 0) return;
    if (part.kind === 'disc') {
      const nrm = unit(part.normal);
      const u = unit(Math.abs(nrm[1]) > 0.9 ? cross([1, 0, 0], nrm) : cross([0, 1, 0], nrm));
      const v = cross(nrm, u);
      const sigma = part.radius * Math.sqrt(Math.PI / k) * 0.6;
      for (let i = 0; i < k; i += 1) {
        const r = part.radius * Math.sqrt((i + 0.5) / k);
        const a = i * 2.399963229728653;
        // a shallow dish: the rim sits back
        const p = add(
          add(part.centre, add(mul(u, r * Math.cos(a)), mul(v, r * Math.sin(a)))),
          mul(nrm, part.depth * (0.5 - (r / part.radius) ** 2 * 0.6)),
        );
        emit(p, [u, v, nrm], [sigma, sigma, 0.02], colourAt(part, p), 0.97);
      }
      return;
    }
    const { d, u, v, length } = beamFrame(part);
    if (isThin(part)) {
      const spacing = length / k;
      for (let i = 0; i < k; i += 1) {
        const along = (i + 0.5 + (rand() - 0.5) * 0.3 * jitter) * spacing;
        const p = add(
          add(part.a, mul(d, along)),
          add(mul(u, (rand() - 0.5) * 0.15 * part.w * jitter), mul(v, (rand() - 0.5) * 0.15 * part.t * jitter)),
        );
        emit(
          p,
          [d, u, v],
          [Math.min(Math.max(0.6 * spacing, 0.3 * part.w), length / 2), 0.32 * part.w, 0.32 * part.t],
          colourAt(part, p),
          0.95,
        );
      }
      return;
    }
    const faces = boxFaces(part);
    const total = faces.reduce((a, f) => a + f.du * f.dv, 0);
    let given = 0;
    faces.forEach((f, fi) => {
      const share = fi === faces.length - 1 ? k - given : Math.round((k * f.du * f.dv) / total);
      const m = Math.max(0, Math.min(share, k - given));
      given += m;
      if (m === 0) return;
      const cell = Math.sqrt((f.du * f.dv) / m);
      const nu = Math.max(1, Math.round(f.du / cell));
      const nv = Math.max(1, Math.ceil(m / nu));
      const cells = Array.from({ length: nu * nv }, (_, c) => c);
      for (let c = cells.length - 1; c > 0; c -= 1) {
        const j = Math.floor(rand() * (c + 1));
        [cells[c], cells[j]] = [cells[j]!, cells[c]!];
      }
      for (const c of cells.slice(0, m)) {
        const iu = c % nu;
        const iv = Math.floor(c / nu);
        const su = (iu + 0.5 + (rand() - 0.5) * 0.6) / nu - 0.5;
        const sv = (iv + 0.5 + (rand() - 0.5) * 0.6) / nv - 0.5;
        const p = add(f.c, add(mul(f.u, su * f.du), mul(f.v, sv * f.dv)));
        emit(
          p,
          [f.u, f.v, f.n],
          [Math.min(0.75 * (f.du / nu), f.du / 2), Math.min(0.75 * (f.dv / nv), f.dv / 2), 0.015],
          colourAt(part, p),
          0.97,
        );
      }
    });
  });
  // floaters: what a failed reconstruction leaves in the air
  for (let i = 0; n < count && i < floaters + count; i += 1) {
    const p: Vec3 = [(rand() - 0.5) * 60, rand() * 50, (rand() - 0.5) * 60];
    const grey = 0.4 + 0.4 * rand();
    const s = 0.1 + rand() * 0.4;
    emit(
      p,
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      [s, s * (0.5 + rand()), s],
      [grey, grey, grey * 0.95],
      0.25,
    );
  }
  return g;
}

/** Gaussians turned into the y-down frame of 3DGS output (positions and rotations, {@link toYDown}). */
function gaussiansToYDown(g: Gaussians): Gaussians {
  const out: Gaussians = { ...g, position: new Float32Array(g.position), rotation: new Float32Array(g.rotation) };
  for (let i = 0; i < g.count; i += 1) {
    out.position[i * 3 + 1] = -g.position[i * 3 + 1]! + 0;
    out.position[i * 3 + 2] = -g.position[i * 3 + 2]! + 0;
    // (w, x, y, z) → qx180 ⊗ q = (−x, w, −z, y)
    const [w, x, y, z] = [g.rotation[i * 4]!, g.rotation[i * 4 + 1]!, g.rotation[i * 4 + 2]!, g.rotation[i * 4 + 3]!];
    out.rotation.set([-x + 0, w, -z + 0, y], i * 4);
  }
  return out;
}

/** Options of the demo splat ({@link makeSplatPly}, {@link makeTowerSplat}). */
export interface SplatOptions extends TowerOptions {
  /** Number of Gaussians (default 3600, about 0.9 MB). */
  count?: number;
  /** Random seed of the jitter and colour noise (default 1). */
  seed?: number;
  /** Share of the steel Gaussians near the lower joints coloured as rust, 0..1 (default 0.15). */
  rust?: number;
  /** Share of the Gaussians that are floaters, as a failed reconstruction has (default 0). */
  floaters?: number;
  /** Jitter multiplier (default 1; a draft reconstruction is noisier). */
  jitter?: number;
}

/**
 * The demo tower's Gaussians in the y-down 3DGS frame (what {@link makeSplatPly} writes; the
 * photos are rendered from these).
 */
function makeTowerSplat(options: SplatOptions = {}): Gaussians {
  const tint = options.tint ?? [0.85, 0.2, 0.2];
  const H = options.height ?? 40;
  const g = partsToGaussians(towerParts(options), options.count ?? 3600, {
    seed: options.seed ?? 1,
    palette: { ...BASE_PALETTE, paint: tint },
    rust: options.rust ?? 0.15,
    rustBelow: 0.4 * H,
    joints: TOWER_LEVELS.map((f) => f * H),
    jitter: options.jitter ?? 1,
    floaters: options.floaters ?? 0,
  });
  return gaussiansToYDown(g);
}

/** Encodes Gaussians as a 3DGS PLY (binary_little_endian 1.0, 62 float properties; SH degree 0 only). */
function encodeSplatPly(g: Gaussians): Uint8Array<ArrayBuffer> {
  const header =
    `ply\nformat binary_little_endian 1.0\nelement vertex ${g.count}\n` +
    TRAINING_PLY_PROPERTIES.map((p) => `property float ${p}\n`).join('') +
    'end_header\n';
  const headerBytes = new TextEncoder().encode(header);
  const stride = TRAINING_PLY_PROPERTIES.length * 4;
  const out = new Uint8Array(headerBytes.length + g.count * stride);
  out.set(headerBytes, 0);
  const view = new DataView(out.buffer, headerBytes.length);
  for (let i = 0; i < g.count; i += 1) {
    const at = (j: number, v: number) => view.setFloat32(i * stride + j * 4, v, true);
    for (let k = 0; k < 3; k += 1) {
      at(k, g.position[i * 3 + k]!);
      at(6 + k, toDc(g.colour[i * 3 + k]!));
      at(55 + k, Math.log(Math.max(g.sigma[i * 3 + k]!, 1e-4)));
    }
    at(54, logit(Math.min(Math.max(g.opacity[i]!, 0.01), 0.99)));
    for (let k = 0; k < 4; k += 1) at(58 + k, g.rotation[i * 4 + k]!);
  }
  return out;
}

/**
 * A 3DGS splat PLY (binary_little_endian 1.0, one `vertex` element with the 62 float properties
 * of {@link TRAINING_PLY_PROPERTIES}; SH degree 0, `f_rest_*` zero) of the demo lattice tower: legs,
 * X-bracing, platform, antennas, dishes, mast, footings and gravel pad, each member strung with
 * Gaussians stretched along it (σ along ≈ 0.6 × spacing, across ≈ 0.3 × member width).
 * Written in the y-down frame of real 3DGS output, (x, y, z)_glTF → (x, −y, −z) ({@link toYDown}):
 * the viewer's default 180° turn about x puts it upright, on top of {@link makeTowerGlb}.
 * @param options.count number of Gaussians (default 3600: 0.9 MB; any count ≥ 0 works, small ones
 *   for tests)
 * @param options.height lattice height in metres (default 40; the whole tower is ~49 m)
 * @param options.seed random seed of jitter and colour noise (default 1)
 * @param options.tint aviation-paint colour, sRGB in [0, 1] (default red)
 * @param options.rust, options.floaters, options.jitter, options.antennaPanels, options.sectorTwist see {@link SplatOptions}
 * @returns the file's bytes: header + count × 62 × 4 bytes
 */
export function makeSplatPly(options: SplatOptions = {}): Uint8Array<ArrayBuffer> {
  return encodeSplatPly(makeTowerSplat(options));
}

// ---------------------------------------------------------------------------------------------
// GLB from parts

/** Linear value of an sRGB channel (glTF `baseColorFactor` is linear). */
const srgbToLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

/** Triangles of parts, per material: positions, flat normals, indices (outward, counter-clockwise). */
function partsToMeshes(parts: Part[]): Map<MaterialName, { positions: number[]; normals: number[]; indices: number[] }> {
  const meshes = new Map<MaterialName, { positions: number[]; normals: number[]; indices: number[] }>();
  const quad = (m: { positions: number[]; normals: number[]; indices: number[] }, corners: Vec3[], normal: Vec3) => {
    const [p0, p1, p2] = corners as [Vec3, Vec3, Vec3];
    const ccw = dot(cross(sub(p1, p0), sub(p2, p0)), normal) >= 0;
    const ordered = ccw ? corners : [...corners].reverse();
    const base = m.positions.length / 3;
    for (const c of ordered) {
      m.positions.push(...c);
      m.normals.push(...normal);
    }
    for (let i = 1; i + 1 < ordered.length; i += 1) m.indices.push(base, base + i, base + i + 1);
  };
  for (const part of parts) {
    let m = meshes.get(part.material);
    if (!m) meshes.set(part.material, (m = { positions: [], normals: [], indices: [] }));
    if (part.kind === 'beam') {
      const { d, u, v, length } = beamFrame(part);
      const corner = (i: number, j: number, k: number): Vec3 =>
        add(add(part.a, mul(d, i * length)), add(mul(u, (j - 0.5) * part.w), mul(v, (k - 0.5) * part.t)));
      quad(m, [corner(1, 0, 0), corner(1, 1, 0), corner(1, 1, 1), corner(1, 0, 1)], d);
      quad(m, [corner(0, 0, 0), corner(0, 1, 0), corner(0, 1, 1), corner(0, 0, 1)], mul(d, -1));
      quad(m, [corner(0, 1, 0), corner(1, 1, 0), corner(1, 1, 1), corner(0, 1, 1)], u);
      quad(m, [corner(0, 0, 0), corner(1, 0, 0), corner(1, 0, 1), corner(0, 0, 1)], mul(u, -1));
      quad(m, [corner(0, 0, 1), corner(1, 0, 1), corner(1, 1, 1), corner(0, 1, 1)], v);
      quad(m, [corner(0, 0, 0), corner(1, 0, 0), corner(1, 1, 0), corner(0, 1, 0)], mul(v, -1));
    } else {
      const nrm = unit(part.normal);
      const u = unit(Math.abs(nrm[1]) > 0.9 ? cross([1, 0, 0], nrm) : cross([0, 1, 0], nrm));
      const v = cross(nrm, u);
      const segments = 16;
      const ring = (offset: number, r: number) =>
        Array.from({ length: segments }, (_, i): Vec3 => {
          const a = (2 * Math.PI * i) / segments;
          return add(add(part.centre, mul(nrm, offset)), add(mul(u, r * Math.cos(a)), mul(v, r * Math.sin(a))));
        });
      const front = ring(part.depth / 2, part.radius);
      const back = ring(-part.depth / 2, part.radius * 0.35);
      quad(m, front, nrm);
      quad(m, back, mul(nrm, -1));
      for (let i = 0; i < segments; i += 1) {
        const j = (i + 1) % segments;
        const a = (2 * Math.PI * (i + 0.5)) / segments;
        const radial = add(mul(u, Math.cos(a)), mul(v, Math.sin(a)));
        const outward = unit(add(radial, mul(nrm, -((part.radius * 0.65) / part.depth) * 0.5)));
        quad(m, [front[i]!, front[j]!, back[j]!, back[i]!], outward);
      }
    }
  }
  return meshes;
}

/** Writes parts as a GLB: one mesh, one primitive a material, one node, one scene. */
async function partsToGlb(parts: Part[], palette: Record<MaterialName, RGB>, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'inspection-catalog demo data';
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh(name);
  for (const [material, m] of partsToMeshes(parts)) {
    const vertices = m.positions.length / 3;
    const position = doc.createAccessor(`${material}-position`).setType('VEC3').setArray(new Float32Array(m.positions)).setBuffer(buffer);
    const normal = doc.createAccessor(`${material}-normal`).setType('VEC3').setArray(new Float32Array(m.normals)).setBuffer(buffer);
    const index = doc
      .createAccessor(`${material}-indices`)
      .setType('SCALAR')
      .setArray(vertices < 65536 ? new Uint16Array(m.indices) : new Uint32Array(m.indices))
      .setBuffer(buffer);
    const [r, g, b] = palette[material].map(srgbToLinear) as RGB;
    const mat = doc
      .createMaterial(material)
      .setBaseColorFactor([r, g, b, 1])
      .setMetallicFactor(0)
      .setRoughnessFactor(material === 'steel' ? 0.55 : 0.8);
    if (material === 'light') mat.setEmissiveFactor([r, g, b]);
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute('POSITION', position).setAttribute('NORMAL', normal).setIndices(index).setMaterial(mat),
    );
  }
  const node = doc.createNode(name).setMesh(mesh);
  doc.createScene('scene').addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
  return new NodeIO().writeBinary(doc);
}

/**
 * A GLB (glTF 2.0 binary) of the demo lattice tower, written with @gltf-transform/core: every
 * member a box, one material a colour (aviation paint bands, white, galvanised steel, antennas,
 * concrete, gravel, the obstruction light), y-up, metres, the tower's base at the origin. Same
 * parts as {@link makeSplatPly}: with the viewer's splat turn the two coincide.
 * @param options see {@link TowerOptions} (`height` default 40, `tint` default red)
 * @returns the GLB bytes (start with the magic 'glTF'; about 0.1 MB)
 */
export async function makeTowerGlb(options: TowerOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return partsToGlb(towerParts(options), { ...BASE_PALETTE, paint: options.tint ?? [0.85, 0.2, 0.2] }, 'tower');
}

/**
 * A GLB (glTF 2.0 binary) of the demo steel footbridge, written with @gltf-transform/core: two
 * plate girders (I-sections) on bearings, cross girders, a concrete deck, Warren pony trusses,
 * handrails and abutments; y-up, metres, the span along x centred on the origin, deck top about
 * 4.2 m above the ground.
 * @param options see {@link BridgeOptions} (`span` default 30, `tint` default blue-grey)
 * @returns the GLB bytes (start with the magic 'glTF')
 */
export async function makeBridgeGlb(options: BridgeOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return partsToGlb(bridgeParts(options), { ...BASE_PALETTE, paint: options.tint ?? [0.3, 0.4, 0.7] }, 'footbridge');
}

// ---------------------------------------------------------------------------------------------
// Cameras

/** Options of {@link makeCameraMetadata}. */
export interface CameraOptions {
  /** Number of cameras (default 20). */
  count?: number;
  /** 'spiral' climbs from `heights[0]` to `heights[1]` over `turns` turns; 'ring' flies at `heights[0]` (default 'spiral'). */
  layout?: 'spiral' | 'ring';
  /** Distance from the tower axis, metres (default 22). */
  radius?: number;
  /** Flight heights, metres above the ground (default [8, 44]). */
  heights?: [number, number];
  /** Turns of the spiral (default 2). */
  turns?: number;
  /** How far below the camera it looks at the tower axis, metres (default 3; negative looks up). */
  lookDown?: number;
  /** Image size in pixels (default 320 × 240). */
  width?: number;
  height?: number;
  /** Vertical field of view, degrees (default 55). */
  fovY?: number;
  /** Whether `img_name` carries the '.png' extension (default true; real outputs differ, samples/SOURCES.md). */
  extension?: boolean;
  /** Azimuth of the first camera, degrees (default 20). */
  start?: number;
}

/**
 * Camera metadata (SPEC.md §3 camera entry plus `fx`, `fy`) of a drone flight around the demo
 * tower, in the 3DGS convention of shared/camera-poses.ts and in the splat's y-down frame
 * ({@link toYDown}): `position` the camera centre, `rotation` camera-to-world with columns right,
 * down, forward; each camera looks at the tower axis a little below itself; `img_name`
 * `frame_00001.png`… (or without extension), `width`/`height` the photo size, `fx`/`fy` in its pixels.
 * Numbers are rounded to 6 decimals.
 * @param options see {@link CameraOptions}
 * @returns the entries, `id` 0…count−1
 */
export function makeCameraMetadata(options: CameraOptions = {}): CameraMetadataEntry[] {
  const count = options.count ?? 20;
  const radius = options.radius ?? 22;
  const [lo, hi] = options.heights ?? [8, 44];
  const turns = options.turns ?? 2;
  const width = options.width ?? 320;
  const height = options.height ?? 240;
  const focal = height / 2 / Math.tan((((options.fovY ?? 55) / 2) * Math.PI) / 180);
  const round = (x: number) => Math.round(x * 1e6) / 1e6 + 0;
  const start = ((options.start ?? 20) * Math.PI) / 180;
  const cameras: CameraMetadataEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const f = count > 1 ? i / (count - 1) : 0;
    const ring = options.layout === 'ring';
    const angle = start + (ring ? (2 * Math.PI * i) / count : 2 * Math.PI * turns * f);
    const y = ring ? lo : lo + (hi - lo) * f;
    const eye: Vec3 = [radius * Math.cos(angle), y, radius * Math.sin(angle)];
    const target: Vec3 = [0, Math.max(2, y - (options.lookDown ?? 3)), 0];
    const rotation = lookAtRotation(toYDown(eye), toYDown(target), [0, -1, 0]);
    const stem = `frame_${String(i + 1).padStart(5, '0')}`;
    cameras.push({
      id: i,
      img_name: options.extension === false ? stem : `${stem}.png`,
      width,
      height,
      position: toYDown(eye).map(round) as Vec3,
      rotation: rotation.map((row) => row.map(round)) as Mat3,
      fy: round(focal),
      fx: round(focal),
    });
  }
  return cameras;
}

// ---------------------------------------------------------------------------------------------
// Software renderer

/** What {@link renderView} draws, all in the camera's world frame. */
export interface RenderScene {
  /** Gaussians: centres, σ per local axis, rotation (w, x, y, z), sRGB colour, optional opacity in 0..1 (default 1). */
  splats?: {
    count: number;
    position: Float32Array;
    sigma: Float32Array;
    rotation: Float32Array;
    colour: Float32Array;
    opacity?: Float32Array;
  };
  /** Triangles: 9 numbers each, an sRGB colour (3 numbers) each; lit from `sun`. */
  triangles?: { positions: Float32Array; colours: Float32Array };
  /** The world's up direction (unit), e.g. [0, −1, 0] for a y-down splat. */
  up: Vec3;
  /** Direction towards the sun, world frame (default: up tilted). */
  sun?: Vec3;
}

/**
 * Renders a scene as a camera of the camera metadata sees it: sky and a grass ground plane (the
 * plane through the origin normal to `up`), triangles (clipped at 5 cm, z-buffered, Lambert-lit,
 * supersampled 2× and box-filtered) and Gaussians as 3DGS draws them (projected covariance,
 * sorted far to near, alpha-blended). Projection by shared/camera-poses.ts (`makeProjector`:
 * 3DGS/OpenCV pinhole, fx/fy or 60°), so a photo matches the viewer's frustum of that camera.
 * About 10–20 ms for a 320×240 photo of the 3,600-Gaussian tower.
 * @param scene what to draw ({@link RenderScene})
 * @param camera a §3 camera entry (width × height pixels, optional fx/fy) in the scene's frame
 * @returns RGB bytes, row-major from the top-left, width × height × 3
 * @throws AppError `invalid-argument` for a malformed camera (shared/camera-poses.ts)
 */
export function renderView(scene: RenderScene, camera: CameraLike): Uint8Array {
  // triangles are supersampled 2× (hard edges); Gaussians are soft already
  const ss = scene.triangles ? 2 : 1;
  const { width, height, fx, fy, cx, cy } = cameraIntrinsics(camera);
  const W = Math.round(width) * ss;
  const H = Math.round(height) * ss;
  const rgb = new Float32Array(W * H * 3);
  const depth = new Float32Array(W * H);
  const { right, down, forward } = cameraAxes(camera);
  const eye = camera.position as Vec3;
  const up = unit(scene.up);
  const eyeHeight = dot(eye, up);
  // sky and ground (no allocation in the loop),
  const [rx, ry, rz] = right;
  const [dx0, dy0, dz0] = down;
  const [fx0, fy0, fz0] = forward;
  const [ux, uy, uz] = up;
  // computed once a photo pixel and written to its ss × ss block: the sky is smooth, the horizon fogged
  const block = (px: number, py: number, r: number, gr: number, bl: number, z: number) => {
    for (let j = 0; j < ss; j += 1) {
      for (let i = 0; i < ss; i += 1) {
        const at = (py * ss + j) * W + px * ss + i;
        rgb[at * 3] = r;
        rgb[at * 3 + 1] = gr;
        rgb[at * 3 + 2] = bl;
        depth[at] = z;
      }
    }
  };
  for (let py = 0; py < H / ss; py += 1) {
    const b = (py + 0.5 - cy) / fy;
    for (let px = 0; px < W / ss; px += 1) {
      const a = (px + 0.5 - cx) / fx;
      const dx = rx * a + dx0 * b + fx0;
      const dy = ry * a + dy0 * b + fy0;
      const dz = rz * a + dz0 * b + fz0;
      const dl = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const rise = dx * ux + dy * uy + dz * uz;
      if (rise >= 0 || eyeHeight <= 0) {
        const t = Math.sqrt(Math.max(0, rise / dl));
        block(px, py, 0.8 - 0.44 * t, 0.86 - 0.3 * t, 0.93 - 0.07 * t, Infinity);
        continue;
      }
      // the ray meets the ground plane (through the origin, normal `up`) after s forward units
      const s = eyeHeight / -rise;
      const hx = eye[0] + dx * s;
      const hy = eye[1] + dy * s;
      const hz = eye[2] + dz * s;
      const h = hx * ux + hy * uy + hz * uz;
      const cell =
        (Math.floor((hx - h * ux) / 3) * 73856093) ^
        (Math.floor((hy - h * uy) / 3) * 83492791) ^
        (Math.floor((hz - h * uz) / 3) * 19349663);
      const noise = ((cell >>> 0) % 1000) / 1000;
      const fog = 1 - Math.exp(-(s * dl) / 350);
      const g0 = 0.4 + 0.05 * noise;
      const g1 = 0.5 + 0.06 * noise;
      const g2 = 0.29 + 0.03 * noise;
      // dir's forward component is 1: s is the depth along the view axis
      block(px, py, g0 + (0.78 - g0) * fog, g1 + (0.84 - g1) * fog, g2 + (0.88 - g2) * fog, s);
    }
  }
  const project = makeProjector(camera);
  const sun = unit(scene.sun ?? add(mul(up, 0.8), unit(add(mul(right, -0.4), mul(forward, 0.3)))));
  // triangles: clipped at a near plane (long members pass beside the camera), Lambert-lit
  // (two-sided), z-buffered with perspective-correct depth
  const tri = scene.triangles;
  const near = 0.05;
  const fill = (a: ImagePoint, b: ImagePoint, c: ImagePoint, colour: RGB) => {
    const [ax, ay, bx, by, cx2, cy2] = [a.x * ss, a.y * ss, b.x * ss, b.y * ss, c.x * ss, c.y * ss];
    const area = (bx - ax) * (cy2 - ay) - (by - ay) * (cx2 - ax);
    if (Math.abs(area) < 1e-9) return;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx2)));
    const x1 = Math.min(W - 1, Math.ceil(Math.max(ax, bx, cx2)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy2)));
    const y1 = Math.min(H - 1, Math.ceil(Math.max(ay, by, cy2)));
    for (let py = y0; py <= y1; py += 1) {
      for (let px = x0; px <= x1; px += 1) {
        const sx = px + 0.5;
        const sy = py + 0.5;
        const w0 = ((bx - sx) * (cy2 - sy) - (by - sy) * (cx2 - sx)) / area;
        const w1 = ((cx2 - sx) * (ay - sy) - (cy2 - sy) * (ax - sx)) / area;
        const w2 = 1 - w0 - w1;
        if (w0 < 0 || w1 < 0 || w2 < 0) continue;
        const z = 1 / (w0 / a.depth + w1 / b.depth + w2 / c.depth);
        const i = py * W + px;
        if (z >= depth[i]!) continue;
        depth[i] = z;
        rgb[i * 3] = colour[0];
        rgb[i * 3 + 1] = colour[1];
        rgb[i * 3 + 2] = colour[2];
      }
    }
  };
  if (tri) {
    for (let t = 0; t * 9 < tri.positions.length; t += 1) {
      const v = [0, 1, 2].map((k): Vec3 => [
        tri.positions[t * 9 + k * 3]!,
        tri.positions[t * 9 + k * 3 + 1]!,
        tri.positions[t * 9 + k * 3 + 2]!,
      ]);
      const d = v.map((q) => dot(forward, sub(q, eye)));
      if (d.every((z) => z < near)) continue;
      // Sutherland–Hodgman against depth ≥ near
      const poly: Vec3[] = [];
      for (let k = 0; k < 3; k += 1) {
        const j = (k + 1) % 3;
        if (d[k]! >= near) poly.push(v[k]!);
        if (d[k]! >= near !== d[j]! >= near) poly.push(add(v[k]!, mul(sub(v[j]!, v[k]!), (near - d[k]!) / (d[j]! - d[k]!))));
      }
      let n = unit(cross(sub(v[1]!, v[0]!), sub(v[2]!, v[0]!)));
      if (dot(n, sub(v[0]!, eye)) > 0) n = mul(n, -1);
      const light = 0.5 + 0.5 * Math.max(0, dot(n, sun));
      const colour: RGB = [tri.colours[t * 3]! * light, tri.colours[t * 3 + 1]! * light, tri.colours[t * 3 + 2]! * light];
      const p = poly.map((q) => project(q));
      if (p.some((q) => q === null)) continue;
      const pts = p as ImagePoint[];
      for (let k = 1; k + 1 < pts.length; k += 1) fill(pts[0]!, pts[k]!, pts[k + 1]!, colour);
    }
  }
  // Gaussians, as 3DGS draws them: sorted far to near and alpha-blended, each with the screen
  // covariance of its ellipsoid (EWA splatting: Σ_k (J R^T σ_k a_k)(…)^T, dilated by 0.3 px² as
  // 3DGS does) and alpha = opacity · exp(−q/2) out to 3 σ; hidden only behind triangles and
  // beyond the ground (a 2 % margin keeps what lies on it)
  const g = scene.splats;
  if (g) {
    const K = 9;
    const items: { i: number; x: number; y: number; depth: number; ixx: number; ixy: number; iyy: number; ex: number; ey: number }[] = [];
    for (let i = 0; i < g.count; i += 1) {
      const centre: Vec3 = [g.position[i * 3]!, g.position[i * 3 + 1]!, g.position[i * 3 + 2]!];
      const p = project(centre);
      if (!p || p.depth < 0.05) continue;
      // camera-frame centre, for the projection's Jacobian (x right, y down, z = depth)
      const ox = centre[0] - eye[0];
      const oy = centre[1] - eye[1];
      const oz = centre[2] - eye[2];
      const X = rx * ox + ry * oy + rz * oz;
      const Y = dx0 * ox + dy0 * oy + dz0 * oz;
      const Z = p.depth;
      const [w, x, y, z] = [g.rotation[i * 4]!, g.rotation[i * 4 + 1]!, g.rotation[i * 4 + 2]!, g.rotation[i * 4 + 3]!];
      let cxx = 0.3 * ss * ss;
      let cxy = 0;
      let cyy = 0.3 * ss * ss;
      for (let k = 0; k < 3; k += 1) {
        // a_k: column k of the Gaussian's rotation, scaled by its σ
        const sigma = g.sigma[i * 3 + k]!;
        const ax = sigma * (k === 0 ? 1 - 2 * (y * y + z * z) : k === 1 ? 2 * (x * y - w * z) : 2 * (x * z + w * y));
        const ay = sigma * (k === 0 ? 2 * (x * y + w * z) : k === 1 ? 1 - 2 * (x * x + z * z) : 2 * (y * z - w * x));
        const az = sigma * (k === 0 ? 2 * (x * z - w * y) : k === 1 ? 2 * (y * z + w * x) : 1 - 2 * (x * x + y * y));
        const cX = rx * ax + ry * ay + rz * az;
        const cY = dx0 * ax + dy0 * ay + dz0 * az;
        const cZ = fx0 * ax + fy0 * ay + fz0 * az;
        const vx = ((fx * (cX * Z - X * cZ)) / (Z * Z)) * ss;
        const vy = ((fy * (cY * Z - Y * cZ)) / (Z * Z)) * ss;
        cxx += vx * vx;
        cxy += vx * vy;
        cyy += vy * vy;
      }
      const det = cxx * cyy - cxy * cxy;
      if (!(det > 0)) continue;
      items.push({
        i,
        x: p.x * ss,
        y: p.y * ss,
        depth: p.depth,
        ixx: cyy / det,
        ixy: -cxy / det,
        iyy: cxx / det,
        ex: Math.sqrt(K * cxx),
        ey: Math.sqrt(K * cyy),
      });
    }
    items.sort((a, b) => b.depth - a.depth || a.i - b.i);
    for (const it of items) {
      const opacity = Math.min(0.99, g.opacity?.[it.i] ?? 1);
      const r = g.colour[it.i * 3]!;
      const gg = g.colour[it.i * 3 + 1]!;
      const bb = g.colour[it.i * 3 + 2]!;
      const xa = Math.max(0, Math.floor(it.x - it.ex));
      const xb = Math.min(W - 1, Math.ceil(it.x + it.ex));
      const ya = Math.max(0, Math.floor(it.y - it.ey));
      const yb = Math.min(H - 1, Math.ceil(it.y + it.ey));
      for (let py = ya; py <= yb; py += 1) {
        const dy = py + 0.5 - it.y;
        for (let px = xa; px <= xb; px += 1) {
          const dx = px + 0.5 - it.x;
          const q = it.ixx * dx * dx + 2 * it.ixy * dx * dy + it.iyy * dy * dy;
          if (q > K) continue;
          const at = py * W + px;
          if (it.depth > depth[at]! * 1.02) continue;
          const a = opacity * Math.exp(-0.5 * q);
          rgb[at * 3] = rgb[at * 3]! * (1 - a) + r * a;
          rgb[at * 3 + 1] = rgb[at * 3 + 1]! * (1 - a) + gg * a;
          rgb[at * 3 + 2] = rgb[at * 3 + 2]! * (1 - a) + bb * a;
        }
      }
    }
  }
  // box filter to the photo size
  const w0 = W / ss;
  const h0 = H / ss;
  const out = new Uint8Array(w0 * h0 * 3);
  for (let y = 0; y < h0; y += 1) {
    for (let x = 0; x < w0; x += 1) {
      for (let c = 0; c < 3; c += 1) {
        let sum = 0;
        for (let j = 0; j < ss; j += 1) for (let i = 0; i < ss; i += 1) sum += rgb[((y * ss + j) * W + x * ss + i) * 3 + c]!;
        out[(y * w0 + x) * 3 + c] = Math.round(clamp01(sum / (ss * ss)) * 255);
      }
    }
  }
  return out;
}

/** Triangles of a part list for {@link renderView} (colours from the palette). */
function partsToTriangles(
  parts: Part[],
  palette: Record<MaterialName, RGB>,
  frame: (p: Vec3) => Vec3 = (p) => p,
): NonNullable<RenderScene['triangles']> {
  const positions: number[] = [];
  const colours: number[] = [];
  for (const [material, m] of partsToMeshes(parts)) {
    for (let t = 0; t < m.indices.length; t += 3) {
      for (let k = 0; k < 3; k += 1) {
        const i = m.indices[t + k]!;
        positions.push(...frame([m.positions[i * 3]!, m.positions[i * 3 + 1]!, m.positions[i * 3 + 2]!]));
      }
      colours.push(...palette[material]);
    }
  }
  return { positions: new Float32Array(positions), colours: new Float32Array(colours) };
}

// ---------------------------------------------------------------------------------------------
// PNG

function pngChunk(type: string, data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * Encodes RGB pixels as a PNG (8-bit RGB, no interlace), every row Paeth-filtered (as small as a
 * per-row choice on these renders, at half the time), deflated with node:zlib at level 4 (fast).
 * @param width width in pixels
 * @param height height in pixels
 * @param rgb width × height × 3 bytes, row-major from the top-left
 * @returns the PNG bytes
 * @throws RangeError when `rgb` has the wrong length
 */
export function encodePng(width: number, height: number, rgb: Uint8Array): Uint8Array<ArrayBuffer> {
  if (rgb.length !== width * height * 3) throw new RangeError(`encodePng: ${rgb.length} bytes for ${width}×${height} RGB`);
  const stride = width * 3;
  const raw = new Uint8Array(height * (1 + stride));
  for (let y = 0; y < height; y += 1) {
    const at = y * (1 + stride);
    raw[at] = 4; // Paeth
    for (let i = 0; i < stride; i += 1) {
      const a = i >= 3 ? rgb[y * stride + i - 3]! : 0;
      const b = y > 0 ? rgb[(y - 1) * stride + i]! : 0;
      const c = y > 0 && i >= 3 ? rgb[(y - 1) * stride + i - 3]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      raw[at + 1 + i] = (rgb[y * stride + i]! - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)) & 0xff;
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
    pngChunk('IDAT', deflateSync(raw, { level: 4 })),
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

// ---------------------------------------------------------------------------------------------
// The demo catalog

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

/** A demo model: which structure, and which generated files it gets. */
export interface DemoModel {
  publicId: string;
  name: string;
  modelType: 'hybrid' | 'splat' | 'mesh';
  captureDate: string;
  reference: boolean;
  hidden: boolean;
  /** The structure its files show. */
  structure: 'tower' | 'bridge';
  /** Which files to generate: the splat (tower only), the GLB, and the drone flight (camera metadata plus one photo a camera). */
  files: { splat: boolean; glb: boolean; flight?: CameraOptions; photos?: number };
  /** Gaussians of the splat (default 3600). */
  splatCount?: number;
  /** Tower details of this survey (rust, extra antennas, a twisted sector, floaters). */
  survey?: Omit<SplatOptions, 'count' | 'seed' | 'tint'>;
  seed: number;
  tint: RGB;
  /** The model's scale, `metadata.unitsPerMetre` (the demo structures are in metres: 1). */
  unitsPerMetre?: number;
  /** Findings seeded on it (issue 18), in order: F-1, F-2… */
  findings?: DemoFinding[];
}

/**
 * A demo finding (issue 18). Points are given y-up in metres, as the structures are built
 * ({@link demoFindingInput} turns them into the model's coordinates).
 */
export interface DemoFinding {
  title: string;
  note: string;
  category: AnnotationCategory;
  severity: AnnotationSeverity;
  status: AnnotationStatus;
  /** One point, or two or more for a measurement; y-up, metres. */
  points: Vec3[];
  measure?: MeasureKind;
  /** A follow-up of this finding of another demo model: its Public ID and finding number. */
  followUpOf?: { publicId: string; seq: number };
}

/** The tower's leg half-width at height `y` (y-up, metres; the default 40 m tower of towerParts). */
const towerHalf = (y: number) => 3.5 - 2.5 * (y / 40);
/** A point on the third antenna sector, `twist` degrees off its 270° design azimuth, 1.6 m above the platform. */
const sectorThree = (twist: number): Vec3 => {
  const azimuth = ((270 + twist) * Math.PI) / 180;
  const reach = towerHalf(36) + 1 + 0.25 + 0.14;
  return [Math.cos(azimuth) * reach, 36 + 1.6, Math.sin(azimuth) * reach];
};
/** The lower leg joint of the tower at the first panel level (8 m), on the +x +z leg. */
const LOWER_JOINT: Vec3 = [towerHalf(8), 8, towerHalf(8)];

/**
 * A demo finding as the finding workflow takes it: the points (and the up axis of a height) in
 * the model's own coordinates, which for a model with a splat are the splat file's y-down frame
 * ({@link toYDown}) and for a mesh-only model the GLB's y-up frame.
 * @param model the demo model it is on
 * @param finding the finding
 */
export function demoFindingInput(model: Pick<DemoModel, 'files'>, finding: DemoFinding): AnnotationInput {
  const frame = (p: Vec3): ModelPoint => {
    const [x, y, z] = model.files.splat ? toYDown(p) : p;
    return { x, y, z };
  };
  return {
    title: finding.title,
    note: finding.note,
    category: finding.category,
    severity: finding.severity,
    status: finding.status,
    points: finding.points.map(frame),
    measure: finding.measure ?? null,
    up: finding.measure === 'height' ? frame([0, 1, 0]) : null,
    photos: [],
  };
}

/**
 * The demo catalog: 'North Ridge Telecom Tower' (TWR-001, located, two visible models, the older
 * one the reference, plus one hidden draft for the admin view), 'Grand River Footbridge'
 * (BRG-002, located, one mesh model) and 'Harbour Light Mast' (MST-003, no location, no models).
 * - TWR-001-2024-05: hybrid (tower splat + tower GLB, aligned), a 20-camera spiral flight with its photos;
 * - TWR-001-2025-06: splat, a 12-camera ring flight with photos (img_name without extension), more
 *   rust at the lower joints, a third panel per sector and the third sector twisted by 8°;
 * - TWR-001-DRAFT (hidden): a noisy splat with floaters, no photos;
 * - BRG-002-2025-04: mesh (footbridge GLB) and one photo of it.
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
        structure: 'tower',
        files: { splat: true, glb: true, flight: { count: 20, layout: 'spiral', radius: 22, heights: [8, 44], turns: 2 } },
        survey: { rust: 0.15 },
        seed: 11,
        tint: [0.85, 0.2, 0.2],
        unitsPerMetre: 1,
        findings: [
          {
            title: 'Bolt corrosion at lower leg joint',
            note: 'Surface rust on the bolted splice of the north-east leg at the first panel level. Clean and re-coat.',
            category: 'corrosion',
            severity: 3,
            status: 'open',
            points: [LOWER_JOINT],
          },
          {
            title: 'Leg spacing at the base',
            note: 'Footing to footing on the north face, for the foundation survey.',
            category: 'other',
            severity: 1,
            status: 'dismissed',
            points: [
              [towerHalf(0), 0.45, towerHalf(0)],
              [-towerHalf(0), 0.45, towerHalf(0)],
            ],
          },
        ],
      },
      {
        publicId: 'TWR-001-2025-06',
        name: 'North Ridge Tower, June 2025 survey',
        modelType: 'splat',
        captureDate: '2025-06-02',
        reference: false,
        hidden: false,
        structure: 'tower',
        files: {
          splat: true,
          glb: false,
          flight: { count: 12, layout: 'ring', radius: 38, heights: [20, 20], lookDown: -5, fovY: 60, extension: false, start: 5 },
        },
        survey: { rust: 0.55, antennaPanels: 3, sectorTwist: 8 },
        seed: 12,
        tint: [0.82, 0.3, 0.18],
        unitsPerMetre: 1,
        findings: [
          {
            title: 'Bolt corrosion at lower leg joint',
            note: 'Rust has spread to the brace connections since the 2024 survey. Schedule repair.',
            category: 'corrosion',
            severity: 4,
            status: 'open',
            points: [LOWER_JOINT],
            followUpOf: { publicId: 'TWR-001-2024-05', seq: 1 },
          },
          {
            title: 'Antenna sector 3 turned off azimuth',
            note: 'The third sector mount is turned about 8° from its design azimuth; check the clamp bolts.',
            category: 'deformation',
            severity: 3,
            status: 'monitoring',
            points: [sectorThree(8)],
          },
          {
            title: 'Platform height above the footing',
            note: 'Height of the antenna platform above the north-east footing.',
            category: 'other',
            severity: 1,
            status: 'open',
            points: [
              [towerHalf(0), 0.45, towerHalf(0)],
              [towerHalf(36) + 1, 36, towerHalf(36) + 1],
            ],
            measure: 'height',
          },
        ],
      },
      {
        publicId: 'TWR-001-DRAFT',
        name: 'North Ridge Tower, draft reconstruction',
        modelType: 'splat',
        captureDate: '2025-06-03',
        reference: false,
        hidden: true,
        structure: 'tower',
        files: { splat: true, glb: false },
        splatCount: 1500,
        survey: { rust: 0.3, jitter: 4, floaters: 0.12 },
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
        structure: 'bridge',
        files: { splat: false, glb: true, photos: 1 },
        seed: 21,
        tint: [0.3, 0.4, 0.7],
        unitsPerMetre: 1,
        findings: [
          {
            title: 'Girder corrosion at the east bearing',
            note: 'Paint loss and rust on the bottom flange of the south girder over the east bearing.',
            category: 'corrosion',
            severity: 2,
            status: 'open',
            points: [[14.9, 3.12, 1.6]],
          },
          {
            title: 'Vegetation on the east abutment',
            note: 'Moss and small plants on the abutment seat; clear at the spring inspection.',
            category: 'vegetation',
            severity: 1,
            status: 'repaired',
            points: [[16, 3.0, 0]],
          },
        ],
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

/** A camera entry (no file) for a still: at `eye` looking at `target`, in a frame whose up is `up`. */
function stillCamera(eye: Vec3, target: Vec3, up: Vec3, width: number, height: number, fovY: number): CameraLike {
  const focal = height / 2 / Math.tan((fovY * Math.PI) / 360);
  return { position: eye, rotation: lookAtRotation(eye, target, up), width, height, fx: focal, fy: focal };
}

/**
 * Generates the files of a demo model: the tower splat PLY (3DGS layout, y-down), the tower or
 * bridge GLB (y-up), the camera JSON of its drone flight (SPEC.md §3 entries, 3DGS convention, in
 * the splat's frame) with one 320×240 photo a camera rendered from exactly that pose
 * ({@link renderView}, `images/<img_name>` with '.png' added when `img_name` has no extension),
 * and a 320×240 thumbnail.
 * @param model the demo model
 */
export async function makeDemoModelFiles(model: DemoModel): Promise<DemoModelFiles> {
  const files: DemoModelFiles = { images: [], thumbnails: [] };
  const W = 320;
  const H = 240;
  if (model.structure === 'tower') {
    const splat = makeTowerSplat({ ...model.survey, count: model.splatCount ?? 3600, seed: model.seed, tint: model.tint });
    if (model.files.splat) files.splat = { name: 'point_cloud.ply', bytes: encodeSplatPly(splat) };
    if (model.files.glb) files.glb = { name: 'model.glb', bytes: await makeTowerGlb({ ...model.survey, tint: model.tint }) };
    const scene: RenderScene = { splats: splat, up: [0, -1, 0] };
    if (model.files.flight) {
      const cameras = makeCameraMetadata(model.files.flight);
      files.cameraMetadata = { name: 'cameras.json', text: `${JSON.stringify(cameras, null, 2)}\n` };
      for (const camera of cameras) {
        const name = /\.png$/i.test(camera.img_name) ? camera.img_name : `${camera.img_name}.png`;
        files.images.push({ name, bytes: encodePng(camera.width, camera.height, renderView(scene, camera)) });
      }
    }
    const thumb = stillCamera(toYDown([34, 17, 41]), toYDown([0, 23, 0]), [0, -1, 0], W, H, 55);
    files.thumbnails.push({ name: 'thumbnail.png', bytes: encodePng(W, H, renderView(scene, thumb)) });
  } else {
    const parts = bridgeParts({ tint: model.tint });
    if (model.files.glb) files.glb = { name: 'model.glb', bytes: await makeBridgeGlb({ tint: model.tint }) };
    const scene: RenderScene = {
      triangles: partsToTriangles(parts, { ...BASE_PALETTE, paint: model.tint }),
      up: [0, 1, 0],
      sun: unit([0.35, 0.8, 0.45]),
    };
    const views: [Vec3, Vec3][] = [
      [
        [-4, 1.8, 5],
        [3, 3.6, -0.5],
      ],
      [
        [14, 7, 22],
        [0, 3.5, 0],
      ],
    ];
    for (let i = 0; i < (model.files.photos ?? 0); i += 1) {
      const [eye, target] = views[i % views.length]!;
      files.images.push({
        name: `girder_${String(i + 1).padStart(3, '0')}.png`,
        bytes: encodePng(W, H, renderView(scene, stillCamera(eye, target, [0, 1, 0], W, H, 60))),
      });
    }
    files.thumbnails.push({
      name: 'thumbnail.png',
      bytes: encodePng(W, H, renderView(scene, stillCamera([24, 9, 30], [0, 3.5, 0], [0, 1, 0], W, H, 50))),
    });
  }
  return files;
}
