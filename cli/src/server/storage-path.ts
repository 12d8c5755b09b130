/**
 * Storage paths as the embedded backend accepts them: the rule every path a client names (an
 * upload, a download, a deletion, a listed folder) must hold before it is turned into a place on
 * disk, so that no request reaches outside the storage folder.
 */
import { AppError, ErrorCode } from '@shared/errors.js';
import { MAX_FILE_NAME_BYTES } from '@shared/paths.js';

/** True when `value` contains a C0 control character or DEL. */
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** Longest accepted storage path, in characters. */
const MAX_PATH_LENGTH = 1024;

/**
 * Validates a storage path: relative, '/'-separated, no empty, '.' or '..' segments, no
 * backslashes or control characters, at most 1024 characters.
 * @returns the path unchanged
 * @throws AppError `invalid-argument`
 */
export function validateStoragePath(path: unknown): string {
  const bad = (reason: string): AppError =>
    new AppError(ErrorCode.InvalidArgument, `Invalid storage path: ${reason}`, { context: { path } });
  if (typeof path !== 'string' || path.length === 0) throw bad('empty');
  if (path.length > MAX_PATH_LENGTH) throw bad('too long');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) throw bad('absolute');
  if (path.includes('\\') || hasControlCharacter(path)) throw bad('forbidden character');
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.' || segment === '..') throw bad(`segment '${segment}'`);
    if (Buffer.byteLength(segment) > MAX_FILE_NAME_BYTES) throw bad(`a segment is longer than ${MAX_FILE_NAME_BYTES} bytes`);
  }
  return path;
}

/**
 * Normalises a folder for listing: '' (root) or a valid path ending in '/'.
 * @param folder undefined, null, '' or '/' for the root; else a folder path, trailing '/'s optional
 * @returns '' or the validated path with one trailing '/'
 * @throws AppError `invalid-argument` (not a string, or not a valid storage path once trimmed)
 */
export function normalizeFolder(folder: unknown): string {
  if (folder === undefined || folder === null || folder === '' || folder === '/') return '';
  if (typeof folder !== 'string') throw new AppError(ErrorCode.InvalidArgument, 'Invalid folder');
  const trimmed = folder.replace(/\/+$/, '');
  return `${validateStoragePath(trimmed)}/`;
}
