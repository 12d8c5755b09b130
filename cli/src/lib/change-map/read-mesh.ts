/**
 * A GLB mesh as the change map reads it: every triangle of its default scene (or its first scene)
 * in the scene's frame, the nodes' transforms applied, read with @gltf-transform/core (meshopt-
 * compressed geometry decoded with meshoptimizer); and whether
 * a file on disk is a GLB at all (its first four bytes, the magic 'glTF'), which tells a mesh-only
 * model's file from a splat.
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { Logger, NodeIO, Primitive, type Node as GltfNode } from '@gltf-transform/core';
import { ALL_EXTENSIONS } from '@gltf-transform/extensions';
import { MeshoptDecoder } from 'meshoptimizer';
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';

/** The magic a GLB starts with, 'glTF' as a little-endian 32-bit number. */
const GLB_MAGIC = 0x46546c67;

/**
 * True when a file on disk starts with a GLB's magic ('glTF').
 * @param path the file on disk
 * @returns false for a shorter or other file
 * @throws AppError `not-found` when the file does not exist
 */
export async function isGlbFile(path: string): Promise<boolean> {
  let file;
  try {
    file = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new AppError(ErrorCode.NotFound, `Cannot read ${basename(path)}: there is no such file`, { cause: error, context: { path } });
    throw error;
  }
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await file.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === GLB_MAGIC;
  } finally {
    await file.close();
  }
}

/**
 * Reads the triangles of a GLB: of every mesh a node of the default scene (else the first scene)
 * holds, every triangle primitive (mode TRIANGLES; points, lines, strips and fans are left out),
 * its corners moved by the node's world matrix into the scene's frame (model units, as the GLB's
 * own frame). A node whose matrix mirrors (negative determinant) has its triangles' corners
 * swapped, so each triangle stays counter-clockwise seen from outside, as glTF wants.
 * @param path the GLB on disk
 * @param name the file's name, which messages quote (default the path's last part)
 * @returns flat corners, 9 numbers per triangle (a, b, c, x y z each)
 * @throws AppError `not-found` when the file does not exist; `invalid-argument`, naming the file
 *   and the reason, when gltf-transform cannot read it (not a GLB, an extension it cannot decode
 *   such as Draco compression)
 *   or it holds no triangle
 */
export async function readMeshTriangles(path: string, name = basename(path)): Promise<Float32Array> {
  const cannot = (why: string, cause?: unknown) =>
    new AppError(ErrorCode.InvalidArgument, `Cannot read the mesh ${name}: ${why}`, { cause, context: { path } });
  if (!(await isGlbFile(path))) throw cannot('it is not a GLB (no glTF magic at its start)');
  let document;
  try {
    await MeshoptDecoder.ready;
    document = await new NodeIO()
      .setLogger(new Logger(Logger.Verbosity.SILENT))
      .registerExtensions(ALL_EXTENSIONS)
      // an original may be meshopt-compressed, as the web-sized copies are (Draco has no decoder here)
      .registerDependencies({ 'meshopt.decoder': MeshoptDecoder })
      .read(path);
  } catch (error) {
    throw cannot(errorMessage(error), error);
  }
  const root = document.getRoot();
  const scene = root.getDefaultScene() ?? root.listScenes()[0];
  if (!scene) throw cannot('it has no scene');
  const parts: Float32Array[] = [];
  let total = 0;
  scene.traverse((node: GltfNode) => {
    const mesh = node.getMesh();
    if (!mesh) return;
    const m = node.getWorldMatrix();
    const det = m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2]);
    for (const primitive of mesh.listPrimitives()) {
      if (primitive.getMode() !== Primitive.Mode.TRIANGLES) continue;
      const position = primitive.getAttribute('POSITION');
      if (!position) continue;
      const indices = primitive.getIndices();
      const corners = indices ? indices.getCount() : position.getCount();
      const triangles = Math.floor(corners / 3);
      const out = new Float32Array(triangles * 9);
      const p: number[] = [0, 0, 0];
      for (let t = 0; t < triangles; t += 1) {
        for (let c = 0; c < 3; c += 1) {
          // Mirrored: b and c swap so the winding stays counter-clockwise from outside.
          const corner = det < 0 && c > 0 ? 3 - c : c;
          const v = indices ? indices.getScalar(t * 3 + corner) : t * 3 + corner;
          position.getElement(v, p);
          const [x, y, z] = p as [number, number, number];
          out[t * 9 + c * 3] = m[0] * x + m[4] * y + m[8] * z + m[12];
          out[t * 9 + c * 3 + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
          out[t * 9 + c * 3 + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
        }
      }
      parts.push(out);
      total += out.length;
    }
  });
  if (total === 0) throw cannot('it has no triangles');
  const all = new Float32Array(total);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}
