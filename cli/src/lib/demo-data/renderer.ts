/**
 * A small software renderer for the demo photos: sky, a grass ground plane, lit triangles and 3D
 * Gaussians, projected exactly as the viewer projects a camera of the camera metadata, so each
 * demo photo matches its camera's frustum in the viewer.
 */
import { cameraAxes, cameraIntrinsics, makeProjector } from '@shared/camera-poses.js';
import type { CameraLike, ImagePoint } from '@shared/camera-poses.js';
import { add, cross, dot, normalize as unit, scale as mul, sub, type Vec3 } from '@shared/vec3.js';
import { clamp01, type RGB } from './colour.js';

/** A triangle soup: `positions` 9 numbers a triangle (metres), `colours` 3 numbers a triangle (sRGB, 0..1). */
export interface Triangles {
  positions: Float32Array;
  colours: Float32Array;
}

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
  triangles?: Triangles;
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
 * @param camera a camera entry of the camera metadata (width × height pixels, optional fx/fy) in
 *   the scene's frame
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
