/**
 * One error type for the whole product. Adapters map service codes
 * (`auth/wrong-password`, HTTP 403, storage 404…) to these codes; user-facing text comes from
 * the message catalogue (`shared/messages.ts`), never from here.
 */

/** Error codes. Identity codes mirror the identity service's client codes (`auth/…`). */
export const ErrorCode = {
  // identity (sign-in and registration)
  InvalidEmail: 'auth/invalid-email',
  UserDisabled: 'auth/user-disabled',
  UserNotFound: 'auth/user-not-found',
  WrongPassword: 'auth/wrong-password',
  InvalidCredential: 'auth/invalid-credential',
  EmailAlreadyInUse: 'auth/email-already-in-use',
  WeakPassword: 'auth/weak-password',
  TooManyRequests: 'auth/too-many-requests',
  UserTokenExpired: 'auth/user-token-expired',
  NetworkRequestFailed: 'auth/network-request-failed',
  // access
  Unauthenticated: 'unauthenticated',
  PermissionDenied: 'permission-denied',
  // data
  NotFound: 'not-found',
  AlreadyExists: 'already-exists',
  FailedPrecondition: 'failed-precondition',
  InvalidArgument: 'invalid-argument',
  /** A transaction kept meeting concurrent writes to what it read and gave up (retry later). */
  Aborted: 'aborted',
  // storage (401, 402, 403, 404, network, canceled)
  StorageUnauthenticated: 'storage/unauthenticated',
  StorageQuotaExceeded: 'storage/quota-exceeded',
  StorageUnauthorized: 'storage/unauthorized',
  ObjectNotFound: 'storage/object-not-found',
  Canceled: 'storage/canceled',
  // transport and everything else
  Network: 'network',
  Unavailable: 'unavailable',
  Internal: 'internal',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** Structured context attached to an error (ids, paths, counts). */
export type ErrorContext = Record<string, unknown>;

/**
 * The product's error. `message` is a developer-facing description (or, where a workflow
 * produces a catalogue message, that message); screens pick their text from the catalogue by `code`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly context: ErrorContext;

  /**
   * @param code one of {@link ErrorCode}
   * @param message human-readable description
   * @param options.cause the underlying error, kept for logs
   * @param options.context ids, paths and counts that explain the error
   */
  constructor(code: ErrorCode, message: string, options: { cause?: unknown; context?: ErrorContext } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.context = options.context ?? {};
  }

  /** A plain JSON form, for `--json` output and HTTP error bodies: `{code, message, context}`. */
  toJSON(): { code: ErrorCode; message: string; context: ErrorContext } {
    return { code: this.code, message: this.message, context: this.context };
  }
}

/**
 * The text of anything thrown: an Error's message, else the value as a string.
 * @param error what was thrown or rejected
 * @returns the message to show or log
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * True when `value` is an {@link AppError}, optionally with one of the given codes.
 * @param value anything caught
 * @param codes codes to accept; none means any code
 */
export function isAppError(value: unknown, ...codes: ErrorCode[]): value is AppError {
  return value instanceof AppError && (codes.length === 0 || codes.includes(value.code));
}

const knownCodes = new Set<string>(Object.values(ErrorCode));

/**
 * True when `code` is one of {@link ErrorCode}; used by adapters to rebuild errors that
 * crossed a process boundary (HTTP bodies).
 */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && knownCodes.has(code);
}

/**
 * An operation's own message over an underlying failure, without losing what kind of failure it
 * was: the result keeps the caught {@link AppError}'s code (permission-denied, not-found,
 * network…; exit codes and screens depend on it) and context, and is `internal` only for an error
 * that is not an AppError. The caught error is kept as `cause`.
 * @param error anything caught
 * @param message the operation's message (a catalogue message, e.g. 'Failed to update reference model.')
 * @param context more context of the operation (e.g. the path it was at), added to the caught error's
 * @returns a new AppError with `message`
 */
export function rewrap(error: unknown, message: string, context?: ErrorContext): AppError {
  const kept = error instanceof AppError ? error.context : {};
  const merged = context ? { ...kept, ...context } : kept;
  return error instanceof AppError
    ? new AppError(error.code, message, { cause: error, context: merged })
    : new AppError(ErrorCode.Internal, message, { cause: error, ...(context ? { context: merged } : {}) });
}
