/**
 * Parts of a structure turned into 3D Gaussians, the way a 3DGS reconstruction of it would look:
 * members as chains of stretched Gaussians, plates and blocks as flat ones on their faces, with
 * colour noise, rust near the lower joints and, for a failed reconstruction, floaters.
 */
import { quaternionFromMatrix } from '@shared/camera-poses.js';
import type { Mat3 } from '@shared/camera-poses.js';
import { add, cross, normalize as unit, scale as mul, type Vec3 } from '@shared/vec3.js';
import { clamp01, type RGB } from './colour.js';
import { random } from './random.js';
import { beamFrame, RUST, type MaterialName, type Part } from './structures.js';

/**
 * Gaussians in memory, `count` of them in flat arrays: per splat a centre (3 numbers, metres), σ
 * per local axis (3, metres), a rotation quaternion (4: w, x, y, z), an sRGB colour (3, 0..1)
 * and an opacity (1, 0..1).
 */
export interface Gaussians {
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
 * ground), discs a sunflower pattern. The budget is shared so that members and faces get the
 * same spacing; `floaters` (a share of `count`) are grey, faint Gaussians scattered in the air.
 * Same parts, count and options give the same Gaussians.
 * @param parts the structure (y-up, metres)
 * @param count the number of Gaussians, ≥ 0
 * @param options `seed` of the jitter and colour noise; `palette` the colour of each material;
 *   `rust` the share (0..1) of leg and brace Gaussians below `rustBelow` metres and within 0.7 m
 *   of a height in `joints` that are rust-coloured; `jitter` a multiplier of the position noise
 *   (default 1); `floaters` the share of floaters (default 0)
 * @returns the Gaussians, y-up
 */
export function partsToGaussians(
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

/**
 * Gaussians turned into the y-down frame of 3DGS output: positions as `toYDown` (frame.ts) turns
 * points, rotations composed with the same 180° turn about x.
 * @param g the Gaussians (not changed)
 * @returns a copy in the y-down frame
 */
export function gaussiansToYDown(g: Gaussians): Gaussians {
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
