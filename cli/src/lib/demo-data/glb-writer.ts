/**
 * The demo structures as GLB files (glTF 2.0 binary), written with @gltf-transform/core: every
 * part a box (or dish), one material a colour, y-up, metres.
 */
import { Document, NodeIO } from '@gltf-transform/core';
import { srgbToLinear, type RGB } from './colour.js';
import { partsToMeshes } from './meshes.js';
import {
  BASE_PALETTE,
  bridgeParts,
  towerParts,
  type BridgeOptions,
  type MaterialName,
  type Part,
  type TowerOptions,
} from './structures.js';

/**
 * Writes parts as a GLB: one mesh with one primitive a material (positions, normals, 16-bit
 * indices while they fit), one node, one scene. Materials are plain non-metallic colours
 * (metallic 0; roughness 0.55 for steel, 0.8 otherwise); the obstruction light also glows.
 * @param parts the structure (y-up, metres)
 * @param palette the sRGB colour of each material (stored linear, as glTF wants)
 * @param name the mesh's and the node's name
 * @returns the GLB bytes
 */
async function partsToGlb(parts: Part[], palette: Record<MaterialName, RGB>, name: string): Promise<Uint8Array<ArrayBuffer>> {
  const doc = new Document();
  doc.getRoot().getAsset().generator = 'inspection-catalog demo data';
  const buffer = doc.createBuffer();
  const mesh = doc.createMesh(name);
  for (const [material, m] of partsToMeshes(parts)) {
    const vertices = m.positions.length / 3;
    const position = doc.createAccessor(`${material}-position`).setType('VEC3').setArray(new Float32Array(m.positions)).setBuffer(buffer);
    const normal = doc.createAccessor(`${material}-normal`).setType('VEC3').setArray(new Float32Array(m.normals)).setBuffer(buffer);
    const index = doc
      .createAccessor(`${material}-indices`)
      .setType('SCALAR')
      .setArray(vertices < 65536 ? new Uint16Array(m.indices) : new Uint32Array(m.indices))
      .setBuffer(buffer);
    const [r, g, b] = palette[material].map(srgbToLinear) as RGB;
    const mat = doc
      .createMaterial(material)
      .setBaseColorFactor([r, g, b, 1])
      .setMetallicFactor(0)
      .setRoughnessFactor(material === 'steel' ? 0.55 : 0.8);
    if (material === 'light') mat.setEmissiveFactor([r, g, b]);
    mesh.addPrimitive(
      doc.createPrimitive().setAttribute('POSITION', position).setAttribute('NORMAL', normal).setIndices(index).setMaterial(mat),
    );
  }
  const node = doc.createNode(name).setMesh(mesh);
  doc.createScene('scene').addChild(node);
  doc.getRoot().setDefaultScene(doc.getRoot().listScenes()[0]!);
  return new NodeIO().writeBinary(doc);
}

/**
 * A GLB (glTF 2.0 binary) of the demo lattice tower, written with @gltf-transform/core: every
 * member a box, one material a colour (aviation paint bands, white, galvanised steel, antennas,
 * concrete, gravel, the obstruction light), y-up, metres, the tower's base at the origin. Same
 * parts as `makeSplatPly` (splat-writer.ts): with the viewer's splat turn the two coincide.
 * @param options see {@link TowerOptions} (`height` default 40, `tint` default red)
 * @returns the GLB bytes (start with the magic 'glTF'; about 0.1 MB)
 */
export async function makeTowerGlb(options: TowerOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return partsToGlb(towerParts(options), { ...BASE_PALETTE, paint: options.tint ?? [0.85, 0.2, 0.2] }, 'tower');
}

/**
 * A GLB (glTF 2.0 binary) of the demo steel footbridge, written with @gltf-transform/core: two
 * plate girders (I-sections) on bearings, cross girders, a concrete deck, Warren pony trusses,
 * handrails and abutments; y-up, metres, the span along x centred on the origin, deck top about
 * 4.2 m above the ground.
 * @param options see {@link BridgeOptions} (`span` default 30, `tint` default blue-grey)
 * @returns the GLB bytes (start with the magic 'glTF')
 */
export async function makeBridgeGlb(options: BridgeOptions = {}): Promise<Uint8Array<ArrayBuffer>> {
  return partsToGlb(bridgeParts(options), { ...BASE_PALETTE, paint: options.tint ?? [0.3, 0.4, 0.7] }, 'footbridge');
}
