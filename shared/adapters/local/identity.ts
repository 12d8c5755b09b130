/**
 * Identity port over the embedded backend: email/password
 * sign-in, a session persisted in the given storage, token refresh in the background about
 * 5 minutes before expiry (retrying after network failures with a back-off from 30 s doubling
 * up to 16 min), and the service key as an always-signed-in service principal.
 */
import { ErrorCode, isAppError } from '../../errors.js';
import { SERVICE_USER, type AuthUser, type IdentityPort, type Unsubscribe } from '../../ports/identity.js';
import type { PathArgs, RouteRequestOptions, Transport } from './http.js';
import { routes, type ReplyOf, type RouteSpec, type TokenGrant } from '../../wire/routes.js';

/** Session persistence (the portal passes `window.localStorage`). */
export interface SessionStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

interface Session {
  idToken: string;
  refreshToken: string;
  /** Expiry of idToken, ms since the epoch. */
  expiresAt: number;
  user: { uid: string; email: string | null };
}

/** Refresh this long before expiry (about 5 minutes). */
const REFRESH_AHEAD_MS = 5 * 60 * 1000;
/** A token is treated as expired this long before its expiry (30 s). */
const EXPIRY_SLACK_MS = 30 * 1000;
const RETRY_START_MS = 30 * 1000;
const RETRY_MAX_MS = 16 * 60 * 1000;

function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  (timer as { unref?: () => void }).unref?.();
}

/** IdentityPort of the local adapter; also hands out the Authorization header for every request. */
export class LocalIdentity implements IdentityPort {
  private session: Session | null = null;
  private known = false;
  private readonly ready: Promise<void>;
  private readonly listeners = new Set<(user: AuthUser | null) => void>();
  private refreshing: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private retryDelay = RETRY_START_MS;
  private closed = false;

  /**
   * @param transport HTTP transport to the server
   * @param options.storage session persistence; none keeps the session in memory
   * @param options.serviceKey service key: requests without a user session act as the service principal
   */
  constructor(
    private readonly transport: Transport,
    private readonly options: { storage?: SessionStorage; serviceKey?: string },
  ) {
    this.ready = this.restore();
  }

  private get storageKey(): string {
    return `catalog-local-session:${this.transport.baseUrl}`;
  }

  private async restore(): Promise<void> {
    try {
      const raw = this.options.storage?.getItem(this.storageKey);
      if (raw) {
        const stored = JSON.parse(raw) as Session;
        if (typeof stored?.refreshToken === 'string' && typeof stored.user?.uid === 'string') {
          this.session = stored;
          if (stored.expiresAt - Date.now() < EXPIRY_SLACK_MS) {
            await this.refresh().catch(() => undefined);
          } else {
            this.schedule();
          }
        }
      }
    } catch {
      this.session = null;
    } finally {
      this.known = true;
    }
  }

  private persist(): void {
    const storage = this.options.storage;
    if (!storage) return;
    try {
      if (this.session) storage.setItem(this.storageKey, JSON.stringify(this.session));
      else storage.removeItem(this.storageKey);
    } catch {
      // storage full or unavailable: the session stays in memory
    }
  }

  private notify(): void {
    const user = this.currentUser();
    for (const listener of [...this.listeners]) listener(user);
  }

  private accept(grant: TokenGrant): void {
    this.session = {
      idToken: grant.idToken,
      refreshToken: grant.refreshToken,
      expiresAt: Date.now() + grant.expiresIn * 1000,
      user: { uid: grant.user.uid, email: grant.user.email },
    };
    this.retryDelay = RETRY_START_MS;
    this.persist();
    this.schedule();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.session = null;
    this.persist();
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.session || this.closed) return;
    const delay = Math.max(0, this.session.expiresAt - Date.now() - REFRESH_AHEAD_MS);
    this.timer = setTimeout(() => {
      this.refresh().catch(() => undefined);
    }, delay);
    unrefTimer(this.timer);
  }

  /**
   * Refreshes the ID token now (single flight). An auth failure ends the session (observers get
   * null); a network failure keeps it and retries with back-off.
   */
  private refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      const session = this.session;
      if (!session) return;
      try {
        const json = { refreshToken: session.refreshToken };
        const grant = await this.transport.call(routes.refresh, [], { json, flavour: 'auth', check: true });
        if (this.session === session) this.accept(grant);
      } catch (error) {
        if (isAppError(error, ErrorCode.NetworkRequestFailed, ErrorCode.Network, ErrorCode.Internal, ErrorCode.Unavailable)) {
          if (this.timer) clearTimeout(this.timer);
          this.timer = setTimeout(() => {
            this.refresh().catch(() => undefined);
          }, this.retryDelay);
          unrefTimer(this.timer);
          this.retryDelay = Math.min(this.retryDelay * 2, RETRY_MAX_MS);
          throw error;
        }
        if (this.session === session) {
          this.clear();
          if (this.known) this.notify();
        }
      }
    })().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * The Authorization header for the next request: the user's fresh ID token, else the service
   * key, else null (signed out).
   * @param forceRefresh refresh the ID token first (after the server said it expired)
   * @throws AppError `auth/network-request-failed` when an expired token cannot be refreshed
   */
  async authorization(forceRefresh = false): Promise<string | null> {
    await this.ready;
    if (this.session && (forceRefresh || this.session.expiresAt - Date.now() < EXPIRY_SLACK_MS)) await this.refresh();
    if (this.session) return `Bearer ${this.session.idToken}`;
    return this.options.serviceKey ? `Bearer ${this.options.serviceKey}` : null;
  }

  /** True when requests carry a user session (not the service key). */
  hasSession(): boolean {
    return this.session !== null;
  }

  async signIn(email: string, password: string): Promise<AuthUser> {
    await this.ready;
    const grant = await this.transport.call(routes.signIn, [], { json: { email, password }, flavour: 'auth', check: true });
    this.accept(grant);
    this.notify();
    return this.currentUser()!;
  }

  async signOut(): Promise<void> {
    await this.ready;
    const session = this.session;
    this.clear();
    if (session) {
      const json = { refreshToken: session.refreshToken };
      await this.transport.call(routes.signOut, [], { json, flavour: 'auth' }).catch(() => undefined);
    }
    this.notify();
  }

  onAuthStateChanged(listener: (user: AuthUser | null) => void): Unsubscribe {
    let active = true;
    void this.ready.then(() => {
      if (!active) return;
      this.listeners.add(listener);
      listener(this.currentUser());
    });
    return () => {
      active = false;
      this.listeners.delete(listener);
    };
  }

  currentUser(): AuthUser | null {
    if (!this.known) return null;
    if (this.session) return { uid: this.session.user.uid, email: this.session.user.email };
    return this.options.serviceKey ? SERVICE_USER : null;
  }

  async createAccount(email: string, password: string): Promise<AuthUser> {
    const result = await this.call(routes.createAccount, [], { json: { email, password }, flavour: 'auth', check: true });
    return result.user;
  }

  async findAccountByEmail(email: string): Promise<AuthUser | null> {
    const result = await this.call(routes.findAccount, [email], { flavour: 'auth', check: true });
    return result.user ? { uid: result.user.uid, email: result.user.email } : null;
  }

  /**
   * Sends an authorised request to one route of the table (`shared/wire/routes.ts`); when the
   * server answers that the ID token expired, refreshes once and retries.
   * @param route the route
   * @param args the arguments of the route's path builder
   * @param options body, headers, signal, error flavour; `check` validates the reply's shape
   * @returns the reply, typed by the route's reply schema
   */
  async call<R extends RouteSpec>(route: R, args: PathArgs<R>, options: RouteRequestOptions<R> = {}): Promise<ReplyOf<R>> {
    const authorization = await this.authorization();
    try {
      return await this.transport.call(route, args, { ...options, authorization });
    } catch (error) {
      if (!isAppError(error, ErrorCode.UserTokenExpired) || !this.session) throw error;
      const retried = await this.authorization(true);
      return this.transport.call(route, args, { ...options, authorization: retried });
    }
  }

  /** Stops background refresh and drops listeners. */
  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
