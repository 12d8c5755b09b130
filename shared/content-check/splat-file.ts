/**
 * The check of a compact `.splat` file (pure, streaming): a non-zero multiple of 32 bytes, not
 * content a `.splat` never is (a web page, a photo, a PLY…), not a Git LFS pointer. It reports
 * the Gaussians' count and the box of their centres, read in one pass over the data.
 */
import type { SplatCheck } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts } from './byte-source.js';
import { contentMessage, lfsPointerMessage } from './messages.js';
import { describeContent, isLfsPointer, SNIFF_BYTES } from './sniff.js';
import { BoxBuilder, nonFiniteWarning, refusedSplat, scanCentres } from './splat-scan.js';
import type { SplatCheckOptions } from './splat-scan.js';
import { formatNumber } from '../format.js';

/** Bytes per Gaussian in the compact `.splat` format. */
export const SPLAT_RECORD_BYTES = 32;

/** Content a `.splat` never starts with (long signatures or text), refused by name. */
const UNMISTAKABLE = new Set([
  'text/html',
  'application/xml',
  'application/x-ply',
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/gif',
  'model/gltf-binary',
  'application/pdf',
  'application/zip',
  'application/gzip',
]);

/**
 * Checks a compact `.splat` file (32 bytes a Gaussian: position as 3 float32, scale, colour,
 * rotation) and reads its facts.
 * @param source the file
 * @returns verdict 'refused' when it is empty, a Git LFS pointer, or not a multiple of 32 bytes;
 *   else the Gaussians (size / 32), SH degree 0 and the bounding box of the centres
 * @throws only when the source cannot be read
 */
export async function checkSplatFile(source: ByteSource, options: SplatCheckOptions = {}): Promise<SplatCheck> {
  const { name, size } = source;
  if (size === 0) return refusedSplat(source, 'splat', contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, SNIFF_BYTES));
  if (isLfsPointer(head)) return refusedSplat(source, 'splat', lfsPointerMessage(name, size, 'splat'));
  // Raw float records can start with any bytes: only signatures no splat starts with count.
  const sniffed = await describeContent(head);
  if (sniffed.phrase !== null && sniffed.mime !== null && UNMISTAKABLE.has(sniffed.mime)) {
    return refusedSplat(source, 'splat', contentMessage(name, `is ${sniffed.phrase}, not a .splat file`));
  }
  if (size % SPLAT_RECORD_BYTES !== 0) {
    return refusedSplat(
      source,
      'splat',
      contentMessage(
        name,
        `is truncated or not a .splat file: its size (${formatNumber(size)} bytes) is not a multiple of ${SPLAT_RECORD_BYTES} bytes`,
      ),
    );
  }
  const box = new BoxBuilder();
  if (options.scanData !== false) {
    const float = (view: DataView, at: number): number => view.getFloat32(at, true);
    await scanCentres(source, 0, size, SPLAT_RECORD_BYTES, [0, 4, 8], true, [float, float, float], box);
  }
  return {
    ...acceptedFacts(source, box.nonFinite > 0 ? [nonFiniteWarning(box.nonFinite)] : []),
    format: 'splat',
    encoding: null,
    gaussians: size / SPLAT_RECORD_BYTES,
    shDegree: 0,
    boundingBox: box.box(),
  };
}
