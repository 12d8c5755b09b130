import { describe, expect, it } from 'vitest';
import { showsNavigation, shouldAutoCollapse } from './navigation.js';

describe('shell navigation rules', () => {
  it('shows the left navigation only under /catalog, /projects, /models and /admin', () => {
    for (const path of ['/catalog', '/projects', '/projects/map', '/projects/abc', '/models', '/admin', '/admin/users']) {
      expect(showsNavigation(path), path).toBe(true);
    }
    for (const path of ['/', '/login', '/catalogue', '/modelsx', '/other']) {
      expect(showsNavigation(path), path).toBe(false);
    }
  });

  it('collapses on arrival at /catalog from /, /login or an empty previous path only', () => {
    expect(shouldAutoCollapse('/catalog', '/')).toBe(true);
    expect(shouldAutoCollapse('/catalog', '/login')).toBe(true);
    expect(shouldAutoCollapse('/catalog', '')).toBe(true);
    expect(shouldAutoCollapse('/catalog', null)).toBe(true);
    expect(shouldAutoCollapse('/catalog', '/projects')).toBe(false);
    expect(shouldAutoCollapse('/projects', '/')).toBe(false);
    expect(shouldAutoCollapse('/models', '/login')).toBe(false);
  });
});
