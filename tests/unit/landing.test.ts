import { describe, expect, it } from 'vitest';
import { isExternalToolCard, toolCardLink, toolCardStatus } from '@shared/landing.js';

describe('tool card status (landing page)', () => {
  it("ready: green, 'Access Now', 'Production Ready'", () => {
    expect(toolCardStatus('ready')).toMatchObject({ action: 'Access Now', footer: 'Production Ready', badgeColor: 'green' });
  });

  it("experimental: purple, 'Try Demo', 'Experimental Build'", () => {
    expect(toolCardStatus('experimental')).toMatchObject({ action: 'Try Demo', footer: 'Experimental Build', badgeColor: 'purple' });
  });

  it("beta: 'Beta', 'Try Beta', 'Beta Version', purple (not ready)", () => {
    expect(toolCardStatus('beta')).toEqual({ label: 'Beta', action: 'Try Beta', footer: 'Beta Version', badgeColor: 'purple' });
  });
});

describe('tool card links (external in a new tab, internal in-app)', () => {
  it('opens external cards in a new tab', () => {
    expect(isExternalToolCard({ url: 'https://splats.example.org/' })).toBe(true);
    expect(toolCardLink({ url: 'https://dual.example.org/#/viewer' })).toEqual({
      external: true,
      href: 'https://dual.example.org/#/viewer',
      target: '_blank',
      rel: 'noopener noreferrer',
    });
  });

  it('navigates in-app for internal routes', () => {
    expect(toolCardLink({ url: '/catalog' })).toEqual({ external: false, to: '/catalog' });
    expect(isExternalToolCard({ url: '/viewers' })).toBe(false);
  });

  it('opens the built-in viewer, standing in for an external host, in a new tab too', () => {
    expect(toolCardLink({ url: '/viewer?demo=splat' })).toEqual({
      external: true,
      href: '/viewer?demo=splat',
      target: '_blank',
      rel: 'noopener noreferrer',
    });
    expect(isExternalToolCard({ url: '/viewer?compareMode=true&demo=compare' })).toBe(true);
    expect(isExternalToolCard({ url: '/viewer/' })).toBe(true);
  });
});
