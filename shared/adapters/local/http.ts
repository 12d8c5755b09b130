/**
 * HTTP transport of the local adapter: fetch-based (browser and Node 20), JSON in and out, and
 * the mapping of the embedded backend's error bodies (`{ error: { code, message } }`) and HTTP
 * statuses back to {@link AppError} codes.
 */
import { AppError, ErrorCode, isErrorCode } from '../../errors.js';
import type { BodyOf, ErrorBody, ReplyOf, RouteSpec } from '../../wire/routes.js';

/**
 * The path a route's builder makes of its arguments.
 * @param route the route of the table
 * @param args the builder's arguments
 */
export function routePath<R extends RouteSpec>(route: R, args: PathArgs<R>): string {
  return (route.path as (...a: unknown[]) => string)(...(args as unknown[]));
}

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
    // Any JSON: a proxy's or an older server's body may be partial.
    const parsed = JSON.parse(bodyText) as { error?: Partial<Record<keyof ErrorBody['error'], unknown>> };
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

/** Options of a request to one route of the table (`shared/wire/routes.ts`): its JSON body typed by the route's body schema. */
export interface RouteRequestOptions<R extends RouteSpec> extends Omit<RequestOptions, 'json'> {
  json?: BodyOf<R>;
  /**
   * Check the reply against the route's reply schema (for small replies: tokens, one file's
   * metadata, a link); a reply of another shape is an `internal` error. Off for document lists,
   * listings and the live stream, which are read as they come.
   */
  check?: boolean;
}

/** The arguments of a route's path builder. */
export type PathArgs<R extends RouteSpec> = Parameters<R['path']>;

/**
 * Checks a reply against its route's reply schema.
 * @param route the route of the table
 * @param value the parsed JSON reply
 * @returns `value` as it came (unknown keys kept), typed by the reply schema
 * @throws AppError `internal` when the reply has another shape
 */
export function checkReply<R extends RouteSpec>(route: R, value: unknown): ReplyOf<R> {
  if (route.reply) {
    const result = route.reply.safeParse(value);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new AppError(ErrorCode.Internal, `Unexpected reply from ${route.method} ${route.pattern}: ${issue?.message ?? 'malformed'}`);
    }
  }
  return value as ReplyOf<R>;
}

/** Sends JSON requests to one server. */
export class Transport {
  private readonly reachability = new Set<(reachable: boolean) => void>();

  /**
   * @param baseUrl server origin without trailing slash, e.g. `http://127.0.0.1:8787`
   * @param fetchFn the fetch implementation
   */
  constructor(
    readonly baseUrl: string,
    readonly fetchFn: typeof fetch,
  ) {}

  /**
   * Listens to what each request learns of the server's reachability (the
   * local adapter's connection state): `true` when any HTTP response came back (even an error
   * status), `false` when a request got no response (not when it was canceled).
   * @param listener called after every request that reached or failed to reach the server
   * @returns stops listening
   */
  watchReachability(listener: (reachable: boolean) => void): () => void {
    this.reachability.add(listener);
    return () => this.reachability.delete(listener);
  }

  /**
   * Tells the reachability listeners what a request learned (the live stream reports its own).
   * @param reachable true: a response came back; false: no response
   */
  reportReachability(reachable: boolean): void {
    for (const listener of [...this.reachability]) listener(reachable);
  }

  /**
   * Sends a request to one route of the table (`shared/wire/routes.ts`) and parses the JSON answer.
   * @param route the route: its method, and the path its builder makes of `args`
   * @param args the path builder's arguments (collection and id, storage path…)
   * @param options body, headers, signal, error flavour; `check` validates the reply's shape
   * @returns the reply, typed by the route's reply schema
   * @throws as {@link request}, and AppError `internal` for a reply that fails `check`
   */
  async call<R extends RouteSpec>(route: R, args: PathArgs<R>, options: RouteRequestOptions<R> = {}): Promise<ReplyOf<R>> {
    const { check, ...rest } = options;
    const reply = await this.request<unknown>(route.method, routePath(route, args), rest);
    return check ? checkReply(route, reply) : (reply as ReplyOf<R>);
  }

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
      this.reportReachability(false);
      throw networkError(error, flavour);
    }
    this.reportReachability(true);
    if (!response.ok) throw errorFromResponse(response.status, text, flavour);
    return (text ? JSON.parse(text) : null) as T;
  }
}
