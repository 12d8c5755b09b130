/**
 * The check of a 3DGS training `.ply` (pure, streaming): the `ply` magic, a valid header
 * (`ply-header.ts`), `binary_little_endian` or `ascii`, a vertex element whose declared count
 * (and every element's before it) fits the file size, the 3DGS properties (x, y, z, scale_0..2,
 * rot_0..3, opacity, f_dc_0..2; the number of f_rest_* gives the SH degree), and the
 * Git-LFS-pointer case named as such. It reports the Gaussians' count and the box of their
 * centres, read in one pass over the data.
 */
import type { SplatCheck } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts, readChunks } from './byte-source.js';
import { contentMessage, lfsPointerMessage } from './messages.js';
import { GAUSSIAN_PROPERTIES, parsePlyHeader, PLY_HEADER_MAX_BYTES, PLY_TYPE_BYTES, PlyHeaderError, shDegreeOf } from './ply-header.js';
import type { PlyHeader } from './ply-header.js';
import { plyScalarReader } from './ply-rows.js';
import { asciiOf, describeContent, isLfsPointer, SNIFF_BYTES } from './sniff.js';
import { BoxBuilder, nonFiniteWarning, refusedSplat, scanCentres } from './splat-scan.js';
import type { SplatCheckOptions } from './splat-scan.js';
import { formatNumber } from '../format.js';

/**
 * Checks a 3DGS training `.ply` and reads its facts, streaming the vertex data once.
 * @param source the file (its name is used in messages)
 * @returns the check: verdict 'refused' with the problem in the user's terms (a Git LFS
 *   pointer, not a PLY, big-endian, no vertices, missing 3DGS properties, truncated, non-numeric
 *   ASCII data); else the Gaussians, SH degree, encoding and bounding box, with warnings (bytes
 *   after the data, non-finite centres, an f_rest count that fits no SH degree)
 * @throws only when the source cannot be read
 */
export async function checkPly(source: ByteSource, options: SplatCheckOptions = {}): Promise<SplatCheck> {
  const { name, size } = source;
  if (size === 0) return refusedSplat(source, 'ply', contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, PLY_HEADER_MAX_BYTES));
  if (isLfsPointer(head)) return refusedSplat(source, 'ply', lfsPointerMessage(name, size, 'splat'));
  let header: PlyHeader | null;
  try {
    header = parsePlyHeader(head);
  } catch (error) {
    if (!(error instanceof PlyHeaderError)) throw error;
    return refusedSplat(source, 'ply', contentMessage(name, `has an invalid PLY header: ${error.message}`));
  }
  if (header === null) {
    if (/^ply\r?\n/.test(asciiOf(head, 5))) {
      return refusedSplat(source, 'ply', contentMessage(name, "is not a complete PLY file: its header has no 'end_header' line"));
    }
    const { phrase } = await describeContent(head.subarray(0, SNIFF_BYTES));
    return refusedSplat(
      source,
      'ply',
      contentMessage(name, phrase ? `is ${phrase}, not a PLY file` : "is not a PLY file: it does not start with a 'ply' header"),
    );
  }
  if (header.format !== 'binary_little_endian' && header.format !== 'ascii') {
    return refusedSplat(
      source,
      'ply',
      contentMessage(name, `is a PLY in '${header.format || 'no'}' format: only binary_little_endian and ascii PLY files can be viewed`),
    );
  }
  const vertexIndex = header.elements.findIndex((e) => e.name === 'vertex');
  const vertex = header.elements[vertexIndex];
  if (vertex === undefined || !Number.isInteger(vertex.count) || vertex.count <= 0) {
    return refusedSplat(source, 'ply', contentMessage(name, 'is a PLY without vertices: its header declares no Gaussians'));
  }
  const names = new Set(vertex.properties.map((p) => p.name));
  const missing = GAUSSIAN_PROPERTIES.filter((p) => !names.has(p));
  if (missing.length > 0) {
    return refusedSplat(
      source,
      'ply',
      contentMessage(
        name,
        `is not a Gaussian splat: its vertices lack the 3DGS ${missing.length === 1 ? 'property' : 'properties'} ${missing.join(', ')}${names.has('x') ? ' (a plain point cloud?)' : ''}`,
      ),
    );
  }
  const warnings: string[] = [];
  const fRest = vertex.properties.filter((p) => /^f_rest_\d+$/.test(p.name)).length;
  const degree = shDegreeOf(fRest);
  if (degree === null) warnings.push(`${fRest} f_rest properties fit no spherical-harmonics degree; read as degree 0.`);
  const shDegree = degree ?? 0;
  const count = vertex.count;
  const box = new BoxBuilder();
  const encoding = header.format;

  if (encoding === 'binary_little_endian') {
    const bad = vertex.properties.find((p) => p.list !== null || PLY_TYPE_BYTES[p.type] === undefined);
    if (bad)
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `has a vertex property '${bad.name}' of type '${bad.type}' a splat cannot have`),
      );
    const stride = vertex.properties.reduce((n, p) => n + PLY_TYPE_BYTES[p.type]!, 0);
    let start = header.headerBytes;
    for (const element of header.elements.slice(0, vertexIndex)) {
      if (element.properties.some((p) => p.list !== null || PLY_TYPE_BYTES[p.type] === undefined)) {
        return refusedSplat(
          source,
          'ply',
          contentMessage(name, `has a '${element.name}' element before its vertices that a splat viewer cannot skip`),
        );
      }
      start += element.count * element.properties.reduce((n, p) => n + PLY_TYPE_BYTES[p.type]!, 0);
    }
    const end = start + count * stride;
    if (size < end) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(
          name,
          `is truncated: its header declares ${formatNumber(count)} Gaussians (${formatNumber(end)} bytes) but the file has ${formatNumber(size)} bytes`,
        ),
      );
    }
    const fixedAfter = header.elements
      .slice(vertexIndex + 1)
      .every((e) => e.properties.every((p) => p.list === null && PLY_TYPE_BYTES[p.type] !== undefined));
    if (fixedAfter) {
      const expected =
        end +
        header.elements
          .slice(vertexIndex + 1)
          .reduce((n, e) => n + e.count * e.properties.reduce((m, p) => m + PLY_TYPE_BYTES[p.type]!, 0), 0);
      if (size < expected) {
        return refusedSplat(source, 'ply', contentMessage(name, `is truncated: it ends ${formatNumber(expected - size)} bytes early`));
      }
      if (size > expected) warnings.push(`${formatNumber(size - expected)} bytes after the data the header declares (ignored).`);
    }
    const offsets: number[] = [];
    for (const axis of ['x', 'y', 'z']) {
      let at = 0;
      for (const p of vertex.properties) {
        if (p.name === axis) break;
        at += PLY_TYPE_BYTES[p.type]!;
      }
      offsets.push(at);
    }
    const types = ['x', 'y', 'z'].map((axis) => vertex.properties.find((p) => p.name === axis)!.type);
    const readers = types.map((type) => plyScalarReader(type)!);
    const float32 = types.every((type) => type === 'float' || type === 'float32');
    if (options.scanData !== false) await scanCentres(source, start, end, stride, offsets, float32, readers, box);
  } else {
    const columns = vertex.properties.length;
    const ix = ['x', 'y', 'z'].map((axis) => vertex.properties.findIndex((p) => p.name === axis));
    // Each row of an ASCII element is one line: the rows of the elements before the vertices are skipped.
    let skip = header.elements.slice(0, vertexIndex).reduce((n, e) => n + (e.properties.length > 0 ? e.count : 0), 0);
    let carry = '';
    let rows = 0;
    let badRow: number | null = null;
    const decoder = new TextDecoder();
    const takeLine = (line: string): void => {
      if (rows >= count || badRow !== null) return;
      const trimmedLine = line.trim();
      if (trimmedLine === '') return;
      if (skip > 0) {
        skip -= 1;
        return;
      }
      const values = trimmedLine.split(/\s+/);
      const numbers = ix.map((i) => Number(values[i]));
      if (values.length < columns || numbers.some((v) => Number.isNaN(v))) {
        badRow = rows + 1;
        return;
      }
      box.add(numbers[0]!, numbers[1]!, numbers[2]!);
      rows += 1;
    };
    for await (const { bytes } of readChunks(source, header.headerBytes)) {
      const text = carry + decoder.decode(bytes, { stream: true });
      const lines = text.split('\n');
      carry = lines.pop() ?? '';
      for (const line of lines) takeLine(line);
      if (rows >= count || badRow !== null) break;
    }
    takeLine(carry + decoder.decode());
    if (badRow !== null) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `is not a valid ASCII PLY: vertex ${badRow} does not have ${columns} numbers`),
      );
    }
    if (rows < count) {
      return refusedSplat(
        source,
        'ply',
        contentMessage(name, `is truncated: its header declares ${formatNumber(count)} Gaussians but the file has ${formatNumber(rows)}`),
      );
    }
  }
  if (box.nonFinite > 0) warnings.push(nonFiniteWarning(box.nonFinite));
  return {
    ...acceptedFacts(source, warnings),
    format: 'ply',
    encoding,
    gaussians: count,
    shDegree,
    boundingBox: box.box(),
  };
}
