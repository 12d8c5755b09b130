/**
 * Maps the product's error codes to HTTP statuses and JSON bodies for the embedded backend
 * (`{ error: { code, message } }`), so the HTTP client can rebuild an `AppError` with the same code.
 */
import { AppError, ErrorCode, isErrorCode } from '@shared/errors.js';
import type { ErrorBody } from '@shared/wire/routes.js';

const statusByCode: Partial<Record<ErrorCode, number>> = {
  [ErrorCode.Unauthenticated]: 401,
  [ErrorCode.StorageUnauthenticated]: 401,
  [ErrorCode.UserTokenExpired]: 401,
  [ErrorCode.PermissionDenied]: 403,
  [ErrorCode.StorageUnauthorized]: 403,
  [ErrorCode.NotFound]: 404,
  [ErrorCode.ObjectNotFound]: 404,
  [ErrorCode.AlreadyExists]: 409,
  [ErrorCode.EmailAlreadyInUse]: 409,
  [ErrorCode.Aborted]: 409,
  [ErrorCode.StorageQuotaExceeded]: 402,
  [ErrorCode.TooManyRequests]: 429,
  [ErrorCode.Internal]: 500,
  [ErrorCode.Unavailable]: 503,
};

/**
 * HTTP status for an error code: 401 unauthenticated, 403 denied, 404 missing, 409 conflicts,
 * 429 rate limit, 500 internal, 400 for every other client error (invalid input, sign-in codes).
 * @param code an {@link ErrorCode}
 * @returns the HTTP status code
 */
export function httpStatusFor(code: ErrorCode): number {
  return statusByCode[code] ?? 400;
}

/** The JSON error body `{ error: { code, message } }` sent for every failed API request (`@shared/wire/routes.ts`). */
export type { ErrorBody };

/**
 * Builds the JSON error body of an error.
 * @param error an AppError (its code and message are kept) or anything else (→ `internal`, no details leaked)
 * @returns `{ status, body }` with the HTTP status of {@link httpStatusFor}
 */
export function errorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    return { status: httpStatusFor(error.code), body: { error: { code: error.code, message: error.message } } };
  }
  const fastifyError = error as { statusCode?: unknown; code?: unknown; message?: unknown };
  if (typeof fastifyError?.statusCode === 'number' && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    const code: ErrorCode = isErrorCode(fastifyError.code)
      ? fastifyError.code
      : fastifyError.statusCode === 404
        ? ErrorCode.NotFound
        : ErrorCode.InvalidArgument;
    const message = typeof fastifyError.message === 'string' ? fastifyError.message : 'Invalid request';
    return { status: fastifyError.statusCode === 413 ? 413 : httpStatusFor(code), body: { error: { code, message } } };
  }
  return { status: 500, body: { error: { code: ErrorCode.Internal, message: 'Internal server error' } } };
}
