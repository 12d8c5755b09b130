/**
 * A ref that always holds the latest `value` (updated after each render, before effects run). For
 * effects keyed on purpose by something narrower than the callbacks and values they read: the
 * effect re-runs on its key and reads `ref.current`, the value of the render that ran it.
 */
import { useLayoutEffect, useRef } from 'react';

export function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
