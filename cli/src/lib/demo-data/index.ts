/**
 * Demo data generated in code, because the project ships no sample files; made to be looked at
 * in the built-in viewer:
 * - a lattice telecom tower (40 m lattice, mast to 49 m) as a 3D Gaussian-splat PLY in the 3DGS
 *   training layout ({@link makeSplatPly}: a few thousand Gaussians stretched along the steel
 *   members) and as a GLB of boxes with materials ({@link makeTowerGlb}), built from one list of
 *   parts so the two line up;
 * - a steel footbridge span as a GLB ({@link makeBridgeGlb}: I-girders, cross girders, deck,
 *   Warren trusses, abutments);
 * - camera metadata of a drone orbit around the tower ({@link makeCameraMetadata}), and the
 *   photos of exactly those cameras, drawn by a small software renderer ({@link renderView}) that
 *   projects with shared/camera-poses.ts, the same convention the viewer uses, and encoded as PNG
 *   with sharp ({@link encodePng});
 * - the demo catalog `catalog seed` creates ({@link DEMO_PROJECTS}, {@link DEMO_ACCOUNTS}) and
 *   each model's files ({@link makeDemoModelFiles});
 * - a changed pair of the tower for the change map ({@link makeChangedPair}: a second capture with
 *   a bent member, a removed antenna, an added cabinet, noise and a misregistration, the camera
 *   metadata of both captures' drone flights, and the truth).
 *
 * Coordinates are metres; structures and GLBs are y-up, splats and cameras y-down like real 3DGS
 * output ({@link toYDown}). Everything is deterministic: the same call gives the same bytes (the
 * same pixels for the photos).
 *
 * One module a job: random.ts (seeded generator), frame.ts (y-up → y-down), colour.ts,
 * structures.ts (parts), gaussians.ts (parts → Gaussians), splat-writer.ts, meshes.ts (parts →
 * triangles), glb-writer.ts, cameras.ts, renderer.ts, photos.ts, findings.ts, catalog.ts,
 * model-files.ts, changed-capture.ts.
 */
export { makeCameraMetadata, moveCameraMetadata, type CameraOptions } from './cameras.js';
export {
  encodeChangedPair,
  makeChangedPair,
  MISREGISTRATION_AXIS,
  type ChangedPair,
  type ChangedPairOptions,
  type ChangedPairTruth,
  type ChangeLabel,
  type ChangeTruth,
} from './changed-capture.js';
export { DEMO_ACCOUNTS, DEMO_PROJECTS, DEMO_REFERENCE_GAUSSIANS, demoProjects, type DemoModel, type DemoProject } from './catalog.js';
export { demoFindingInput, type DemoFinding } from './findings.js';
export { toYDown } from './frame.js';
export { makeBridgeGlb, makeTowerGlb } from './glb-writer.js';
export { makeDemoModelFiles, type DemoModelFiles } from './model-files.js';
export { encodePng, type DemoPhoto } from './photos.js';
export { random } from './random.js';
export { renderView, type RenderScene, type Triangles } from './renderer.js';
export { makeSplatPly, type SplatOptions } from './splat-writer.js';
export type { BridgeOptions, TowerOptions } from './structures.js';
