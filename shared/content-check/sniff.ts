/**
 * What a file really is, from its first bytes, in words for messages ('an HTML page', 'a JPEG
 * image', 'a Git LFS pointer'): binary formats by `file-type`'s signatures, the text cases a
 * model folder meets (HTML, SVG, XML, Git LFS pointers, JSON, PLY headers) by their opening text.
 */
import { fileTypeFromBuffer } from 'file-type/core';

/** Bytes of a file's start that {@link describeContent} looks at (file-type wants 4,100). */
export const SNIFF_BYTES = 4100;

/** Start of a Git LFS pointer file. */
export const LFS_POINTER_PREFIX = 'version https://git-lfs.github.com/spec/v1';

/** The detected kind of a file's content, with a phrase for messages. */
export interface SniffedContent {
  /** A MIME type (e.g. 'image/jpeg', 'text/html', 'model/gltf-binary'), or null when unknown. */
  mime: string | null;
  /** What it is, with an article: 'an HTML page', 'a PNG image'; null when unknown. */
  phrase: string | null;
}

/** Latin-1 text of the first bytes (enough for signatures; never throws). */
export function asciiOf(bytes: Uint8Array, length = bytes.byteLength): string {
  let out = '';
  const end = Math.min(length, bytes.byteLength);
  for (let i = 0; i < end; i += 1) out += String.fromCharCode(bytes[i]!);
  return out;
}

/** True when the bytes start a Git LFS pointer (text `version https://git-lfs.github.com/spec/v1` …). */
export function isLfsPointer(head: Uint8Array): boolean {
  return asciiOf(head, LFS_POINTER_PREFIX.length) === LFS_POINTER_PREFIX;
}

const PHRASES: Record<string, string> = {
  'image/jpeg': 'a JPEG image',
  'image/png': 'a PNG image',
  'image/webp': 'a WebP image',
  'image/gif': 'a GIF image',
  'image/bmp': 'a BMP image',
  'image/tiff': 'a TIFF image',
  'image/heic': 'a HEIC image',
  'image/avif': 'an AVIF image',
  'model/gltf-binary': 'a GLB file',
  'application/pdf': 'a PDF document',
  'application/zip': 'a ZIP archive',
  'application/gzip': 'a gzip archive',
  'application/x-7z-compressed': 'a 7-Zip archive',
  'application/x-tar': 'a tar archive',
  'video/mp4': 'an MP4 video',
  'video/quicktime': 'a QuickTime video',
};

/**
 * The phrase for an image MIME type ('image/png' → 'a PNG image').
 * @returns the phrase, or `a file of type {mime}` for others
 */
export function phraseOfMime(mime: string): string {
  return PHRASES[mime] ?? `a file of type ${mime}`;
}

/**
 * What the first bytes of a file are.
 * @param head the file's first bytes ({@link SNIFF_BYTES} are enough)
 * @returns the MIME type and a phrase; both null when nothing is recognised
 */
export async function describeContent(head: Uint8Array): Promise<SniffedContent> {
  if (isLfsPointer(head)) return { mime: 'text/x-git-lfs-pointer', phrase: 'a Git LFS pointer' };
  const detected = head.byteLength === 0 ? undefined : await fileTypeFromBuffer(head).catch(() => undefined);
  // SVG is XML that browsers run scripts in: named as such, never taken for a photo.
  const svg = { mime: 'image/svg+xml', phrase: 'an SVG image' };
  if (detected?.mime === 'application/xml' && /<svg\b/i.test(asciiOf(head, 1024))) return svg;
  if (detected) {
    const mime = detected.mime as string;
    return { mime, phrase: PHRASES[mime] ?? `a .${detected.ext} file (${mime})` };
  }
  const text = asciiOf(head, 512)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart();
  if (/^<(!doctype\s+html|html|head|body|script|iframe)\b/i.test(text)) return { mime: 'text/html', phrase: 'an HTML page' };
  if (/^<(svg|!doctype\s+svg)\b/i.test(text)) return svg;
  if (/^<\?xml\b/i.test(text)) return /<svg\b/i.test(text) ? svg : { mime: 'application/xml', phrase: 'an XML file' };
  if (/^ply\r?\n/.test(text)) return { mime: 'application/x-ply', phrase: 'a PLY file' };
  if (/^[[{]/.test(text)) return { mime: 'application/json', phrase: 'a JSON file' };
  return { mime: null, phrase: null };
}
