/**
 * Error mapping of the firebase-admin adapter: gRPC status codes of Firestore, HTTP statuses of
 * Cloud Storage and `auth/*` codes of the Admin Auth API to the product's {@link AppError}
 * codes (one error type for the whole product).
 */
import { AppError, ErrorCode, errorMessage } from '@shared/errors.js';

/** gRPC status codes used by Firestore (google.rpc.Code). */
const GRPC: Record<number, ErrorCode> = {
  3: ErrorCode.InvalidArgument,
  5: ErrorCode.NotFound,
  6: ErrorCode.AlreadyExists,
  7: ErrorCode.PermissionDenied,
  9: ErrorCode.FailedPrecondition,
  10: ErrorCode.Aborted,
  14: ErrorCode.Unavailable,
  16: ErrorCode.Unauthenticated,
};

/** Admin Auth API codes (`auth/…`) to the product's identity codes (the web client's `auth/…` codes). */
const AUTH: Record<string, ErrorCode> = {
  'auth/email-already-exists': ErrorCode.EmailAlreadyInUse,
  'auth/email-already-in-use': ErrorCode.EmailAlreadyInUse,
  'auth/invalid-email': ErrorCode.InvalidEmail,
  'auth/invalid-password': ErrorCode.WeakPassword,
  'auth/weak-password': ErrorCode.WeakPassword,
  'auth/user-not-found': ErrorCode.UserNotFound,
  'auth/user-disabled': ErrorCode.UserDisabled,
  'auth/insufficient-permission': ErrorCode.PermissionDenied,
  'auth/too-many-requests': ErrorCode.TooManyRequests,
};

/** Cloud Storage HTTP statuses (401, 402, 403, 404). */
const STORAGE: Record<number, ErrorCode> = {
  401: ErrorCode.StorageUnauthenticated,
  402: ErrorCode.StorageQuotaExceeded,
  403: ErrorCode.StorageUnauthorized,
  404: ErrorCode.ObjectNotFound,
};

/**
 * Maps a Firestore error (gRPC `code` number, or a string code such as 'not-found').
 * @param error anything thrown by `@google-cloud/firestore`
 * @param what short description of the call, for the message
 * @returns an AppError (the same object when it already is one)
 */
export function firestoreError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  let mapped: ErrorCode = ErrorCode.Internal;
  if (typeof code === 'number' && GRPC[code]) mapped = GRPC[code];
  else if (typeof code === 'string') mapped = stringCode(code);
  return new AppError(mapped, `${what}: ${errorMessage(error)}`, { cause: error });
}

function stringCode(code: string): ErrorCode {
  const known: Record<string, ErrorCode> = {
    'invalid-argument': ErrorCode.InvalidArgument,
    'not-found': ErrorCode.NotFound,
    'already-exists': ErrorCode.AlreadyExists,
    'permission-denied': ErrorCode.PermissionDenied,
    'failed-precondition': ErrorCode.FailedPrecondition,
    aborted: ErrorCode.Aborted,
    unavailable: ErrorCode.Unavailable,
    unauthenticated: ErrorCode.Unauthenticated,
  };
  return known[code] ?? ErrorCode.Internal;
}

/**
 * Maps an Admin Auth API error (`error.code` like 'auth/email-already-exists').
 * @returns an AppError with an identity code, or `internal`
 */
export function authError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const code =
    (error as { code?: unknown; errorInfo?: { code?: unknown } } | null)?.errorInfo?.code ?? (error as { code?: unknown } | null)?.code;
  const mapped = typeof code === 'string' ? (AUTH[code] ?? ErrorCode.Internal) : ErrorCode.Network;
  return new AppError(mapped, `${what}: ${errorMessage(error)}`, { cause: error });
}

/**
 * Maps a Cloud Storage error (`error.code` is the HTTP status).
 * @returns an AppError with a `storage/*` code, `network` for transport failures, else `internal`
 */
export function storageError(error: unknown, what: string): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  let mapped: ErrorCode = ErrorCode.Internal;
  if (typeof code === 'number' && STORAGE[code]) mapped = STORAGE[code];
  else if (typeof code === 'string' && /^E(CONNREFUSED|CONNRESET|NOTFOUND|TIMEDOUT)$/.test(code)) mapped = ErrorCode.Network;
  return new AppError(mapped, `${what}: ${errorMessage(error)}`, { cause: error });
}
