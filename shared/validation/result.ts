/**
 * The result shape of every validator in `shared/validation`: the normalised value,
 * or the catalogue's message for the first rule broken.
 */
import { z } from 'zod';

/** `{ok: true, value}` or `{ok: false, message}` (one message, the catalogue's). */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; message: string };

/** A success. */
export function valid<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** A failure with the catalogue's message. */
export function invalid(message: string): { ok: false; message: string } {
  return { ok: false, message };
}

/** Email format, as zod checks it (`z.email()`). */
export const emailSchema = z.email();

/** True when `email` (already trimmed) is email-formatted. */
export function isEmail(email: string): boolean {
  return emailSchema.safeParse(email).success;
}

/** A string input trimmed; null/undefined/non-strings become ''. */
export function trimmed(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}
