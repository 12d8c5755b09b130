/**
 * A GLB mesh as the change map compares it: points sampled on its triangles, each with the
 * triangle's outward normal. The samples are spread by area (three's `MeshSurfaceSampler`), from a
 * seeded generator so that the same mesh gives the same points on every run. A triangle's normal
 * follows its winding, counter-clockwise seen from the front as glTF wants, so it says which side
 * is outside: no camera metadata is needed to orient a mesh.
 */
import { BufferAttribute, BufferGeometry, Mesh, Vector3 } from 'three';
import { MeshSurfaceSampler } from 'three/examples/jsm/math/MeshSurfaceSampler.js';
import { AppError, ErrorCode } from '../errors.js';
import { seededRandom } from '../seeded-random.js';
import type { PointSet } from './types.js';

/** The messages of the mesh sampling, shown as they are. */
export const MeshSampleMessages = {
  triangles: "A mesh's triangles must be a Float32Array of finite numbers, 9 per triangle (three corners, x y z each)",
  count: 'The number of surface samples must be a whole number of 1 or more',
  noArea: 'The mesh has no triangle with an area: there is no surface to sample',
} as const;

/** The seed the samples are drawn with unless told otherwise. */
export const MESH_SAMPLE_SEED = 0x5eed;

/**
 * Points sampled on a mesh's surface, spread by area: a triangle twice as large gets twice as many
 * samples on average. Each point carries the unit normal of the triangle it lies on, by the
 * triangle's winding (corners a, b, c counter-clockwise seen from outside: (b − a) × (c − a)), so
 * the point set's `normals` say which side of the surface is outside.
 * @param triangles flat corners, 9 numbers per triangle (a, b, c, x y z each), model units
 * @param count how many points to sample
 * @param seed the generator's seed (default {@link MESH_SAMPLE_SEED}): the same triangles, count and seed give the same points
 * @returns a point set of `count` points with their `normals`; the mesh's surface `area` (model
 *   units²) and the samples' typical `spacing`, √(area / count) (model units)
 * @throws AppError `invalid-argument` ({@link MeshSampleMessages}) for malformed triangles, a count
 *   that is not a whole number of 1 or more, or a mesh whose triangles all have no area
 */
export function sampleMeshSurface(
  triangles: Float32Array,
  count: number,
  seed: number = MESH_SAMPLE_SEED,
): PointSet & { normals: Float32Array; area: number; spacing: number } {
  if (!(triangles instanceof Float32Array) || triangles.length % 9 !== 0 || !triangles.every(Number.isFinite))
    throw new AppError(ErrorCode.InvalidArgument, MeshSampleMessages.triangles);
  if (!Number.isInteger(count) || count < 1) throw new AppError(ErrorCode.InvalidArgument, MeshSampleMessages.count);
  const geometry = new BufferGeometry();
  geometry.setAttribute('position', new BufferAttribute(triangles, 3));
  // No normal attribute: the sampler then gives each point its triangle's normal, by winding.
  const sampler = new MeshSurfaceSampler(new Mesh(geometry));
  // three has `setRandomGenerator` (r140 on); its type declarations lag behind.
  (sampler as MeshSurfaceSampler & { setRandomGenerator: (random: () => number) => unknown }).setRandomGenerator(seededRandom(seed));
  let area = 0;
  try {
    sampler.build();
    area = sampler.distribution?.[sampler.distribution.length - 1] ?? 0;
  } finally {
    geometry.dispose();
  }
  if (!(area > 0)) throw new AppError(ErrorCode.InvalidArgument, MeshSampleMessages.noArea);
  const positions = new Float32Array(count * 3);
  const normals = new Float32Array(count * 3);
  const position = new Vector3();
  const normal = new Vector3();
  for (let i = 0; i < count; i += 1) {
    sampler.sample(position, normal);
    position.toArray(positions, i * 3);
    normal.toArray(normals, i * 3);
  }
  return { count, positions, normals, area, spacing: Math.sqrt(area / count) };
}
