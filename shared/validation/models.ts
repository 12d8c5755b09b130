/**
 * Model forms (the model-list upload panel, Add Model, Edit Model). Each validator checks its
 * rules in a fixed order and returns the first broken rule's message.
 */
import { parseDateOnly, toDate } from '../format.js';
import { FormMessages, ValidationMessages } from '../messages.js';
import { filesSatisfyModelType, isModelType } from '../model-type.js';
import type { ModelType } from '../types.js';
import { invalid, trimmed, valid } from './result.js';
import type { ValidationResult } from './result.js';

/** Letters, numbers, hyphens and underscores. */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]+$/;

/**
 * The message for a Public ID another model of the same project already has. Every writer
 * refuses it (the portal's forms, the CLI, the server): the CLI knows a model by its Public ID
 * within its project, and a resumed upload finds its model's storage folder from it.
 * @param publicId the Public ID, trimmed
 * @returns e.g. 'Public ID TWR-001-2025 is already used in this project.'
 */
export function publicIdInUse(publicId: string): string {
  return `Public ID ${publicId} is already used in this project.`;
}

export interface ListUploadInput {
  publicId: string;
  name: string;
  /** A splat file (.splat or .ply) is chosen. */
  hasSplat: boolean;
  /** A GLB file is chosen. */
  hasGlb: boolean;
}

/**
 * Validates the model-list upload panel: at least one of the splat and GLB files ('At least
 * one file (splat or glb) is required.'), then publicId and name ('Please enter publicId and
 * name.'), then the Public ID's characters as in Edit ('Public ID can only contain letters,
 * numbers, hyphens, and underscores': the same rule on every create path). No size
 * limit. Uniqueness within the project is checked by the `addModel` workflow.
 * @returns publicId and name trimmed
 */
export function validateListUpload(input: ListUploadInput): ValidationResult<{ publicId: string; name: string }> {
  if (!input.hasSplat && !input.hasGlb) return invalid(ValidationMessages.uploadFileRequired);
  const publicId = trimmed(input.publicId);
  const name = trimmed(input.name);
  if (publicId === '' || name === '') return invalid(ValidationMessages.uploadIdAndNameRequired);
  if (!PUBLIC_ID_PATTERN.test(publicId)) return invalid(ValidationMessages.publicIdPattern);
  return valid({ publicId, name });
}

export interface AddModelFormInput {
  publicId: string;
  name: string;
  modelType: ModelType;
  hasSplat: boolean;
  hasGlb: boolean;
}

/**
 * Validates the add-model form: the files the model type needs (splat needs a splat file,
 * mesh a glb file, hybrid at least one; else 'Required file types are missing based on the
 * selected model type.'), then Public ID and Model Name ('Please enter Public ID and Model
 * Name.'), then the Public ID's characters as in Edit ('Public ID can only contain letters,
 * numbers, hyphens, and underscores'). A model type other than hybrid/splat/mesh gets
 * `FormMessages.modelTypeInvalid`. Uniqueness within the project is checked by `addModel`.
 * @returns publicId and name trimmed, and the model type
 */
export function validateAddModel(input: AddModelFormInput): ValidationResult<{ publicId: string; name: string; modelType: ModelType }> {
  if (!isModelType(input.modelType)) return invalid(FormMessages.modelTypeInvalid);
  if (!filesSatisfyModelType(input.modelType, input.hasSplat, input.hasGlb)) return invalid(ValidationMessages.addModelFilesMissing);
  const publicId = trimmed(input.publicId);
  const name = trimmed(input.name);
  if (publicId === '' || name === '') return invalid(ValidationMessages.addModelIdAndNameRequired);
  if (!PUBLIC_ID_PATTERN.test(publicId)) return invalid(ValidationMessages.publicIdPattern);
  return valid({ publicId, name, modelType: input.modelType });
}

export interface EditModelInput {
  name: string;
  publicId: string;
  /** 'YYYY-MM-DD' (a date input), another date text, or empty for none. */
  captureDate?: string | null;
}

/**
 * Normalises a capture date: '' → null; a 'YYYY-MM-DD' calendar date stays as is; any other text
 * `Date` parses becomes an ISO timestamp.
 * @returns the normalised date, null for none, or undefined when the text is not a date
 */
export function normaliseCaptureDate(value: string | null | undefined): string | null | undefined {
  const text = trimmed(value);
  if (text === '') return null;
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return parseDateOnly(text) === null ? undefined : text;
  const date = toDate(text);
  return date === null ? undefined : date.toISOString();
}

/**
 * Validates the edit-model form, in this order: name required ('Model name is required'),
 * Public ID required ('Public ID is required') and made of letters, numbers, hyphens and
 * underscores only ('Public ID can only contain letters, numbers, hyphens, and underscores'),
 * capture date parses when given ('Please enter a valid date'; '2025-02-30' does not).
 * @returns name and publicId trimmed, captureDate normalised (see {@link normaliseCaptureDate})
 */
export function validateEditModel(input: EditModelInput): ValidationResult<{ name: string; publicId: string; captureDate: string | null }> {
  const name = trimmed(input.name);
  if (name === '') return invalid(ValidationMessages.modelNameRequired);
  const publicId = trimmed(input.publicId);
  if (publicId === '') return invalid(ValidationMessages.publicIdRequired);
  if (!PUBLIC_ID_PATTERN.test(publicId)) return invalid(ValidationMessages.publicIdPattern);
  const captureDate = normaliseCaptureDate(input.captureDate);
  if (captureDate === undefined) return invalid(ValidationMessages.invalidDate);
  return valid({ name, publicId, captureDate });
}
