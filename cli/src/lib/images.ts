/**
 * Photos in Node with sharp (libvips): the full decode the content checks use to refuse a
 * truncated or corrupt photo, and thumbnails made from a model's first photo. Both refuse, from
 * the header and before decoding, a photo of more than IMAGE_MAX_PIXELS (the product's limit,
 * sharp's own default), so a small decompression bomb never reaches the decoder.
 */
import sharp from 'sharp';
import type { ByteSource } from '@shared/content-check/byte-source.js';
import { readAll } from '@shared/content-check/byte-source.js';
import type { ImageDecoder } from '@shared/content-check/image.js';
import { IMAGE_MAX_PIXELS } from '@shared/content-check/image.js';
import { THUMBNAIL_MAX_PX } from '@shared/content-check/platform.js';

/** Image types sharp decodes here (the others are checked on their header only). */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff']);

/** Long edge of the decode that proves a photo whole (shrink-on-load: JPEGs decode at 1/8 scale). */
const DECODE_CHECK_PX = 512;

/**
 * Decodes a whole photo with sharp (`failOn: 'truncated'`), for the content checks. The decode
 * is a shrinking one (JPEG's DCT scaling), so every byte of the image data is still read and a
 * truncated or corrupt photo still fails, at about 40 % of a full decode's time (16 ms instead
 * of 39 ms for a 10-megapixel JPEG here).
 * @returns its pixel size (from its header), or null for a type sharp does not decode here (BMP)
 * @throws Error with libvips' reason when the photo is truncated or corrupt, or declares more
 *   than IMAGE_MAX_PIXELS ('Input image exceeds pixel limit')
 */
export const decodeImageWithSharp: ImageDecoder = async (source, mime) => {
  if (!DECODABLE.has(mime)) return null;
  const bytes = await readAll(source);
  const image = sharp(bytes, { failOn: 'truncated', limitInputPixels: IMAGE_MAX_PIXELS });
  const { width, height } = await image.metadata();
  await image.resize({ width: DECODE_CHECK_PX, height: DECODE_CHECK_PX, fit: 'inside', withoutEnlargement: true }).raw().toBuffer();
  return width && height ? { width, height } : null;
};

/**
 * A JPEG thumbnail of a photo: long edge THUMBNAIL_MAX_PX (never enlarged), EXIF orientation
 * applied, quality 80.
 * @param photo the photo
 * @returns the JPEG bytes as a Blob
 * @throws Error when the photo cannot be decoded or declares more than IMAGE_MAX_PIXELS
 */
export async function thumbnailWithSharp(photo: ByteSource): Promise<Blob> {
  const bytes = await readAll(photo);
  const jpeg = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
    .rotate()
    .resize({ width: THUMBNAIL_MAX_PX, height: THUMBNAIL_MAX_PX, fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 80, mozjpeg: false })
    .toBuffer();
  return new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' });
}
