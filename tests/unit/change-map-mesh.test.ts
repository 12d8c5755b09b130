// Change maps of GLB meshes (mesh-only models). A GLB's surface is sampled by area from a fixed
// seed, each point with its triangle's outward normal (by the counter-clockwise winding), in the
// scene's frame with the nodes' transforms applied. A generated box and the same box with a plate
// added on one face, the capture's node turned 0.5° and moved 3 cm: from the identity, ICP brings
// the capture back, and the map finds the plate as one region, positive (added), its largest
// distance within 10 % of the plate's thickness, with no region on the unchanged box. A GLB of the
// demo tower against its splat, each way round (the GLB y-up, the splat y-down: the comparison
// starts from the 180° turn about x): ICP registers them, a GLB capture's values file holds one
// value per sampled point, nearly every point lies within 5 cm and no region is found.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document, NodeIO } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { meshopt } from '@gltf-transform/functions';
import { MeshoptEncoder } from 'meshoptimizer';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeChangeValues, MeshSampleMessages, sampleMeshSurface } from '@shared/change-map/index.js';
import { comparedFileOf } from '@shared/change-map-compared-file.js';
import { CHANGE_MAP_VERSION } from '@shared/change-map/version.js';
import { changeMapInputFile } from '@shared/change-map-document.js';
import { compareCaptureFiles } from '../../cli/src/lib/change-map/compare-files.js';
import { readMeshTriangles } from '../../cli/src/lib/change-map/read-mesh.js';
import { SPLAT_TURN } from '../../cli/src/lib/change-map/store-change-map.js';
import { makeSplatPly, makeTowerGlb } from '../../cli/src/lib/demo-data/index.js';

const IDENTITY = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
const work = mkdtempSync(join(tmpdir(), 'change-map-mesh-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Box = { min: [number, number, number]; max: [number, number, number] };

/** An axis-aligned box's 12 triangles, counter-clockwise seen from outside: corners flat, 9 per triangle. */
function boxTriangles({ min, max }: Box): number[] {
  const c = (i: number) => [i & 1 ? max[0] : min[0], i & 2 ? max[1] : min[1], i & 4 ? max[2] : min[2]];
  // Each face's corners counter-clockwise seen from outside (the corner bits: x 1, y 2, z 4).
  const faces = [
    [0, 2, 3, 1], // −z
    [4, 5, 7, 6], // +z
    [0, 1, 5, 4], // −y
    [2, 6, 7, 3], // +y
    [0, 4, 6, 2], // −x
    [1, 3, 7, 5], // +x
  ];
  return faces.flatMap(([a, b, d, e]) => [a!, b!, d!, a!, d!, e!].flatMap(c));
}

/** A GLB of boxes, one node with the given matrix (column-major; default none). */
async function boxesGlb(boxes: Box[], matrix?: number[]): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const position = doc
    .createAccessor()
    .setType('VEC3')
    .setArray(new Float32Array(boxes.flatMap(boxTriangles)))
    .setBuffer(buffer);
  const mesh = doc.createMesh('boxes').addPrimitive(doc.createPrimitive().setAttribute('POSITION', position));
  const node = doc.createNode('boxes').setMesh(mesh);
  if (matrix) node.setMatrix(matrix as Parameters<typeof node.setMatrix>[0]);
  doc.createScene('scene').addChild(node);
  return new NodeIO().writeBinary(doc);
}

/** Writes bytes to a file of the work folder; returns its path. */
function file(name: string, bytes: Uint8Array): string {
  const path = join(work, name);
  writeFileSync(path, bytes);
  return path;
}

/** A rotation of `degrees` about a unit axis with a translation, column-major. */
function motion(axis: [number, number, number], degrees: number, t: [number, number, number]): number[] {
  const a = (degrees * Math.PI) / 180;
  const [x, y, z] = axis;
  const [c, s, k] = [Math.cos(a), Math.sin(a), 1 - Math.cos(a)];
  return [
    c + x * x * k,
    y * x * k + z * s,
    z * x * k - y * s,
    0,
    x * y * k - z * s,
    c + y * y * k,
    z * y * k + x * s,
    0,
    x * z * k + y * s,
    y * z * k - x * s,
    c + z * z * k,
    0,
    ...t,
    1,
  ];
}

const BOX: Box = { min: [-2, 0, -2], max: [2, 4, 2] };
/** A plate 0.3 thick on the box's +x face. */
const PLATE: Box = { min: [2, 1, -1], max: [2.3, 3, 1] };

describe('the file a change map compares', () => {
  it('is the splat file when there is one (a hybrid keeps its splat), else the GLB; the stamp names it', () => {
    const hybrid = { files: { splatPath: 'models/u1/model.ply', splatSize: 10, glbPath: 'models/u1/model.glb', glbSize: 20 } };
    const mesh = { files: { splatPath: null, glbPath: 'models/u2/model.glb', glbSize: 20 }, uploaded_at: '2026-01-02T00:00:00.000Z' };
    expect(comparedFileOf(hybrid)).toEqual({ kind: 'splat', path: 'models/u1/model.ply', size: 10 });
    expect(comparedFileOf(mesh)).toEqual({ kind: 'mesh', path: 'models/u2/model.glb', size: 20 });
    expect(comparedFileOf({ files: {} })).toBeNull();
    expect(changeMapInputFile(mesh)).toBe(
      `models/u2/model.glb (20 bytes, uploaded 2026-01-02T00:00:00.000Z); camera metadata none; change map version ${CHANGE_MAP_VERSION}`,
    );
    expect(changeMapInputFile({ ...hybrid, uploaded_at: null })).toMatch(/^models\/u1\/model\.ply \(10 bytes, uploaded \?\); /);
  });
});

describe('sampleMeshSurface', () => {
  it('samples by area from a seed, each point on its triangle with the outward normal of its winding', () => {
    const triangles = new Float32Array(boxTriangles(BOX));
    const a = sampleMeshSurface(triangles, 6000);
    expect(sampleMeshSurface(triangles, 6000).positions).toEqual(a.positions);
    expect(sampleMeshSurface(triangles, 6000, 7).positions).not.toEqual(a.positions);
    let outward = 0;
    let top = 0;
    for (let i = 0; i < a.count; i += 1) {
      const [x, y, z] = [a.positions[i * 3]!, a.positions[i * 3 + 1]!, a.positions[i * 3 + 2]!];
      const [nx, ny, nz] = [a.normals[i * 3]!, a.normals[i * 3 + 1]!, a.normals[i * 3 + 2]!];
      // from the box's centre to the point leans along the normal
      if (x * nx + (y - 2) * ny + z * nz > 1.9) outward += 1;
      if (ny > 0.99) top += 1;
    }
    expect(outward).toBe(a.count);
    // six equal faces: about a sixth of the points on top
    expect(top / a.count).toBeGreaterThan(0.15);
    expect(top / a.count).toBeLessThan(0.185);
    expect(() => sampleMeshSurface(new Float32Array(9), 10)).toThrow(MeshSampleMessages.noArea);
    expect(() => sampleMeshSurface(new Float32Array(8), 10)).toThrow(MeshSampleMessages.triangles);
    expect(() => sampleMeshSurface(triangles, 0)).toThrow(MeshSampleMessages.count);
  });

  it('reads a GLB in its scene frame, a mirroring node keeping the triangles facing out; meshopt-compressed too', async () => {
    const mirrored = file('mirrored.glb', await boxesGlb([BOX], [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1]));
    const triangles = await readMeshTriangles(mirrored);
    expect(triangles.length).toBe(12 * 9);
    const { positions, normals, count } = sampleMeshSurface(triangles, 2000);
    for (let i = 0; i < count; i += 1) {
      const x = positions[i * 3]!;
      expect(x).toBeGreaterThanOrEqual(7.99);
      expect(x).toBeLessThanOrEqual(12.01);
      const out =
        (x - 10) * normals[i * 3]! + (positions[i * 3 + 1]! - 2) * normals[i * 3 + 1]! + positions[i * 3 + 2]! * normals[i * 3 + 2]!;
      expect(out).toBeGreaterThan(1.9);
    }
    // meshopt-compressed geometry, as the web-sized copies are
    const io = new NodeIO().registerExtensions(ALL_EXTENSIONS).registerDependencies({ 'meshopt.encoder': MeshoptEncoder });
    await MeshoptEncoder.ready;
    const document = await io.readBinary(await boxesGlb([BOX, PLATE]));
    await document.transform(meshopt({ encoder: MeshoptEncoder, level: 'medium' }));
    const compressed = file('compressed.glb', await io.writeBinary(document));
    expect(
      document
        .getRoot()
        .listExtensionsUsed()
        .map((e) => e.extensionName),
    ).toContain('EXT_meshopt_compression');
    const decoded = await readMeshTriangles(compressed);
    expect(decoded.length).toBe(24 * 9);
    // quantized, then decoded back into the scene's frame: the corners within a millimetre of the boxes'
    const xs = decoded.filter((_, i) => i % 3 === 0);
    expect(Math.min(...xs)).toBeCloseTo(-2, 3);
    expect(Math.max(...xs)).toBeCloseTo(2.3, 3);
    await expect(readMeshTriangles(file('not.glb', new Uint8Array([1, 2, 3, 4, 5])))).rejects.toThrow(
      'Cannot read the mesh not.glb: it is not a GLB (no glTF magic at its start)',
    );
  });
});

describe('change map of GLB meshes', () => {
  it('registers a box with a plate added and finds the plate, positive, with no region on the unchanged box', async () => {
    const reference = file('box.glb', await boxesGlb([BOX]));
    const misregistered = motion(
      [0.3, 0.9, -0.3].map((v) => v / Math.hypot(0.3, 0.9, 0.3)) as [number, number, number],
      0.5,
      [0.03, -0.02, 0.01],
    );
    const capture = file('box-plate.glb', await boxesGlb([BOX, PLATE], misregistered));
    const outcome = await compareCaptureFiles(capture, reference, IDENTITY);
    expect(outcome).toMatchObject({ captureKind: 'mesh', referenceKind: 'mesh', cameraCount: 0, referenceCameraCount: 0 });
    expect(outcome.registration.rmsError).toBeLessThan(0.005);
    // the registration undoes the node's turn: a point of the plate lands back on the plate
    const m = outcome.registration.matrix;
    const p = [2.3, 2, 0];
    const moved = [0, 1, 2].map(
      (r) => misregistered[r]! * p[0]! + misregistered[4 + r]! * p[1]! + misregistered[8 + r]! * p[2]! + misregistered[12 + r]!,
    );
    const back = [0, 1, 2].map((r) => m[r]! * moved[0]! + m[4 + r]! * moved[1]! + m[8 + r]! * moved[2]! + m[12 + r]!);
    back.forEach((v, i) => expect(Math.abs(v - p[i]!)).toBeLessThan(0.01));

    const { regions } = outcome.map;
    expect(regions.length).toBe(1);
    const [plate] = regions;
    expect(plate!.side).toBe('capture');
    expect(plate!.maxDistance).toBeGreaterThan(0.3 * 0.9);
    expect(plate!.maxDistance).toBeLessThan(0.3 * 1.1);
    expect(plate!.centroid[0]).toBeGreaterThan(2);
    expect(Math.abs(plate!.centroid[1] - 2)).toBeLessThan(0.5);
    expect(Math.abs(plate!.centroid[2])).toBeLessThan(0.5);

    // one value per sampled point
    const values = decodeChangeValues(outcome.values);
    expect(values.distances.length).toBe(outcome.captureCount);
    expect(outcome.capturePoints).toBe(outcome.captureCount);
  }, 120_000);

  it('compares a GLB capture of the tower with its splat, and a splat capture with the GLB, from the turn between their frames', async () => {
    const glb = file('tower.glb', await makeTowerGlb());
    const splat = file('tower.ply', makeSplatPly({ count: 30_000 }));
    for (const [capture, reference, kinds] of [
      [glb, splat, { captureKind: 'mesh', referenceKind: 'splat' }],
      [splat, glb, { captureKind: 'splat', referenceKind: 'mesh' }],
    ] as const) {
      const outcome = await compareCaptureFiles(capture, reference, SPLAT_TURN);
      expect(outcome).toMatchObject(kinds);
      expect(outcome.registration.rmsError).toBeLessThan(0.03);
      // the mesh's sampling sets the level of detection: half the samples' spacing
      expect(outcome.map.levelOfDetection).toBeGreaterThan(0.05);
      expect(outcome.map.levelOfDetection).toBeLessThan(0.15);
      expect(outcome.map.regions).toEqual([]);
      const values = decodeChangeValues(outcome.values);
      expect(values.distances.length).toBe(outcome.captureCount);
      // the same tower: nearly every measured point within a few centimetres
      const measured = values.distances.filter(Number.isFinite);
      const near = measured.filter((d) => Math.abs(d) < 0.05).length;
      expect(measured.length).toBeGreaterThan(0.9 * outcome.capturePoints);
      expect(near / measured.length).toBeGreaterThan(0.9);
    }
  }, 240_000);
});
