/**
 * Project detail's Location section (embedded map at zoom 14, 200 px high): the maps service's
 * embed with a Maps key, the key-less map without one (here the plain grid: jsdom has no WebGL),
 * nothing to draw without coordinates.
 */
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RuntimeConfigProvider, type RuntimeConfig } from '../../../lib/runtime-config.js';
import { ProjectLocationSection } from './project-location.js';

afterEach(cleanup);

const config = (mapsApiKey: string | null): RuntimeConfig => ({
  viewerUrl: 'https://viewer.test',
  mapsApiKey,
  toolViewerUrls: { splatViewer: null, dualViewer: null },
});

describe('ProjectLocationSection', () => {
  it('without a Maps key: the key-less map centred on the project at zoom 14, 200 px high, no iframe', () => {
    render(
      <RuntimeConfigProvider value={config(null)}>
        <ProjectLocationSection location={{ lat: 43.47, lng: -80.54, address: 'North Ridge Rd' }} />
      </RuntimeConfigProvider>,
    );
    const map = screen.getByRole('region', { name: 'Project location map' });
    expect(map.getAttribute('data-zoom')).toBe('14');
    expect(map.getAttribute('data-center')).toBe('43.4700,-80.5400');
    expect(map.style.height).toBe('200px');
    expect(screen.getByTestId('map-marker').getAttribute('aria-label')).toBe('North Ridge Rd');
    // the grid says why it has no tiles
    expect(screen.getByTestId('map-note').textContent).toMatch(/plain grid/);
    expect(document.querySelector('iframe')).toBeNull();
  });

  it('with a Maps key: the maps embed (place query by lat,lng, zoom 14, 200 px)', () => {
    render(
      <RuntimeConfigProvider value={config('k-123')}>
        <ProjectLocationSection location={{ lat: 43.47, lng: -80.54 }} />
      </RuntimeConfigProvider>,
    );
    const embed = screen.getByTitle('Project location map');
    expect(embed.tagName).toBe('IFRAME');
    expect(embed.getAttribute('src')).toBe('https://maps.google.com/maps?q=43.47,-80.54&z=14&output=embed');
    expect(embed.getAttribute('height')).toBe('200');
    expect(screen.queryByRole('region', { name: 'Project location map' })).toBeNull();
  });

  it('an address without coordinates: no map; nothing at all: the spec message', () => {
    render(
      <RuntimeConfigProvider value={config(null)}>
        <ProjectLocationSection location={{ lat: null, lng: null, address: 'Somewhere' }} />
      </RuntimeConfigProvider>,
    );
    expect(screen.queryByRole('region', { name: 'Project location map' })).toBeNull();
    cleanup();
    render(
      <RuntimeConfigProvider value={config(null)}>
        <ProjectLocationSection location={null} />
      </RuntimeConfigProvider>,
    );
    expect(screen.getByText('No location data available for this project')).toBeTruthy();
  });
});
