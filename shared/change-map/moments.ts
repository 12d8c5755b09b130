/**
 * The principal components of groups of points: a group's moments (count, centroid, scatter about
 * it), groups merged by the parallel-axis rule without going back to their points, the principal
 * axes and spreads of a group in closed form (the eigen-decomposition of its symmetric 3×3
 * covariance), and whether those spreads make a line or a surface.
 */

/** A line element is more than this many times as long as it is wide (σ₁ / σ₂)… */
export const LINE_LENGTH = 3;

/** …and its cross-section is round within this ratio (σ₂ / σ₃). */
const LINE_ROUNDNESS = 2;

/**
 * The smallest eigenvalue and its unit eigenvector of a symmetric 3×3 matrix, in closed form (the
 * trigonometric solution of the characteristic cubic, then the eigenvector as the largest cross
 * product of two rows of A − λI). When the two smallest eigenvalues coincide (points on a line)
 * any direction perpendicular to the largest one is returned.
 * @param a00..a22 the upper triangle of the matrix
 * @param out receives [λ, vx, vy, vz]
 */
export function smallestEigen(a00: number, a01: number, a02: number, a11: number, a12: number, a22: number, out: Float64Array): void {
  const p1 = a01 * a01 + a02 * a02 + a12 * a12;
  const q = (a00 + a11 + a22) / 3;
  const b00 = a00 - q;
  const b11 = a11 - q;
  const b22 = a22 - q;
  const p2 = b00 * b00 + b11 * b11 + b22 * b22 + 2 * p1;
  const p = Math.sqrt(p2 / 6);
  let smallest: number;
  let largest: number;
  if (p === 0) {
    smallest = q;
    largest = q;
  } else {
    const det = (b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02)) / (p * p * p);
    const r = Math.min(1, Math.max(-1, det / 2));
    const phi = Math.acos(r) / 3;
    largest = q + 2 * p * Math.cos(phi);
    smallest = q + 2 * p * Math.cos(phi + (2 * Math.PI) / 3);
  }
  out[0] = smallest;
  if (!largestCrossOfRows(a00 - smallest, a01, a02, a11 - smallest, a12, a22 - smallest, out, p)) {
    // A double smallest eigenvalue: any direction perpendicular to the largest one's eigenvector.
    if (largestCrossOfRows(a00 - largest, a01, a02, a11 - largest, a12, a22 - largest, out, p)) {
      const [x, y, z] = [out[1]!, out[2]!, out[3]!];
      // A vector perpendicular to (x, y, z): cross with the axis it is least aligned with.
      const ax = Math.abs(x) <= Math.abs(y) && Math.abs(x) <= Math.abs(z);
      const ay = !ax && Math.abs(y) <= Math.abs(z);
      const [ux, uy, uz] = ax ? [1, 0, 0] : ay ? [0, 1, 0] : [0, 0, 1];
      const cx = y * uz - z * uy;
      const cy = z * ux - x * uz;
      const cz = x * uy - y * ux;
      const n = Math.hypot(cx, cy, cz);
      out[1] = cx / n;
      out[2] = cy / n;
      out[3] = cz / n;
    } else {
      out[1] = 0;
      out[2] = 0;
      out[3] = 1;
    }
  }
}

/** Writes into out[1..3] the normalised largest cross product of two rows of a symmetric matrix; false when all are negligible. */
function largestCrossOfRows(
  m00: number,
  m01: number,
  m02: number,
  m11: number,
  m12: number,
  m22: number,
  out: Float64Array,
  scale: number,
): boolean {
  // Rows r0 = (m00, m01, m02), r1 = (m01, m11, m12), r2 = (m02, m12, m22).
  const c0x = m01 * m12 - m02 * m11;
  const c0y = m02 * m01 - m00 * m12;
  const c0z = m00 * m11 - m01 * m01;
  const c1x = m01 * m22 - m02 * m12;
  const c1y = m02 * m02 - m00 * m22;
  const c1z = m00 * m12 - m01 * m02;
  const c2x = m11 * m22 - m12 * m12;
  const c2y = m12 * m02 - m01 * m22;
  const c2z = m01 * m12 - m11 * m02;
  const n0 = c0x * c0x + c0y * c0y + c0z * c0z;
  const n1 = c1x * c1x + c1y * c1y + c1z * c1z;
  const n2 = c2x * c2x + c2y * c2y + c2z * c2z;
  const best = Math.max(n0, n1, n2);
  if (!(best > 1e-24 * scale * scale * scale * scale) || !Number.isFinite(best)) return false;
  const inv = 1 / Math.sqrt(best);
  if (best === n0) [out[1], out[2], out[3]] = [c0x * inv, c0y * inv, c0z * inv];
  else if (best === n1) [out[1], out[2], out[3]] = [c1x * inv, c1y * inv, c1z * inv];
  else [out[1], out[2], out[3]] = [c2x * inv, c2y * inv, c2z * inv];
  return true;
}

/** Length of {@link symmetricEigen}'s output: three eigenvalues and two eigenvectors. */
export const EIGEN = 9;

/** Scratch of {@link symmetricEigen} (the change map is single-threaded). */
const EIGEN_SCRATCH = new Float64Array(4);

/**
 * The eigenvalues of a symmetric 3×3 matrix, largest first, with the unit eigenvectors of the
 * smallest (as {@link smallestEigen}) and of the largest (the largest cross product of two rows
 * of A − λ₁I; any unit vector when the largest is not distinct).
 * @param out receives [λ₁, λ₂, λ₃, smallest's x y z, largest's x y z]
 */
export function symmetricEigen(a00: number, a01: number, a02: number, a11: number, a12: number, a22: number, out: Float64Array): void {
  const small = EIGEN_SCRATCH;
  smallestEigen(a00, a01, a02, a11, a12, a22, small);
  for (let k = 0; k < 4; k += 1) out[2 + k] = small[k]!;
  const p1 = a01 * a01 + a02 * a02 + a12 * a12;
  const q = (a00 + a11 + a22) / 3;
  const p = Math.sqrt(((a00 - q) ** 2 + (a11 - q) ** 2 + (a22 - q) ** 2 + 2 * p1) / 6);
  let largest = q;
  if (p > 0) {
    const [b00, b11, b22] = [a00 - q, a11 - q, a22 - q];
    const det = (b00 * (b11 * b22 - a12 * a12) - a01 * (a01 * b22 - a12 * a02) + a02 * (a01 * a12 - b11 * a02)) / (p * p * p);
    largest = q + 2 * p * Math.cos(Math.acos(Math.min(1, Math.max(-1, det / 2))) / 3);
  }
  const smallest = out[2]!;
  out[0] = largest;
  out[1] = Math.max(smallest, Math.min(largest, 3 * q - largest - smallest));
  const axis = EIGEN_SCRATCH;
  if (largestCrossOfRows(a00 - largest, a01, a02, a11 - largest, a12, a22 - largest, axis, p)) {
    out[6] = axis[1]!;
    out[7] = axis[2]!;
    out[8] = axis[3]!;
  } else {
    // No distinct largest direction: any unit vector perpendicular to the smallest one's.
    const [x, y, z] = [out[3]!, out[4]!, out[5]!];
    const [ux, uy, uz] = Math.abs(x) < 0.9 ? [1, 0, 0] : [0, 1, 0];
    const cx = y * uz - z * uy;
    const cy = z * ux - x * uz;
    const cz = x * uy - y * ux;
    const n = Math.hypot(cx, cy, cz);
    out[6] = cx / n;
    out[7] = cy / n;
    out[8] = cz / n;
  }
}

/**
 * Whether a spread of points is a line rather than a surface, by its principal standard deviations
 * σ₁ ≥ σ₂ ≥ σ₃: a line is long for its cross-section (σ₁ > 3σ₂) and its cross-section is round
 * (σ₂ < 2σ₃), where a strip of a surface is flat across (σ₃ well under σ₂).
 */
export function isLinear(l1: number, l2: number, l3: number): boolean {
  const [s1, s2, s3] = [Math.sqrt(Math.max(0, l1)), Math.sqrt(Math.max(0, l2)), Math.sqrt(Math.max(0, l3))];
  return s1 > LINE_LENGTH * s2 && s2 < LINE_ROUNDNESS * s3;
}

/** Moments of a group of points: count, centroid and scatter about it (xx xy xz yy yz zz, summed). */
export interface Moments {
  n: number;
  c: Float64Array;
  s: Float64Array;
}

/** The moments of the points `ids[from .. to)`, into `out`; returns their largest distance from the centroid. */
export function momentsOf(xyz: Float32Array, ids: Uint32Array, from: number, to: number, out: Moments): number {
  const n = to - from;
  let sx = 0;
  let sy = 0;
  let sz = 0;
  for (let k = from; k < to; k += 1) {
    const id = ids[k]! * 3;
    sx += xyz[id]!;
    sy += xyz[id + 1]!;
    sz += xyz[id + 2]!;
  }
  const [cx, cy, cz] = [sx / n, sy / n, sz / n];
  out.n = n;
  out.c[0] = cx;
  out.c[1] = cy;
  out.c[2] = cz;
  out.s.fill(0);
  let r2 = 0;
  for (let k = from; k < to; k += 1) {
    const id = ids[k]! * 3;
    const dx = xyz[id]! - cx;
    const dy = xyz[id + 1]! - cy;
    const dz = xyz[id + 2]! - cz;
    out.s[0] += dx * dx;
    out.s[1] += dx * dy;
    out.s[2] += dx * dz;
    out.s[3] += dy * dy;
    out.s[4] += dy * dz;
    out.s[5] += dz * dz;
    r2 = Math.max(r2, dx * dx + dy * dy + dz * dz);
  }
  return Math.sqrt(r2);
}

/**
 * Merges the moments of the groups `ids[0 .. n)` (−1 entries skipped) — counts, centroids and
 * scatters — into `out`: the centroid of all their points and the scatter about it (each group's
 * moved there by the parallel-axis rule).
 */
export function mergeMoments(
  ids: ArrayLike<number>,
  n: number,
  counts: Uint32Array,
  centroids: Float64Array,
  scatters: Float64Array,
  out: Moments,
): void {
  // One pass about the first group's centroid (near all of them, so the sums keep their
  // precision), then moved to the merged centroid.
  let first = 0;
  while (first < n && ids[first]! < 0) first += 1;
  const o = first < n ? ids[first]! * 3 : 0;
  const [ox, oy, oz] = first < n ? [centroids[o]!, centroids[o + 1]!, centroids[o + 2]!] : [0, 0, 0];
  let total = 0;
  let mx = 0;
  let my = 0;
  let mz = 0;
  let xx = 0;
  let xy = 0;
  let xz = 0;
  let yy = 0;
  let yz = 0;
  let zz = 0;
  for (let k = first; k < n; k += 1) {
    const q = ids[k]!;
    if (q < 0) continue;
    const w = counts[q]!;
    const dx = centroids[q * 3]! - ox;
    const dy = centroids[q * 3 + 1]! - oy;
    const dz = centroids[q * 3 + 2]! - oz;
    total += w;
    mx += w * dx;
    my += w * dy;
    mz += w * dz;
    xx += scatters[q * 6]! + w * dx * dx;
    xy += scatters[q * 6 + 1]! + w * dx * dy;
    xz += scatters[q * 6 + 2]! + w * dx * dz;
    yy += scatters[q * 6 + 3]! + w * dy * dy;
    yz += scatters[q * 6 + 4]! + w * dy * dz;
    zz += scatters[q * 6 + 5]! + w * dz * dz;
  }
  const c = out.c;
  const sc = out.s;
  if (total === 0) {
    c.fill(0);
    sc.fill(0);
  } else {
    mx /= total;
    my /= total;
    mz /= total;
    c[0] = ox + mx;
    c[1] = oy + my;
    c[2] = oz + mz;
    sc[0] = xx - total * mx * mx;
    sc[1] = xy - total * mx * my;
    sc[2] = xz - total * mx * mz;
    sc[3] = yy - total * my * my;
    sc[4] = yz - total * my * mz;
    sc[5] = zz - total * mz * mz;
  }
  out.n = total;
}

/** The principal axes of merged moments, into `eigen` (see {@link symmetricEigen}). */
export function fitMoments(m: Moments, eigen: Float64Array): void {
  const s = m.s;
  const n = m.n;
  symmetricEigen(s[0]! / n, s[1]! / n, s[2]! / n, s[3]! / n, s[4]! / n, s[5]! / n, eigen);
}
