import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ToolCard } from '@shared/types.js';
import { TOOL_CARDS, toolCards } from '../tool-cards.js';
import { LandingPage } from './landing-page.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderLanding(cards?: readonly ToolCard[]) {
  return render(
    <MemoryRouter>
      <LandingPage year={2031} {...(cards ? { cards } : {})} />
    </MemoryRouter>,
  );
}

describe('LandingPage', () => {
  it('shows the top bar, title with BETA, subtitle, Getting Started and the footer', () => {
    renderLanding();
    expect(screen.getByRole('link', { name: 'InspectAI' }).getAttribute('href')).toBe('/');
    expect(screen.getByText('BETA').className).toContain('badge');
    expect(screen.getByText('AI-Powered Vision & 3D Analysis Platform for Infrastructure Inspection and Monitoring')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Getting Started' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Start Exploring' }).getAttribute('href')).toBe('/projects');
    expect(screen.getByText(/© 2031 InspectAI\. All rights reserved\./)).toBeTruthy();
    expect(screen.getByText('A platform for the future of infrastructure inspection.')).toBeTruthy();
  });

  it('shows the three cards: catalog ready and internal; the viewers experimental, in the built-in viewer (new tab) by default', () => {
    renderLanding();
    const cards = screen.getAllByTestId('tool-card');
    expect(cards).toHaveLength(3);
    const [catalog, splat, dual] = cards as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(catalog).getByRole('heading').textContent).toBe('Infrastructure Inspection Catalog');
    expect(within(catalog).getByText('Ready').className).toContain('badge-green');
    const access = within(catalog).getByRole('link', { name: 'Access Now' });
    expect(access.getAttribute('href')).toBe('/catalog');
    expect(access.getAttribute('target')).toBeNull();
    expect(within(catalog).getByText('Production Ready')).toBeTruthy();
    for (const card of [splat, dual]) {
      expect(within(card).getByText('Experimental').className).toContain('badge-purple');
      expect(within(card).getByText('Experimental Build')).toBeTruthy();
      // the built-in viewer stands in for the external host: a new tab, as an external card
      const demo = within(card).getByRole('link', { name: 'Try Demo' });
      expect(demo.getAttribute('target')).toBe('_blank');
      expect(demo.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(within(splat).getByRole('link', { name: 'Try Demo' }).getAttribute('href')).toBe('/viewer?demo=splat');
    expect(within(dual).getByRole('link', { name: 'Try Demo' }).getAttribute('href')).toBe('/viewer?compareMode=true&demo=compare');
  });

  it('opens configured external viewers in a new tab (card 3 on its #/viewer route)', () => {
    renderLanding(toolCards({ splatViewer: 'https://splats.lab.example/', dualViewer: 'https://monitor.lab.example' }));
    const [, splat, dual] = screen.getAllByTestId('tool-card') as [HTMLElement, HTMLElement, HTMLElement];
    for (const card of [splat, dual]) {
      const demo = within(card).getByRole('link', { name: 'Try Demo' });
      expect(demo.getAttribute('target')).toBe('_blank');
      expect(demo.getAttribute('rel')).toBe('noopener noreferrer');
    }
    expect(within(splat).getByRole('link', { name: 'Try Demo' }).getAttribute('href')).toBe('https://splats.lab.example/');
    expect(within(dual).getByRole('link', { name: 'Try Demo' }).getAttribute('href')).toBe('https://monitor.lab.example/#/viewer');
  });

  it('loads images lazily, switches to the animated image on hover and clamps descriptions', () => {
    renderLanding();
    const card = screen.getAllByTestId('tool-card')[0] as HTMLElement;
    const image = within(card).getByRole('img');
    expect(image.getAttribute('loading')).toBe('lazy');
    expect(image.getAttribute('src')).toBe(TOOL_CARDS[0]?.images.static);
    fireEvent.mouseEnter(card);
    expect(image.getAttribute('src')).toBe(TOOL_CARDS[0]?.images.animated);
    fireEvent.mouseLeave(card);
    expect(image.getAttribute('src')).toBe(TOOL_CARDS[0]?.images.static);
    expect(within(card).getByText(/^Browse and manage 3D model collections/).className).toContain('tool-card-description');
  });

  it('keeps the still image for a visitor who asks for reduced motion', () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: query === '(prefers-reduced-motion: reduce)',
          media: query,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
        }) as unknown as MediaQueryList,
    );
    renderLanding();
    const card = screen.getAllByTestId('tool-card')[0] as HTMLElement;
    const image = within(card).getByRole('img');
    fireEvent.mouseEnter(card);
    expect(image.getAttribute('src')).toBe(TOOL_CARDS[0]?.images.static);
    fireEvent.focus(within(card).getByRole('link', { name: 'Access Now' }));
    expect(image.getAttribute('src')).toBe(TOOL_CARDS[0]?.images.static);
  });

  it('has a skip link before the top bar, one main landmark with the h1, and its title', () => {
    renderLanding();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(document.querySelector('a[href]')).toBe(skip);
    const main = screen.getByRole('main');
    expect(main.contains(screen.getByRole('heading', { level: 1 }))).toBe(true);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(main);
    expect(document.title).toBe('Infrastructure Inspection Platform · Tower Models Catalog');
  });

  it("presents a beta card as 'Beta', 'Try Beta', 'Beta Version' with a purple badge", () => {
    const beta: ToolCard = { ...(TOOL_CARDS[1] as ToolCard), id: 'b', name: 'Beta tool', status: 'beta' };
    renderLanding([beta]);
    expect(screen.getByText('Beta').className).toContain('badge-purple');
    expect(screen.getByRole('link', { name: 'Try Beta' })).toBeTruthy();
    expect(screen.getByText('Beta Version')).toBeTruthy();
  });
});
