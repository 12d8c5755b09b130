/**
 * Content checks of model files on their first bytes (pure), so that a file that only has the
 * right name is refused before anything is uploaded: an HTML page saved as `.glb`, a Git LFS
 * pointer committed in place of a `.ply`, a truncated `.splat`.
 *
 * - GLB (glTF 2.0 binary): starts with the magic `glTF`.
 * - PLY: starts with `ply` + newline and its header declares a `vertex` element.
 * - `.splat` (compact splat format): 32 bytes a splat, so the size is a non-zero multiple of 32.
 */

/** Bytes a caller should read from the start of a file for {@link checkModelFileHead}. */
export const FILE_HEAD_BYTES = 64 * 1024;

/** Bytes per splat in the compact `.splat` format. */
export const SPLAT_RECORD_BYTES = 32;

/** Start of a Git LFS pointer file. */
export const LFS_POINTER_PREFIX = 'version https://git-lfs.github.com/spec/v1';

/** Which check to run: by the role of the file (splat by extension `.ply` or `.splat`, or GLB). */
export type CheckedFileKind = 'ply' | 'splat' | 'glb';

/** A refused file: `code` for programs, `message` for people (names the file). */
export interface FileCheckProblem {
  code: 'lfs-pointer' | 'not-glb' | 'not-ply' | 'ply-no-vertex' | 'splat-size' | 'empty-file';
  message: string;
}

/** Facts read from a valid PLY header. */
export interface PlyHeaderInfo {
  format: string;
  vertexCount: number;
  properties: string[];
}

function ascii(bytes: Uint8Array, length = bytes.length): string {
  let out = '';
  const end = Math.min(length, bytes.length);
  for (let i = 0; i < end; i += 1) out += String.fromCharCode(bytes[i]);
  return out;
}

/**
 * The kind of check for a file name: `.ply` → 'ply', `.splat` → 'splat', `.glb` → 'glb'.
 * @param fileName a file name or path
 * @returns the kind, or null for other extensions
 */
export function checkedKindOf(fileName: string): CheckedFileKind | null {
  const lower = fileName.toLowerCase();
  if (lower.endsWith('.ply')) return 'ply';
  if (lower.endsWith('.splat')) return 'splat';
  if (lower.endsWith('.glb')) return 'glb';
  return null;
}

/**
 * True when the bytes are the start of a Git LFS pointer file (text
 * `version https://git-lfs.github.com/spec/v1` …) rather than the file itself.
 */
export function isLfsPointer(head: Uint8Array): boolean {
  return ascii(head, LFS_POINTER_PREFIX.length) === LFS_POINTER_PREFIX;
}

/**
 * Reads a PLY header from the first bytes of a file.
 * @param head the first bytes (the header must fit: {@link FILE_HEAD_BYTES} is plenty)
 * @returns the format line, the vertex count and the vertex properties' names, or null when the
 *   bytes do not start with `ply` + newline or have no `end_header`
 */
export function readPlyHeader(head: Uint8Array): PlyHeaderInfo | null {
  const start = ascii(head, 5);
  if (!(start.startsWith('ply\n') || start.startsWith('ply\r\n'))) return null;
  const text = ascii(head);
  const end = text.indexOf('end_header');
  if (end === -1) return null;
  const lines = text
    .slice(0, end)
    .split(/\r?\n/)
    .map((l) => l.trim());
  let format = '';
  let vertexCount = -1;
  let inVertex = false;
  const properties: string[] = [];
  for (const line of lines) {
    const parts = line.split(/\s+/);
    if (parts[0] === 'format') format = parts.slice(1).join(' ');
    else if (parts[0] === 'element') {
      inVertex = parts[1] === 'vertex';
      if (inVertex) vertexCount = Number(parts[2]);
    } else if (parts[0] === 'property' && inVertex) properties.push(parts[parts.length - 1]);
  }
  if (vertexCount < 0 || !Number.isFinite(vertexCount)) return { format, vertexCount: -1, properties };
  return { format, vertexCount, properties };
}

/**
 * Checks a model file on its first bytes and its size.
 *
 * @param kind 'ply', 'splat' or 'glb' (see {@link checkedKindOf})
 * @param head the first bytes of the file (up to {@link FILE_HEAD_BYTES}; fewer when the file is smaller)
 * @param size the file's full size in bytes
 * @param fileName the name shown in messages
 * @returns null when the file looks right, else the problem: a Git LFS pointer (any kind), a GLB
 *   without the `glTF` magic, a PLY without the `ply` line or without a vertex element, a `.splat`
 *   whose size is not a non-zero multiple of 32 bytes, an empty file
 */
export function checkModelFileHead(kind: CheckedFileKind, head: Uint8Array, size: number, fileName: string): FileCheckProblem | null {
  if (size === 0) return { code: 'empty-file', message: `${fileName} is empty (0 bytes).` };
  if (isLfsPointer(head)) {
    return {
      code: 'lfs-pointer',
      message: `${fileName} is a Git LFS pointer (a ${size}-byte text file), not the ${kind === 'glb' ? 'GLB' : 'splat'} itself: fetch the real file (git lfs pull) and try again.`,
    };
  }
  if (kind === 'glb') {
    if (ascii(head, 4) !== 'glTF') {
      const looksHtml = /^\s*<(!doctype html|html)/i.test(ascii(head, 256));
      return {
        code: 'not-glb',
        message: `${fileName} is not a GLB file: it does not start with 'glTF'${looksHtml ? ' (it is an HTML page)' : ''}.`,
      };
    }
    return null;
  }
  if (kind === 'ply') {
    const header = readPlyHeader(head);
    if (header === null) {
      return { code: 'not-ply', message: `${fileName} is not a PLY file: it does not start with a 'ply' header.` };
    }
    if (header.vertexCount <= 0) {
      return { code: 'ply-no-vertex', message: `${fileName} is not a splat PLY: its header has no vertex element.` };
    }
    return null;
  }
  if (size % SPLAT_RECORD_BYTES !== 0) {
    return {
      code: 'splat-size',
      message: `${fileName} is not a .splat file: its size (${size} bytes) is not a multiple of ${SPLAT_RECORD_BYTES} bytes.`,
    };
  }
  return null;
}
