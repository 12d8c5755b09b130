/**
 * Error mapping of the portal's Firebase adapter: `FirebaseError.code` of Auth
 * (`auth/wrong-password`…), Firestore (`permission-denied`…) and Storage
 * (`storage/unauthorized`…) to the product's {@link AppError} codes. Screens then
 * pick the message by code from `shared/messages.ts`.
 */
import { AppError, ErrorCode, errorMessage, isErrorCode } from '@shared/errors.js';

/** Auth codes that differ from ours, or that we fold into one. */
const AUTH_ALIASES: Record<string, ErrorCode> = {
  'auth/invalid-login-credentials': ErrorCode.InvalidCredential,
  'auth/invalid-credential': ErrorCode.InvalidCredential,
  'auth/missing-password': ErrorCode.WrongPassword,
  'auth/email-already-exists': ErrorCode.EmailAlreadyInUse,
  'auth/invalid-password': ErrorCode.WeakPassword,
  'auth/network-request-failed': ErrorCode.NetworkRequestFailed,
  'auth/user-token-expired': ErrorCode.UserTokenExpired,
  'auth/requires-recent-login': ErrorCode.Unauthenticated,
  'auth/admin-restricted-operation': ErrorCode.PermissionDenied,
  'auth/operation-not-allowed': ErrorCode.PermissionDenied,
};

/** Firestore codes (without prefix) to ours. */
const FIRESTORE: Record<string, ErrorCode> = {
  'permission-denied': ErrorCode.PermissionDenied,
  unauthenticated: ErrorCode.Unauthenticated,
  'not-found': ErrorCode.NotFound,
  'already-exists': ErrorCode.AlreadyExists,
  'invalid-argument': ErrorCode.InvalidArgument,
  'failed-precondition': ErrorCode.FailedPrecondition,
  unavailable: ErrorCode.Unavailable,
  aborted: ErrorCode.Aborted,
};

/** Storage codes to ours (401, 402, 403, 404, network, canceled). */
const STORAGE: Record<string, ErrorCode> = {
  'storage/unauthenticated': ErrorCode.StorageUnauthenticated,
  'storage/quota-exceeded': ErrorCode.StorageQuotaExceeded,
  'storage/unauthorized': ErrorCode.StorageUnauthorized,
  'storage/object-not-found': ErrorCode.ObjectNotFound,
  'storage/canceled': ErrorCode.Canceled,
  'storage/retry-limit-exceeded': ErrorCode.Network,
};

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Maps an identity error.
 * @param error anything thrown by `firebase/auth`
 * @returns an AppError: the same `auth/*` code when the product knows it, an alias, else `internal`
 *   (which the sign-in screen shows as 'An error occurred during login.')
 */
export function mapAuthError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  const mapped = code === undefined ? ErrorCode.Internal : (AUTH_ALIASES[code] ?? (isErrorCode(code) ? code : ErrorCode.Internal));
  return new AppError(mapped, errorMessage(error), { cause: error, context: code ? { serviceCode: code } : {} });
}

/**
 * Maps a Firestore error (`FirestoreError.code` such as 'permission-denied').
 * @returns an AppError with the matching data or access code, else `internal`
 */
export function mapFirestoreError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  return new AppError((code && FIRESTORE[code]) || ErrorCode.Internal, errorMessage(error), {
    cause: error,
    context: code ? { serviceCode: code } : {},
  });
}

/**
 * Maps a Storage error (`StorageError.code` such as 'storage/object-not-found').
 * @returns an AppError with a `storage/*` code, `network` for retry exhaustion, else `internal`
 */
export function mapStorageError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = codeOf(error);
  return new AppError((code && STORAGE[code]) || ErrorCode.Internal, errorMessage(error), {
    cause: error,
    context: code ? { serviceCode: code } : {},
  });
}
