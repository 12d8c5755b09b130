/**
 * Identity of the embedded backend: email/password accounts with scrypt hashes, expiring HS256 ID
 * tokens (jose, 1 h) plus rotating refresh tokens, the service key (the local twin of a
 * service-account key), and the identity service's sign-in error codes (`auth/…`).
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { normalizeEmail, normalizeEmailOrNull } from '@shared/email.js';
import { importedAccountsProblems } from '@shared/export-layout.js';
import { SERVICE_KEY_FILE, serviceKeyFileSchema, type ServiceKeyFile } from '@shared/wire/service-key.js';
import type { exportedAccountSchema, TokenGrant } from '@shared/wire/routes.js';
import { randomId } from '@shared/random-id.js';
import type { SqliteDatabase } from './db.js';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** ID token lifetime in seconds (1 h, as Firebase ID tokens). */
export const ID_TOKEN_TTL_SECONDS = 3600;
/** Refresh token lifetime in milliseconds (30 days). */
const REFRESH_TTL_MS = 30 * 24 * 3600 * 1000;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 64, maxmem: 64 * 1024 * 1024 };
const ISSUER = 'catalog-local';

/** An account as the API shows it. */
export interface Account {
  uid: string;
  email: string;
  disabled: boolean;
}

/** Tokens returned by sign-in and refresh (`@shared/wire/routes.ts`); expiresIn in seconds. */
export type { TokenGrant };

interface AccountRow {
  uid: string;
  email: string;
  password_hash: string;
  disabled: number;
}

/** An account as `catalog export` writes it (accounts.json) and `catalog import` reads it (`@shared/wire/routes.ts`). */
export type ExportedAccount = z.infer<typeof exportedAccountSchema>;

async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, SCRYPT.keylen, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/**
 * Reads a secret file of the data folder, creating it (mode 0600) with `create()` when missing.
 */
function readOrCreateSecret(file: string, create: () => string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const value = create();
  writeFileSync(file, value, { mode: 0o600 });
  return value;
}

/**
 * Writes (first start) or refreshes `<dataDir>/service-key.json` (mode 0600): the key is kept
 * across starts, the url is updated to the server's current address.
 * @param dataDir the data folder
 * @param url the server's base url, e.g. `http://127.0.0.1:8787`
 * @returns the file's path and the key
 */
export function ensureServiceKey(dataDir: string, url: string): { path: string; key: string } {
  const path = join(dataDir, SERVICE_KEY_FILE);
  let key: string | null = null;
  if (existsSync(path)) {
    try {
      const parsed = serviceKeyFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
      if (parsed.success) key = parsed.data.key;
    } catch {
      key = null;
    }
  }
  key ??= `csk_${randomBytes(32).toString('base64url')}`;
  const file: ServiceKeyFile = { type: 'catalog-service-key', url, key };
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
  return { path, key };
}

/**
 * Sign-in throttling (rate-limiter-flexible, in memory). Every attempt is counted before its
 * password is checked (the count is taken synchronously, so parallel attempts cannot all pass),
 * and a success gives its points back. Three limits, each a back-off that ends by itself, never a
 * hard lock:
 * - one account from one address: 20 attempts per 5 min, then blocked for 5 min;
 * - one address, all accounts (password spraying): 100 attempts per 5 min, then 15 min;
 * - one account, all addresses (distributed guessing): 100 attempts per 15 min, then 15 min;
 *   addresses that signed in to that account before are exempt, so a stranger cannot keep its
 *   owner out.
 */
export class SignInThrottle {
  private readonly pair = new RateLimiterMemory({ keyPrefix: 'pair', points: 20, duration: 300, blockDuration: 300 });
  private readonly address = new RateLimiterMemory({ keyPrefix: 'addr', points: 100, duration: 300, blockDuration: 900 });
  private readonly account = new RateLimiterMemory({ keyPrefix: 'acct', points: 100, duration: 900, blockDuration: 900 });
  /** `email|address` pairs that signed in, with the time (ms); bounded, oldest dropped first. */
  private readonly known = new Map<string, number>();
  private static readonly KNOWN_LIMIT = 10_000;
  private static readonly KNOWN_TTL_MS = 30 * 24 * 3600 * 1000;

  private isKnown(key: string): boolean {
    const since = this.known.get(key);
    return since !== undefined && Date.now() - since < SignInThrottle.KNOWN_TTL_MS;
  }

  /**
   * Counts one attempt (before any password check).
   * @param email the normalised email
   * @param address the caller's IP address
   * @throws AppError `auth/too-many-requests` ("… try again in N s") when a limit is reached
   */
  async attempt(email: string, address: string): Promise<void> {
    const key = `${email}|${address}`;
    const known = this.isKnown(key);
    const checks = [this.pair.consume(key), this.address.consume(address), ...(known ? [] : [this.account.consume(email)])];
    const results = await Promise.allSettled(checks);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!refused) return;
    if (!(refused.reason instanceof RateLimiterRes)) throw refused.reason;
    const seconds = Math.max(1, Math.ceil(refused.reason.msBeforeNext / 1000));
    throw new AppError(ErrorCode.TooManyRequests, `Too many sign-in attempts; try again in ${seconds} s`, {
      context: { retryAfterSeconds: seconds },
    });
  }

  /** A successful sign-in: its points are given back and the address becomes known for the account. */
  async succeeded(email: string, address: string): Promise<void> {
    const key = `${email}|${address}`;
    this.known.delete(key);
    this.known.set(key, Date.now());
    if (this.known.size > SignInThrottle.KNOWN_LIMIT) this.known.delete(this.known.keys().next().value!);
    await Promise.all([this.pair.delete(key), this.address.reward(address, 1), this.account.reward(email, 1)]);
  }
}

/** Accounts and tokens. */
export class IdentityService {
  private readonly secret: Uint8Array;
  private readonly throttle = new SignInThrottle();

  /**
   * @param db the catalog database
   * @param dataDir the data folder; the token-signing secret lives in `<dataDir>/auth-secret` (0600)
   */
  constructor(
    private readonly db: SqliteDatabase,
    dataDir: string,
  ) {
    const secret = readOrCreateSecret(join(dataDir, 'auth-secret'), () => randomBytes(48).toString('base64url'));
    this.secret = new TextEncoder().encode(secret);
  }

  private byEmail(email: string): AccountRow | undefined {
    return this.db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE email = ?').get(email);
  }

  private byUid(uid: string): AccountRow | undefined {
    return this.db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE uid = ?').get(uid);
  }

  /**
   * Creates an email/password account.
   * @returns the new account (28-character uid)
   * @throws AppError `auth/invalid-email`, `auth/weak-password` (< 6 characters), `auth/email-already-in-use`
   */
  async createAccount(emailInput: unknown, password: unknown): Promise<Account> {
    const email = normalizeEmail(emailInput);
    if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) {
      throw new AppError(ErrorCode.WeakPassword, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`);
    }
    if (this.byEmail(email)) throw new AppError(ErrorCode.EmailAlreadyInUse, 'Email already in use', { context: { email } });
    const hash = await hashPassword(password);
    const uid = randomId(28);
    try {
      this.db
        .prepare('INSERT INTO accounts (uid, email, password_hash, disabled, created_at) VALUES (?, ?, ?, 0, ?)')
        .run(uid, email, hash, new Date().toISOString());
    } catch (error) {
      if (this.byEmail(email)) throw new AppError(ErrorCode.EmailAlreadyInUse, 'Email already in use', { context: { email } });
      throw error;
    }
    return { uid, email, disabled: false };
  }

  /**
   * Looks an account up by email.
   * @returns the account, or null when none has that email (an invalid email also gives null)
   */
  findByEmail(emailInput: unknown): Account | null {
    const email = normalizeEmailOrNull(emailInput);
    if (email === null) return null;
    const row = this.byEmail(email);
    return row ? { uid: row.uid, email: row.email, disabled: row.disabled === 1 } : null;
  }

  /**
   * Every account with its password hash, for `catalog export` (service key only).
   * @returns the accounts sorted by uid: {uid, email, password_hash, disabled}
   */
  exportAccounts(): ExportedAccount[] {
    return this.db
      .prepare<[], AccountRow>('SELECT uid, email, password_hash, disabled FROM accounts ORDER BY uid')
      .all()
      .map((row) => ({ uid: row.uid, email: row.email, password_hash: row.password_hash, disabled: row.disabled === 1 }));
  }

  /**
   * Adds exported accounts (same uid, email and password hash), for `catalog import`. Importing
   * password hashes is a privilege, so the list is held to the import rule of
   * `importedAccountsProblems` (`shared/export-layout.ts`): exactly the four fields, a valid
   * uid, a normalised email, a bounded scrypt hash, no uid or email twice; an account whose uid is
   * an existing account's must have its email and is then left as it is (its password and state
   * are kept), and an email of an existing account must come with its uid. One transaction: all
   * or none.
   * @param accounts the request's list, as sent (checked here, not trusted)
   * @returns how many accounts were added
   * @throws AppError `invalid-argument` naming every refused account (nothing added)
   */
  importAccounts(accounts: unknown): number {
    const insert = this.db.prepare('INSERT INTO accounts (uid, email, password_hash, disabled, created_at) VALUES (?, ?, ?, ?, ?)');
    const now = new Date().toISOString();
    const run = this.db.transaction(() => {
      const existing = this.db.prepare<[], { uid: string; email: string }>('SELECT uid, email FROM accounts').all();
      const { added, problems } = importedAccountsProblems(accounts, existing);
      if (problems.length > 0) {
        throw new AppError(ErrorCode.InvalidArgument, `Accounts refused, none added:\n${problems.slice(0, 50).join('\n')}`, {
          context: { problems: problems.slice(0, 200) },
        });
      }
      for (const a of added) insert.run(a.uid, a.email, a.password_hash, a.disabled ? 1 : 0, now);
      return added.length;
    });
    return run();
  }

  /**
   * Enables or disables an account; disabling revokes its refresh tokens.
   * @throws AppError `not-found` when the uid is unknown
   */
  setDisabled(uid: string, disabled: boolean): Account {
    const row = this.byUid(uid);
    if (!row) throw new AppError(ErrorCode.NotFound, 'Account not found', { context: { uid } });
    this.db.prepare('UPDATE accounts SET disabled = ? WHERE uid = ?').run(disabled ? 1 : 0, uid);
    if (disabled) this.db.prepare('DELETE FROM refresh_tokens WHERE uid = ?').run(uid);
    return { uid, email: row.email, disabled };
  }

  /**
   * Signs in with email and password. The attempt is counted (see {@link SignInThrottle}) before
   * the account is looked up or the password hash checked.
   * @param address the caller's IP address (default 'local': callers inside this process)
   * @returns an ID token (1 h), a refresh token and the user
   * @throws AppError `auth/invalid-email`, `auth/user-not-found`, `auth/wrong-password`,
   *   `auth/user-disabled`, `auth/too-many-requests`
   */
  async signIn(emailInput: unknown, password: unknown, address = 'local'): Promise<TokenGrant> {
    const email = normalizeEmail(emailInput);
    await this.throttle.attempt(email, address);
    const row = this.byEmail(email);
    if (!row) throw new AppError(ErrorCode.UserNotFound, 'No account with this email');
    if (typeof password !== 'string' || !(await verifyPassword(password, row.password_hash))) {
      throw new AppError(ErrorCode.WrongPassword, 'Incorrect password');
    }
    if (row.disabled === 1) throw new AppError(ErrorCode.UserDisabled, 'The account has been disabled');
    await this.throttle.succeeded(email, address);
    return this.grant(row);
  }

  private async grant(row: AccountRow): Promise<TokenGrant> {
    const idToken = await new SignJWT({ email: row.email })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(row.uid)
      .setIssuer(ISSUER)
      .setAudience(ISSUER)
      .setIssuedAt()
      .setExpirationTime(`${ID_TOKEN_TTL_SECONDS}s`)
      .sign(this.secret);
    const refreshToken = randomBytes(32).toString('base64url');
    this.db.prepare('DELETE FROM refresh_tokens WHERE expires_at < ?').run(Date.now());
    this.db
      .prepare('INSERT INTO refresh_tokens (token_hash, uid, expires_at) VALUES (?, ?, ?)')
      .run(sha256(refreshToken), row.uid, Date.now() + REFRESH_TTL_MS);
    return { idToken, refreshToken, expiresIn: ID_TOKEN_TTL_SECONDS, user: { uid: row.uid, email: row.email } };
  }

  /**
   * Exchanges a refresh token for new tokens (the old refresh token is consumed).
   * @throws AppError `auth/user-token-expired` (unknown, used or expired token), `auth/user-disabled`
   */
  async refresh(refreshToken: unknown): Promise<TokenGrant> {
    if (typeof refreshToken !== 'string' || refreshToken.length === 0)
      throw new AppError(ErrorCode.UserTokenExpired, 'Invalid refresh token');
    const hash = sha256(refreshToken);
    const token = this.db
      .prepare<[string], { uid: string; expires_at: number }>('SELECT uid, expires_at FROM refresh_tokens WHERE token_hash = ?')
      .get(hash);
    if (!token || token.expires_at < Date.now()) throw new AppError(ErrorCode.UserTokenExpired, 'The session has expired; sign in again');
    const row = this.byUid(token.uid);
    if (!row) throw new AppError(ErrorCode.UserTokenExpired, 'The session has expired; sign in again');
    if (row.disabled === 1) throw new AppError(ErrorCode.UserDisabled, 'The account has been disabled');
    this.db.prepare('DELETE FROM refresh_tokens WHERE token_hash = ?').run(hash);
    return this.grant(row);
  }

  /** Revokes a refresh token (sign-out). Unknown tokens are ignored. */
  revoke(refreshToken: unknown): void {
    if (typeof refreshToken === 'string') this.db.prepare('DELETE FROM refresh_tokens WHERE token_hash = ?').run(sha256(refreshToken));
  }

  /**
   * Verifies an ID token and that its account still exists and is enabled.
   * @returns the token's uid and email
   * @throws AppError `auth/user-token-expired` (expired), `unauthenticated` (invalid, unknown or disabled account)
   */
  async verifyIdToken(token: string): Promise<{ uid: string; email: string }> {
    let uid: string;
    try {
      const { payload } = await jwtVerify(token, this.secret, { issuer: ISSUER, audience: ISSUER, algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string') throw new Error('no subject');
      uid = payload.sub;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new AppError(ErrorCode.UserTokenExpired, 'The ID token has expired');
      throw new AppError(ErrorCode.Unauthenticated, 'Invalid ID token');
    }
    const row = this.byUid(uid);
    if (!row || row.disabled === 1) throw new AppError(ErrorCode.Unauthenticated, 'The account does not exist or is disabled');
    return { uid: row.uid, email: row.email };
  }
}
