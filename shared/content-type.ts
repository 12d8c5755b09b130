/**
 * The content type a stored file is recorded and served with, decided from its path alone, never
 * taken from the uploader: a request may say `text/html` or `image/svg+xml` for bytes that a
 * browser would then run. Model files get their kind's type, photos and thumbnails the type of
 * their extension (the content checks have made sure the bytes are that image), assets a type
 * from a short list of types a browser only displays (images, plain text, CSV, JSON, glTF) and
 * `application/octet-stream` otherwise. No type here is one a browser executes (HTML, SVG, XHTML,
 * XML, JavaScript). The embedded backend records and serves every file with it; the in-memory
 * backend guesses with it when an upload names no type. Pure TypeScript.
 */

const CONTENT_TYPES: Record<string, string> = {
  ply: 'application/octet-stream',
  splat: 'application/octet-stream',
  spz: 'application/octet-stream',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  json: 'application/json',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  csv: 'text/csv',
};

/** The type of a file whose kind is unknown: browsers download it and never display or run it. */
export const OPAQUE_CONTENT_TYPE = 'application/octet-stream';

/**
 * The content type of a stored file, from its path's extension (case-insensitive).
 * @param path a storage path or file name, e.g. `models/u1/scene.GLB`
 * @returns the MIME type; {@link OPAQUE_CONTENT_TYPE} when the extension is unknown or missing
 *   (`.html`, `.svg`, `.js`, `.xml` included)
 */
export function guessContentType(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return Object.hasOwn(CONTENT_TYPES, ext) ? CONTENT_TYPES[ext]! : OPAQUE_CONTENT_TYPE;
}

/**
 * The headers a stored file is downloaded with: its {@link guessContentType} type, and
 * `Content-Disposition: attachment` for {@link OPAQUE_CONTENT_TYPE} (an asset of an unknown
 * kind is saved, not opened in the page's origin).
 * @param path the storage path
 * @returns `contentType`, and `disposition` ('attachment') or null
 */
export function downloadHeaders(path: string): { contentType: string; disposition: 'attachment' | null } {
  const contentType = guessContentType(path);
  return { contentType, disposition: contentType === OPAQUE_CONTENT_TYPE ? 'attachment' : null };
}
