/**
 * Random-access reads of a file's bytes, the same for a browser `Blob`, bytes in memory and (in
 * `cli/src/lib/byte-source.ts`) a file on disk, so the content checks of this folder stream
 * any file without holding it whole.
 */
import type { FileCheckBase } from '../types.js';

/** A file's bytes, read a range at a time. */
export interface ByteSource {
  /** File name as the user gave it (shown in messages; its extension is the declared type). */
  readonly name: string;
  /** Size in bytes. */
  readonly size: number;
  /**
   * Reads `length` bytes at `offset` (fewer at the end of the file).
   * @param offset byte offset, 0 ≤ offset ≤ size
   * @param length bytes wanted
   */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** Bytes read at a time when streaming through a file (1 MiB: larger chunks raised the CLI's peak RSS by 20–35 MB on a 1 GiB splat, no faster). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A `Blob` (a browser `File`, or a Node `Blob`) as a byte source; reads slice the blob.
 * @param blob the blob
 * @param name the file name (default: `blob.name` for a `File`, else 'file')
 */
export function blobSource(blob: Blob, name?: string): ByteSource {
  const fileName = name ?? ((blob as { name?: unknown }).name as string | undefined) ?? 'file';
  return {
    name: fileName,
    size: blob.size,
    async read(offset, length) {
      const part = blob.slice(offset, Math.min(blob.size, offset + length));
      // jsdom's Blob has no arrayBuffer(); a Response reads any Blob
      return new Uint8Array(typeof part.arrayBuffer === 'function' ? await part.arrayBuffer() : await new Response(part).arrayBuffer());
    },
  };
}

/**
 * Bytes in memory as a byte source.
 * @param bytes the file's bytes
 * @param name the file name
 */
export function bytesSource(bytes: Uint8Array, name: string): ByteSource {
  return {
    name,
    size: bytes.byteLength,
    async read(offset, length) {
      return bytes.subarray(offset, Math.min(bytes.byteLength, offset + length));
    },
  };
}

/**
 * Reads a byte range a chunk at a time.
 * @param source the file
 * @param from first byte (default 0)
 * @param to end, exclusive (default: the size)
 * @param chunkBytes bytes a chunk (default {@link CHUNK_BYTES})
 * @yields `{ offset, bytes }` in file order; the last chunk may be shorter
 */
export async function* readChunks(
  source: ByteSource,
  from = 0,
  to = source.size,
  chunkBytes = CHUNK_BYTES,
): AsyncGenerator<{ offset: number; bytes: Uint8Array }> {
  for (let offset = from; offset < to; offset += chunkBytes) {
    const bytes = await source.read(offset, Math.min(chunkBytes, to - offset));
    if (bytes.byteLength === 0) return;
    yield { offset, bytes };
  }
}

/**
 * The whole file in memory (for checkers that need it whole: gltf-validator).
 * @throws RangeError when the source returns fewer bytes than its size
 */
export async function readAll(source: ByteSource): Promise<Uint8Array> {
  const out = new Uint8Array(source.size);
  let at = 0;
  for await (const { bytes } of readChunks(source)) {
    out.set(bytes, at);
    at += bytes.byteLength;
  }
  if (at !== source.size) throw new RangeError(`${source.name}: read ${at} of ${source.size} bytes`);
  return out;
}

/**
 * True for a `Blob` (or `File`) of any realm — a Node `File` in jsdom fails `instanceof Blob` —
 * as opposed to a platform upload source (`{ size, input }`).
 */
export function isBlobLike(value: unknown): value is Blob {
  if (typeof Blob !== 'undefined' && value instanceof Blob) return true;
  const candidate = value as { slice?: unknown; size?: unknown; input?: unknown } | null;
  return typeof candidate?.slice === 'function' && typeof candidate.size === 'number' && !('input' in (candidate as object));
}

/**
 * The facts every check of a refused file starts from: the source's name and size, verdict
 * 'refused', the problem and no warnings (each check adds its own facts, zeroed).
 * @param source the checked file
 * @param problem why it is refused, in the user's terms
 * @returns `{fileName, size, verdict: 'refused', problem, warnings: []}`
 */
export function refusedFacts(
  source: Pick<ByteSource, 'name' | 'size'>,
  problem: string,
): FileCheckBase & { verdict: 'refused'; problem: string } {
  return { fileName: source.name, size: source.size, verdict: 'refused', problem, warnings: [] };
}

/**
 * The facts every check of an accepted file starts from: the source's name and size, no problem,
 * the warnings, and the verdict 'warnings' when there are any, else 'ok'.
 * @param source the checked file
 * @param warnings what the check warns about, each a sentence (default none)
 * @returns `{fileName, size, verdict, problem: null, warnings}`
 */
export function acceptedFacts(source: Pick<ByteSource, 'name' | 'size'>, warnings: string[] = []): FileCheckBase & { problem: null } {
  return { fileName: source.name, size: source.size, verdict: warnings.length > 0 ? 'warnings' : 'ok', problem: null, warnings };
}
