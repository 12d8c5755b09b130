/**
 * Typed-name confirmations of deleting a model or a project: the admin types the name, which must
 * equal the real one after trimming both.
 */
import { ValidationMessages } from '../messages.js';
import { invalid, valid } from './result.js';
import type { ValidationResult } from './result.js';

/**
 * True when the typed text equals the expected name, both trimmed. Case matters.
 * null/undefined count as ''.
 */
export function confirmTypedName(typed: string | null | undefined, expected: string | null | undefined): boolean {
  return (typed ?? '').trim() === (expected ?? '').trim();
}

/** Delete model: ok, or "Model name doesn't match. Deletion canceled." */
export function validateModelDeleteConfirmation(typed: string | null | undefined, modelName: string): ValidationResult<string> {
  return confirmTypedName(typed, modelName) ? valid(modelName) : invalid(ValidationMessages.modelNameMismatch);
}

/** Delete project: ok, or "Project name doesn't match. Deletion canceled." */
export function validateProjectDeleteConfirmation(typed: string | null | undefined, projectName: string): ValidationResult<string> {
  return confirmTypedName(typed, projectName) ? valid(projectName) : invalid(ValidationMessages.projectNameMismatch);
}
