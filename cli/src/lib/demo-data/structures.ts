/**
 * The demo structures as lists of parts, y-up, metres: a lattice telecom tower (40 m lattice,
 * mast to 49 m) and a steel footbridge. One part list feeds every file of a structure (the
 * splat's Gaussians, the GLB's boxes, the photos' triangles), so a hybrid model's files line up.
 */
import { add, cross, dot, length as len, normalize as unit, scale as mul, sub, type Vec3 } from '@shared/vec3.js';
import type { RGB } from './colour.js';

/** Names of the structures' colours; each becomes one GLB material. */
export type MaterialName = 'paint' | 'white' | 'steel' | 'antenna' | 'concrete' | 'gravel' | 'light' | 'deck';

/** The colours (sRGB, 0..1) of every material but the paint, which each model picks (its `tint`). */
export const BASE_PALETTE: Record<Exclude<MaterialName, 'paint'>, RGB> = {
  white: [0.93, 0.93, 0.9],
  steel: [0.6, 0.62, 0.64],
  antenna: [0.86, 0.87, 0.88],
  concrete: [0.66, 0.65, 0.61],
  gravel: [0.55, 0.52, 0.47],
  light: [0.9, 0.12, 0.08],
  deck: [0.6, 0.59, 0.56],
};
/** The colour (sRGB) of rusted steel on the splat's lower joints. */
export const RUST: RGB = [0.52, 0.27, 0.13];

/**
 * A part of a structure: an oriented box from `a` to `b` with a `w` × `t` cross-section (`w`
 * along `side`, default horizontal), or a disc (a short cylinder, e.g. a microwave dish). Metres,
 * y-up. `role` marks tower members that can rust ('leg', 'brace') and blocks standing on the
 * ground, whose underside is never seen.
 */
export type Part =
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

/**
 * The axes of a beam: `d` along it from `a` to `b`; `u` across it, the `w` side (`side` made
 * perpendicular to `d`, by default horizontal, −x for a vertical beam); `v` = d × u, the `t` side.
 * All unit vectors.
 * @param p the beam
 * @returns the three axes and the beam's length in metres
 */
export function beamFrame(p: Extract<Part, { kind: 'beam' }>): { d: Vec3; u: Vec3; v: Vec3; length: number } {
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
export const TOWER_LEVELS = [0, 0.2, 0.375, 0.525, 0.6625, 0.7875, 0.9, 1];

/**
 * The tower as parts, y-up, metres: four tapering legs, horizontals and X-bracing on every face
 * of 7 panels painted in alternating aviation bands, an antenna platform with three sectors of
 * panel antennas, two microwave dishes, a top mast with a lightning rod and obstruction light,
 * four concrete footings on a gravel pad. The base sits at the origin.
 * @param options see {@link TowerOptions}
 * @returns the parts
 */
export function towerParts(options: TowerOptions = {}): Part[] {
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
 * pony truss with verticals and a handrail on each side, and concrete abutments. The deck top is
 * about 4.2 m above the ground.
 * @param options see {@link BridgeOptions}
 * @returns the parts
 */
export function bridgeParts(options: BridgeOptions = {}): Part[] {
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
