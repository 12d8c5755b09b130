/**
 * The demo tower as a 3DGS splat PLY: its Gaussians (gaussians.ts) in the y-down frame of real
 * 3DGS output, written in the training layout the content checks expect.
 */
import { TRAINING_PLY_PROPERTIES } from '@shared/content-check/ply-header.js';
import { partsToGaussians, gaussiansToYDown, type Gaussians } from './gaussians.js';
import { BASE_PALETTE, TOWER_LEVELS, towerParts, type TowerOptions } from './structures.js';

/** The zeroth spherical-harmonics basis constant: a 3DGS `f_dc_*` stores (colour − 0.5) / SH_C0. */
const SH_C0 = 0.28209479177387814;
const toDc = (c: number) => (c - 0.5) / SH_C0;
// 3DGS stores opacity before its sigmoid
const logit = (p: number) => Math.log(p / (1 - p));

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
 * The demo tower's Gaussians in the y-down 3DGS frame: what {@link makeSplatPly} writes, and what
 * the demo photos are rendered from.
 * @param options see {@link SplatOptions} (defaults: 3600 Gaussians, seed 1, red paint, rust 0.15)
 * @returns the Gaussians, y-down, metres
 */
export function makeTowerSplat(options: SplatOptions = {}): Gaussians {
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

/**
 * Encodes Gaussians as a 3DGS PLY: binary_little_endian 1.0, one `vertex` element with the 62
 * float properties of the training layout; SH degree 0 only (`f_rest_*` zero, normals zero),
 * σ stored as its logarithm (at least 1e-4 m) and opacity as its logit (clamped to 0.01..0.99).
 * @param g the Gaussians, in the frame they are to be stored in
 * @returns the file's bytes: header + count × 62 × 4 bytes
 */
export function encodeSplatPly(g: Gaussians): Uint8Array<ArrayBuffer> {
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
 * Written in the y-down frame of real 3DGS output, (x, y, z)_glTF → (x, −y, −z) (`toYDown`, frame.ts):
 * the viewer's default 180° turn about x puts it upright, on top of `makeTowerGlb` (glb-writer.ts).
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
