/**
 * Email addresses as the identity services we run (the embedded backend's and the in-memory one)
 * store and compare them (a malformed one is `auth/invalid-email`). Pure TypeScript.
 */
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';

const emailSchema = z.email();

/**
 * Normalises and validates an email address.
 * @param email the address as given (anything; non-strings are invalid)
 * @returns the trimmed, lower-cased address
 * @throws AppError `auth/invalid-email`
 */
export function normalizeEmail(email: unknown): string {
  const value = typeof email === 'string' ? email.trim().toLowerCase() : '';
  if (!emailSchema.safeParse(value).success) {
    throw new AppError(ErrorCode.InvalidEmail, 'Invalid email format', { context: { email: value } });
  }
  return value;
}

/**
 * {@link normalizeEmail} for look-ups, where an invalid address simply finds nothing.
 * @returns the normalised address, or null when it is invalid
 */
export function normalizeEmailOrNull(email: unknown): string | null {
  try {
    return normalizeEmail(email);
  } catch {
    return null;
  }
}
