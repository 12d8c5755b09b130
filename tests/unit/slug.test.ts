import { describe, expect, it } from 'vitest';
import { isValidSlug, resolveSlug, slugify } from '@shared/slug.js';

describe('slug (lowercase, spaces to hyphens, only a-z 0-9 -)', () => {
  it.each([
    ['North Tower', 'north-tower'],
    ['Tower 12', 'tower-12'],
    ['  Tower   12 – North Face ', 'tower-12-north-face'],
    ['Bridge_#7 (2024)!', 'bridge7-2024'],
    ['Café Émile', 'cafe-emile'],
    ['already-a-slug', 'already-a-slug'],
    ['--x--', 'x'],
    ['東京', ''],
  ])('%j → %j', (text, slug) => {
    expect(slugify(text)).toBe(slug);
    expect(slug === '' || isValidSlug(slug)).toBe(true);
  });

  it('is generated from the name when empty', () => {
    expect(resolveSlug('', 'North Tower')).toBe('north-tower');
    expect(resolveSlug(null, 'North Tower')).toBe('north-tower');
    expect(resolveSlug('   ', 'North Tower')).toBe('north-tower');
    expect(resolveSlug('!!!', 'North Tower')).toBe('north-tower');
    expect(resolveSlug('My Custom', 'North Tower')).toBe('my-custom');
  });

  it('validates the normal form', () => {
    expect(isValidSlug('a-1')).toBe(true);
    expect(isValidSlug('A-1')).toBe(false);
    expect(isValidSlug('a--1')).toBe(false);
    expect(isValidSlug('')).toBe(false);
  });
});
