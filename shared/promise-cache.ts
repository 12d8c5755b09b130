/**
 * A small cache of promises by key, for loads that several callers start at once and that should
 * run once (the viewer's camera lists, a screen's download links, the CLI's folder listings): the first caller's promise is kept and every later caller gets the same one.
 * A load that fails is dropped (the next caller loads again); with `max`, the oldest entries go
 * once there are more (first kept, first dropped).
 */

/** Promises kept by key ({@link createPromiseCache}). */
export interface PromiseCache<T> {
  /**
   * The promise kept for `key`, or, when there is none, `load()`'s promise, kept from now on.
   * @param key what the load is of (equal keys share one load)
   * @param load starts the load; called only when nothing is kept for `key`
   * @returns the kept or the new promise (a rejection is passed on to every caller that got it)
   */
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** How many promises are kept (loading or loaded). */
  readonly size: number;
}

/**
 * A new, empty {@link PromiseCache}.
 * @param options.max how many keys are kept at most (default: no limit)
 * @returns the cache
 */
export function createPromiseCache<T>(options: { max?: number } = {}): PromiseCache<T> {
  const kept = new Map<string, Promise<T>>();
  const max = options.max ?? Number.POSITIVE_INFINITY;
  return {
    get(key, load) {
      const found = kept.get(key);
      if (found) return found;
      const promise = load();
      kept.set(key, promise);
      // Only this promise is dropped: a newer load of the same key may be kept by then.
      promise.catch(() => kept.get(key) === promise && kept.delete(key));
      while (kept.size > max) kept.delete(kept.keys().next().value!);
      return promise;
    },
    get size() {
      return kept.size;
    },
  };
}
