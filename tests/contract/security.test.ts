// Hostile requests against the embedded backend (`catalog serve`), table-driven: forged and
// expired tokens, role escalation, prototype-ish field paths and keys, deep and malformed bodies,
// paths outside the spec's `models/{uuid}/…` layout, oversized names, foreign origins and
// `javascript:` map URLs. Each case asserts the status, a clear message, and that no document,
// file row or file on disk changed (and that nothing reached Object.prototype: the server runs
// in this process). Multi-step attacks (a user turning admin through `__proto__` updates, parallel password
// guessing, links that outlive hiding a model) have their own tests below the table.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import type { Backend } from '@shared/ports/index.js';
import { ValidationMessages } from '@shared/messages.js';
import { publicIdInUse } from '@shared/validation/models.js';
import { HTML_PAGE, LFS_POINTER } from '../support/model-fixtures.js';
import { createAccount, hostileTable, literally, startHostileWorld, authHeader as hostileAuthHeader } from '../support/hostile.js';
import type { Caller, HostileCase, HostileWorld } from '../support/hostile.js';
import { HTML_GLB_MESSAGE } from './suite/content.js';
import type { LocalServerHandle } from '../support/local-backend.js';

let world: HostileWorld;
let service: Backend;
let url: string;
let handle: LocalServerHandle;
const ids = {
  userUid: '',
  adminUid: '',
  project: 'proj-security',
  model: randomUUID(),
  hidden: randomUUID(),
};

const authHeader = (caller: Caller): Record<string, string> => hostileAuthHeader(world, caller);

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

/** The GLB as `Response.text()` decodes it (UTF-8 with replacement characters). */
const glbText = (): string => new TextDecoder().decode(world.glbBody);
const longName = 'x'.repeat(1000);

function hostileCases(): HostileCase[] {
  const own = (): string => `/v1/docs/users/${ids.userUid}`;
  const m = `models/${ids.model}`;
  const tusCreate = (path: string | null): Record<string, string> => ({
    'tus-resumable': '1.0.0',
    'upload-length': '10',
    ...(path === null ? {} : { 'upload-metadata': `path ${Buffer.from(path).toString('base64')}` }),
  });
  const batchForm =
    (path: string, body = 'abc'): (() => FormData) =>
    () => {
      const form = new FormData();
      form.append('manifest', JSON.stringify([{ path, size: new TextEncoder().encode(body).length }]));
      form.append('file', new Blob([body]), 'a.jpg');
      return form;
    };
  const fresh = `models/${randomUUID()}`;
  const cases: HostileCase[] = [
    // ---- authentication ------------------------------------------------------------------
    { name: 'forged HS256 token', as: { token: 'forged' }, method: 'GET', path: '/v1/auth/me', status: 401, message: /Invalid ID token/ },
    { name: "alg 'none' token", as: { token: 'none' }, method: 'GET', path: '/v1/auth/me', status: 401, message: /Invalid ID token/ },
    { name: 'expired token', as: { token: 'expired' }, method: 'GET', path: '/v1/auth/me', status: 401, message: /expired/ },
    {
      name: 'token of a disabled account',
      as: { token: 'disabled' },
      method: 'GET',
      path: '/v1/auth/me',
      status: 401,
      message: /disabled/,
    },
    {
      name: 'refresh token used as a bearer',
      as: { token: 'refresh' },
      method: 'GET',
      path: '/v1/auth/me',
      status: 401,
      message: /Invalid ID token/,
    },
    {
      name: 'Basic instead of Bearer',
      as: 'anon',
      headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
      method: 'GET',
      path: '/v1/auth/me',
      status: 401,
      message: /Malformed Authorization/,
    },
    {
      name: 'empty Bearer',
      as: 'anon',
      headers: { authorization: 'Bearer ' },
      method: 'GET',
      path: '/v1/auth/me',
      status: 401,
      message: /Malformed Authorization/,
    },
    {
      name: 'service key with one character changed',
      as: { token: 'service-typo' },
      method: 'GET',
      path: '/v1/auth/me',
      status: 401,
      message: /Invalid ID token/,
    },
    {
      name: 'forged token on a write: refused before the body is read',
      as: { token: 'forged' },
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      raw: '{"data":',
      status: 401,
      message: /Invalid ID token/,
    },
    {
      name: 'forged token on a one-shot upload',
      as: { token: 'forged' },
      method: 'PUT',
      path: `/v1/files/${m}/images/x.jpg`,
      raw: 'abc',
      status: 401,
      message: /Invalid ID token/,
    },
    {
      name: 'expired token on a file batch',
      as: { token: 'expired' },
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm(`${m}/images/x.jpg`),
      status: 401,
      message: /expired/,
    },
    // ---- signed out ------------------------------------------------------------------------
    {
      name: 'signed out: create a project',
      as: 'anon',
      method: 'POST',
      path: '/v1/docs/projects',
      body: { data: { name: 'x' } },
      status: 401,
      message: /Sign in first/,
    },
    {
      name: 'signed out: update a project',
      as: 'anon',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { name: 'x' } },
      status: 401,
      message: /Sign in first/,
    },
    {
      name: 'signed out: __proto__ update of an existing document',
      as: 'anon',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { '__proto__.onlyId': 'zzz' } },
      status: 401,
      message: /Sign in first/,
    },
    {
      name: 'signed out: 1,100-level body',
      as: 'anon',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { x: deep(1100) } },
      status: 401,
      message: /Sign in first/,
    },
    {
      name: 'signed out: batch',
      as: 'anon',
      method: 'POST',
      path: '/v1/batch',
      body: { ops: [{ op: 'delete', collection: 'projects', id: 'proj-security' }] },
      status: 401,
      message: /Sign in first/,
    },
    { name: 'signed out: query', as: 'anon', method: 'POST', path: '/v1/query/models', body: {}, status: 401, message: /Sign in first/ },
    { name: 'signed out: live stream', as: 'anon', method: 'GET', path: '/v1/events', status: 401, message: /Sign in first/ },
    { name: 'signed out: download link', as: 'anon', method: 'GET', path: `/v1/download-url/${m}/model.glb`, status: 401 },
    { name: 'signed out: listing', as: 'anon', method: 'GET', path: '/v1/list?prefix=models/', status: 401 },
    {
      name: 'signed out: file batch',
      as: 'anon',
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm(`${m}/images/x.jpg`),
      status: 401,
    },
    { name: 'signed out: one-shot upload', as: 'anon', method: 'PUT', path: `/v1/files/${m}/images/x.jpg`, raw: 'abc', status: 401 },
    { name: 'signed out: tus create', as: 'anon', method: 'POST', path: '/v1/uploads', headers: tusCreate(`${m}/model.ply`), status: 401 },
    {
      name: 'signed out: download without a token',
      as: 'anon',
      method: 'GET',
      path: `/v1/files/${m}/model.glb`,
      status: 401,
      message: /token is required/,
    },
    {
      name: 'signed out: download with a guessed token',
      as: 'anon',
      method: 'GET',
      path: `/v1/files/${m}/model.glb?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      status: 403,
      message: /Invalid download token/,
    },
    // ---- a user's writes ------------------------------------------------------------------
    {
      name: 'user: create a project',
      as: 'user',
      method: 'POST',
      path: '/v1/docs/projects',
      body: { data: { name: 'x' } },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: replace a project',
      as: 'user',
      method: 'PUT',
      path: '/v1/docs/projects/proj-security',
      body: { data: { name: 'x' } },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: update a project',
      as: 'user',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { name: 'x' } },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: delete a project',
      as: 'user',
      method: 'DELETE',
      path: '/v1/docs/projects/proj-security',
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: unhide a model (a hidden model reads as missing to a user, so it is answered as one)',
      as: 'user',
      method: 'PATCH',
      path: () => `/v1/docs/models/${ids.hidden}`,
      body: { data: { visible: true } },
      status: 404,
      message: /Document models\/[0-9a-f-]+ not found/,
    },
    {
      name: 'user: delete a model',
      as: 'user',
      method: 'DELETE',
      path: () => `/v1/docs/models/${ids.model}`,
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: add themselves to admins',
      as: 'user',
      method: 'PUT',
      path: '/v1/docs/admins/user@security.test',
      body: { data: {} },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: "user: write another user's record",
      as: 'user',
      method: 'PUT',
      path: () => `/v1/docs/users/${ids.adminUid}`,
      body: { data: { role: 'user' } },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: own record role admin (update)',
      as: 'user',
      method: 'PATCH',
      path: own,
      body: { data: { role: 'admin' } },
      status: 403,
      message: /change own role/,
    },
    {
      name: 'user: own record role admin (replace)',
      as: 'user',
      method: 'PUT',
      path: own,
      body: { data: { uid: 'x', role: 'admin' } },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: own record emptied (role dropped)',
      as: 'user',
      method: 'PUT',
      path: own,
      body: { data: {} },
      status: 403,
      message: /change own role/,
    },
    {
      name: 'user: own record merged role admin',
      as: 'user',
      method: 'PUT',
      path: own,
      body: { data: { role: 'admin' }, merge: true },
      status: 403,
      message: /change own role/,
    },
    { name: 'user: delete own record', as: 'user', method: 'DELETE', path: own, status: 403, message: /delete own user record/ },
    {
      name: 'user: batch touching a project',
      as: 'user',
      method: 'POST',
      path: '/v1/batch',
      body: { ops: [{ op: 'update', collection: 'projects', id: 'proj-security', data: { name: 'x' } }] },
      status: 403,
      message: /Missing permission/,
    },
    {
      name: 'user: batch raising own role',
      as: 'user',
      method: 'POST',
      path: '/v1/batch',
      body: () => ({ ops: [{ op: 'update', collection: 'users', id: ids.userUid, data: { role: 'admin' } }] }),
      status: 403,
      message: /change own role/,
    },
    {
      name: 'user: create an account',
      as: 'user',
      method: 'POST',
      path: '/v1/auth/accounts',
      body: { email: 'new@security.test', password: 'secret-1' },
      status: 403,
      message: /admin role required/,
    },
    {
      name: 'user: look up an account',
      as: 'user',
      method: 'GET',
      path: '/v1/auth/accounts?email=admin@security.test',
      status: 403,
      message: /admin role required/,
    },
    {
      name: 'user: disable an account',
      as: 'user',
      method: 'PATCH',
      path: () => `/v1/auth/accounts/${ids.adminUid}`,
      body: { disabled: true },
      status: 403,
      message: /admin role required/,
    },
    { name: 'user: export accounts', as: 'user', method: 'GET', path: '/v1/admin/accounts', status: 403 },
    {
      name: 'admin: export accounts (service key only)',
      as: 'admin',
      method: 'GET',
      path: '/v1/admin/accounts',
      status: 403,
      message: /service key required/,
    },
    { name: 'user: one-shot upload', as: 'user', method: 'PUT', path: `/v1/files/${m}/images/x.jpg`, raw: 'abc', status: 403 },
    { name: 'user: delete a file', as: 'user', method: 'DELETE', path: `/v1/files/${m}/model.glb`, status: 403 },
    { name: 'user: tus create', as: 'user', method: 'POST', path: '/v1/uploads', headers: tusCreate(`${m}/model.ply`), status: 403 },
    { name: 'user: file batch', as: 'user', method: 'POST', path: '/v1/file-batch', raw: batchForm(`${m}/images/x.jpg`), status: 403 },
    {
      name: 'user: link to a hidden model file (reads as missing)',
      as: 'user',
      method: 'GET',
      path: () => `/v1/download-url/models/${ids.hidden}/model.glb`,
      status: 404,
      message: /No file at/,
    },
    {
      name: 'user: metadata of a hidden model file (reads as missing)',
      as: 'user',
      method: 'GET',
      path: () => `/v1/file-meta/models/${ids.hidden}/model.glb`,
      status: 404,
      message: /No file at/,
    },
    {
      name: 'user: a hidden model by id reads as missing',
      as: 'user',
      method: 'GET',
      path: () => `/v1/docs/models/${ids.hidden}`,
      status: 200,
      check: (reply) => expect(JSON.parse(reply.text)).toEqual({ doc: null, version: null }),
    },
    {
      name: 'user: a filter on visible == false returns nothing',
      as: 'user',
      method: 'POST',
      path: '/v1/query/models',
      body: { query: { where: [['visible', '==', false]] } },
      status: 200,
      check: (reply) => expect(JSON.parse(reply.text)).toEqual({ docs: [] }),
    },
    // ---- field paths and keys -------------------------------------------------------------
    {
      name: 'user: own record __proto__.role',
      as: 'user',
      method: 'PATCH',
      path: own,
      body: { data: { '__proto__.role': 'user' } },
      status: 400,
      message: /'__proto__' is not allowed/,
    },
    {
      name: 'user: own record constructor.prototype.role',
      as: 'user',
      method: 'PATCH',
      path: own,
      body: { data: { 'constructor.prototype.role': 'admin' } },
      status: 400,
      message: /'constructor' is not allowed/,
    },
    {
      name: 'user: own record prototype segment',
      as: 'user',
      method: 'PATCH',
      path: own,
      body: { data: { 'a.prototype.b': 1 } },
      status: 400,
      message: /'prototype' is not allowed/,
    },
    {
      name: 'admin: __proto__.onlyId on a project',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { '__proto__.onlyId': 'zzz' } },
      status: 400,
      message: /'__proto__' is not allowed/,
    },
    {
      name: 'admin: __proto__ alone',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      raw: '{"data":{"__proto__":{"hideHidden":true}}}',
      status: 400,
      message: /'__proto__' or 'constructor.prototype' key is not allowed/,
    },
    {
      name: 'admin: constructor key in set data',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      raw: '{"data":{"constructor":{"prototype":{"x":1}}}}',
      status: 400,
      message: /'__proto__' or 'constructor.prototype' key is not allowed/,
    },
    {
      name: 'admin: nested constructor key',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      body: { data: { location: { constructor: 'x' } } },
      status: 400,
      message: /'constructor' in 'location'/,
    },
    {
      name: 'admin: nested prototype key in merge',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-security',
      body: { data: { location: { prototype: { lat: 1 } } }, merge: true },
      status: 400,
      message: /'prototype'/,
    },
    {
      name: 'admin: batch update __proto__ path',
      as: 'admin',
      method: 'POST',
      path: '/v1/batch',
      body: { ops: [{ op: 'update', collection: 'projects', id: 'proj-security', data: { '__proto__.polluted': true } }] },
      status: 400,
      message: /'__proto__'/,
    },
    {
      name: 'admin: batch set with a prototype key, after a valid op',
      as: 'admin',
      method: 'POST',
      path: '/v1/batch',
      body: {
        ops: [
          { op: 'update', collection: 'projects', id: 'proj-security', data: { name: 'changed' } },
          { op: 'set', collection: 'projects', id: 'proj-evil', data: { a: { prototype: 1 } } },
        ],
      },
      status: 400,
      message: /'prototype'/,
    },
    {
      name: 'admin: field path with a space',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { 'a b': 1 } },
      status: 400,
      message: /Invalid field path/,
    },
    {
      name: 'admin: field path starting with a digit',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { '1a': 1 } },
      status: 400,
      message: /Invalid field path/,
    },
    {
      name: 'admin: empty field path segment',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { 'a..b': 1 } },
      status: 400,
      message: /Invalid field path/,
    },
    {
      name: 'admin: 400-character field path',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { ['a'.repeat(400)]: 1 } },
      status: 400,
      message: /longer than 300/,
    },
    {
      name: 'user: query filter on __proto__',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { where: [['__proto__', '==', 1]] } },
      status: 400,
      message: /'__proto__' is not allowed/,
    },
    {
      name: 'user: query ordered by constructor',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { orderBy: [['constructor']] } },
      status: 400,
      message: /'constructor' is not allowed/,
    },
    {
      name: 'user: query filter with SQL in the path',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { where: [["name') OR 1=1 --", '==', 1]] } },
      status: 400,
      message: /Invalid field path/,
    },
    {
      name: 'user: count with a prototype path',
      as: 'user',
      method: 'POST',
      path: '/v1/count/models',
      body: { query: { where: [['files.prototype', '==', 1]] } },
      status: 400,
      message: /'prototype'/,
    },
    // ---- bodies -----------------------------------------------------------------------------
    {
      name: 'admin: 1,100-level body',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { x: deep(1100) } },
      status: 400,
      message: /nests deeper than 32 levels/,
    },
    {
      name: 'user: 1,100-level body on own record',
      as: 'user',
      method: 'PATCH',
      path: own,
      body: { data: { x: deep(1100) } },
      status: 400,
      message: /nests deeper than 32 levels/,
    },
    {
      name: 'admin: 25-level document data',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      body: { data: { x: deep(25) } },
      status: 400,
      message: /Document data nests deeper than 20 levels/,
    },
    {
      name: 'admin: 25-level update value',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { 'a.b.c': deep(20) } },
      status: 400,
      message: /Document data nests deeper than 20 levels/,
    },
    {
      name: 'admin: 1,100-level array in a batch',
      as: 'admin',
      method: 'POST',
      path: '/v1/batch',
      raw: `{"ops":[{"op":"set","collection":"projects","id":"p","data":{"x":${'['.repeat(1100)}${']'.repeat(1100)}}}]}`,
      status: 400,
      message: /nests deeper/,
    },
    {
      name: 'admin: malformed JSON',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      raw: '{"data": {',
      status: 400,
      message: /Invalid JSON body: not valid JSON/,
    },
    {
      name: 'admin: data is an array',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      body: { data: [1, 2] },
      status: 400,
      message: /Invalid document/,
    },
    {
      name: 'admin: body over 1 MiB',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      body: { data: { x: 'y'.repeat(1024 * 1024 + 10) } },
      status: 413,
    },
    {
      name: 'user: query limit 0',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { limit: 0 } },
      status: 400,
      message: /Invalid query/,
    },
    {
      name: 'user: query limit 10^9',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { limit: 1e9 } },
      status: 400,
      message: /Invalid query/,
    },
    {
      name: 'user: query with 21 filters',
      as: 'user',
      method: 'POST',
      path: '/v1/query/projects',
      body: { query: { where: Array.from({ length: 21 }, () => ['name', '==', 'x']) } },
      status: 400,
      message: /Invalid query/,
    },
    {
      name: 'admin: unknown collection',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/secrets/x',
      body: { data: {} },
      status: 400,
      message: /Invalid collection/,
    },
    {
      name: "admin: document id '..' (the URL resolves it away: no route)",
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/%2E%2E',
      body: { data: {} },
      status: 404,
      message: /No route/,
    },
    {
      name: 'admin: document id with an encoded slash',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/a%2Fb',
      body: { data: {} },
      status: 400,
      message: /Invalid document id/,
    },
    {
      name: "admin: document id '__x__'",
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/__x__',
      body: { data: {} },
      status: 400,
      message: /Invalid document id/,
    },
    {
      name: 'admin: 1,600-character document id',
      as: 'admin',
      method: 'PUT',
      path: `/v1/docs/projects/${'d'.repeat(1600)}`,
      body: { data: {} },
      status: 400,
      message: /Invalid document/,
    },
    {
      name: 'admin: javascript: map URL',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/projects/proj-evil',
      body: { data: { name: 'x', location: { mapUrl: 'javascript:alert(1)' } } },
      status: 400,
      message: /Map URL must be a valid URL/,
    },
    {
      name: 'admin: mixed-case javascript: map URL by update',
      as: 'admin',
      method: 'PATCH',
      path: '/v1/docs/projects/proj-security',
      body: { data: { 'location.mapUrl': ' JaVaScRiPt:alert(1)' } },
      status: 400,
      message: /Map URL must be a valid URL/,
    },
    {
      name: 'admin: data: map URL in a batch',
      as: 'admin',
      method: 'POST',
      path: '/v1/batch',
      body: {
        ops: [
          {
            op: 'update',
            collection: 'projects',
            id: 'proj-security',
            data: { location: { mapUrl: 'data:text/html,<script>alert(1)</script>' } },
          },
        ],
      },
      status: 400,
      message: /Map URL must be a valid URL/,
    },
    {
      name: 'sign-in with an object for email',
      as: 'anon',
      method: 'POST',
      path: '/v1/auth/sign-in',
      body: { email: { $ne: '' }, password: 'x' },
      status: 400,
      message: /Invalid email/,
    },
    // ---- content of model files: refused by the server whoever sends them -----------------------
    {
      name: 'admin: an HTML page as model.glb (one-shot), replacing a stored GLB',
      as: 'admin',
      method: 'PUT',
      path: `/v1/files/${m}/model.glb`,
      raw: HTML_PAGE,
      status: 400,
      message: literally(HTML_GLB_MESSAGE),
    },
    {
      name: 'admin: an HTML page as model.glb (one-shot) in a new folder',
      as: 'admin',
      method: 'PUT',
      path: `/v1/files/${fresh}/model.glb`,
      raw: HTML_PAGE,
      status: 400,
      message: literally(HTML_GLB_MESSAGE),
      check: (reply) => expect((JSON.parse(reply.text) as { error: { code: string } }).error.code).toBe('invalid-argument'),
    },
    {
      name: 'service: a Git LFS pointer as model.ply (one-shot)',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${fresh}/model.ply`,
      raw: LFS_POINTER,
      status: 400,
      message: /This \.ply is a Git LFS pointer/,
    },
    {
      name: 'admin: an HTML page as a photo in a file batch',
      as: 'admin',
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm(`${fresh}/images/x.jpg`, HTML_PAGE),
      status: 400,
      message: /This \.jpg is an HTML page/,
    },
    // ---- the Public ID rule on raw catalog writes (format, unique within the project) ----------
    {
      name: 'admin: a model with a malformed Public ID',
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/models/pid-bad',
      body: { data: { uuid: 'pid-bad', publicId: 'BAD PUB/ID <b>x</b>', name: 'x', projectId: 'proj-security', visible: true } },
      status: 400,
      message: literally(ValidationMessages.publicIdPattern),
    },
    {
      name: "admin: a model with another model's Public ID in the same project",
      as: 'admin',
      method: 'PUT',
      path: '/v1/docs/models/pid-dup',
      body: { data: { uuid: 'pid-dup', publicId: 'SEC-H', name: 'x', projectId: 'proj-security', visible: true } },
      status: 409,
      message: literally(publicIdInUse('SEC-H')),
    },
    {
      name: 'admin: two new models with one Public ID in one batch',
      as: 'admin',
      method: 'POST',
      path: '/v1/batch',
      body: {
        ops: ['pid-1', 'pid-2'].map((id) => ({
          op: 'create',
          collection: 'models',
          id,
          data: { uuid: id, publicId: 'PID-TWICE', name: id, projectId: 'proj-security', visible: true },
        })),
      },
      status: 409,
      message: literally(publicIdInUse('PID-TWICE')),
    },
    {
      name: "admin: renaming a model to another's Public ID",
      as: 'admin',
      method: 'PATCH',
      path: () => `/v1/docs/models/${ids.model}`,
      body: { data: { publicId: 'SEC-H' } },
      status: 409,
      message: literally(publicIdInUse('SEC-H')),
    },
    // ---- storage paths ------------------------------------------------------------------------
    {
      name: 'one-shot upload to index.html',
      as: 'service',
      method: 'PUT',
      path: '/v1/files/index.html',
      raw: '<script>',
      status: 400,
      message: /files are stored only under models\/\{uuid\}/,
    },
    {
      name: 'one-shot upload to projects/abc/evil.txt',
      as: 'service',
      method: 'PUT',
      path: '/v1/files/projects/abc/evil.txt',
      raw: 'x',
      status: 400,
      message: /only under models/,
    },
    {
      name: 'one-shot upload to models/evil.txt',
      as: 'service',
      method: 'PUT',
      path: '/v1/files/models/evil.txt',
      raw: 'x',
      status: 400,
      message: /only under models/,
    },
    {
      name: 'one-shot upload to models/not-a-uuid/x',
      as: 'service',
      method: 'PUT',
      path: '/v1/files/models/not-a-uuid/x',
      raw: 'x',
      status: 400,
      message: /'not-a-uuid' is not a model uuid/,
    },
    {
      name: "one-shot upload to a literal 'models/%2e%2e/' folder",
      as: 'service',
      method: 'PUT',
      path: '/v1/files/models/%252e%252e/model.glb',
      raw: 'x',
      status: 400,
      message: /is not a model uuid/,
    },
    {
      name: 'one-shot upload to models/{uuid}/evil.txt',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/evil.txt`,
      raw: 'x',
      status: 400,
      message: /a model folder holds only/,
    },
    {
      name: 'one-shot upload to models/{uuid}/other/x.jpg',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/other/x.jpg`,
      raw: 'x',
      status: 400,
      message: /go directly into images\//,
    },
    {
      name: 'one-shot upload into a sub-folder of images/',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/images/sub/x.jpg`,
      raw: 'x',
      status: 400,
      message: /go directly into/,
    },
    {
      name: 'one-shot upload with an encoded ../',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/images/..%2F..%2Fx.jpg`,
      raw: 'x',
      status: 400,
    },
    {
      name: 'one-shot upload with a control character',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/images/a%01b.jpg`,
      raw: 'x',
      status: 400,
      message: /control character|forbidden character/,
    },
    {
      name: 'one-shot upload with a 1,000-character file name',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/images/${longName}.jpg`,
      raw: 'x',
      status: 400,
      message: /longer than 255 bytes|too long/,
    },
    {
      name: 'metadata of a 1,000-character file name',
      as: 'service',
      method: 'GET',
      path: `/v1/file-meta/${m}/images/${longName}.jpg`,
      status: 400,
      message: /too long|longer than 255 bytes/,
    },
    {
      name: 'one-shot upload to Model.GLB (not the spec name)',
      as: 'service',
      method: 'PUT',
      path: `/v1/files/${m}/Model.GLB`,
      raw: 'x',
      status: 400,
      message: /a model folder holds only/,
    },
    {
      name: 'tus create for index.html',
      as: 'service',
      method: 'POST',
      path: '/v1/uploads',
      headers: tusCreate('index.html'),
      status: 400,
      message: /only under models/,
    },
    {
      name: 'tus create for models/not-a-uuid/model.ply',
      as: 'service',
      method: 'POST',
      path: '/v1/uploads',
      headers: tusCreate('models/not-a-uuid/model.ply'),
      status: 400,
      message: /not a model uuid/,
    },
    {
      name: 'tus create without a path',
      as: 'service',
      method: 'POST',
      path: '/v1/uploads',
      headers: tusCreate(null),
      status: 400,
      message: /empty/,
    },
    {
      name: 'tus create for a 1,000-character name',
      as: 'service',
      method: 'POST',
      path: '/v1/uploads',
      headers: tusCreate(`${m}/assets/${longName}`),
      status: 400,
      message: /too long/,
    },
    {
      name: 'file batch to index.html',
      as: 'service',
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm('index.html'),
      status: 400,
      message: /only under models/,
    },
    {
      name: 'file batch to models/{uuid}/evil.txt',
      as: 'service',
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm(`${m}/evil.txt`),
      status: 400,
      message: /a model folder holds only/,
    },
    {
      name: 'file batch to models/not-a-uuid/images/a.jpg',
      as: 'service',
      method: 'POST',
      path: '/v1/file-batch',
      raw: batchForm('models/not-a-uuid/images/a.jpg'),
      status: 400,
      message: /not a model uuid/,
    },
    // ---- origins and headers ------------------------------------------------------------------
    {
      name: 'tus preflight from a foreign origin gets no CORS grant',
      as: 'anon',
      method: 'OPTIONS',
      path: '/v1/uploads',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      status: 204,
      check: (reply) => expect(reply.headers.get('access-control-allow-origin') ?? '').not.toMatch(/\*|evil/),
    },
    {
      name: 'tus create from a foreign origin gets no CORS grant',
      as: 'service',
      method: 'POST',
      path: '/v1/uploads',
      headers: { ...tusCreate('index.html'), origin: 'https://evil.example' },
      status: 400,
      check: (reply) => expect(reply.headers.get('access-control-allow-origin') ?? '').not.toMatch(/\*|evil/),
    },
    {
      name: 'API preflight from a foreign origin gets no CORS grant',
      as: 'anon',
      method: 'OPTIONS',
      path: '/v1/docs/projects/x',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
      status: 404,
      check: (reply) => expect(reply.headers.get('access-control-allow-origin')).toBeNull(),
    },
    {
      name: 'a foreign origin reading the config gets no CORS grant',
      as: 'anon',
      method: 'GET',
      path: '/v1/config',
      headers: { origin: 'https://evil.example' },
      status: 200,
      check: (reply) => expect(reply.headers.get('access-control-allow-origin')).toBeNull(),
    },
    {
      name: 'the portal cannot be framed and has a CSP',
      as: 'anon',
      method: 'GET',
      path: '/projects',
      status: 200,
      check: (reply) => {
        const csp = reply.headers.get('content-security-policy') ?? '';
        expect(csp).toMatch(/script-src 'self'/);
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        expect(csp).toMatch(/frame-ancestors 'none'/);
        expect(csp).toMatch(/object-src 'none'/);
        expect(reply.headers.get('x-frame-options')).toBe('DENY');
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
        expect(reply.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      },
    },
    {
      name: 'an uploaded file is served sandboxed, not as a page',
      as: 'anon',
      method: 'GET',
      path: () => `/v1/files/${m}/model.glb?token=${encodeURIComponent(downloadToken)}`,
      status: 200,
      check: (reply) => {
        expect(reply.headers.get('content-security-policy')).toMatch(/sandbox/);
        expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
        expect(reply.text).toBe(glbText());
      },
    },
  ];
  return cases;
}

let downloadToken = '';

/** A JSON POST sent from another local address (all of 127.0.0.0/8 is loopback on Linux). */
function postFrom(localAddress: string, path: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        localAddress,
        headers: { 'content-type': 'application/json' },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

beforeAll(async () => {
  const portalDir = mkdtempSync(join(tmpdir(), 'catalog-security-portal-'));
  writeFileSync(join(portalDir, 'index.html'), '<!doctype html><title>portal</title>');
  world = await startHostileWorld({ portalDir, model: ids.model, hidden: ids.hidden });
  ({ handle, url, service } = world);
  ids.userUid = world.user.uid;
  ids.adminUid = world.admin.uid;
  const gone = await createAccount(url, service, 'gone@security.test', 'gone-pass-1', 'user');
  await fetch(`${url}/v1/auth/accounts/${gone.uid}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${handle.serviceKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ disabled: true }),
  });
  const secret = new TextEncoder().encode(readFileSync(join(handle.dataDir, 'auth-secret'), 'utf8').trim());
  const now = Math.floor(Date.now() / 1000);
  const expired = await new SignJWT({ email: 'user@security.test' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(ids.userUid)
    .setIssuer('catalog-local')
    .setAudience('catalog-local')
    .setIssuedAt(now - 7200)
    .setExpirationTime(now - 3600)
    .sign(secret);
  const forged = await new SignJWT({ email: 'admin@security.test' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(ids.adminUid)
    .setIssuer('catalog-local')
    .setAudience('catalog-local')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode('not-the-secret-not-the-secret-not-the-secret'));
  const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  world.tokensByName = {
    forged,
    none: `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: ids.adminUid, email: 'admin@security.test', iss: 'catalog-local', aud: 'catalog-local', exp: now + 3600 })}.`,
    expired,
    disabled: gone.token,
    refresh: world.user.refreshToken,
    'service-typo': `${handle.serviceKey.slice(0, -1)}${handle.serviceKey.endsWith('A') ? 'B' : 'A'}`,
  };
  downloadToken = new URL(await service.files.getDownloadUrl(`models/${ids.model}/model.glb`)).searchParams.get('token')!;
});

afterAll(async () => {
  await world?.stop();
});

describe('embedded backend under hostile requests', () => {
  const cases = hostileCases();

  it('has at least 80 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
  });

  hostileTable(() => world, cases);
});

describe('multi-step attacks', () => {
  it('a user cannot become admin through __proto__ updates, nor replace their record or create a project; queries keep their scope', async () => {
    const call = (method: string, body: unknown) =>
      fetch(`${url}/v1/docs/users/${ids.userUid}`, {
        method,
        headers: { ...authHeader('user'), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await call('PATCH', { data: { '__proto__.role': 'user' } })).status).toBe(400);
    expect((await call('PUT', { data: {} })).status).toBe(403);
    expect((await call('PATCH', { data: { '__proto__.role': 'admin' } })).status).toBe(400);
    const me = (await (await fetch(`${url}/v1/auth/me`, { headers: authHeader('user') })).json()) as { role: string };
    expect(me.role).toBe('user');
    const create = await fetch(`${url}/v1/docs/projects`, {
      method: 'POST',
      headers: { ...authHeader('user'), 'content-type': 'application/json' },
      body: JSON.stringify({ data: { name: 'x' } }),
    });
    expect(create.status).toBe(403);
    // queries still see everything they should (no scope inherited from Object.prototype)
    expect((await service.catalog.query('projects')).map((p) => p.id)).toContain(ids.project);
  });

  it('40 parallel guesses of one password: at most 20 are checked, the right one (38th) is refused', async () => {
    const email = `guess-${randomUUID().slice(0, 8)}@security.test`;
    await service.identity.createAccount(email, 'right-password');
    const attempts = Array.from({ length: 40 }, (_, i) =>
      fetch(`${url}/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: i === 37 ? 'right-password' : `wrong-${i}` }),
      }).then(async (r) => ({
        status: r.status,
        retryAfter: r.headers.get('retry-after'),
        body: (await r.json()) as { error?: { code: string }; idToken?: string },
      })),
    );
    const results = await Promise.all(attempts);
    const checked = results.filter((r) => r.body.error?.code !== 'auth/too-many-requests');
    expect(checked.length).toBeLessThanOrEqual(20);
    expect(results[37]!.status).toBe(429);
    expect(results[37]!.body.idToken).toBeUndefined();
    const limited = results.find((r) => r.status === 429)!;
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    // the owner, signing in from another loopback address, is not locked out by the stranger
    const owner = await postFrom('127.0.0.2', '/v1/auth/sign-in', { email, password: 'right-password' });
    expect(owner.status).toBe(200);
  });

  it('a download link stops working when its model is hidden or deleted; admins get a fresh one', async () => {
    const uuid = randomUUID();
    const path = `models/${uuid}/model.glb`;
    await service.catalog.set('models', uuid, {
      uuid,
      publicId: 'SEC-L',
      name: 'link',
      projectId: ids.project,
      visible: true,
      files: { glbPath: path },
    });
    await service.files.upload(path, new Blob([world.glbBody]));
    const userBackend = createLocalBackend({ baseUrl: url });
    await userBackend.identity.signIn('user@security.test', 'user-pass-1');
    const kept = await userBackend.files.getDownloadUrl(path);
    expect((await fetch(kept)).status).toBe(200);
    await service.catalog.update('models', uuid, { visible: false });
    const afterHide = await fetch(kept);
    expect(afterHide.status).toBe(403);
    await afterHide.arrayBuffer();
    const fresh = await service.files.getDownloadUrl(path);
    expect(await (await fetch(fresh)).text()).toBe(glbText());
    await service.catalog.update('models', uuid, { visible: true });
    const userLink = await userBackend.files.getDownloadUrl(path);
    expect((await fetch(userLink)).status).toBe(200);
    await service.catalog.delete('models', uuid);
    const afterDelete = await fetch(userLink);
    expect(afterDelete.status).toBe(403);
    await afterDelete.arrayBuffer();
    await service.files.delete(path);
    await userBackend.close();
  });
});
