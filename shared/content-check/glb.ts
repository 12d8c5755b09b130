/**
 * GLB checks: the 12-byte GLB header first (so an HTML page, a JPEG or a Git LFS pointer named
 * `.glb` is named as such), then the Khronos glTF validator (`gltf-validator`) on the whole file:
 * its errors refuse the file, its warnings go in the report. Facts come from the validator's
 * info and the file's JSON chunk (meshes, textures, extensionsUsed).
 */
import type { GlbCheck } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { readAll, refusedFacts } from './byte-source.js';
import { contentMessage, formatMiB, lfsPointerMessage } from './messages.js';
import { asciiOf, describeContent, isLfsPointer, SNIFF_BYTES } from './sniff.js';
import { formatNumber } from '../format.js';

/** Most validator messages kept in a report's warnings. */
export const MAX_REPORTED_WARNINGS = 20;

interface ValidatorMessage {
  code: string;
  message: string;
  severity: number;
  pointer?: string;
  offset?: number;
}

interface ValidatorReport {
  validatorVersion?: string;
  issues: { numErrors: number; numWarnings: number; numInfos: number; numHints: number; messages: ValidatorMessage[] };
  info?: { generator?: string; materialCount?: number; totalVertexCount?: number; totalTriangleCount?: number };
}

interface GltfValidator {
  validateBytes(data: Uint8Array, options?: Record<string, unknown>): Promise<ValidatorReport>;
  version(): string;
}

let validator: Promise<GltfValidator> | null = null;

/** The validator module, loaded once on first use (a lazy chunk in the portal). */
function loadValidator(): Promise<GltfValidator> {
  validator ??= import('gltf-validator').then((m) => ((m as { default?: GltfValidator }).default ?? m) as GltfValidator);
  return validator;
}

/** gltf-validator's version string (loads it). */
export async function gltfValidatorVersion(): Promise<string> {
  return (await loadValidator()).version();
}

function refusedGlb(source: ByteSource, problem: string): GlbCheck {
  return {
    ...refusedFacts(source, problem),
    generator: null,
    meshes: 0,
    triangles: 0,
    vertices: 0,
    materials: 0,
    textures: 0,
    extensions: [],
    validatorVersion: '',
    issues: { errors: 0, warnings: 0, infos: 0, hints: 0 },
  };
}

/** The JSON chunk of a GLB (glTF 2.0 §4.4), or null when it cannot be read. */
function jsonChunk(bytes: Uint8Array): Record<string, unknown> | null {
  if (bytes.byteLength < 20) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(12, true);
  if (view.getUint32(16, true) !== 0x4e4f534a || 20 + length > bytes.byteLength) return null;
  try {
    const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + length))) as unknown;
    return typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const where = (m: ValidatorMessage): string => (m.pointer ? ` at ${m.pointer}` : m.offset !== undefined ? ` at byte ${m.offset}` : '');

/**
 * Largest GLB the content check validates (512 MiB): the glTF validator reads a file whole, and
 * holds about twice its size while it runs. Photogrammetry meshes of a tower are 100–300 MB.
 */
export const GLB_VALIDATOR_MAX_BYTES = 512 * 1024 * 1024;

/**
 * Checks a GLB and reads its facts.
 * @param source the file
 * @returns verdict 'refused' when it is empty, a Git LFS pointer, something else named `.glb`
 *   ('This .glb is an HTML page, not a GLB file (x.glb).'), not glTF 2.0, shorter than its
 *   header says, larger than {@link GLB_VALIDATOR_MAX_BYTES}, or has validator errors (the first one named, with its JSON pointer); else the
 *   generator, meshes, triangles, vertices, materials, textures, extensions and the validator's
 *   warnings ('warnings' verdict when there are any)
 * @throws only when the source cannot be read
 */
export async function checkGlb(source: ByteSource): Promise<GlbCheck> {
  const { name, size } = source;
  if (size === 0) return refusedGlb(source, contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, SNIFF_BYTES));
  if (isLfsPointer(head)) return refusedGlb(source, lfsPointerMessage(name, size, 'GLB'));
  if (asciiOf(head, 4) !== 'glTF') {
    const { phrase } = await describeContent(head);
    const json = phrase === 'a JSON file' ? ' (a .gltf JSON file? upload the binary .glb)' : '';
    return refusedGlb(
      source,
      contentMessage(name, phrase ? `is ${phrase}, not a GLB file${json}` : "is not a GLB file: it does not start with 'glTF'"),
    );
  }
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const version = head.byteLength >= 8 ? view.getUint32(4, true) : 0;
  if (version !== 2)
    return refusedGlb(source, contentMessage(name, `is a glTF ${version}.x binary: only glTF 2.0 GLB files can be viewed`));
  const declared = head.byteLength >= 12 ? view.getUint32(8, true) : 0;
  if (declared > size) {
    return refusedGlb(
      source,
      contentMessage(name, `is truncated: its header declares ${formatNumber(declared)} bytes but the file has ${formatNumber(size)}`),
    );
  }
  if (size > GLB_VALIDATOR_MAX_BYTES) {
    return refusedGlb(
      source,
      contentMessage(
        name,
        `is ${formatMiB(size)}: a GLB can be checked up to ${formatMiB(GLB_VALIDATOR_MAX_BYTES)} (the glTF validator reads it whole); reduce its textures or split it`,
      ),
    );
  }
  const bytes = await readAll(source);
  const gltf = await loadValidator();
  const report = await gltf.validateBytes(bytes, { format: 'glb', maxIssues: 200, writeTimestamp: false });
  const { issues } = report;
  const errors = issues.messages.filter((m) => m.severity === 0);
  if (issues.numErrors > 0) {
    const first = errors[0];
    const more = issues.numErrors > 1 ? ` (and ${issues.numErrors - 1} more error${issues.numErrors > 2 ? 's' : ''})` : '';
    return refusedGlb(
      source,
      contentMessage(
        name,
        `is not a valid GLB: ${first ? `${first.message.replace(/\.$/, '')} [${first.code}${where(first)}]` : 'the glTF validator found errors'}${more}`,
      ),
    );
  }
  const json = jsonChunk(bytes);
  const count = (key: string): number => (Array.isArray(json?.[key]) ? (json[key] as unknown[]).length : 0);
  const extensions = Array.isArray(json?.extensionsUsed)
    ? (json.extensionsUsed as unknown[]).filter((e): e is string => typeof e === 'string')
    : [];
  const asset = json?.asset as { generator?: unknown } | undefined;
  const warnings = issues.messages
    .filter((m) => m.severity === 1)
    .slice(0, MAX_REPORTED_WARNINGS)
    .map((m) => `${m.message.replace(/\.$/, '')} [${m.code}${where(m)}].`);
  return {
    fileName: name,
    size,
    verdict: issues.numWarnings > 0 ? 'warnings' : 'ok',
    problem: null,
    warnings,
    generator: typeof asset?.generator === 'string' ? asset.generator : (report.info?.generator ?? null),
    meshes: count('meshes'),
    triangles: report.info?.totalTriangleCount ?? 0,
    vertices: report.info?.totalVertexCount ?? 0,
    materials: report.info?.materialCount ?? count('materials'),
    textures: count('textures'),
    extensions,
    validatorVersion: report.validatorVersion ?? gltf.version(),
    issues: { errors: issues.numErrors, warnings: issues.numWarnings, infos: issues.numInfos, hints: issues.numHints },
  };
}
