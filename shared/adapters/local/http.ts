/**
 * HTTP transport of the local adapter: fetch-based (browser and Node 20), JSON in and out, and
 * the mapping of the embedded backend's error bodies (`{ error: { code, message } }`) and HTTP
 * statuses back to {@link AppError} codes.
 */
import { AppError, ErrorCode, isErrorCode } from '../../errors.js';

/** Which family of codes a failed request maps to. */
export type ErrorFlavour = 'auth' | 'data' | 'storage';

/**
 * The AppError for a failed HTTP response.
 * @param status HTTP status
 * @param bodyText the response body (JSON error body or anything else)
 * @param flavour decides the fallback code for statuses without a known code
 */
export function errorFromResponse(status: number, bodyText: string, flavour: ErrorFlavour): AppError {
  let code: unknown;
  let message = `HTTP ${status}`;
  try {
    const parsed = JSON.parse(bodyText) as { error?: { code?: unknown; message?: unknown } };
    code = parsed.error?.code;
    if (typeof parsed.error?.message === 'string') message = parsed.error.message;
  } catch {
    if (bodyText.trim()) message = `HTTP ${status}: ${bodyText.trim().slice(0, 200)}`;
  }
  if (isErrorCode(code)) return new AppError(code, message, { context: { status } });
  const storage = flavour === 'storage';
  const byStatus: Record<number, ErrorCode> = {
    401: storage ? ErrorCode.StorageUnauthenticated : ErrorCode.Unauthenticated,
    402: ErrorCode.StorageQuotaExceeded,
    403: storage ? ErrorCode.StorageUnauthorized : ErrorCode.PermissionDenied,
    404: storage ? ErrorCode.ObjectNotFound : ErrorCode.NotFound,
    409: ErrorCode.AlreadyExists,
    413: ErrorCode.InvalidArgument,
    429: ErrorCode.TooManyRequests,
    503: ErrorCode.Unavailable,
  };
  const mapped = byStatus[status] ?? (status >= 500 ? ErrorCode.Internal : ErrorCode.InvalidArgument);
  return new AppError(mapped, message, { context: { status } });
}

/**
 * The AppError for a request that never got a response.
 * @param cause the fetch error
 * @param flavour 'auth' gives `auth/network-request-failed`, otherwise `network`
 */
export function networkError(cause: unknown, flavour: ErrorFlavour): AppError {
  const code = flavour === 'auth' ? ErrorCode.NetworkRequestFailed : ErrorCode.Network;
  return new AppError(code, `Cannot reach the catalog server${cause instanceof Error ? `: ${cause.message}` : ''}`, { cause });
}

/** Options of one request. */
export interface RequestOptions {
  /** JSON body (serialised) — or `raw` for a binary body. */
  json?: unknown;
  /** Binary body; a FormData goes as multipart/form-data (fetch sets the boundary). */
  raw?: Blob | ArrayBuffer | Uint8Array | FormData;
  headers?: Record<string, string>;
  /** Authorization header value, e.g. `Bearer …`. */
  authorization?: string | null;
  signal?: AbortSignal;
  flavour?: ErrorFlavour;
}

/**
 * Encodes a storage path for a URL, segment by segment (`models/a b/x.ply` → `models/a%20b/x.ply`).
 */
export function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** Sends JSON requests to one server. */
export class Transport {
  /**
   * @param baseUrl server origin without trailing slash, e.g. `http://127.0.0.1:8787`
   * @param fetchFn the fetch implementation
   */
  constructor(
    readonly baseUrl: string,
    readonly fetchFn: typeof fetch,
  ) {}

  /**
   * Sends a request and parses the JSON answer.
   * @returns the parsed body, or null for an empty (204) answer
   * @throws AppError mapped from the response, `network`/`auth/network-request-failed` without
   *   response, `storage/canceled` when `signal` aborts
   */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const flavour = options.flavour ?? 'data';
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let body: BodyInit | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.raw !== undefined) {
      body = options.raw as BodyInit;
    }
    if (options.authorization) headers.authorization = options.authorization;
    let response: Response;
    let text: string;
    try {
      response = await this.fetchFn(`${this.baseUrl}${path}`, { method, headers, body, signal: options.signal });
      text = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw new AppError(ErrorCode.Canceled, 'The request was canceled', { cause: error });
      throw networkError(error, flavour);
    }
    if (!response.ok) throw errorFromResponse(response.status, text, flavour);
    return (text ? JSON.parse(text) : null) as T;
  }
}
