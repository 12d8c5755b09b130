/**
 * Hook results in reactfire's shape: `{ status, data, error }`, and the two hooks every
 * data hook is built from (one-shot promise, live subscription).
 */
import { useEffect, useState } from 'react';
import { useLatest } from '../hooks/use-latest.js';

export type Resource<T> =
  | { status: 'loading'; data: undefined; error: undefined }
  | { status: 'success'; data: T; error: undefined }
  | { status: 'error'; data: undefined; error: Error };

export const loading = { status: 'loading', data: undefined, error: undefined } as const;

export function success<T>(data: T): Resource<T> {
  return { status: 'success', data, error: undefined };
}

export function failure<T>(error: unknown): Resource<T> {
  return { status: 'error', data: undefined, error: error instanceof Error ? error : new Error(String(error)) };
}

/**
 * Runs `load` whenever `key` changes (null: nothing to load, stays loading) and returns its
 * result as a Resource. Stale results of a previous key are dropped.
 */
export function usePromise<T>(key: string | null, load: () => Promise<T>): Resource<T> {
  const [state, setState] = useState<{ key: string | null; value: Resource<T> }>({ key, value: loading });
  // `load` is keyed by `key` on purpose: callers pass inline closures.
  const latestLoad = useLatest(load);
  useEffect(() => {
    if (key === null) return;
    let active = true;
    latestLoad.current().then(
      (data) => active && setState({ key, value: success(data) }),
      (error: unknown) => active && setState({ key, value: failure(error) }),
    );
    return () => {
      active = false;
    };
  }, [key, latestLoad]);
  return state.key === key ? state.value : loading;
}

/**
 * Subscribes with `subscribe(onNext, onError)` whenever `key` changes (null: no subscription)
 * and returns the latest value as a Resource; unsubscribes on change and unmount.
 */
export function useSubscription<T>(
  key: string | null,
  subscribe: (onNext: (value: T) => void, onError: (error: Error) => void) => () => void,
): Resource<T> {
  const [state, setState] = useState<{ key: string | null; value: Resource<T> }>({ key, value: loading });
  // Keyed by `key` like `usePromise`: callers pass inline closures.
  const latestSubscribe = useLatest(subscribe);
  useEffect(() => {
    if (key === null) return;
    let active = true;
    const unsubscribe = latestSubscribe.current(
      (value) => active && setState({ key, value: success(value) }),
      (error) => active && setState({ key, value: failure(error) }),
    );
    return () => {
      active = false;
      unsubscribe();
    };
  }, [key, latestSubscribe]);
  return state.key === key ? state.value : loading;
}
