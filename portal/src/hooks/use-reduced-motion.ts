/**
 * The visitor's `prefers-reduced-motion: reduce` setting (WCAG 2.3.3): components that
 * move things from script (an animated image swapped in, a camera flight) check it, since CSS's
 * media query does not reach them.
 */
import { useSyncExternalStore } from 'react';

/** The media query of the setting. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function reducedMotionQuery(): MediaQueryList | null {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION_QUERY) : null;
}

/** True when the visitor asks for reduced motion (right now; false where matchMedia is missing). */
export function prefersReducedMotion(): boolean {
  return reducedMotionQuery()?.matches ?? false;
}

/** {@link prefersReducedMotion}, re-rendering the caller when the setting changes. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = reducedMotionQuery();
      query?.addEventListener('change', onChange);
      return () => query?.removeEventListener('change', onChange);
    },
    prefersReducedMotion,
    () => false,
  );
}
