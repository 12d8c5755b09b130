/**
 * Sign-in form: both fields required, the email email-formatted.
 */
import { ErrorCode } from '../errors.js';
import { SignInMessages, ValidationMessages } from '../messages.js';
import { invalid, isEmail, trimmed, valid } from './result.js';
import type { ValidationResult } from './result.js';

export interface SignInInput {
  email: string;
  password: string;
}

/**
 * Validates the sign-in form, with the message catalogue's texts: 'Please enter both email and
 * password.' for a missing field and 'Invalid email format.' for a malformed email.
 * @returns the email trimmed and the password as typed
 */
export function validateSignIn(input: SignInInput): ValidationResult<SignInInput> {
  const email = trimmed(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (email === '' || password === '') return invalid(ValidationMessages.registerBothRequired);
  if (!isEmail(email)) return invalid(SignInMessages[ErrorCode.InvalidEmail]);
  return valid({ email, password });
}
