/**
 * The JSON routes of the embedded backend (the table of `@shared/wire/routes.ts`): identity,
 * account export/import, documents, queries, batches and live updates. Every route resolves the
 * caller and applies the role table of `@shared/rules/document-rules.ts`; request parts are parsed with the table's
 * schemas, and each handler's answer is typed by the route's reply schema.
 */
import { promisify } from 'node:util';
import negotiate from '@fastify/accept-negotiator';
import { brotliCompress, constants as zlibConstants } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Query, WriteOp } from '@shared/ports/catalog.js';
import type { IdentityService } from './auth.js';
import { docIdSchema, type Precondition, type querySchema } from '@shared/wire/catalog.js';
import { routes, type ReplyOf, type RouteSpec } from '@shared/wire/routes.js';
import type { CommitPreconditions, DocumentStore, StoredDoc } from './documents/store.js';
import type { QueryText } from './documents/query-cache.js';
import type { ChangeHub } from './events.js';
import { GzipRows } from './gzip-rows.js';
import {
  authorizeBatch,
  authorizeWrite,
  checkDocumentContent,
  checkModelPublicId,
  filterGet,
  preAuthorizeWrite,
  readScope,
  requireAdmin,
  requireSignedIn,
  writerView,
} from '@shared/rules/document-rules.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { storedDocument } from '@shared/rules/stored-documents.js';
import { randomId } from '@shared/random-id.js';
import { SERVICE_USER } from '@shared/ports/identity.js';

/** What the route modules share. */
export interface ApiContext {
  documents: DocumentStore;
  identity: IdentityService;
  events: ChangeHub;
  /** Resolves (once per request) who is calling. */
  principal(request: FastifyRequest): Promise<Principal>;
}

/**
 * Parses a value with a zod schema.
 * @throws AppError `invalid-argument` with the schema's message
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

const withId = (doc: StoredDoc): Record<string, unknown> => ({ ...doc.data, id: doc.id });

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
 * @throws AppError `invalid-argument` ("Invalid <route name>: …")
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

const brotliAsync = promisify(brotliCompress);

/** Query answers at least this long (bytes) are compressed once and kept; smaller ones by @fastify/compress per reply. */
const CACHED_COMPRESSION_MIN_BYTES = 64 * 1024;

/**
 * Brotli quality of kept query answers: the whole answer is compressed again after each write,
 * and the first request after a write has to stay within 50 ms. On the 10,000-model answer
 * (6.5 MB) quality 1 takes about 6 ms for 252 kB, quality 4 (@fastify/compress's) 33 ms for 226 kB.
 */
const BROTLI_QUALITY = 1;

/**
 * The encoding a large query answer goes out in: by the q-values of `Accept-Encoding`
 * (@fastify/accept-negotiator), gzip first among equals — browsers send `gzip, deflate, br, zstd`,
 * and gzip is kept per run of rows (`GzipRows`): after a write only the runs holding changed rows
 * are compressed again (a few ms for the 10,000-model answer), for about 35 % more bytes than brotli.
 * @param header the request's Accept-Encoding header
 * @returns 'gzip', 'br' or null (send uncompressed)
 */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text === '' ? null : negotiate(text, ['gzip', 'br']);
}

/** What is kept per query answer: its reply body and its compressed copies (made once, on first demand). */
interface AnswerForms {
  body: Buffer;
  br?: Promise<Buffer>;
  gzip?: Promise<Buffer>;
}

const DOCS_OPEN = Buffer.from('{"docs":[');
const DOCS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');

/** The reply body of a query answer, `{"docs":[…]}`, in one copy of its rows. */
function answerBody(answer: QueryText): Buffer {
  const parts: Buffer[] = [DOCS_OPEN];
  for (const row of answer.rows) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(row);
  }
  parts.push(DOCS_CLOSE);
  return Buffer.concat(parts, DOCS_OPEN.length + answer.bytes + Math.max(0, answer.rows.length - 1) + DOCS_CLOSE.length);
}

/**
 * Sends a query's answer (`{"docs": …}` around the stored JSON text). Large answers go out
 * compressed when the client accepts br or gzip, compressed once per answer and encoding
 * (brotli at BROTLI_QUALITY; gzip level 1 from the kept runs of `gzipRows`) whoever asks: every
 * open portal re-reads the 10,000-model query after each write. Content-Encoding is set here, so
 * @fastify/compress passes them through; small answers are left to it.
 * @param forms the kept forms, by answer (entries go when `DocumentStore` drops the answer)
 * @param gzipRows the gzip runs kept across answers
 */
async function sendQueryAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: QueryText,
  forms: WeakMap<QueryText, AnswerForms>,
  gzipRows: GzipRows,
): Promise<FastifyReply> {
  let kept = forms.get(answer);
  if (!kept) {
    kept = { body: answerBody(answer) };
    forms.set(answer, kept);
  }
  void reply.type('application/json; charset=utf-8');
  const encoding = kept.body.length >= CACHED_COMPRESSION_MIN_BYTES ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (encoding === null) return reply.send(kept.body);
  const entry = kept;
  let compressed = entry[encoding];
  if (!compressed) {
    compressed =
      encoding === 'br'
        ? brotliAsync(entry.body, {
            params: {
              [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
              [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(entry.body),
            },
          })
        : gzipRows.gzip(answer.rows, entry.body);
    entry[encoding] = compressed;
    compressed.catch(() => delete entry[encoding]);
  }
  const bytes = await compressed;
  void reply.header('content-encoding', encoding).header('vary', 'accept-encoding').header('content-length', bytes.length);
  return reply.send(bytes);
}

/** Path parameters of a collection route. */
const collectionParams = routes.query.params;

function toQuery(raw: z.infer<typeof querySchema> | null | undefined): Query {
  if (!raw) return {};
  return {
    where: raw.where,
    orderBy: raw.orderBy?.map(([field, direction]) => [field, direction ?? 'asc'] as [string, 'asc' | 'desc']),
    limit: raw.limit,
  };
}

/**
 * Route hook deciding a document write from its URL alone, before the body is parsed: who calls
 * (a bad or expired token is refused here) and whether they may write that document at all.
 */
function writeGate(ctx: ApiContext, op: WriteOp['op']): onRequestAsyncHookHandler {
  return async (request) => {
    const principal = await ctx.principal(request);
    const params = request.params as { collection?: unknown; id?: unknown };
    const { collection } = parse(collectionParams, { collection: params.collection }, 'collection');
    const id = params.id === undefined ? undefined : parse(docIdSchema, params.id, 'document id');
    preAuthorizeWrite(principal, { op, collection, id });
  };
}

/** Registers the JSON routes of the table (identity, accounts, documents, live updates) on `app`. */
export function registerApi(app: FastifyInstance, ctx: ApiContext): void {
  const { documents, identity } = ctx;
  const answerForms = new WeakMap<QueryText, AnswerForms>();
  const gzipRows = new GzipRows(DOCS_OPEN, COMMA, DOCS_CLOSE);
  /** The models of a project with a Public ID, read inside the commit's transaction (earlier writes of the batch included). */
  const modelsWithPublicId = (projectId: string, publicId: string): string[] =>
    documents
      .query('models', {
        where: [
          ['projectId', '==', projectId],
          ['publicId', '==', publicId],
        ],
      })
      .map((doc) => doc.id);
  /** Coarse check of every op (no data walked), then the shared data rule and the computed-document checks. */
  const commit = (principal: Principal, ops: WriteOp[], preconditions?: readonly Precondition[]): void => {
    for (const op of ops) preAuthorizeWrite(principal, op);
    documents.commit(
      ops,
      (change) => {
        authorizeWrite(principal, change, documents.lookup);
        checkDocumentContent(change);
        checkModelPublicId(change, modelsWithPublicId);
        // Stored = validated: the collection schema's output is stored, not the data sent.
        return storedDocument(principal, change, documents.lookup);
      },
      (changes) => authorizeBatch(principal, changes),
      preconditions && preconditionsOf(principal, preconditions),
      // a document the caller may not read is written as if absent (refused as a missing one)
      (collection, stored) => writerView(principal, collection, stored, documents.lookup),
    );
  };
  /** A transaction's preconditions, each document compared as this caller reads it (what it may not read counts as absent). */
  const preconditionsOf = (principal: Principal, checks: readonly Precondition[]): CommitPreconditions => ({
    checks,
    readable: (collection, id, data) => filterGet(principal, collection, id, { data }, documents.lookup) !== null,
  });
  const signedIn: onRequestAsyncHookHandler = async (request) => {
    requireSignedIn(await ctx.principal(request));
  };

  // ---- identity -------------------------------------------------------------------------------
  serveRoute(app, routes.signIn, async (request, reply) => {
    const body = parseRequest(routes.signIn, 'body', request.body ?? {});
    try {
      return await identity.signIn(body.email, body.password, request.ip);
    } catch (error) {
      const retry = error instanceof AppError ? error.context?.retryAfterSeconds : undefined;
      if (typeof retry === 'number') void reply.header('retry-after', String(retry));
      throw error;
    }
  });

  serveRoute(app, routes.refresh, async (request) => {
    const body = parseRequest(routes.refresh, 'body', request.body ?? {});
    return identity.refresh(body.refreshToken);
  });

  serveRoute(app, routes.signOut, async (request, reply) => {
    const body = parseRequest(routes.signOut, 'body', request.body ?? {});
    identity.revoke(body.refreshToken);
    return reply.code(204).send();
  });

  serveRoute(app, routes.me, async (request) => {
    const principal = await ctx.principal(request);
    if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
    if (principal.kind === 'service') return { user: SERVICE_USER, role: 'admin' as const };
    return { user: { uid: principal.uid, email: principal.email }, role: principal.role };
  });

  serveRoute(app, routes.createAccount, async (request) => {
    requireAdmin(await ctx.principal(request));
    const body = parseRequest(routes.createAccount, 'body', request.body ?? {});
    const account = await identity.createAccount(body.email, body.password);
    return { user: { uid: account.uid, email: account.email } };
  });

  serveRoute(app, routes.findAccount, async (request) => {
    requireAdmin(await ctx.principal(request));
    const { email } = parseRequest(routes.findAccount, 'query', request.query);
    const account = identity.findByEmail(email);
    return { user: account ? { uid: account.uid, email: account.email, disabled: account.disabled } : null };
  });

  serveRoute(app, routes.setAccountDisabled, async (request) => {
    requireAdmin(await ctx.principal(request));
    const { uid } = parseRequest(routes.setAccountDisabled, 'params', request.params);
    const { disabled } = parseRequest(routes.setAccountDisabled, 'body', request.body ?? {});
    const account = identity.setDisabled(uid, disabled);
    return { user: { uid: account.uid, email: account.email, disabled: account.disabled } };
  });

  // ---- account export/import (service key only: `catalog export` / `catalog import`) ----------
  const requireService = async (request: FastifyRequest): Promise<void> => {
    const principal = await ctx.principal(request);
    requireAdmin(principal);
    if (principal.kind !== 'service') throw new AppError(ErrorCode.PermissionDenied, 'Missing permission: service key required');
  };

  serveRoute(app, routes.exportAccounts, async (request) => {
    await requireService(request);
    return { accounts: identity.exportAccounts() };
  });

  serveRoute(app, routes.importAccounts, async (request) => {
    await requireService(request);
    const { accounts } = parseRequest(routes.importAccounts, 'body', request.body ?? {});
    return { added: identity.importAccounts(accounts) };
  });

  // ---- documents ------------------------------------------------------------------------------
  serveRoute(app, routes.getDoc, async (request) => {
    const principal = await ctx.principal(request);
    const { collection, id } = parseRequest(routes.getDoc, 'params', request.params);
    // with its version, which a transaction sends back as a precondition of its commit
    const doc = filterGet(principal, collection, id, documents.getVersioned(collection, id), documents.lookup);
    return { doc: doc ? withId(doc) : null, version: doc ? doc.version : null };
  });

  serveRoute(
    app,
    routes.addDoc,
    async (request) => {
      const principal = await ctx.principal(request);
      const { collection } = parseRequest(routes.addDoc, 'params', request.params);
      const { data } = parseRequest(routes.addDoc, 'body', request.body);
      const id = randomId(20);
      commit(principal, [{ op: 'create', collection, id, data }]);
      return { id };
    },
    { onRequest: writeGate(ctx, 'create') },
  );

  serveRoute(
    app,
    routes.setDoc,
    async (request, reply) => {
      const principal = await ctx.principal(request);
      const { collection, id } = parseRequest(routes.setDoc, 'params', request.params);
      const { data, merge } = parseRequest(routes.setDoc, 'body', request.body);
      commit(principal, [{ op: 'set', collection, id, data, merge }]);
      return reply.code(204).send();
    },
    { onRequest: writeGate(ctx, 'set') },
  );

  serveRoute(
    app,
    routes.updateDoc,
    async (request, reply) => {
      const principal = await ctx.principal(request);
      const { collection, id } = parseRequest(routes.updateDoc, 'params', request.params);
      const { data } = parseRequest(routes.updateDoc, 'body', request.body);
      commit(principal, [{ op: 'update', collection, id, data }]);
      return reply.code(204).send();
    },
    { onRequest: writeGate(ctx, 'update') },
  );

  serveRoute(
    app,
    routes.deleteDoc,
    async (request, reply) => {
      const principal = await ctx.principal(request);
      const { collection, id } = parseRequest(routes.deleteDoc, 'params', request.params);
      commit(principal, [{ op: 'delete', collection, id }]);
      return reply.code(204).send();
    },
    { onRequest: writeGate(ctx, 'delete') },
  );

  serveRoute(
    app,
    routes.query,
    async (request, reply) => {
      const principal = await ctx.principal(request);
      const { collection } = parseRequest(routes.query, 'params', request.params);
      const { query } = parseRequest(routes.query, 'body', request.body ?? {});
      // The stored JSON as it is (no parse and re-serialisation of each document), kept and brought up to date by the store.
      const answer = documents.queryText(collection, toQuery(query), readScope(principal, collection));
      return sendQueryAnswer(request, reply, answer, answerForms, gzipRows);
    },
    { onRequest: signedIn },
  );

  serveRoute(
    app,
    routes.count,
    async (request) => {
      const principal = await ctx.principal(request);
      const { collection } = parseRequest(routes.count, 'params', request.params);
      const { query } = parseRequest(routes.count, 'body', request.body ?? {});
      return { count: documents.count(collection, toQuery(query), readScope(principal, collection)) };
    },
    { onRequest: signedIn },
  );

  serveRoute(
    app,
    routes.projectSummaries,
    async (request) => {
      const principal = await ctx.principal(request);
      // the caller must read projects and models; hidden models count only for those who may see them
      readScope(principal, 'projects');
      return { summaries: documents.projectSummaries(readScope(principal, 'models')) };
    },
    { onRequest: signedIn },
  );

  serveRoute(
    app,
    routes.batch,
    async (request, reply) => {
      const principal = await ctx.principal(request);
      const { ops, preconditions } = parseRequest(routes.batch, 'body', request.body);
      commit(principal, ops as WriteOp[], preconditions);
      return reply.code(204).send();
    },
    { onRequest: signedIn },
  );

  // ---- live updates ---------------------------------------------------------------------------
  serveRoute(app, routes.events, async (request, reply) => {
    const principal = await ctx.principal(request);
    if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
    reply.hijack();
    ctx.events.attach(reply.raw);
  });
}
