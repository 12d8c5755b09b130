import { afterEach, describe, expect, it, vi } from 'vitest';
import { prefersReducedMotion } from './use-reduced-motion.js';

describe('prefersReducedMotion', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('reads the media query', () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query === '(prefers-reduced-motion: reduce)' }));
    expect(prefersReducedMotion()).toBe(true);
    vi.stubGlobal('matchMedia', () => ({ matches: false }));
    expect(prefersReducedMotion()).toBe(false);
  });
});
