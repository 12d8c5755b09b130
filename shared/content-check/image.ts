/**
 * Photo checks: a real image of a type this catalog takes, named with that type's extension
 * (signatures by `file-type`), its pixel size from the header (`image-size`) within
 * {@link IMAGE_MAX_PIXELS} before anything decodes it, a PNG or WebP whose structure ends where
 * the file ends, and, where the platform can, a full decode (sharp in Node, `createImageBitmap` in
 * the browser) so a truncated or corrupt photo is refused.
 *
 * What a polyglot can still be: markup inside a JPEG's or PNG's metadata, or bytes after a JPEG's
 * end marker (cameras put a second picture or a motion-photo video there, so they are allowed).
 * Such a file is inert as long as it is served as the image type its path names, with nosniff:
 * the stored content type is decided from the path, never by the uploader (shared/content-type.ts).
 */
import { imageSize } from 'image-size';
import type { FileCheckBase } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { acceptedFacts, readAll, refusedFacts } from './byte-source.js';
import { contentMessage, dotExtension, lfsPointerMessage } from './messages.js';
import { describeContent, isLfsPointer, phraseOfMime, SNIFF_BYTES } from './sniff.js';
import { formatNumber } from '../format.js';
import { errorMessage } from '../errors.js';

/** Bytes read for the image header (256 KiB: a JPEG's size marker can follow a large EXIF block). */
export const IMAGE_HEADER_BYTES = 256 * 1024;

/** Largest photo read whole when its size is not in the first {@link IMAGE_HEADER_BYTES} (64 MiB). */
export const IMAGE_READ_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Most pixels a photo or thumbnail may have: 268,402,689 (16,383 × 16,383), sharp's own default
 * limit and about the largest canvas a browser draws. A header declaring more is refused before
 * any decode, so a small file cannot make a decoder allocate gigabytes (a decompression bomb).
 */
export const IMAGE_MAX_PIXELS = 268_402_689;

/** The image type each photo extension declares. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.bmp': 'image/bmp',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
};

/** `accept` of a photo or thumbnail file input: exactly the names {@link IMAGE_TYPES} takes ('.jpg,.jpeg,.png,…'). */
export const PHOTO_FILE_ACCEPT = Object.keys(IMAGE_TYPES).join(',');

/**
 * Decodes a whole image, as the platform can: resolves its pixel size, null when the platform
 * cannot decode this type (the check then relies on the header), rejects when the data is
 * corrupt or truncated (the rejection's message says why).
 */
export type ImageDecoder = (source: ByteSource, mime: string) => Promise<{ width: number; height: number } | null>;

/** A checked photo. */
export interface ImageCheck extends FileCheckBase {
  /** The detected type ('image/jpeg'), or null when the file is not an image. */
  mime: string | null;
  /** Pixel size (0 when refused). */
  width: number;
  height: number;
}

function refusedImage(source: ByteSource, problem: string, mime: string | null = null): ImageCheck {
  return { ...refusedFacts(source, problem), mime, width: 0, height: 0 };
}

/** The photo extensions, for messages ('.jpg, .jpeg, …, .tif or .tiff'). */
function extensionList(): string {
  const all = Object.keys(IMAGE_TYPES);
  return `${all.slice(0, -1).join(', ')} or ${all[all.length - 1]}`;
}

/**
 * The pixel size an image's header declares (`image-size`), reading the first
 * {@link IMAGE_HEADER_BYTES} and, when the size is not there, the whole file up to
 * {@link IMAGE_READ_MAX_BYTES}.
 * @param source the image
 * @param head its first bytes when already read
 * @returns width and height, or null when no size can be read
 */
export async function readImageSize(source: ByteSource, head?: Uint8Array): Promise<{ width: number; height: number } | null> {
  const first = head ?? (await source.read(0, Math.min(source.size, IMAGE_HEADER_BYTES)));
  const sizeOf = (bytes: Uint8Array): { width: number; height: number } | null => {
    try {
      const dims = imageSize(bytes);
      return dims.width && dims.height ? { width: dims.width, height: dims.height } : null;
    } catch {
      return null;
    }
  };
  const dims = sizeOf(first);
  if (dims !== null || source.size <= first.byteLength || source.size > IMAGE_READ_MAX_BYTES) return dims;
  return sizeOf(await readAll(source));
}

/** 'declares 20,000 × 20,000 pixels (400 megapixels), more than …' for an image over {@link IMAGE_MAX_PIXELS}; null within it. */
export function pixelLimitProblem(width: number, height: number): string | null {
  if (width * height <= IMAGE_MAX_PIXELS) return null;
  const megapixels = formatNumber(Math.round((width * height) / 1e6));
  return `declares ${formatNumber(width)} × ${formatNumber(height)} pixels (${megapixels} megapixels), more than the ${Math.floor(IMAGE_MAX_PIXELS / 1e6)} megapixels a photo may have`;
}

/**
 * Refuses an image whose header declares more than {@link IMAGE_MAX_PIXELS}, before a platform
 * decodes it (the browser's decoder has no limit of its own).
 * @param source the image
 * @throws Error 'This .png declares 20,000 × 20,000 pixels … (x.png).' over the limit
 */
export async function assertImagePixels(source: ByteSource): Promise<void> {
  const dims = await readImageSize(source);
  const problem = dims === null ? null : pixelLimitProblem(dims.width, dims.height);
  if (problem !== null) throw new Error(contentMessage(source.name, problem));
}

/** Bytes read at a time while walking a PNG's chunks (1 MiB: encoders write IDAT chunks of 8–64 KiB, so the walk reads most of the file; fewer, larger reads are faster). */
const PNG_WINDOW_BYTES = 1024 * 1024;

/**
 * Walks a PNG's chunks from the signature to IEND (length, type; the data is jumped over).
 * @returns null when the chunks end exactly where the file ends, else what is wrong
 */
async function pngStructureProblem(source: ByteSource): Promise<string | null> {
  let windowStart = 0;
  let window: Uint8Array = new Uint8Array(0);
  /** The 8 bytes at `offset` (a chunk's length and type), or null past the end. */
  const chunkHeader = async (offset: number): Promise<DataView | null> => {
    if (offset + 8 > source.size) return null;
    if (offset < windowStart || offset + 8 > windowStart + window.byteLength) {
      windowStart = offset;
      window = await source.read(offset, Math.min(PNG_WINDOW_BYTES, source.size - offset));
      if (window.byteLength < 8) return null;
    }
    return new DataView(window.buffer, window.byteOffset + (offset - windowStart), 8);
  };
  let offset = 8;
  let first = true;
  for (;;) {
    const view = await chunkHeader(offset);
    if (view === null) return 'is a PNG image that ends before its IEND chunk (truncated?)';
    const length = view.getUint32(0);
    const type = String.fromCharCode(view.getUint8(4), view.getUint8(5), view.getUint8(6), view.getUint8(7));
    if (!/^[A-Za-z]{4}$/.test(type) || length > 0x7fffffff) return `is a PNG image whose chunk at byte ${formatNumber(offset)} is damaged`;
    if (first && type !== 'IHDR') return 'is a PNG image that does not start with its IHDR chunk';
    first = false;
    const next = offset + 12 + length;
    if (type === 'IEND') {
      if (next < source.size) {
        return `is a PNG image with ${formatNumber(source.size - next)} bytes after its end (IEND): something is appended to it`;
      }
      return next > source.size ? 'is a PNG image that ends inside its IEND chunk (truncated?)' : null;
    }
    offset = next;
  }
}

/** A WebP's RIFF size against the file's size: null when they agree. */
async function webpStructureProblem(source: ByteSource, head: Uint8Array): Promise<string | null> {
  if (head.byteLength < 12) return 'is a WebP image too short to have a header';
  const declared = new DataView(head.buffer, head.byteOffset, 12).getUint32(4, true) + 8;
  if (declared > source.size) return 'is a WebP image that ends before its declared size (truncated?)';
  if (declared + (declared % 2) < source.size) {
    return `is a WebP image with ${formatNumber(source.size - declared)} bytes after its end: something is appended to it`;
  }
  return null;
}

/**
 * Checks a photo or thumbnail.
 * @param source the file; its extension must be one of {@link IMAGE_TYPES} and is the declared type
 * @param options.decodeImage the platform's decoder (without one, the header is all that is checked)
 * @returns verdict 'refused' when its name is not a photo's ('This .html is not a photo: …'), it
 *   is empty, a Git LFS pointer, not an image ('This .jpg is an HTML page, not an image (x.jpg).'),
 *   an image of another type ('This .jpg is a PNG image, not a JPEG image (x.jpg).'), has no
 *   readable size, declares more than {@link IMAGE_MAX_PIXELS}, is a PNG or WebP with bytes after
 *   its end, or fails to decode; else its type and pixel size
 * @throws only when the source cannot be read
 */
export async function checkImage(source: ByteSource, options: { decodeImage?: ImageDecoder } = {}): Promise<ImageCheck> {
  const { name, size } = source;
  const declared = Object.hasOwn(IMAGE_TYPES, dotExtension(name)) ? IMAGE_TYPES[dotExtension(name)]! : null;
  if (declared === null) {
    return refusedImage(source, contentMessage(name, `is not a photo: photos and thumbnails must be ${extensionList()} images`));
  }
  if (size === 0) return refusedImage(source, contentMessage(name, 'is empty (0 bytes)'));
  const head = await source.read(0, Math.min(size, IMAGE_HEADER_BYTES));
  if (isLfsPointer(head)) return refusedImage(source, lfsPointerMessage(name, size, 'photo'));
  const { mime, phrase } = await describeContent(head.subarray(0, SNIFF_BYTES));
  if (mime === null || !mime.startsWith('image/')) {
    return refusedImage(
      source,
      contentMessage(name, phrase ? `is ${phrase}, not an image` : 'is not an image in a format this catalog knows'),
    );
  }
  if (mime !== declared) {
    return refusedImage(source, contentMessage(name, `is ${phrase ?? phraseOfMime(mime)}, not ${phraseOfMime(declared)}`), mime);
  }
  const dims = await readImageSize(source, head);
  if (dims === null) {
    return refusedImage(source, contentMessage(name, `is ${phraseOfMime(mime)} whose pixel size cannot be read (a damaged file?)`), mime);
  }
  const tooLarge = pixelLimitProblem(dims.width, dims.height);
  if (tooLarge !== null) return refusedImage(source, contentMessage(name, tooLarge), mime);
  const structure =
    mime === 'image/png' ? await pngStructureProblem(source) : mime === 'image/webp' ? await webpStructureProblem(source, head) : null;
  if (structure !== null) return refusedImage(source, contentMessage(name, structure), mime);
  let { width, height } = dims;
  if (options.decodeImage) {
    try {
      const decoded = await options.decodeImage(source, mime);
      if (decoded) ({ width, height } = decoded);
    } catch (error) {
      const reason = errorMessage(error);
      return refusedImage(
        source,
        contentMessage(name, `is ${phraseOfMime(mime)} that cannot be decoded (truncated or damaged: ${reason})`),
        mime,
      );
    }
  }
  return { ...acceptedFacts(source), mime, width, height };
}
