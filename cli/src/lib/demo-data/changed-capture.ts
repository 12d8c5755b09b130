/**
 * A generated changed pair of the demo tower, for the change map's tests and benchmark: the tower
 * as its reference capture shows it, and a second capture of it in which one member is bent, one
 * antenna is gone and an equipment cabinet has been added, with position noise, another splat
 * count and a small misregistration; the camera metadata of each capture's drone flight, in its
 * own frame, as real captures come with; and the truth of every change (which Gaussians, how much).
 */
import type { CameraMetadataEntry } from '@shared/types.js';
import { add, dot, normalize as unit, scale as mul, sub, type Vec3 } from '@shared/vec3.js';
import { makeCameraMetadata, moveCameraMetadata, type CameraOptions } from './cameras.js';
import { toYDown } from './frame.js';
import { partsToGaussians, gaussiansToYDown, type Gaussians } from './gaussians.js';
import type { RGB } from './colour.js';
import { random } from './random.js';
import { encodeSplatPly } from './splat-writer.js';
import { BASE_PALETTE, beamFrame, TOWER_LEVELS, towerParts, type Part } from './structures.js';

/** Options of {@link makeChangedPair}; every length in metres. */
export interface ChangedPairOptions {
  /** Gaussians of the reference capture (default 200,000). */
  count?: number;
  /** Gaussians of the second capture (default 93 % of `count`: another reconstruction, another count). */
  captureCount?: number;
  /** Seed of everything random: the two reconstructions' sampling, the noise (default 1). */
  seed?: number;
  /** Sideways displacement of the bent member's middle (default 0.30). */
  bend?: number;
  /** σ of the Gaussian position noise added to the second capture, per axis (default 0.01). */
  noise?: number;
  /** Turn of the misregistration, degrees (default 0.5), about {@link MISREGISTRATION_AXIS} through the origin. */
  rotationDegrees?: number;
  /** Shift of the misregistration, applied after the turn, file frame (default [0.03, −0.02, 0.04]: 5.4 cm). */
  translation?: Vec3;
  /**
   * Least distance from the other capture's surface at which a changed Gaussian is labelled
   * (default 0.05, five times the noise): the bent member's ends near its joints and the cabinet's
   * foot on the gravel stay where the reference is, and no comparison can tell them from noise.
   */
  detectable?: number;
  /** The reference capture's drone flight (default {@link REFERENCE_FLIGHT}, the demo reference survey's). */
  referenceFlight?: CameraOptions;
  /** The second capture's drone flight, before the misregistration moves it with the capture (default {@link CAPTURE_FLIGHT}). */
  captureFlight?: CameraOptions;
}

/** The reference capture's default flight: the demo reference survey's 20-camera spiral, 22 m out, 8 to 44 m up. */
export const REFERENCE_FLIGHT: CameraOptions = { count: 20, layout: 'spiral', radius: 22, heights: [8, 44], turns: 2 };
/** The second capture's default flight: another spiral, 16 cameras 24 m out, 6 to 44 m up, starting on the far side (200°). */
export const CAPTURE_FLIGHT: CameraOptions = { count: 16, layout: 'spiral', radius: 24, heights: [6, 44], turns: 2, start: 200 };

/** What changed, by label: 1 the bent member, 2 the added cabinet (both in the capture), 3 the removed antenna (in the reference). */
export type ChangeLabel = 1 | 2 | 3;

/** One change of the pair, as a perfect change map would find it. Positions and lengths in metres, the reference's file frame. */
export interface ChangeTruth {
  label: ChangeLabel;
  kind: 'bent' | 'added' | 'removed';
  /** Which capture's Gaussians carry the label: 'reference' for what is gone from the capture. */
  side: 'capture' | 'reference';
  /** Gaussians with this label. */
  count: number;
  /**
   * The change's size as an inspector states it: the bent member's middle displacement (the
   * `bend`), the cabinet's height (1.6), the removed antenna panel's length (2.1, the extent of
   * its region along the antenna).
   */
  magnitude: number;
  /**
   * The largest distance of the labelled Gaussians (without noise) from the other capture's
   * surface: what the |maxDistance| of this change's region should read. The bend's middle
   * (≈ `bend`, plus the sampling's own spread across a member of up to 1 cm), the cabinet's top
   * above the gravel (its height: nothing else stands within reach), the antenna's stand-off from
   * the mounting pipe that remains (≈ 0.15: the two axes are 0.14 apart).
   */
  maxDistance: number;
  /** Mean, least and greatest corner of the labelled Gaussians (without noise), reference frame. */
  centroid: Vec3;
  min: Vec3;
  max: Vec3;
}

/** The truth of a {@link ChangedPair}. */
export interface ChangedPairTruth {
  /** Per capture Gaussian: 0 unchanged, 1 bent member, 2 added cabinet. */
  captureLabels: Uint8Array;
  /** Per reference Gaussian: 0 unchanged (still in the capture), 3 removed antenna. */
  referenceLabels: Uint8Array;
  /**
   * The misregistration as applied: a 4×4 matrix, column-major (three.js order), taking a point
   * of the reference frame to where the capture file holds it (p_capture = M · p_reference).
   */
  misregistration: number[];
  /** Its inverse, capture file → reference frame: the matrix a perfect registration finds. */
  alignment: number[];
  /** The misregistration's turn in degrees and its shift, file frame (metres). */
  rotationDegrees: number;
  translation: Vec3;
  /** The three changes, in label order. */
  changes: ChangeTruth[];
}

/**
 * The pair: both captures in the y-down file frame of 3DGS output (as `makeTowerSplat` writes the
 * demo tower), metres; the camera metadata of each capture's flight in that capture's own frame
 * (the capture's moved by the misregistration, as its Gaussians are); and the truth.
 */
export interface ChangedPair {
  reference: Gaussians;
  capture: Gaussians;
  cameras: { reference: CameraMetadataEntry[]; capture: CameraMetadataEntry[] };
  truth: ChangedPairTruth;
}

/** The axis (file frame, unit) the misregistration turns about: mostly vertical, tilted, so all three angles change a little. */
export const MISREGISTRATION_AXIS: Vec3 = unit([0.3, 1, -0.4]);

/** The cabinet added in the capture: 0.8 × 1.2 m, 1.6 m tall, on the gravel pad beside the +x face, clear of the footings. */
const CABINET_MIN: Vec3 = [4.6, 0, -0.6];
const CABINET_MAX: Vec3 = [5.4, 1.6, 0.6];

/** Margin of the membership test of a part's Gaussians (the generator jitters them at most a few cm off the part). */
const MEMBER_MARGIN = 0.05;

type Beam = Extract<Part, { kind: 'beam' }>;

/**
 * The demo tower and a changed second capture of it. The reference is the demo tower's parts as
 * Gaussians (red paint, rust at the lower joints, as the demo's reference survey). The capture is
 * another reconstruction of the same parts (its own sampling and count) in which:
 * - the diagonal brace of the third panel on the +z face is bowed out of the face, its middle
 *   moved `bend` outward, the displacement tapering to its ends as a half sine;
 * - the first panel antenna of the first sector is gone (its mounting pipe stays);
 * - an equipment cabinet (0.8 × 1.2 × 1.6 m) stands on the gravel pad beside the +x face;
 * - every Gaussian is moved by normal noise of σ `noise` per axis;
 * - the whole capture is turned `rotationDegrees` about {@link MISREGISTRATION_AXIS} through the
 *   origin and shifted by `translation` (file frame), its Gaussians' orientations turned with it,
 *   and its cameras too.
 * Both come back in the y-down file frame, ready for `encodeSplatPly` ({@link encodeChangedPair}),
 * each with the camera metadata of its flight (`makeCameraMetadata`; the capture's moved by the
 * misregistration).
 * Same options, same pair. About 1.2 s a million Gaussians (0.55 s for 200,000 + 186,000, 2.4 s for
 * a million each, on two cores).
 * @param options see {@link ChangedPairOptions}
 * @returns both captures and the truth (labels per Gaussian, the misregistration, each change's size)
 * @throws Error when a count is not a whole number ≥ 1,000 (fewer leave a change with no Gaussians)
 */
export function makeChangedPair(options: ChangedPairOptions = {}): ChangedPair {
  const count = options.count ?? 200_000;
  const captureCount = options.captureCount ?? Math.round(count * 0.93);
  for (const n of [count, captureCount])
    if (!Number.isInteger(n) || n < 1000) throw new Error(`A changed pair needs at least 1,000 Gaussians a capture, not ${n}`);
  const seed = options.seed ?? 1;
  const bend = options.bend ?? 0.3;
  const detectable = options.detectable ?? 0.05;
  const rotationDegrees = options.rotationDegrees ?? 0.5;
  const translation = options.translation ?? [0.03, -0.02, 0.04];

  const parts = towerParts();
  const member = bentMember(parts);
  const antenna = parts.find((p): p is Beam => p.kind === 'beam' && p.material === 'antenna')!;
  // the lightning rod, 47.5 to 49 m up, goes just before the changed parts: far from all of them,
  // it separates their Gaussians from the rest (see tail)
  const rod = parts.find((p): p is Beam => p.kind === 'beam' && p.material === 'steel' && p.a[1] > 47)!;
  const cabinet = cabinetPart();
  const rest = parts.filter((p) => p !== antenna && p !== rod);
  const referenceParts = [...rest, rod, antenna];
  const captureParts = [...rest.filter((p) => p !== member), rod, cabinet, member];
  const style = {
    palette: { ...BASE_PALETTE, paint: [0.85, 0.2, 0.2] as RGB },
    rust: 0.15,
    rustBelow: 16,
    joints: TOWER_LEVELS.map((f) => f * 40),
  };

  // y-up, as the parts are
  const reference = partsToGaussians(referenceParts, count, { seed, ...style });
  const capture = partsToGaussians(captureParts, captureCount, { seed: seed + 1000, ...style });
  const antennaFrom = tail(reference, reference.count, antenna);
  const memberFrom = tail(capture, capture.count, member);
  const cabinetFrom = tail(capture, memberFrom, cabinet);

  // the bend: the member's middle outward (the face's outward side, +z, made square to the member)
  const { d, length } = beamFrame(member);
  const outward = unit(sub([0, 0, 1], mul(d, d[2])));
  for (let i = memberFrom; i < capture.count; i += 1) {
    const p = at(capture.position, i);
    const t = Math.min(1, Math.max(0, dot(sub(p, member.a), d) / length));
    capture.position.set(add(p, mul(outward, bend * Math.sin(Math.PI * t))), i * 3);
  }

  // the truth, from the noise-free positions (y-up; distances and labels do not depend on the frame)
  const captureLabels = new Uint8Array(capture.count);
  const referenceLabels = new Uint8Array(reference.count);
  const survivingParts = [...rest, rod, cabinet];
  const changes: ChangeTruth[] = [
    truthOf(
      { label: 1, kind: 'bent', side: 'capture', magnitude: bend },
      capture,
      [memberFrom, capture.count],
      captureLabels,
      parts,
      detectable,
    ),
    truthOf(
      { label: 2, kind: 'added', side: 'capture', magnitude: CABINET_MAX[1] - CABINET_MIN[1] },
      capture,
      [cabinetFrom, memberFrom],
      captureLabels,
      parts,
      detectable,
    ),
    truthOf(
      { label: 3, kind: 'removed', side: 'reference', magnitude: beamFrame(antenna).length },
      reference,
      [antennaFrom, reference.count],
      referenceLabels,
      survivingParts,
      detectable,
    ),
  ];

  // into the file frame, then the noise and the misregistration
  const referenceOut = gaussiansToYDown(reference);
  const captureOut = gaussiansToYDown(capture);
  addNoise(captureOut, options.noise ?? 0.01, seed + 2000);
  const turn = axisAngleQuaternion(MISREGISTRATION_AXIS, (rotationDegrees * Math.PI) / 180);
  const misregistration = rigidMatrix(turn, translation);
  moveGaussians(captureOut, turn, translation);
  return {
    reference: referenceOut,
    capture: captureOut,
    cameras: {
      reference: makeCameraMetadata(options.referenceFlight ?? REFERENCE_FLIGHT),
      capture: moveCameraMetadata(makeCameraMetadata(options.captureFlight ?? CAPTURE_FLIGHT), misregistration),
    },
    truth: {
      captureLabels,
      referenceLabels,
      misregistration,
      alignment: invertRigid(misregistration),
      rotationDegrees,
      translation: [...translation],
      changes,
    },
  };
}

/**
 * Both captures of a pair as 3DGS training PLY files (`encodeSplatPly`: binary little-endian, the
 * 62 float properties, y-down), for benchmarks and the seed.
 * @param pair from {@link makeChangedPair}
 * @returns the reference's and the capture's bytes (248 bytes a Gaussian plus the header)
 */
export function encodeChangedPair(pair: ChangedPair): { reference: Uint8Array<ArrayBuffer>; capture: Uint8Array<ArrayBuffer> } {
  return { reference: encodeSplatPly(pair.reference), capture: encodeSplatPly(pair.capture) };
}

/** The brace that bends: the diagonal of the third panel (15 to 21 m) on the +z face, from its +x corner up to its −x corner. */
function bentMember(parts: Part[]): Beam {
  const [from, to] = [TOWER_LEVELS[2]! * 40, TOWER_LEVELS[3]! * 40];
  const found = parts.find(
    (p): p is Beam =>
      p.kind === 'beam' && p.role === 'brace' && p.a[1] === from && p.b[1] === to && p.a[0] > 0 && p.b[0] < 0 && p.a[2] > 0 && p.b[2] > 0,
  );
  if (found === undefined) throw new Error('The demo tower has no third-panel diagonal on its +z face');
  return found;
}

/** The added cabinet as a block standing on the ground (so, like the footings, it has no underside). */
function cabinetPart(): Beam {
  const mid = (k: 0 | 2) => (CABINET_MIN[k] + CABINET_MAX[k]) / 2;
  return {
    kind: 'beam',
    a: [mid(0), CABINET_MIN[1], mid(2)],
    b: [mid(0), CABINET_MAX[1], mid(2)],
    w: CABINET_MAX[0] - CABINET_MIN[0],
    t: CABINET_MAX[2] - CABINET_MIN[2],
    side: [1, 0, 0],
    material: 'steel',
    role: 'ground',
  };
}

const at = (a: Float32Array, i: number): Vec3 => [a[i * 3]!, a[i * 3 + 1]!, a[i * 3 + 2]!];

/**
 * Where the Gaussians of `part` begin, when it is the part just before index `end`: the generator
 * emits each part's Gaussians in the order of the part list, so they are the run before `end`
 * that lies on the part (within {@link MEMBER_MARGIN}); the part before it is far away (the
 * lightning rod, or the cabinet at the foot), so the run stops exactly at its start.
 * @throws Error when the part got no Gaussians, or the run stops at a Gaussian near the part (it
 *   could not be told from its neighbour)
 */
function tail(g: Gaussians, end: number, part: Beam): number {
  const { d, u, v, length } = beamFrame(part);
  // how far outside the part's box a Gaussian lies, along the axis where it is farthest
  const outside = (i: number) => {
    const r = sub(at(g.position, i), part.a);
    const along = dot(r, d);
    return Math.max(-along, along - length, Math.abs(dot(r, u)) - part.w / 2, Math.abs(dot(r, v)) - part.t / 2);
  };
  let i = end;
  while (i > 0 && outside(i - 1) < MEMBER_MARGIN) i -= 1;
  if (i === end) throw new Error('A changed part got no Gaussians');
  if (i > 0 && outside(i - 1) < 1) throw new Error("A changed part's Gaussians could not be told from the part before it");
  return i;
}

/**
 * Labels the Gaussians `from` … `to − 1` of `g` (one change's, without noise, y-up) that lie at
 * least `detectable` from the surface of `other` (the other capture's parts) with `change.label`
 * in `labels`, and measures them: count, largest distance, centroid and extent in the file frame.
 */
function truthOf(
  change: Pick<ChangeTruth, 'label' | 'kind' | 'side' | 'magnitude'>,
  g: Gaussians,
  [from, to]: [number, number],
  labels: Uint8Array,
  other: Part[],
  detectable: number,
): ChangeTruth {
  let count = 0;
  let maxDistance = 0;
  const sum: Vec3 = [0, 0, 0];
  const min: Vec3 = [Infinity, Infinity, Infinity];
  const max: Vec3 = [-Infinity, -Infinity, -Infinity];
  const surfaces = other.map(surfaceDistance);
  for (let i = from; i < to; i += 1) {
    const p = at(g.position, i);
    let distance = Infinity;
    for (const surface of surfaces) if (surface.bound(p) < distance) distance = Math.min(distance, surface.distance(p));
    if (distance < detectable) continue;
    labels[i] = change.label;
    count += 1;
    maxDistance = Math.max(maxDistance, distance);
    // the truth is stated in the file frame
    const q = toYDown(p);
    for (let k = 0; k < 3; k += 1) {
      sum[k] += q[k]!;
      min[k] = Math.min(min[k]!, q[k]!);
      max[k] = Math.max(max[k]!, q[k]!);
    }
  }
  return { ...change, count, maxDistance, centroid: mul(sum, 1 / Math.max(count, 1)), min, max };
}

/**
 * The distance (metres) from a point to the surface the generator puts a part's Gaussians on: a
 * member's axis (a thin beam, at most 0.35 m across, is strung along it as gaussians.ts does), a
 * block's faces, a disc's plane within its radius (the dish's shallow curve left out). With the
 * distance, a lower bound of it that is cheap to compute (from a sphere around the part), so a
 * nearest-part search can pass over the parts that cannot be nearer.
 */
function surfaceDistance(part: Part): { bound: (p: Vec3) => number; distance: (p: Vec3) => number } {
  const sphere = (centre: Vec3, radius: number) => (p: Vec3) => Math.hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]) - radius;
  if (part.kind === 'disc') {
    const n = unit(part.normal);
    const c = part.centre;
    return {
      bound: sphere(c, part.radius),
      distance: (p) => {
        const [rx, ry, rz] = [p[0] - c[0], p[1] - c[1], p[2] - c[2]];
        const h = rx * n[0] + ry * n[1] + rz * n[2];
        const radial = Math.hypot(rx - h * n[0], ry - h * n[1], rz - h * n[2]);
        return Math.hypot(h, Math.max(0, radial - part.radius));
      },
    };
  }
  const { d, u, v, length } = beamFrame(part);
  const a = part.a;
  const middle = add(a, mul(d, length / 2));
  const bound = sphere(middle, Math.hypot(length, part.w, part.t) / 2);
  // coordinates of p along the beam's axes, from `a`
  const local = (p: Vec3): Vec3 => {
    const [rx, ry, rz] = [p[0] - a[0], p[1] - a[1], p[2] - a[2]];
    return [rx * d[0] + ry * d[1] + rz * d[2], rx * u[0] + ry * u[1] + rz * u[2], rx * v[0] + ry * v[1] + rz * v[2]];
  };
  if (Math.max(part.w, part.t) <= 0.35) {
    return {
      bound,
      distance: (p) => {
        const [along, across, up] = local(p);
        return Math.hypot(along - Math.min(length, Math.max(0, along)), across, up);
      },
    };
  }
  const [hd, hu, hv] = [length / 2, part.w / 2, part.t / 2];
  return {
    bound,
    distance: (p) => {
      const [along, across, up] = local(p);
      // from the block's centre, in units of its half sizes' excess
      const [x, y, z] = [Math.abs(along - hd) - hd, Math.abs(across) - hu, Math.abs(up) - hv];
      const outside = Math.hypot(Math.max(0, x), Math.max(0, y), Math.max(0, z));
      return outside > 0 ? outside : -Math.max(x, y, z);
    },
  };
}

/** Adds normal noise of σ `sigma` per axis to every position (Box–Muller on the seeded generator). */
function addNoise(g: Gaussians, sigma: number, seed: number): void {
  const rand = random(seed);
  const n = g.position.length;
  for (let k = 0; k < n; k += 2) {
    const r = sigma * Math.sqrt(-2 * Math.log(1 - rand()));
    const a = 2 * Math.PI * rand();
    g.position[k] += r * Math.cos(a);
    if (k + 1 < n) g.position[k + 1] += r * Math.sin(a);
  }
}

/** A unit quaternion (w, x, y, z) turning `angle` radians about the unit `axis`. */
function axisAngleQuaternion(axis: Vec3, angle: number): [number, number, number, number] {
  const s = Math.sin(angle / 2);
  return [Math.cos(angle / 2), axis[0] * s, axis[1] * s, axis[2] * s];
}

/** The 4×4 column-major matrix of turning by the unit quaternion `q` (w, x, y, z), then shifting by `t`. */
function rigidMatrix(q: [number, number, number, number], t: Vec3): number[] {
  const [w, x, y, z] = q;
  // columns of the rotation matrix
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y + w * z),
    2 * (x * z - w * y),
    0,
    2 * (x * y - w * z),
    1 - 2 * (x * x + z * z),
    2 * (y * z + w * x),
    0,
    2 * (x * z + w * y),
    2 * (y * z - w * x),
    1 - 2 * (x * x + y * y),
    0,
    t[0],
    t[1],
    t[2],
    1,
  ];
}

/** The inverse of a rigid 4×4 column-major matrix: the transposed rotation, and −Rᵀt. */
function invertRigid(m: number[]): number[] {
  const out = [m[0]!, m[4]!, m[8]!, 0, m[1]!, m[5]!, m[9]!, 0, m[2]!, m[6]!, m[10]!, 0, 0, 0, 0, 1];
  for (let r = 0; r < 3; r += 1) out[12 + r] = -(m[r * 4]! * m[12]! + m[r * 4 + 1]! * m[13]! + m[r * 4 + 2]! * m[14]!);
  return out;
}

/** Turns every Gaussian by `q` (w, x, y, z) about the origin and shifts it by `t`: positions and orientations. */
function moveGaussians(g: Gaussians, q: [number, number, number, number], t: Vec3): void {
  const m = rigidMatrix(q, t);
  const [qw, qx, qy, qz] = q;
  const position = g.position;
  for (let i = 0; i < g.count; i += 1) {
    const [x, y, z] = [position[i * 3]!, position[i * 3 + 1]!, position[i * 3 + 2]!];
    for (let r = 0; r < 3; r += 1) position[i * 3 + r] = m[r]! * x + m[4 + r]! * y + m[8 + r]! * z + m[12 + r]!;
    // q ⊗ rotation
    const [w, a, b, c] = [g.rotation[i * 4]!, g.rotation[i * 4 + 1]!, g.rotation[i * 4 + 2]!, g.rotation[i * 4 + 3]!];
    g.rotation[i * 4] = qw * w - qx * a - qy * b - qz * c;
    g.rotation[i * 4 + 1] = qw * a + qx * w + qy * c - qz * b;
    g.rotation[i * 4 + 2] = qw * b - qx * c + qy * w + qz * a;
    g.rotation[i * 4 + 3] = qw * c + qx * b - qy * a + qz * w;
  }
}
