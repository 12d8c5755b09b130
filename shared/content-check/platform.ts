/**
 * What a platform lends the content checks and the add-model workflow: reading its own upload
 * sources, decoding photos, making thumbnails, web-sized splats and web-sized GLBs. The portal's is in
 * `portal/src/lib/content-platform.ts` (canvas, createImageBitmap), the CLI's in
 * `cli/src/lib/content-platform.ts` (node:fs, sharp, the SPZ reference library, gltf-transform). Every member is
 * optional: without one, that step is skipped (and said so in the report's notes).
 */
import type { NativeUploadSource } from '../ports/files.js';
import type { ByteSource } from './byte-source.js';
import type { ImageDecoder } from './image.js';

/** Long edge of a thumbnail made from a photo, in pixels. */
export const THUMBNAIL_MAX_PX = 512;

/** File name of a thumbnail made from a model's first photo (in `images_thumbnails/`). */
export const GENERATED_THUMBNAIL_NAME = 'thumbnail.jpg';

/** Platform help for content checks, thumbnails and web-sized copies. */
export interface ContentPlatform {
  /**
   * Opens a platform upload source for reading (Node: the file at `source.localPath`). Blobs
   * are read without help.
   * @returns a byte source, or null when this source cannot be read (its content is then not checked)
   */
  open?(source: NativeUploadSource, name: string): ByteSource | null;
  /** Fully decodes a photo ({@link ImageDecoder}). */
  decodeImage?: ImageDecoder;
  /**
   * Makes a JPEG thumbnail of a photo, long edge {@link THUMBNAIL_MAX_PX} (never enlarged).
   * @returns the JPEG as a Blob
   * @throws when the photo cannot be decoded
   */
  makeThumbnail?(photo: ByteSource): Promise<Blob>;
  /**
   * Makes the web-sized copy (SPZ) of a splat (a 3DGS PLY or a .splat) on this machine. Used only when the file
   * store cannot make it itself (`FileStorePort.makeWebSplat`). A capture of more than 400,000
   * Gaussians also gets its preview (its most important Gaussians, SH degree 0, one SPZ).
   * @returns the SPZ bytes as a Blob, and the preview's (null for a smaller capture)
   */
  compressSplat?(ply: ByteSource): Promise<{ copy: Blob; preview: Blob | null }>;
  /**
   * Makes the web-sized copy of a GLB on this machine (meshopt geometry, textures at most 2048 px
   * as WebP), kept only when at least 2× smaller than the original. Used only when the file store
   * cannot make it itself (`FileStorePort.makeWebGlb`).
   * @returns the copy as a Blob, or `copy: null` with why none was kept
   */
  compressGlb?(glb: ByteSource): Promise<{ copy: Blob; skipped: null } | { copy: null; skipped: string }>;
}
