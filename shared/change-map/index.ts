/**
 * The change map of a capture against its project's reference capture, as pure maths: refining
 * the stored alignment by robust point-to-plane ICP, signed distances to the reference's local
 * surface with a level of detection, change regions on both sides (added or moved in the capture,
 * removed from the reference), a histogram, and the compact per-splat values file. No Node or DOM
 * APIs; the spatial index is three-mesh-bvh's point hierarchy.
 */
export { computeChangeMap } from './change-map.js';
export { computeHistogram, type Histogram } from './histogram.js';
export { MESH_SAMPLE_SEED, MeshSampleMessages, sampleMeshSurface } from './mesh-samples.js';
export { refineRegistration } from './registration.js';
export { PointSetMessages } from './transform.js';
export type { ChangeMap, ChangeMapOptions, ChangeRegion, PointSet, Registration, RegistrationOptions } from './types.js';
export {
  decodeChangeValues,
  encodeChangeValues,
  VALUES_HEADER_BYTES,
  VALUES_MAGIC,
  VALUES_VERSION,
  ValuesFileMessages,
  type ChangeValues,
} from './values-file.js';
export { CHANGE_MAP_VERSION } from './version.js';
