/**
 * Model files for component tests: jsdom's File cannot be read (`slice().arrayBuffer`
 * is missing), so these are Node's `File`s, which the shared content checks read like a
 * browser's; their content is real (tests/support/model-fixtures.ts), so the checks accept them.
 */
import { File as NodeFile } from 'node:buffer';
import { gaussianPly, HTML_PAGE, splatFile, triangleGlb } from '../../../../tests/support/model-fixtures.js';

/** A readable File of the given bytes or text. */
export function readableFile(content: Uint8Array | string, name: string): File {
  return new NodeFile([content], name) as unknown as File;
}

/**
 * A File the content checks accept, by its name's extension: a 3DGS `.ply` (8 Gaussians), a
 * `.splat` (8 records) or a one-triangle `.glb`.
 * @throws Error for another extension
 */
export async function goodModelFile(name: string): Promise<File> {
  if (name.endsWith('.ply')) return readableFile(gaussianPly(8), name);
  if (name.endsWith('.splat')) return readableFile(splatFile(8), name);
  if (name.endsWith('.glb')) return readableFile(await triangleGlb(), name);
  throw new Error(`no good model file for ${name}`);
}

/** An HTML page saved under a model file's name (the checks refuse it). */
export function htmlPageFile(name: string): File {
  return readableFile(HTML_PAGE, name);
}
