/**
 * User management forms.
 */
import { PASSWORD_MIN_LENGTH } from '../constants.js';
import { ErrorCode } from '../errors.js';
import { RegistrationMessages, ValidationMessages } from '../messages.js';
import { invalid, isEmail, trimmed, valid } from './result.js';
import type { ValidationResult } from './result.js';

export interface RegisterUserInput {
  email: string;
  password: string;
}

/**
 * Validates the register-user form: email and password required ('Please enter both email
 * and password.'), password at least 6 characters ('Password must be at least 6 characters
 * long.'), and the email email-formatted ('Invalid email format.', which the identity service
 * would answer anyway). "Email must not already exist" needs the catalog: the register workflow
 * checks it ('This email is already registered.').
 * @returns the email trimmed and the password as typed
 */
export function validateRegisterUser(input: RegisterUserInput): ValidationResult<RegisterUserInput> {
  const email = trimmed(input.email);
  const password = typeof input.password === 'string' ? input.password : '';
  if (email === '' || password === '') return invalid(ValidationMessages.registerBothRequired);
  if (password.length < PASSWORD_MIN_LENGTH) return invalid(ValidationMessages.registerPasswordShort);
  if (!isEmail(email)) return invalid(RegistrationMessages[ErrorCode.InvalidEmail]);
  return valid({ email, password });
}

export interface SetAdminInput {
  email?: string | null;
  uid?: string | null;
}

/**
 * Validates the set-admin form: a user UID is needed. Both empty → 'Please enter either
 * email or user ID'; an email alone → the message telling the admin to find the user's UID in
 * the identity provider's console first.
 * @returns the uid trimmed, and the email trimmed or null
 */
export function validateSetAdmin(input: SetAdminInput): ValidationResult<{ uid: string; email: string | null }> {
  const email = trimmed(input.email);
  const uid = trimmed(input.uid);
  if (uid === '' && email === '') return invalid(ValidationMessages.setAdminNeedsInput);
  if (uid === '') return invalid(ValidationMessages.setAdminEmailOnly);
  return valid({ uid, email: email === '' ? null : email });
}
