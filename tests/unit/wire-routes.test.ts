import { describe, expect, it } from 'vitest';
import { API_PREFIX, encodePath, isApiPath, isFilePath, PUBLIC_ROUTES, routes, UPLOADS_PATH, type RouteSpec } from '@shared/wire/routes.js';

/** A route pattern (`/v1/docs/:collection/:id`, `/v1/files/*`) as a regex over request paths (no query string). */
const patternRegex = (pattern: string): RegExp => new RegExp(`^${pattern.replace(/:[a-zA-Z]+/g, '[^/]+').replace(/\*$/, '.+')}$`);

const samples: Record<keyof typeof routes, unknown[]> = {
  signIn: [],
  refresh: [],
  signOut: [],
  me: [],
  createAccount: [],
  findAccount: ['a+b@example.com'],
  setAccountDisabled: ['uid/1'],
  exportAccounts: [],
  importAccounts: [],
  getDoc: ['models', 'a b/c'],
  addDoc: ['projects'],
  setDoc: ['models', 'x'],
  updateDoc: ['models', 'x'],
  deleteDoc: ['models', 'x'],
  query: ['models'],
  count: ['users'],
  projectSummaries: [],
  batch: [],
  events: [],
  putFile: ['models/a b/x.ply'],
  deleteFile: ['models/u/x.ply'],
  download: ['models/u/x y.ply', 'tok&en'],
  fileBatch: [],
  fileMeta: ['models/u/x.ply'],
  downloadUrl: ['models/u/x.ply'],
  list: ['models/u/'],
  webSplat: [],
  webGlb: [],
  changeMapJob: ['m1'],
  storageScan: [],
  storageRepair: [],
  config: [],
};

describe('the route table of the embedded backend (shared/wire/routes.ts)', () => {
  const entries = Object.entries(routes) as [keyof typeof routes, RouteSpec][];

  it('every path builder makes a path its pattern matches, under the API prefix', () => {
    for (const [key, route] of entries) {
      const path = (route.path as (...a: unknown[]) => string)(...samples[key]);
      expect(path.startsWith(`${API_PREFIX}/`), key).toBe(true);
      expect(patternRegex(route.pattern).test(path.split('?')[0]!), `${key}: ${path} ~ ${route.pattern}`).toBe(true);
    }
  });

  it('no two routes share a method and a pattern', () => {
    const seen = new Set(entries.map(([, route]) => `${route.method} ${route.pattern}`));
    expect(seen.size).toBe(entries.length);
  });

  it('path parameters are URL-encoded; storage paths segment by segment', () => {
    expect(routes.getDoc.path('models', 'a b/c')).toBe('/v1/docs/models/a%20b%2Fc');
    expect(routes.findAccount.path('a+b@example.com')).toBe('/v1/auth/accounts?email=a%2Bb%40example.com');
    expect(routes.download.path('models/u/x y.ply', 'tok&en')).toBe('/v1/files/models/u/x%20y.ply?token=tok%26en');
    expect(encodePath('models/a b/x#1.ply')).toBe('models/a%20b/x%231.ply');
  });

  it('tells API paths, file downloads and the public routes apart', () => {
    expect(isApiPath('/v1')).toBe(true);
    expect(isApiPath('/v1/config')).toBe(true);
    expect(isApiPath('/v1x')).toBe(false);
    expect(isApiPath('/projects/v1')).toBe(false);
    expect(isFilePath('/v1/files/models/u/x.ply')).toBe(true);
    expect(isFilePath('/v1/file-meta/models/u/x.ply')).toBe(false);
    expect(UPLOADS_PATH.startsWith(`${API_PREFIX}/`)).toBe(true);
    expect(PUBLIC_ROUTES.map((route) => route.pattern).sort()).toEqual([
      '/v1/auth/refresh',
      '/v1/auth/sign-in',
      '/v1/auth/sign-out',
      '/v1/config',
    ]);
  });

  it('reply schemas accept what the server sends and refuse other shapes', () => {
    const grant = { idToken: 'a', refreshToken: 'b', expiresIn: 3600, user: { uid: 'u', email: 'e@x.org' } };
    expect(routes.signIn.reply.safeParse(grant).success).toBe(true);
    expect(routes.signIn.reply.safeParse({ ...grant, expiresIn: '3600' }).success).toBe(false);
    expect(routes.me.reply.safeParse({ user: { uid: 'service', email: null, service: true }, role: 'admin' }).success).toBe(true);
    expect(routes.me.reply.safeParse({ user: { uid: 'u', email: 'e' }, role: null }).success).toBe(true);
    expect(routes.fileMeta.reply.safeParse({ file: { path: 'models/u/x.ply', size: 3, contentType: null } }).success).toBe(true);
    expect(routes.list.reply.safeParse({ items: [], prefixes: ['models/u/'] }).success).toBe(true);
    expect(routes.count.reply.safeParse({ count: 'many' }).success).toBe(false);
  });

  it('request schemas are those the server parses with', () => {
    expect(routes.batch.body.safeParse({ ops: [{ op: 'delete', collection: 'models', id: 'x' }] }).success).toBe(true);
    expect(routes.batch.body.safeParse({ ops: [{ op: 'drop', collection: 'models', id: 'x' }] }).success).toBe(false);
    expect(routes.getDoc.params.safeParse({ collection: 'secrets', id: 'x' }).success).toBe(false);
    expect(routes.query.body.safeParse({ query: { orderBy: [['name'], ['publicId', 'desc']] } }).success).toBe(true);
    expect(routes.query.body.safeParse({ query: { orderBy: [['name', 'sideways']] } }).success).toBe(false);
  });
});
