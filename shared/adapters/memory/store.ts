/**
 * The shared state of the in-memory backend: documents, accounts and stored files, kept in maps
 * and shared by every client made on it (`createMemoryBackend({ store })`), as clients of one
 * embedded server share its database. Writes notify every client's live subscriptions.
 *
 * The store also has an unguarded side for tests: seeding documents, accounts and files, and
 * reading them back, without the role table (the equivalent of writing to the server's database
 * directly). Passwords are kept as given: this backend is for tests only.
 */
import { PASSWORD_MIN_LENGTH } from '@shared/constants.js';
import { AppError, ErrorCode } from '@shared/errors.js';
import { validateDocumentData } from '@shared/field-path.js';
import type { StoredFile } from '@shared/ports/files.js';
import type { AuthUser, Unsubscribe } from '@shared/ports/identity.js';
import type { CollectionName, Role } from '@shared/types.js';
import { compareCodeUnits } from '@shared/order.js';
import { collectionSchema } from '@shared/wire/catalog.js';
import type { Json, MemoryDoc } from './documents.js';
import { wireCopy } from './documents.js';
import { resolveSentinels } from '@shared/documents/merge.js';
import { guessContentType } from '@shared/content-type.js';
import { normalizeEmail, normalizeEmailOrNull } from '@shared/email.js';
import { randomId } from '@shared/random-id.js';

/** An account of the in-memory identity service. */
export interface MemoryAccount {
  /** 28 characters, as the embedded backend's and Firebase's uids (or the uid a seed gave). */
  uid: string;
  /** Lower case. */
  email: string;
  password: string;
  disabled: boolean;
}

/** An account to seed: `role` also writes its `users/{uid}` record with that role. */
export interface MemoryAccountSeed {
  email: string;
  /** Default 'password'. */
  password?: string;
  /** Default: a random 28-character uid. */
  uid?: string;
  /** Writes `users/{uid}` = {uid, email, role}; none or null writes no record (a first sign-in). */
  role?: Role | null;
  disabled?: boolean;
}

/** A file to seed: its bytes (or text). Its content type comes from its path, as every stored file's. */
export interface MemoryFileSeed {
  data: Uint8Array | string;
}

/** A document to seed: its id and data (server-time sentinels are resolved). */
export type MemoryDocSeed = { id: string } & Record<string, unknown>;

/** What a new store starts with. */
export interface MemorySeed {
  /** Documents by collection: an array of `{id, …data}` or a record of id → data. */
  documents?: Partial<Record<CollectionName, MemoryDocSeed[] | Record<string, Record<string, unknown>>>>;
  accounts?: MemoryAccountSeed[];
  /** Files by storage path. */
  files?: Record<string, MemoryFileSeed>;
}

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions extends MemorySeed {
  /** The server clock (server timestamps, file update times); default `() => new Date()`. */
  clock?: () => Date;
  /**
   * Milliseconds every call of a client waits before it runs (and every upload chunk), to let
   * tests see loading states; default 0 (calls still resolve asynchronously, after a microtask).
   */
  latencyMs?: number;
  /**
   * The download link of a stored file (`getDownloadUrl`); default a `data:` URL with its content
   * type and bytes. Tests that compare links can give a readable one, e.g.
   * `(file) => \`http://files.test/${file.path}\``.
   */
  downloadUrl?: (file: MemoryFile) => string;
}

/** A stored file: metadata and bytes. */
export interface MemoryFile {
  path: string;
  bytes: Uint8Array;
  contentType: string;
  /** ISO timestamp of the last write. */
  updated: string;
}

/** The metadata of a stored file, as the file-store port returns it. */
export function toStoredFile(file: MemoryFile): StoredFile {
  return { path: file.path, size: file.bytes.byteLength, contentType: file.contentType, updated: file.updated };
}

const toBytes = (data: Uint8Array | string): Uint8Array =>
  typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);

/**
 * The in-memory backend's state. Clients (`createMemoryBackend`) read and write it through the
 * role table; the methods here are the unguarded side for tests and for those clients.
 */
export class MemoryStore {
  private readonly docs = new Map<CollectionName, Map<string, Json>>();
  private readonly accountsByUid = new Map<string, MemoryAccount>();
  private readonly fileMap = new Map<string, MemoryFile>();
  private readonly listeners = new Set<(collections: readonly CollectionName[]) => void>();
  private readonly clock: () => Date;
  /** Milliseconds every client call waits first (see {@link MemoryStoreOptions.latencyMs}). */
  readonly latencyMs: number;
  /** The download link of a stored file (see {@link MemoryStoreOptions.downloadUrl}). */
  readonly downloadUrl: (file: MemoryFile) => string;
  /** While paused: resolves when the store is resumed (see {@link pause}). */
  private paused: Promise<void> | null = null;

  /** @param options seed, clock and latency (see {@link MemoryStoreOptions}) */
  constructor(options: MemoryStoreOptions = {}) {
    this.clock = options.clock ?? (() => new Date());
    this.latencyMs = options.latencyMs ?? 0;
    this.downloadUrl = options.downloadUrl ?? dataUrl;
    this.seed(options);
  }

  /** The server clock as an ISO timestamp. */
  now(): string {
    return this.clock().toISOString();
  }

  /** Waits as a call to the backend does: while {@link pause}d, then {@link latencyMs}, or one microtask. */
  async tick(): Promise<void> {
    while (this.paused) await this.paused;
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs));
    else await Promise.resolve();
  }

  /**
   * Holds every client call (reads, writes, live subscriptions' queries, uploads) until the
   * returned function is called, so a test can see a screen's loading state, then let it load.
   * Writes through the store's own methods (seeding) are not held.
   * @returns resumes the held calls (calling it again does nothing)
   */
  pause(): () => void {
    if (this.paused) return () => undefined;
    let resume = (): void => undefined;
    this.paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    return () => {
      this.paused = null;
      resume();
    };
  }

  /**
   * Adds documents, accounts and files (no role table; sentinels resolved; live subscribers notified).
   * @param seed what to add; documents replace any at the same id
   */
  seed(seed: MemorySeed): void {
    for (const account of seed.accounts ?? []) this.addAccount(account);
    type CollectionSeed = NonNullable<MemorySeed['documents']>[CollectionName];
    for (const [collection, docs] of Object.entries(seed.documents ?? {}) as Array<[CollectionName, CollectionSeed]>) {
      const entries: Array<[string, Record<string, unknown>]> = Array.isArray(docs)
        ? docs.map(({ id, ...data }) => [id, data])
        : Object.entries(docs ?? {});
      for (const [id, data] of entries) this.writeDocument(collection, id, data);
    }
    for (const [path, file] of Object.entries(seed.files ?? {})) this.putFile(path, file.data);
  }

  // ---- documents --------------------------------------------------------------------------------

  private table(collection: CollectionName): Map<string, Json> {
    let table = this.docs.get(collection);
    if (!table) {
      table = new Map();
      this.docs.set(collection, table);
    }
    return table;
  }

  /**
   * Reads one document (a copy).
   * @returns its data, or null when it does not exist
   */
  readDocument(collection: CollectionName, id: string): Json | null {
    const data = this.docs.get(collection)?.get(id);
    return data === undefined ? null : wireCopy(data);
  }

  /** Every document of a collection, as stored (not copied; callers must not change them). */
  documents(collection: CollectionName): MemoryDoc[] {
    return [...(this.docs.get(collection)?.entries() ?? [])].map(([id, data]) => ({ id, data }));
  }

  /**
   * Writes (replaces) one document without the role table, resolving server-time sentinels, and
   * notifies live subscribers.
   * @throws AppError `invalid-argument` for an unknown collection or forbidden field names
   */
  writeDocument(collection: CollectionName, id: string, data: Record<string, unknown>): void {
    collectionSchema.parse(collection);
    const copy = wireCopy(data);
    validateDocumentData(copy);
    this.apply([{ collection, id, after: resolveSentinels(copy, this.now()) as Json }]);
  }

  /** Deletes one document without the role table (missing: nothing happens) and notifies live subscribers. */
  deleteDocument(collection: CollectionName, id: string): void {
    this.apply([{ collection, id, after: null }]);
  }

  /**
   * Applies computed writes together (already authorised and validated) and notifies live
   * subscribers of the collections that changed.
   * @param changes each document's state after the write (null: deleted)
   */
  apply(changes: ReadonlyArray<{ collection: CollectionName; id: string; after: Json | null }>): void {
    const touched = new Set<CollectionName>();
    for (const { collection, id, after } of changes) {
      const table = this.table(collection);
      if (after) table.set(id, after);
      else if (!table.delete(id)) continue;
      touched.add(collection);
    }
    if (touched.size > 0) for (const listener of [...this.listeners]) listener([...touched]);
  }

  /**
   * Observes committed writes (every client's live subscriptions listen here).
   * @param listener called synchronously after each write with the collections it changed
   */
  onChange(listener: (collections: readonly CollectionName[]) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  // ---- accounts ---------------------------------------------------------------------------------

  /**
   * Adds an account without the role table (a seed), and with `role` its `users/{uid}` record.
   * @returns the account's identity
   * @throws AppError `auth/invalid-email`, `auth/email-already-in-use`, `already-exists` (the uid)
   */
  addAccount(seed: MemoryAccountSeed): AuthUser {
    const email = normalizeEmail(seed.email);
    if (this.accountByEmail(email)) throw new AppError(ErrorCode.EmailAlreadyInUse, 'Email already in use', { context: { email } });
    const uid = seed.uid ?? randomId(28);
    if (this.accountsByUid.has(uid)) throw new AppError(ErrorCode.AlreadyExists, `Account ${uid} already exists`, { context: { uid } });
    this.accountsByUid.set(uid, { uid, email, password: seed.password ?? 'password', disabled: seed.disabled ?? false });
    if (seed.role) this.writeDocument('users', uid, { uid, email, role: seed.role, created_at: this.now() });
    return { uid, email };
  }

  /**
   * Creates an email/password account as the identity service does (no role table: callers check it).
   * @returns the new account's identity (28-character uid)
   * @throws AppError `auth/invalid-email`, `auth/weak-password` (< 6 characters), `auth/email-already-in-use`
   */
  createAccount(emailInput: unknown, password: unknown): AuthUser {
    const email = normalizeEmail(emailInput);
    if (typeof password !== 'string' || password.length < PASSWORD_MIN_LENGTH) {
      throw new AppError(ErrorCode.WeakPassword, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`);
    }
    return this.addAccount({ email, password });
  }

  /** The account with this uid, or null. */
  account(uid: string): MemoryAccount | null {
    const account = this.accountsByUid.get(uid);
    return account ? { ...account } : null;
  }

  /** The account with this email (normalised; an invalid email gives null), or null. */
  accountByEmail(emailInput: unknown): MemoryAccount | null {
    const email = normalizeEmailOrNull(emailInput);
    if (email === null) return null;
    for (const account of this.accountsByUid.values()) if (account.email === email) return { ...account };
    return null;
  }

  /**
   * Enables or disables an account (a disabled account cannot sign in, and its clients' calls are
   * refused as unauthenticated).
   * @param who the account's uid or email
   * @throws AppError `not-found` when no account matches
   */
  setAccountDisabled(who: string, disabled: boolean): void {
    const found = this.accountsByUid.get(who) ?? this.accountsByUid.get(this.accountByEmail(who)?.uid ?? '');
    if (!found) throw new AppError(ErrorCode.NotFound, 'Account not found', { context: { who } });
    found.disabled = disabled;
  }

  // ---- files ------------------------------------------------------------------------------------

  /**
   * Stores a file without the role table (a seed), replacing any file at `path`.
   * @param data bytes, or text (UTF-8)
   * @returns its metadata (content type from the path's extension)
   */
  putFile(path: string, data: Uint8Array | string): StoredFile {
    return this.putFiles([{ path, bytes: toBytes(data) }])[0]!;
  }

  /**
   * Stores files together (all at once; the bytes are kept as given). Each is recorded with the
   * content type of its path (`guessContentType`), as the embedded server does: never one an
   * uploader names, which may be text/html.
   * @returns their metadata, in order
   */
  putFiles(entries: ReadonlyArray<{ path: string; bytes: Uint8Array }>): StoredFile[] {
    const updated = this.now();
    return entries.map(({ path, bytes }) => {
      const file: MemoryFile = { path, bytes, contentType: guessContentType(path), updated };
      this.fileMap.set(path, file);
      return toStoredFile(file);
    });
  }

  /** The stored file at `path` (not copied), or null. */
  file(path: string): MemoryFile | null {
    return this.fileMap.get(path) ?? null;
  }

  /** Every stored file under `prefix` (all when empty), sorted by path. */
  filesUnder(prefix = ''): MemoryFile[] {
    return [...this.fileMap.values()].filter((file) => file.path.startsWith(prefix)).sort((a, b) => compareCodeUnits(a.path, b.path));
  }

  /** Removes a stored file. @returns false when there was none */
  removeFile(path: string): boolean {
    return this.fileMap.delete(path);
  }
}

/** Base64 of bytes (btoa over binary text, in blocks so no argument list grows too long). */
function base64(bytes: Uint8Array): string {
  const block = 0x8000 * 3;
  let out = '';
  for (let offset = 0; offset < bytes.byteLength; offset += block) {
    out += globalThis.btoa(String.fromCharCode(...bytes.subarray(offset, offset + block)));
  }
  return out;
}

/** The default download link: a `data:` URL with the file's content type and bytes. */
function dataUrl(file: MemoryFile): string {
  return `data:${file.contentType.replace(/\s+/g, '')};base64,${base64(file.bytes)}`;
}

/**
 * Creates the shared state of an in-memory backend, optionally seeded.
 * @param options documents, accounts (with roles), files, clock and latency (see {@link MemoryStoreOptions})
 * @returns the store; pass it to every `createMemoryBackend({ store })` that should share it
 * @throws AppError `invalid-argument` / `auth/invalid-email` for a bad seed
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): MemoryStore {
  return new MemoryStore(options);
}
