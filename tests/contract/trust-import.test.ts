// The embedded server's side of "imports are untrusted input" and "never serve the data folder's
// own secrets" (raw HTTP, the hostile-request harness): the account import route refuses every
// account an attacker-prepared export could abuse (another account's uid or email, malformed or
// costly password hashes, unknown fields, duplicates), all or none; a stored file that is a link
// (or lies in a linked folder) to the data folder's auth-secret is never served; tus upload URLs
// do not reach outside their folder; and the server refuses a portal folder that holds its data
// folder. Each case asserts status, message and that nothing changed (documents, file rows,
// storage, and here the accounts too).
import { scryptSync } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalBackend } from '@shared/adapters/local/index.js';
import { startServer } from '../../cli/src/server/index.js';
import { literally, runHostileCase, startHostileWorld, type HostileCase, type HostileWorld } from '../support/hostile.js';
import { tempDir } from '../support/paths.js';

let world: HostileWorld;
let secret: string;
const downloads: Record<string, string> = {};

/** A password hash in the server's own format, with other parameters when given. */
function hash(password: string, { n = 16384, r = 8, p = 1 } = {}): string {
  const salt = Buffer.from('fedcba9876543210');
  const key = scryptSync(password, salt, 64, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}
const GOOD_HASH = hash('imported-1');
const SALT = Buffer.from('fedcba9876543210').toString('base64');
const KEY = GOOD_HASH.split('$')[5]!;

const account = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  uid: 'importedUid000000000000000001',
  email: 'imported@security.test',
  password_hash: GOOD_HASH,
  disabled: false,
  ...overrides,
});

async function accounts(): Promise<string> {
  const response = await fetch(`${world.url}/v1/admin/accounts`, { headers: { authorization: `Bearer ${world.handle.serviceKey}` } });
  return JSON.stringify(((await response.json()) as { accounts: unknown[] }).accounts);
}

const importing = (
  name: string,
  list: () => unknown[],
  status: number,
  message: RegExp,
  as: HostileCase['as'] = 'service',
): HostileCase => ({
  name,
  as,
  method: 'POST',
  path: '/v1/admin/accounts',
  body: () => ({ accounts: list() }),
  status,
  message,
});

const ACCOUNT_CASES: HostileCase[] = [
  importing(
    "an account with the admin's uid and the attacker's email",
    () => [account({ uid: world.admin.uid, email: 'attacker@evil.test' })],
    400,
    /uid belongs to the existing account admin@security\.test: an import never takes over an account/,
  ),
  importing(
    "an account with the admin's uid and email but the attacker's password",
    () => [account({ uid: world.admin.uid, email: world.admin.email, password_hash: hash('attacker-1') })],
    200,
    /"added":0/,
  ),
  importing(
    "an account with the user's email and another uid",
    () => [account({ email: world.user.email })],
    400,
    /email belongs to the existing account/,
  ),
  importing(
    'a good account beside a bad one (all or none)',
    () => [account(), account({ uid: 'x/../y', email: 'other@security.test' })],
    400,
    /uid is not 1–128/,
  ),
  importing('a uid with a slash', () => [account({ uid: 'a/b' })], 400, /uid is not 1–128 letters/),
  importing('a uid of 129 characters', () => [account({ uid: 'u'.repeat(129) })], 400, /uid is not 1–128 letters/),
  importing('an email in capitals', () => [account({ email: 'Imported@Security.Test' })], 400, /not a valid, lower-case address/),
  importing(
    'an email with spaces around it',
    () => [account({ email: ' imported@security.test ' })],
    400,
    /not a valid, lower-case address/,
  ),
  importing('an unknown field (role: admin)', () => [account({ role: 'admin' })], 400, /accounts\.0 Unrecognized key: \\"role\\"/),
  importing('the same uid twice', () => [account(), account({ email: 'second@security.test' })], 400, /the uid is listed twice/),
  importing('the same email twice', () => [account(), account({ uid: 'importedUid000000000000000002' })], 400, /the email is listed twice/),
  importing('a hash that is only "scrypt$"', () => [account({ password_hash: 'scrypt$' })], 400, literally('is not scrypt$N$r$p$salt$key')),
  importing(
    'scrypt N of 2^20 with r 8 (1 GiB per sign-in)',
    () => [account({ password_hash: hash('x', { n: 2 ** 20 }) })],
    400,
    /exceed the limits/,
  ),
  importing(
    'scrypt N that is not a power of two',
    () => [account({ password_hash: hash('x', { n: 16385 }) })],
    400,
    /is not a power of two/,
  ),
  importing(
    'scrypt N of 2^31',
    () => [account({ password_hash: hash('x', { n: 2 ** 31 }) })],
    400,
    /is not a power of two from 2\^10 to 2\^20/,
  ),
  importing('scrypt p of 1000 (CPU per sign-in)', () => [account({ password_hash: hash('x', { p: 1000 }) })], 400, /exceed the limits/),
  importing(
    'a parameter with a leading zero',
    () => [account({ password_hash: `scrypt$016384$8$1$${SALT}$${KEY}` })],
    400,
    /not whole numbers/,
  ),
  importing('a salt that is not base64', () => [account({ password_hash: `scrypt$16384$8$1$!!!!!!!!$${KEY}` })], 400, /salt is not base64/),
  importing(
    'a key of 8 bytes',
    () => [account({ password_hash: `scrypt$16384$8$1$${SALT}$AAAAAAAAAAA=` })],
    400,
    /key is not base64 of 32–64 bytes/,
  ),
  importing('a hash of 600 characters', () => [account({ password_hash: `scrypt$${'1'.repeat(595)}` })], 400, /at most 512 characters/),
  importing('disabled as text', () => [account({ disabled: 'no' })], 400, /disabled/),
  importing('by an admin token (service key only)', () => [account()], 403, /service key required/, 'admin'),
  importing('by a user token', () => [account()], 403, /./, 'user'),
];

/** Download cases: a stored file replaced on disk by a link to the data folder's secret, or in a linked folder. */
const DOWNLOAD_CASES: HostileCase[] = [
  {
    name: "a stored file that is a link to the data folder's auth-secret",
    as: 'anon',
    method: 'GET',
    path: () => downloads.linkedFile!,
    status: 404,
    message: /No file at/,
    check: (reply) => expect(reply.text).not.toContain(secret),
  },
  {
    name: 'a stored file in a folder that is a link to a copy of the secret',
    as: 'anon',
    method: 'GET',
    path: () => downloads.linkedFolder!,
    status: 404,
    message: /No file at/,
    check: (reply) => expect(reply.text).not.toContain(secret),
  },
  {
    name: 'a tus upload URL naming ../auth-secret (admin)',
    as: 'admin',
    method: 'HEAD',
    path: '/v1/uploads/..%2Fauth-secret',
    headers: { 'tus-resumable': '1.0.0' },
    status: 404,
  },
  {
    name: 'a tus upload URL naming ../auth-secret, GET (admin)',
    as: 'admin',
    method: 'GET',
    path: '/v1/uploads/..%2Fauth-secret',
    headers: { 'tus-resumable': '1.0.0' },
    status: 404,
    check: (reply) => expect(reply.text).not.toContain(secret),
  },
];

beforeAll(async () => {
  world = await startHostileWorld();
  const dataDir = world.handle.dataDir;
  secret = readFileSync(join(dataDir, 'auth-secret'), 'utf8').trim();
  const storage = join(dataDir, 'storage');
  // a stored file, then its bytes on disk replaced by a link to the secret
  const linked = `models/${world.model}/assets/notes.txt`;
  await world.service.files.upload(linked, new Blob(['notes\n']));
  rmSync(join(storage, linked));
  symlinkSync(join(dataDir, 'auth-secret'), join(storage, linked));
  // a stored file whose folder is replaced by a link to a folder holding a copy of the secret
  const inFolder = `models/${world.hidden}/assets/notes.txt`;
  await world.service.files.upload(inFolder, new Blob(['notes\n']));
  const elsewhere = join(dataDir, 'elsewhere');
  mkdirSync(elsewhere);
  cpSync(join(dataDir, 'auth-secret'), join(elsewhere, 'notes.txt'));
  rmSync(join(storage, 'models', world.hidden, 'assets'), { recursive: true });
  symlinkSync(elsewhere, join(storage, 'models', world.hidden, 'assets'));
  for (const [name, path] of [
    ['linkedFile', linked],
    ['linkedFolder', inFolder],
  ] as const) {
    const url = new URL(await world.service.files.getDownloadUrl(path));
    downloads[name] = `${url.pathname}${url.search}`;
  }
}, 60_000);

afterAll(async () => {
  await world?.stop();
});

describe('account import refuses what an attacker-prepared export could abuse', () => {
  it.each(ACCOUNT_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const before = await accounts();
    await runHostileCase(world, c);
    expect(await accounts()).toBe(before);
  });

  it('the existing admin still signs in with their own password', async () => {
    const client = createLocalBackend({ baseUrl: world.url });
    try {
      expect((await client.identity.signIn(world.admin.email, world.admin.password)).uid).toBe(world.admin.uid);
      await expect(client.identity.signIn('attacker@evil.test', 'attacker-1')).rejects.toThrow();
    } finally {
      await client.close();
    }
  });

  it('a well-formed new account is added (and signs in)', async () => {
    const response = await fetch(`${world.url}/v1/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${world.handle.serviceKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accounts: [account()] }),
    });
    expect(await response.json()).toEqual({ added: 1 });
    const client = createLocalBackend({ baseUrl: world.url });
    try {
      expect((await client.identity.signIn('imported@security.test', 'imported-1')).uid).toBe('importedUid000000000000000001');
    } finally {
      await client.close();
    }
  });
});

describe("the data folder's secrets are never served", () => {
  it.each(DOWNLOAD_CASES.map((c) => [c.name, c] as const))('%s', async (_name, c) => runHostileCase(world, c));

  it('the server refuses a portal folder that holds its data folder (directly or through a link)', async () => {
    const portal = tempDir('portal-holds-data');
    try {
      writeFileSync(join(portal, 'index.html'), '<!doctype html><title>portal</title>');
      await expect(startServer({ dataDir: join(portal, 'data'), portalDir: portal, port: 0 })).rejects.toThrow(
        /The portal folder .* holds the data folder .*: serving it would expose the data folder's secrets/,
      );
      const link = `${portal}-data-link`;
      mkdirSync(join(portal, 'inner'));
      symlinkSync(join(portal, 'inner'), link);
      await expect(startServer({ dataDir: link, portalDir: portal, port: 0 })).rejects.toThrow(/holds the data folder/);
      rmSync(link);
    } finally {
      rmSync(portal, { recursive: true, force: true });
    }
  });
});
