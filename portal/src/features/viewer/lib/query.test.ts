import { describe, expect, it } from 'vitest';
import { paths } from '../../../config/paths.js';
import { findingFromQuery, parseViewerQuery, upAxisFromQuery, withUpAxis } from './query.js';

describe('viewer URL contract', () => {
  it('reads ?id= as one model, trimmed and URL-decoded', () => {
    expect(parseViewerQuery('?id=TWR-001-2024-05')).toEqual({ mode: 'single', id: 'TWR-001-2024-05' });
    expect(parseViewerQuery('id=%20A%2FB%20')).toEqual({ mode: 'single', id: 'A/B' });
  });

  it('reads compare mode only with compareMode=true and a referenceId', () => {
    expect(parseViewerQuery('?compareMode=true&id=A&referenceId=R')).toEqual({ mode: 'compare', id: 'A', referenceId: 'R' });
    expect(parseViewerQuery('?compareMode=false&id=A&referenceId=R')).toEqual({ mode: 'single', id: 'A' });
    expect(parseViewerQuery('?compareMode=true&id=A')).toMatchObject({ mode: 'invalid' });
  });

  it('needs an id (except for the landing cards’ demo links)', () => {
    expect(parseViewerQuery('')).toMatchObject({ mode: 'invalid', reason: 'No model given: the link needs ?id={publicId}.' });
    expect(parseViewerQuery('?id=%20')).toMatchObject({ mode: 'invalid' });
    expect(parseViewerQuery('?demo=splat')).toEqual({ mode: 'demo', kind: 'splat' });
    expect(parseViewerQuery('?compareMode=true&demo=compare')).toEqual({ mode: 'demo', kind: 'compare' });
    expect(parseViewerQuery('?demo=other')).toMatchObject({ mode: 'invalid' });
  });

  it('round-trips the links paths.viewer builds', () => {
    expect(paths.viewer.getHref('A 1')).toBe('/viewer?id=A%201');
    expect(parseViewerQuery(paths.viewer.getHref('A 1').split('?')[1]!)).toEqual({ mode: 'single', id: 'A 1' });
    const compare = paths.viewer.getHref('A&1', 'R#2');
    expect(compare).toBe('/viewer?compareMode=true&id=A%261&referenceId=R%232');
    expect(parseViewerQuery(compare.slice(compare.indexOf('?')))).toEqual({ mode: 'compare', id: 'A&1', referenceId: 'R#2' });
  });

  it('keeps the up-axis choice in up=y-down|y-up, other parameters untouched', () => {
    expect(upAxisFromQuery('?id=A&up=y-up')).toBe('y-up');
    expect(upAxisFromQuery('?id=A&up=y-down')).toBe('y-down');
    expect(upAxisFromQuery('?id=A&up=sideways')).toBeNull();
    expect(upAxisFromQuery('?id=A')).toBeNull();
    expect(withUpAxis('?id=A&x=1', 'y-up')).toBe('?id=A&x=1&up=y-up');
    expect(withUpAxis('?id=A&up=y-up', 'y-down')).toBe('?id=A&up=y-down');
  });

  it('reads the finding to open: finding=3 or F-3; anything else is none', () => {
    expect(findingFromQuery('?id=A&finding=3')).toBe(3);
    expect(findingFromQuery('?id=A&finding=F-12')).toBe(12);
    expect(findingFromQuery('?id=A')).toBeNull();
    for (const bad of ['0', '-1', '2.5', 'x', '']) expect(findingFromQuery(`?id=A&finding=${bad}`)).toBeNull();
  });
});
