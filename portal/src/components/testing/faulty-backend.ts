/**
 * Test helper for component tests (not shipped): a decorator over a real {@link Backend} (the
 * in-memory one, `@shared/adapters/memory`) that adds what a backend has no reason to offer but
 * screens must handle: a collection whose reads have not answered yet (the loading states), a
 * collection whose reads fail (the error states), and download links that fail. Everything else
 * goes to the wrapped backend unchanged, so its rules (roles, hidden models, ordering) apply.
 */
import type { Backend, CatalogPort, FileStorePort, Unsubscribe } from '@shared/ports/index.js';
import type { CollectionName } from '@shared/types.js';

/** The fault controls of a {@link withFaults} backend. */
export interface Faults {
  /** The decorated backend: give it to the app instead of the wrapped one. */
  backend: Backend;
  /**
   * Holds the reads of `collection` (`get`, `query`, `count`, and the first snapshot of every live
   * subscription, current or later) until the returned function is called: the screen stays in its
   * loading state meanwhile. Writes to the store while held are seen once released.
   * @returns releases the held reads (calling it again does nothing)
   */
  hold: (collection: CollectionName) => () => void;
  /**
   * Fails the reads of `collection` with `error`: its live subscriptions (held or running) end with
   * `onError(error)`, as a denied Firestore listener does, reads waiting on a hold reject, and later
   * reads and subscriptions fail the same way (asynchronously), held or not.
   */
  fail: (collection: CollectionName, error: Error) => void;
  /** Storage paths whose `getDownloadUrl` rejects with `Error('no link for {path}')`; add to it any time. */
  failingLinks: Set<string>;
}

/** One live subscription made through the decorator. */
interface Listener {
  /** Starts the real subscription (when released and not failed). */
  start: () => void;
  /** Ends it with an error. */
  fail: (error: Error) => void;
}

/** What the decorator knows about one collection. */
interface CollectionFaults {
  /** Resolves when released; null when not held. */
  held: Promise<void> | null;
  error: Error | null;
  /** Resolves when the collection fails (wakes reads waiting on a hold). */
  failed: Promise<void>;
  markFailed: () => void;
  listeners: Set<Listener>;
}

/** A view of `target` whose members in `overrides` replace its own; the rest are bound to `target`. */
function decorate<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(overrides, key)) return (overrides as Record<PropertyKey, unknown>)[key];
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

/**
 * Wraps a backend with fault injection for component tests (see {@link Faults}).
 * @param inner the real backend (reads not held or failed, writes, identity and files go to it)
 * @returns the decorated backend and its controls
 */
export function withFaults(inner: Backend): Faults {
  const state = new Map<CollectionName, CollectionFaults>();
  const faultsOf = (collection: CollectionName): CollectionFaults => {
    let faults = state.get(collection);
    if (!faults) {
      let markFailed: () => void = () => undefined;
      const failed = new Promise<void>((done) => {
        markFailed = done;
      });
      faults = { held: null, error: null, listeners: new Set(), failed, markFailed };
      state.set(collection, faults);
    }
    return faults;
  };
  /** Waits while `collection` is held and not failed, then throws its failure if any. */
  const gate = async (collection: CollectionName): Promise<void> => {
    const faults = faultsOf(collection);
    while (faults.held && !faults.error) await Promise.race([faults.held, faults.failed]);
    if (faults.error) throw faults.error;
  };
  const real = inner.catalog;

  const subscribe: CatalogPort['subscribe'] = (collection, query, onNext, onError) => {
    const faults = faultsOf(collection);
    let ended = false;
    let stop: Unsubscribe | null = null;
    const end = (): void => {
      ended = true;
      faults.listeners.delete(listener);
      stop?.();
    };
    const listener: Listener = {
      start() {
        if (ended || stop) return;
        if (faults.error) {
          const error = faults.error;
          queueMicrotask(() => listener.fail(error));
          return;
        }
        stop = real.subscribe(collection, query, onNext, (error) => {
          if (ended) return;
          end();
          onError?.(error);
        });
      },
      fail(error) {
        if (ended) return;
        end();
        onError?.(error);
      },
    };
    faults.listeners.add(listener);
    // A failed collection fails new subscriptions even while held: the failure is what the screen sees.
    if (!faults.held || faults.error) listener.start();
    return end;
  };

  const catalog = decorate<CatalogPort>(real, {
    get: (async (collection: CollectionName, id: string) => {
      await gate(collection);
      return real.get(collection, id);
    }) as CatalogPort['get'],
    query: (async (collection: CollectionName, query?: Parameters<CatalogPort['query']>[1]) => {
      await gate(collection);
      return real.query(collection, query);
    }) as CatalogPort['query'],
    count: async (collection, query) => {
      await gate(collection);
      return real.count(collection, query);
    },
    subscribe,
  });

  const failingLinks = new Set<string>();
  const files = decorate<FileStorePort>(inner.files, {
    getDownloadUrl: async (path) => {
      if (failingLinks.has(path)) throw new Error(`no link for ${path}`);
      return inner.files.getDownloadUrl(path);
    },
  });

  return {
    backend: decorate<Backend>(inner, { catalog, files }),
    failingLinks,
    hold(collection) {
      const faults = faultsOf(collection);
      if (faults.held) return () => undefined;
      let resolve: () => void = () => undefined;
      const held = new Promise<void>((done) => {
        resolve = done;
      });
      faults.held = held;
      return () => {
        if (faults.held !== held) return;
        faults.held = null;
        resolve();
        for (const listener of [...faults.listeners]) listener.start();
      };
    },
    fail(collection, error) {
      const faults = faultsOf(collection);
      faults.error = error;
      faults.markFailed();
      for (const listener of [...faults.listeners]) listener.fail(error);
    },
  };
}
