/**
 * The JSON routes of the embedded backend under `/v1`: identity (`/v1/auth/*`), documents
 * (`/v1/docs`, `/v1/query`, `/v1/count`, `/v1/batch`) and live updates (`/v1/events`).
 * Every route resolves the caller and applies the role table of `rules.ts`.
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Query, WriteOp } from '@shared/ports/catalog.js';
import type { IdentityService } from './auth.js';
import { collectionSchema, docIdSchema, querySchema, writeOpSchema } from '@shared/wire/catalog.js';
import type { DocumentStore, StoredDoc } from './documents.js';
import type { ChangeHub } from './events.js';
import { authorizeWrite, checkDocumentContent, filterGet, preAuthorizeWrite, readScope, requireAdmin, requireSignedIn } from './rules.js';
import type { Principal } from './rules.js';
import { randomId } from './db.js';

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
    throw new AppError(ErrorCode.InvalidArgument, `Invalid ${what}: ${issue ? `${issue.path.join('.') || '(root)'} ${issue.message}` : 'malformed'}`);
  }
  return result.data;
}

const withId = (doc: StoredDoc): Record<string, unknown> => ({ ...doc.data, id: doc.id });

const docParams = z.object({ collection: collectionSchema, id: docIdSchema });
const collectionParams = z.object({ collection: collectionSchema });
const credentials = z.object({ email: z.unknown(), password: z.unknown() });
const dataBody = z.object({ data: z.record(z.string(), z.unknown()), merge: z.boolean().optional() });
const queryBody = z.object({ query: querySchema.nullish() });

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

/** Registers the `/v1` JSON routes on `app`. */
export function registerApi(app: FastifyInstance, ctx: ApiContext): void {
  const { documents, identity } = ctx;
  /** Coarse check of every op (no data walked), then the shared data rule and the computed-document check. */
  const commit = (principal: Principal, ops: WriteOp[]): void => {
    for (const op of ops) preAuthorizeWrite(principal, op);
    documents.commit(ops, (change) => {
      authorizeWrite(principal, change, documents);
      checkDocumentContent(change);
    });
  };
  const signedIn: onRequestAsyncHookHandler = async (request) => {
    requireSignedIn(await ctx.principal(request));
  };

  // ---- identity -------------------------------------------------------------------------------
  app.post('/v1/auth/sign-in', async (request, reply) => {
    const body = parse(credentials, request.body ?? {}, 'sign-in');
    try {
      return await identity.signIn(body.email, body.password, request.ip);
    } catch (error) {
      const retry = error instanceof AppError ? error.context?.retryAfterSeconds : undefined;
      if (typeof retry === 'number') void reply.header('retry-after', String(retry));
      throw error;
    }
  });

  app.post('/v1/auth/refresh', async (request) => {
    const body = parse(z.object({ refreshToken: z.string() }), request.body ?? {}, 'refresh');
    return identity.refresh(body.refreshToken);
  });

  app.post('/v1/auth/sign-out', async (request, reply) => {
    const body = parse(z.object({ refreshToken: z.string().optional() }), request.body ?? {}, 'sign-out');
    identity.revoke(body.refreshToken);
    return reply.code(204).send();
  });

  app.get('/v1/auth/me', async (request) => {
    const principal = await ctx.principal(request);
    if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
    if (principal.kind === 'service') return { user: { uid: 'service', email: null, service: true }, role: 'admin' };
    return { user: { uid: principal.uid, email: principal.email }, role: principal.role };
  });

  app.post('/v1/auth/accounts', async (request) => {
    requireAdmin(await ctx.principal(request));
    const body = parse(credentials, request.body ?? {}, 'account');
    const account = await identity.createAccount(body.email, body.password);
    return { user: { uid: account.uid, email: account.email } };
  });

  app.get('/v1/auth/accounts', async (request) => {
    requireAdmin(await ctx.principal(request));
    const { email } = parse(z.object({ email: z.string() }), request.query, 'lookup');
    const account = identity.findByEmail(email);
    return { user: account ? { uid: account.uid, email: account.email, disabled: account.disabled } : null };
  });

  app.patch('/v1/auth/accounts/:uid', async (request) => {
    requireAdmin(await ctx.principal(request));
    const { uid } = parse(z.object({ uid: z.string().min(1) }), request.params, 'uid');
    const { disabled } = parse(z.object({ disabled: z.boolean() }), request.body ?? {}, 'account update');
    const account = identity.setDisabled(uid, disabled);
    return { user: { uid: account.uid, email: account.email, disabled: account.disabled } };
  });

  // ---- account export/import (service key only: `catalog export` / `catalog import`) ----------
  const requireService = async (request: FastifyRequest): Promise<void> => {
    const principal = await ctx.principal(request);
    requireAdmin(principal);
    if (principal.kind !== 'service') throw new AppError(ErrorCode.PermissionDenied, 'Missing permission: service key required');
  };
  const accountRow = z.object({ uid: z.string().min(1), email: z.string().min(1), password_hash: z.string().startsWith('scrypt$'), disabled: z.boolean() });

  app.get('/v1/admin/accounts', async (request) => {
    await requireService(request);
    return { accounts: identity.exportAccounts() };
  });

  app.post('/v1/admin/accounts', async (request) => {
    await requireService(request);
    const { accounts } = parse(z.object({ accounts: z.array(accountRow).max(10_000) }), request.body ?? {}, 'accounts');
    return { added: identity.importAccounts(accounts) };
  });

  // ---- documents ------------------------------------------------------------------------------
  app.get('/v1/docs/:collection/:id', async (request) => {
    const principal = await ctx.principal(request);
    const { collection, id } = parse(docParams, request.params, 'document');
    const doc = filterGet(principal, collection, id, documents.get(collection, id));
    return { doc: doc ? withId(doc) : null };
  });

  app.post('/v1/docs/:collection', { onRequest: writeGate(ctx, 'create') }, async (request) => {
    const principal = await ctx.principal(request);
    const { collection } = parse(collectionParams, request.params, 'collection');
    const { data } = parse(dataBody, request.body, 'document');
    const id = randomId(20);
    commit(principal, [{ op: 'create', collection, id, data }]);
    return { id };
  });

  app.put('/v1/docs/:collection/:id', { onRequest: writeGate(ctx, 'set') }, async (request, reply) => {
    const principal = await ctx.principal(request);
    const { collection, id } = parse(docParams, request.params, 'document');
    const { data, merge } = parse(dataBody, request.body, 'document');
    commit(principal, [{ op: 'set', collection, id, data, merge }]);
    return reply.code(204).send();
  });

  app.patch('/v1/docs/:collection/:id', { onRequest: writeGate(ctx, 'update') }, async (request, reply) => {
    const principal = await ctx.principal(request);
    const { collection, id } = parse(docParams, request.params, 'document');
    const { data } = parse(dataBody, request.body, 'update');
    commit(principal, [{ op: 'update', collection, id, data }]);
    return reply.code(204).send();
  });

  app.delete('/v1/docs/:collection/:id', { onRequest: writeGate(ctx, 'delete') }, async (request, reply) => {
    const principal = await ctx.principal(request);
    const { collection, id } = parse(docParams, request.params, 'document');
    commit(principal, [{ op: 'delete', collection, id }]);
    return reply.code(204).send();
  });

  app.post('/v1/query/:collection', { onRequest: signedIn }, async (request) => {
    const principal = await ctx.principal(request);
    const { collection } = parse(collectionParams, request.params, 'collection');
    const { query } = parse(queryBody, request.body ?? {}, 'query');
    return { docs: documents.query(collection, toQuery(query), readScope(principal, collection)).map(withId) };
  });

  app.post('/v1/count/:collection', { onRequest: signedIn }, async (request) => {
    const principal = await ctx.principal(request);
    const { collection } = parse(collectionParams, request.params, 'collection');
    const { query } = parse(queryBody, request.body ?? {}, 'query');
    return { count: documents.count(collection, toQuery(query), readScope(principal, collection)) };
  });

  app.post('/v1/batch', { onRequest: signedIn }, async (request, reply) => {
    const principal = await ctx.principal(request);
    const { ops } = parse(z.object({ ops: z.array(writeOpSchema).max(500) }), request.body, 'batch');
    commit(principal, ops as WriteOp[]);
    return reply.code(204).send();
  });

  // ---- live updates ---------------------------------------------------------------------------
  app.get('/v1/events', async (request, reply) => {
    const principal = await ctx.principal(request);
    if (principal.kind === 'anon') throw new AppError(ErrorCode.Unauthenticated, 'Sign in first');
    reply.hijack();
    ctx.events.attach(reply.raw);
  });
}
