/**
 * How the embedded backend serves a route of the table of `@shared/wire/routes.ts`: the context
 * every route module shares, the parsing of a request's parts with the route's zod schemas (a bad
 * part answers 400 `invalid-argument`), and the registration of a route's handler on Fastify.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Principal } from '@shared/rules/document-rules.js';
import type { ReplyOf, RouteSpec } from '@shared/wire/routes.js';
import type { IdentityService } from './auth.js';
import type { ChangeMapJobs } from './change-map-jobs.js';
import type { DocumentStore } from './documents/store.js';
import type { ChangeHub } from './events.js';

/** What the route modules share. */
export interface ApiContext {
  documents: DocumentStore;
  identity: IdentityService;
  events: ChangeHub;
  /** The change maps the server computes by itself: each capture's job. */
  changeMapJobs: ChangeMapJobs;
  /** Resolves (once per request) who is calling. */
  principal(request: FastifyRequest): Promise<Principal>;
}

/**
 * Parses a value with a zod schema.
 * @param schema the schema
 * @param value the value to parse
 * @param what what the value is, for the message ("Invalid <what>: <field> <problem>")
 * @returns the schema's output
 * @throws AppError `invalid-argument` with the schema's first issue
 */
export function parse<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new AppError(
      ErrorCode.InvalidArgument,
      `Invalid ${what}: ${issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'malformed'}`,
    );
  }
  return result.data;
}

/** The parts of a request a route's schemas describe. */
type RequestPart = 'params' | 'query' | 'body';

/** What a route's schema for `part` yields. */
type PartOf<R extends RouteSpec, K extends RequestPart> = R[K] extends z.ZodType ? z.infer<R[K]> : never;

/**
 * Parses one part of a request with its route's schema (`@shared/wire/routes.ts`).
 * @param route the route of the table
 * @param part 'params', 'query' or 'body'
 * @param value the request's part (`request.params`, `request.query`, `request.body`)
 * @returns the parsed value
 * @throws AppError `invalid-argument` ("Invalid <route name>: …"); `internal` when the route has no schema for `part`
 */
export function parseRequest<R extends RouteSpec, K extends RequestPart>(route: R, part: K, value: unknown): PartOf<R, K> {
  const schema = route[part];
  if (!schema) throw new AppError(ErrorCode.Internal, `Route ${route.method} ${route.pattern} has no ${part} schema`);
  return parse(schema, value, route.name) as PartOf<R, K>;
}

/** A route handler: its answer is the route's reply (typed by the reply schema), or the reply object it sent itself. */
export type RouteHandler<R extends RouteSpec> = (request: FastifyRequest, reply: FastifyReply) => Promise<ReplyOf<R> | FastifyReply>;

/**
 * Registers one route of the table on `app` (its method and path pattern, a HEAD twin for GET).
 * @param app the Fastify instance or scope
 * @param route the route of the table
 * @param handler answers the route
 * @param options.onRequest a hook deciding the request from its URL and headers, before the body is read
 * @param options.compress false: the route's answers are never compressed by @fastify/compress (stored files)
 */
export function serveRoute<R extends RouteSpec>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  options: { onRequest?: onRequestAsyncHookHandler; compress?: false } = {},
): void {
  app.route({
    method: route.method,
    url: route.pattern,
    ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    ...(options.compress === false ? { compress: false } : {}),
    handler,
  });
}
