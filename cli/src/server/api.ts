/**
 * The JSON routes of the embedded backend (the table of `@shared/wire/routes.ts`): identity,
 * account export/import, documents, queries, batches, change-map jobs and live updates. Every route resolves the
 * caller and applies the role table of `@shared/rules/document-rules.ts`; request parts are parsed with the table's
 * schemas (`serve-route.ts`), each handler's answer is typed by the route's reply schema, and a
 * query's answer goes out as kept by the document store (`query-answer.ts`).
 */
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { z } from 'zod';
import { AppError, ErrorCode } from '@shared/errors.js';
import type { Query, WriteOp } from '@shared/ports/catalog.js';
import { docIdSchema, type Precondition, type querySchema } from '@shared/wire/catalog.js';
import { routes } from '@shared/wire/routes.js';
import type { CommitPreconditions, StoredDoc } from './documents/store.js';
import { queryAnswerSender } from './query-answer.js';
import type { ApiContext } from './serve-route.js';
import { parse, parseRequest, serveRoute } from './serve-route.js';
import {
  authorizeBatch,
  authorizeWrite,
  checkDocumentContent,
  checkModelPublicId,
  filterGet,
  preAuthorizeWrite,
  readScope,
  requireAdmin,
  requireServiceKey,
  requireSignedIn,
  writerView,
} from '@shared/rules/document-rules.js';
import type { Principal } from '@shared/rules/document-rules.js';
import { storedDocument } from '@shared/rules/stored-documents.js';
import { randomId } from '@shared/random-id.js';
import { SERVICE_USER } from '@shared/ports/identity.js';

const withId = (doc: StoredDoc): Record<string, unknown> => ({ ...doc.data, id: doc.id });

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
  const sendQueryAnswer = queryAnswerSender();
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
  const requireService = async (request: FastifyRequest): Promise<void> => requireServiceKey(await ctx.principal(request));

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
      return sendQueryAnswer(request, reply, answer);
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

  // ---- change-map jobs --------------------------------------------------------------------------
  // A capture's job, for whoever may open the capture and the model it is compared with (the change
  // map's own read rule); a job of a model one may not read reads as none.
  serveRoute(
    app,
    routes.changeMapJob,
    async (request) => {
      const principal = await ctx.principal(request);
      const { modelId } = parseRequest(routes.changeMapJob, 'params', request.params);
      const job = ctx.changeMapJobs.job(modelId);
      const readable = (id: string | null): boolean =>
        id === null || filterGet(principal, 'models', id, documents.get('models', id), documents.lookup) !== null;
      return { job: job !== null && readable(job.modelId) && readable(job.referenceModelId) ? job : null };
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
