/**
 * The keyed map path. Google Maps cannot run here (no key, no network), so
 * `@react-google-maps/api` and the `google.maps` global are mocked: the test checks what this
 * code asks of them (libraries, language, markers, colours, fitBounds) and the §9 init polling.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocatedProject } from './map-types.js';

const loader = vi.hoisted(() => ({ options: [] as unknown[], isLoaded: true }));
const fakeMap = vi.hoisted(() => ({ fitBounds: vi.fn(), panTo: vi.fn(), setZoom: vi.fn() }));

vi.mock('@react-google-maps/api', () => ({
  useJsApiLoader: (options: unknown) => {
    loader.options.push(options);
    return { isLoaded: loader.isLoaded, loadError: undefined };
  },
  GoogleMap: ({ children, zoom, onLoad }: { children: ReactNode; zoom: number; onLoad: (map: unknown) => void }) => {
    useEffect(() => onLoad(fakeMap), [onLoad]);
    return (
      <div data-testid="google-map" data-zoom={zoom}>
        {children}
      </div>
    );
  },
  MarkerF: ({ title, icon, onClick }: { title: string; icon: { fillColor: string }; onClick?: () => void }) => (
    <button type="button" aria-label={title} data-fill={icon.fillColor} onClick={onClick} />
  ),
  InfoWindowF: ({ children }: { children: ReactNode }) => <div data-testid="info-window">{children}</div>,
}));

const { default: GoogleMapView } = await import('./google-map-view.js');

const projects: LocatedProject[] = [
  { id: 'm', name: 'Multi Tower', structure_id: 'TWR-001', description: '', slug: 'm', location: { lat: 43.47, lng: -80.54 } },
  { id: 's', name: 'Single Bridge', structure_id: 'BRG-002', description: '', slug: 's', location: { lat: 43.45, lng: -80.49 } },
];
const counts: Record<string, number> = { m: 2, s: 1 };

function installGoogle() {
  const extended: unknown[] = [];
  (globalThis as { google?: unknown }).google = {
    maps: {
      Map: function Map() {},
      geometry: {},
      SymbolPath: { CIRCLE: 0 },
      LatLngBounds: class {
        extend(point: unknown) {
          extended.push(point);
        }
      },
    },
  };
  return extended;
}

beforeEach(() => {
  loader.options.length = 0;
  fakeMap.fitBounds.mockClear();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  delete (globalThis as { google?: unknown }).google;
});

function renderView(onUnavailable: () => void = () => undefined, onViewProject: (id: string) => void = () => undefined) {
  return render(
    <GoogleMapView
      apiKey="test-key"
      onUnavailable={onUnavailable}
      projects={projects}
      modelCount={(id) => counts[id] ?? 0}
      currentLocation={null}
      refit={0}
      onViewProject={onViewProject}
    />,
  );
}

describe('GoogleMapView (SPEC.md §2 Project map, §7, §9) with the maps API mocked', () => {
  it('loads the marker and geometry libraries in English, draws coloured markers and fits the projects', async () => {
    const extended = installGoogle();
    const viewed: string[] = [];
    renderView(undefined, (id) => void viewed.push(id));
    expect(loader.options[0]).toEqual({
      id: 'maps-script',
      googleMapsApiKey: 'test-key',
      libraries: ['marker', 'geometry'],
      language: 'en',
    });
    expect((await screen.findByTestId('google-map')).getAttribute('data-zoom')).toBe('10');
    expect(screen.getByRole('button', { name: 'Multi Tower' }).getAttribute('data-fill')).toBe('#2563eb');
    expect(screen.getByRole('button', { name: 'Single Bridge' }).getAttribute('data-fill')).toBe('#16a34a');
    await waitFor(() => expect(fakeMap.fitBounds).toHaveBeenCalled());
    expect(extended).toContainEqual({ lat: 43.47, lng: -80.54 });
    fireEvent.click(screen.getByRole('button', { name: 'Single Bridge' }));
    fireEvent.click(screen.getByRole('button', { name: 'View Project' }));
    expect(viewed).toEqual(['s']);
  });

  it('polls every 500 ms and gives up after 10 s when the API never becomes ready', async () => {
    vi.useFakeTimers();
    const unavailable = vi.fn();
    renderView(unavailable);
    await act(() => vi.advanceTimersByTimeAsync(9_500));
    expect(unavailable).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(unavailable).toHaveBeenCalledTimes(1);
    expect(screen.queryByTestId('google-map')).toBeNull();
  });

  it('shows the map once the API appears during polling', async () => {
    vi.useFakeTimers();
    renderView();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(screen.queryByTestId('google-map')).toBeNull();
    installGoogle();
    await act(() => vi.advanceTimersByTimeAsync(500));
    expect(screen.getByTestId('google-map')).toBeTruthy();
  });
});
