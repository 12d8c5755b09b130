import { afterEach, describe, expect, it, vi } from 'vitest';
import { bytesSource } from '@shared/content-check/byte-source.js';
import { THUMBNAIL_MAX_PX } from '@shared/content-check/platform.js';
import { browserContentPlatform, decodeImageInBrowser, thumbnailSize } from './content-platform.js';

afterEach(() => vi.unstubAllGlobals());

describe('the browser content platform', () => {
  it('sizes thumbnails to a long edge of THUMBNAIL_MAX_PX, never enlarged', () => {
    expect(THUMBNAIL_MAX_PX).toBe(512);
    expect(thumbnailSize(1062, 1893)).toEqual({ width: 287, height: 512 });
    expect(thumbnailSize(4000, 3000)).toEqual({ width: 512, height: 384 });
    expect(thumbnailSize(64, 48)).toEqual({ width: 64, height: 48 });
    expect(thumbnailSize(5000, 1)).toEqual({ width: 512, height: 1 });
  });

  it('lends decoding and thumbnails only where createImageBitmap exists (not in jsdom)', () => {
    expect(browserContentPlatform()).toEqual({});
    vi.stubGlobal('createImageBitmap', async () => ({ width: 3, height: 2, close: () => undefined }));
    expect(Object.keys(browserContentPlatform()).sort()).toEqual(['decodeImage', 'makeThumbnail']);
  });

  it("decodes with createImageBitmap, null for TIFF, rejecting with the browser's reason", async () => {
    const source = bytesSource(new Uint8Array([1, 2, 3]), 'a.jpg');
    vi.stubGlobal('createImageBitmap', async () => ({ width: 3, height: 2, close: () => undefined }));
    expect(await decodeImageInBrowser(source, 'image/jpeg')).toEqual({ width: 3, height: 2 });
    expect(await decodeImageInBrowser(source, 'image/tiff')).toBeNull();
    vi.stubGlobal('createImageBitmap', async () => {
      throw new DOMException('The source image could not be decoded.', 'InvalidStateError');
    });
    await expect(decodeImageInBrowser(source, 'image/jpeg')).rejects.toThrow(
      'The browser could not decode a.jpg (The source image could not be decoded.)',
    );
  });

  it('refuses a photo whose header declares more than IMAGE_MAX_PIXELS before the browser decodes it', async () => {
    // a PNG header of 20,000 × 20,000 pixels: signature and IHDR are all the check reads
    const png = new Uint8Array(33);
    png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(png.buffer).setUint32(16, 20_000);
    new DataView(png.buffer).setUint32(20, 20_000);
    const decoder = vi.fn(async () => ({ width: 20_000, height: 20_000, close: () => undefined }));
    vi.stubGlobal('createImageBitmap', decoder);
    const platform = browserContentPlatform();
    const expected =
      'This .png declares 20,000 × 20,000 pixels (400 megapixels), more than the 268 megapixels a photo may have (bomb.png).';
    await expect(decodeImageInBrowser(bytesSource(png, 'bomb.png'), 'image/png')).rejects.toThrow(expected);
    await expect(platform.makeThumbnail!(bytesSource(png, 'bomb.png'))).rejects.toThrow(expected);
    expect(decoder).not.toHaveBeenCalled();
  });
});
