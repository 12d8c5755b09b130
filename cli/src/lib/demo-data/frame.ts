/**
 * The two frames of the demo data. Structures and GLBs are y-up (glTF), in metres. Splats and
 * their cameras are y-down like real 3DGS output (the COLMAP frame): a y-up point (x, y, z) is
 * stored as (x, −y, −z), and a camera rotation as `diag(1, −1, −1) · R`. The viewer turns splats
 * 180° about x by default (its up-axis fix), which maps them back onto the y-up GLB, so a hybrid
 * model's two files coincide and camera markers sit where the photos were taken.
 */
import type { Vec3 } from '@shared/vec3.js';

/**
 * The y-up → y-down change of frame of 3DGS output: a 180° turn about x, (x, y, z) → (x, −y, −z).
 * Its own inverse; the viewer's default splat rotation. Zeros come out as +0 (never −0), so JSON
 * and rounding give the same text either way.
 * @param p a point or direction `[x, y, z]`, any unit
 * @returns a new `[x, −y, −z]`
 */
export function toYDown(p: Vec3): Vec3 {
  return [p[0], -p[1] + 0, -p[2] + 0];
}
