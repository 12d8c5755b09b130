/**
 * Request limits and security headers of the embedded backend: how deep a JSON body may nest,
 * which routes decide the caller before the body is read, and the portal's Content-Security-Policy.
 */
import { DEFAULT_MAP_TILES_URL, isMapTilesUrl } from '@shared/wire/config.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { API_PREFIX, isApiPath, isFilePath, PUBLIC_ROUTES } from '@shared/wire/routes.js';

/** Deepest nesting of a JSON request body (document data itself may nest 20 levels, `shared/field-path.ts`). */
export const MAX_BODY_DEPTH = 32;

/**
 * Checks a parsed request body's nesting iteratively (no recursion, so no stack to exhaust).
 * @param body the parsed body (anything; non-objects pass)
 * @throws AppError `invalid-argument` "Request body nests deeper than 32 levels"
 */
export function checkBodyShape(body: unknown): void {
  if (body === null || typeof body !== 'object' || Buffer.isBuffer(body)) return;
  const stack: Array<[unknown, number]> = [[body, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_BODY_DEPTH) throw new AppError(ErrorCode.InvalidArgument, `Request body nests deeper than ${MAX_BODY_DEPTH} levels`);
    for (const inner of Object.values(value)) if (inner !== null && typeof inner === 'object') stack.push([inner, depth + 1]);
  }
}

/** Routes that need no caller (sign-in, token refresh, sign-out, config): they never resolve one early. */
const NO_EARLY_AUTH = PUBLIC_ROUTES.map((route) => route.pattern);

/**
 * True when a request has its `Authorization` header checked in the `onRequest` hook, before the
 * body is read: every API route but those of {@link NO_EARLY_AUTH} and token downloads
 * (`GET`/`HEAD` of `routes.download`, which carry their token in the URL).
 * @param method the HTTP method
 * @param url the request URL (path and query)
 */
export function isEarlyAuthPath(method: string, url: string): boolean {
  const path = url.split('?')[0] ?? '';
  if (!isApiPath(path) || path === API_PREFIX || NO_EARLY_AUTH.includes(path)) return false;
  return !((method === 'GET' || method === 'HEAD') && isFilePath(path));
}

/**
 * The portal's Content-Security-Policy directives (for @fastify/helmet): scripts from this
 * origin only, plus WebAssembly (`'wasm-unsafe-eval'`) and blob workers for the 3D viewer; Google
 * Maps' script, tiles and embed when a key is configured; the key-less map's raster tiles (issue
 * 17: images fetched by MapLibre, so both img-src and connect-src) from `mapTilesUrl`'s origin;
 * no plugins, no framing of the portal, forms and `<base>` to this origin only.
 * @param mapTilesUrl the key-less map's tile URL template (default OpenStreetMap's, DEFAULT_MAP_TILES_URL)
 * @returns directive name → sources
 */
export function contentSecurityPolicy(mapTilesUrl: string | null = null): Record<string, string[]> {
  const maps = ['https://maps.googleapis.com', 'https://maps.gstatic.com'];
  const template = mapTilesUrl !== null && isMapTilesUrl(mapTilesUrl) ? mapTilesUrl : DEFAULT_MAP_TILES_URL;
  const tiles = new URL(template.replace(/\{[xyz]\}/g, '0')).origin;
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...maps],
    workerSrc: ["'self'", 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
    fontSrc: ["'self'", 'data:', 'https://fonts.gstatic.com'],
    imgSrc: [
      "'self'",
      'data:',
      'blob:',
      'https://*.googleapis.com',
      'https://*.gstatic.com',
      'https://*.google.com',
      'https://*.ggpht.com',
      tiles,
    ],
    connectSrc: ["'self'", 'blob:', 'data:', 'https://*.googleapis.com', tiles],
    frameSrc: ['https://www.google.com', 'https://maps.google.com'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  };
}
