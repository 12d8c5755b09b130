/**
 * The content type a stored file gets when the uploader gives none (SPEC.md §7 file store): the
 * embedded backend's file store and the in-memory backend guess it the same way, from the path's
 * extension. Pure TypeScript.
 */

const CONTENT_TYPES: Record<string, string> = {
  ply: 'application/octet-stream',
  splat: 'application/octet-stream',
  glb: 'model/gltf-binary',
  gltf: 'model/gltf+json',
  json: 'application/json',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  txt: 'text/plain',
};

/**
 * Guesses a content type from a path's extension (case-insensitive).
 * @param path a storage path or file name, e.g. `models/u1/scene.GLB`
 * @returns the MIME type, `application/octet-stream` when the extension is unknown or missing
 */
export function guessContentType(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
