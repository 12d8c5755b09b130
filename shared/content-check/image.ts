/**
 * Photo checks: a real image of the type its extension declares (signatures by `file-type`),
 * its pixel size from the header (`image-size`), and, where the platform can, a full decode
 * (sharp in Node, `createImageBitmap` in the browser) so a truncated or corrupt photo is refused.
 */
import { imageSize } from 'image-size';
import type { FileCheckBase } from '../types.js';
import type { ByteSource } from './byte-source.js';
import { readAll } from './byte-source.js';
import { contentMessage, dotExtension, lfsPointerMessage } from './messages.js';
import { describeContent, isLfsPointer, phraseOfMime, SNIFF_BYTES } from './sniff.js';

/** Bytes read for the image header (256 KiB: a JPEG's size marker can follow a large EXIF block). */
export const IMAGE_HEADER_BYTES = 256 * 1024;

/** Largest photo read whole when its size is not in the first {@link IMAGE_HEADER_BYTES} (64 MiB). */
export const IMAGE_READ_MAX_BYTES = 64 * 1024 * 1024;

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
  return { fileName: source.name, size: source.size, verdict: 'refused', problem, warnings: [], mime, width: 0, height: 0 };
}

/**
 * Checks a photo.
 * @param source the file; its extension is the declared type ({@link IMAGE_TYPES})
 * @param options.decodeImage the platform's decoder (without one, the header is all that is checked)
 * @returns verdict 'refused' when it is empty, a Git LFS pointer, not an image ('This .jpg is an
 *   HTML page, not an image (x.jpg).'), an image of another type ('This .jpg is a PNG image, not a
 *   JPEG image (x.jpg).'), has no readable size, or fails to decode; else its type and pixel size
 * @throws only when the source cannot be read
 */
export async function checkImage(source: ByteSource, options: { decodeImage?: ImageDecoder } = {}): Promise<ImageCheck> {
  const { name, size } = source;
  if (size === 0) return refusedImage(source, contentMessage(name, 'is empty (0 bytes)'));
  const declared = IMAGE_TYPES[dotExtension(name)] ?? null;
  let head = await source.read(0, Math.min(size, IMAGE_HEADER_BYTES));
  if (isLfsPointer(head)) return refusedImage(source, lfsPointerMessage(name, size, 'photo'));
  const { mime, phrase } = await describeContent(head.subarray(0, SNIFF_BYTES));
  if (mime === null || !mime.startsWith('image/')) {
    return refusedImage(
      source,
      contentMessage(name, phrase ? `is ${phrase}, not an image` : 'is not an image in a format this catalog knows'),
    );
  }
  if (declared !== null && mime !== declared) {
    return refusedImage(source, contentMessage(name, `is ${phrase ?? phraseOfMime(mime)}, not ${phraseOfMime(declared)}`), mime);
  }
  let dims: { width?: number; height?: number } | null = null;
  try {
    dims = imageSize(head);
  } catch {
    if (size > head.byteLength && size <= IMAGE_READ_MAX_BYTES) {
      head = await readAll(source);
      try {
        dims = imageSize(head);
      } catch {
        dims = null;
      }
    }
  }
  if (!dims?.width || !dims.height) {
    return refusedImage(source, contentMessage(name, `is ${phraseOfMime(mime)} whose pixel size cannot be read (a damaged file?)`), mime);
  }
  let width = dims.width;
  let height = dims.height;
  if (options.decodeImage) {
    try {
      const decoded = await options.decodeImage(source, mime);
      if (decoded) ({ width, height } = decoded);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return refusedImage(
        source,
        contentMessage(name, `is ${phraseOfMime(mime)} that cannot be decoded (truncated or damaged: ${reason})`),
        mime,
      );
    }
  }
  return { fileName: name, size, verdict: 'ok', problem: null, warnings: [], mime, width, height };
}
