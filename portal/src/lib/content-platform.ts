/**
 * The browser's content platform (`ContentPlatform`, shared/content-check/platform.ts), lent to
 * the add-model and additional-files workflows: photos fully decoded with
 * `createImageBitmap` (a truncated or corrupt photo is refused with the browser's reason),
 * thumbnails made by a canvas resize to JPEG (long edge `THUMBNAIL_MAX_PX`). A photo whose header
 * declares more than `IMAGE_MAX_PIXELS` is refused before the browser decodes it: the browser's
 * decoder has no limit of its own, and a small decompression bomb would take the tab's memory. No `compressSplat`
 * and no `compressGlb`: the embedded server makes web-sized copies itself, and on Firebase `catalog doctor --fix` does.
 * Blobs are read by the checks without help, so there is no `open`.
 *
 * Where the browser lacks `createImageBitmap` (jsdom in component tests), photos are checked by
 * their header only and no thumbnail is made (the report says so in its notes).
 */
import { readAll, type ByteSource } from '@shared/content-check/byte-source.js';
import { assertImagePixels } from '@shared/content-check/image.js';
import { THUMBNAIL_MAX_PX, type ContentPlatform } from '@shared/content-check/platform.js';

/** JPEG quality of generated thumbnails (0–1). */
const THUMBNAIL_QUALITY = 0.85;

/** Image types browsers cannot be relied on to decode: checked by their header only. */
const UNDECODABLE_TYPES = new Set(['image/tiff']);

/** Whether this browser can decode images off the DOM. */
function canDecode(): boolean {
  return typeof globalThis.createImageBitmap === 'function';
}

/** A source's bytes as a Blob of the given type. */
async function blobOf(source: ByteSource, type: string): Promise<Blob> {
  const bytes = await readAll(source);
  return new Blob([bytes as Uint8Array<ArrayBuffer>], { type });
}

/** Decodes a photo within the pixel limit; the rejection names the file and carries the browser's reason. */
async function decode(source: ByteSource, mime: string): Promise<ImageBitmap> {
  await assertImagePixels(source);
  try {
    return await createImageBitmap(await blobOf(source, mime));
  } catch (error) {
    // A DOMException in browsers (not always an Error instance elsewhere): its message is the reason.
    const message = (error as { message?: unknown } | null)?.message;
    const reason = typeof message === 'string' && message !== '' ? message : String(error);
    throw new Error(`The browser could not decode ${source.name} (${reason})`, { cause: error });
  }
}

/**
 * Fully decodes a photo in the browser (`ImageDecoder` of shared/content-check/image.ts).
 * @param source the photo
 * @param mime its detected type ('image/jpeg')
 * @returns its pixel size, or null for a type browsers do not decode (TIFF)
 * @throws Error with the browser's reason when the photo is corrupt or truncated; Error 'This .png
 *   declares 20,000 × 20,000 pixels …' over the pixel limit, before decoding
 */
export async function decodeImageInBrowser(source: ByteSource, mime: string): Promise<{ width: number; height: number } | null> {
  if (UNDECODABLE_TYPES.has(mime)) return null;
  const bitmap = await decode(source, mime);
  try {
    return { width: bitmap.width, height: bitmap.height };
  } finally {
    bitmap.close();
  }
}

/** The thumbnail's pixel size: long edge {@link THUMBNAIL_MAX_PX}, never enlarged, at least 1 px. */
export function thumbnailSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, THUMBNAIL_MAX_PX / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** Draws a bitmap on a canvas of the given size and encodes it as JPEG (OffscreenCanvas where available). */
async function encodeJpeg(bitmap: ImageBitmap, size: { width: number; height: number }): Promise<Blob> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(size.width, size.height);
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('No 2D canvas in this browser');
    context.imageSmoothingQuality = 'high';
    context.drawImage(bitmap, 0, 0, size.width, size.height);
    return canvas.convertToBlob({ type: 'image/jpeg', quality: THUMBNAIL_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('No 2D canvas in this browser');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, size.width, size.height);
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The canvas made no JPEG'))), 'image/jpeg', THUMBNAIL_QUALITY),
  );
}

/**
 * Makes a JPEG thumbnail of a photo by a canvas resize, long edge {@link THUMBNAIL_MAX_PX}.
 * @param photo the photo (any type the browser decodes)
 * @returns the JPEG
 * @throws Error when the photo cannot be decoded or the canvas cannot encode
 */
export async function makeThumbnailInBrowser(photo: ByteSource): Promise<Blob> {
  const bitmap = await decode(photo, '');
  try {
    const jpeg = await encodeJpeg(bitmap, thumbnailSize(bitmap.width, bitmap.height));
    if (jpeg.type !== 'image/jpeg') throw new Error(`This browser encodes ${jpeg.type || 'an unknown type'}, not JPEG`);
    return jpeg;
  } finally {
    bitmap.close();
  }
}

/**
 * The browser's content platform: `decodeImage` and `makeThumbnail` where `createImageBitmap`
 * exists, nothing otherwise. Pass it as `content` to every `addModel` and `uploadAdditionalFiles` call.
 */
export function browserContentPlatform(): ContentPlatform {
  if (!canDecode()) return {};
  return { decodeImage: decodeImageInBrowser, makeThumbnail: makeThumbnailInBrowser };
}
