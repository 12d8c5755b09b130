/**
 * Camera metadata file choice: exactly one .json file.
 * The file's content is checked by `parseCameraMetadata` (shared/camera-metadata.ts).
 */
import { ValidationMessages } from '../messages.js';
import { invalid, valid } from './result.js';
import type { ValidationResult } from './result.js';

/**
 * Validates the files chosen for camera metadata: more than one (or none) → 'Only one JSON
 * file can be uploaded for camera metadata'; a name not ending in .json (any case) → 'Only JSON
 * files are allowed for camera metadata'.
 * @returns the one file
 */
export function validateCameraMetadataFiles<T extends { name: string }>(files: readonly T[]): ValidationResult<T> {
  if (files.length !== 1) return invalid(ValidationMessages.cameraOneFile);
  const file = files[0] as T;
  if (!/\.json$/i.test(file.name.trim())) return invalid(ValidationMessages.cameraJsonOnly);
  return valid(file);
}
