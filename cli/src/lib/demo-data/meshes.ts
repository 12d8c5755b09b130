/**
 * Parts of a structure as triangles: indexed meshes for the GLB writer, a coloured triangle soup
 * for the photo renderer. Beams become boxes, discs shallow 16-sided dishes.
 */
import { add, cross, dot, normalize as unit, scale as mul, sub, type Vec3 } from '@shared/vec3.js';
import type { RGB } from './colour.js';
import type { Triangles } from './renderer.js';
import { beamFrame, type MaterialName, type Part } from './structures.js';

/** One material's triangles: positions and flat normals (3 numbers a vertex), indices (3 a triangle). */
export interface MaterialMesh {
  positions: number[];
  normals: number[];
  indices: number[];
}

/**
 * Triangles of parts, one mesh per material, in the parts' frame (y-up, metres). Every face has
 * its own vertices and its flat normal, so edges stay sharp; triangles wind counter-clockwise
 * seen from outside, as glTF's back-face culling expects.
 * @param parts the structure
 * @returns the meshes by material, in the order materials first appear in `parts`
 */
export function partsToMeshes(parts: Part[]): Map<MaterialName, MaterialMesh> {
  const meshes = new Map<MaterialName, MaterialMesh>();
  const quad = (m: MaterialMesh, corners: Vec3[], normal: Vec3) => {
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

/**
 * The same triangles as {@link partsToMeshes}, unindexed and coloured, as the photo renderer
 * draws them (it lights them itself, so no normals).
 * @param parts the structure (y-up, metres)
 * @param palette the sRGB colour of each material
 * @returns 9 position numbers and 3 colour numbers a triangle
 */
export function partsToTriangles(parts: Part[], palette: Record<MaterialName, RGB>): Triangles {
  const positions: number[] = [];
  const colours: number[] = [];
  for (const [material, m] of partsToMeshes(parts)) {
    for (let t = 0; t < m.indices.length; t += 3) {
      for (let k = 0; k < 3; k += 1) {
        const i = m.indices[t + k]!;
        positions.push(m.positions[i * 3]!, m.positions[i * 3 + 1]!, m.positions[i * 3 + 2]!);
      }
      colours.push(...palette[material]);
    }
  }
  return { positions: new Float32Array(positions), colours: new Float32Array(colours) };
}
