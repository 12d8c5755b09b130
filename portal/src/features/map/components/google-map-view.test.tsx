/**
 * The keyed map path. Google Maps cannot run here (no key, no network), so
 * `@react-google-maps/api`, `@googlemaps/markerclusterer` and the `google.maps` global are
 * mocked: the test checks what this code asks of them (libraries, language, markers with their
 * colours handed to the clusterer, fitBounds, the popup) and the init polling.
 */
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useEffect, type ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LocatedProject } from './map-types.js';

const loader = vi.hoisted(() => ({ options: [] as unknown[], isLoaded: true }));
const fakeMap = vi.hoisted(() => ({ fitBounds: vi.fn(), panTo: vi.fn(), setZoom: vi.fn() }));
/** What the clusterer was given: the map and the markers; cleared on unmount. */
const clusterers = vi.hoisted(() => [] as Array<{ map: unknown; markers: FakeMarker[]; cleared: boolean }>);
type FakeMarker = { options: { title: string; icon: { fillColor: string } }; listeners: Record<string, () => void>; map: unknown };

vi.mock('@googlemaps/markerclusterer', () => ({
  MarkerClusterer: class {
    entry: { map: unknown; markers: FakeMarker[]; cleared: boolean };
    constructor({ map, markers }: { map: unknown; markers: FakeMarker[] }) {
      this.entry = { map, markers, cleared: false };
      clusterers.push(this.entry);
    }
    clearMarkers() {
      this.entry.cleared = true;
    }
    setMap() {}
  },
}));

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
  MarkerF: ({ title, icon }: { title: string; icon: { fillColor: string } }) => (
    <span data-testid="marker-f" title={title} data-fill={icon.fillColor} />
  ),
  InfoWindowF: ({ children }: { children: ReactNode }) => <div data-testid="info-window">{children}</div>,
}));

const { default: GoogleMapView } = await import('./google-map-view.js');

const projects: LocatedProject[] = [
  { id: 'm', name: 'Multi Tower', structure_id: 'TWR-001', description: '', slug: 'm', location: { lat: 43.47, lng: -80.54 } },
  { id: 's', name: 'Single Bridge', structure_id: 'BRG-002', description: '', slug: 's', location: { lat: 43.45, lng: -80.49 } },
  { id: 'e', name: 'Empty Mast', structure_id: 'MST-003', description: '', slug: 'e', location: { lat: 43.5, lng: -80.6 } },
];
const counts: Record<string, number> = { m: 2, s: 1, e: 0 };

function installGoogle() {
  const extended: unknown[] = [];
  (globalThis as { google?: unknown }).google = {
    maps: {
      Map: function Map() {},
      geometry: {},
      SymbolPath: { CIRCLE: 0 },
      Marker: class {
        options: unknown;
        listeners: Record<string, () => void> = {};
        map: unknown = null;
        constructor(options: unknown) {
          this.options = options;
        }
        addListener(name: string, fn: () => void) {
          this.listeners[name] = fn;
        }
        setMap(map: unknown) {
          this.map = map;
        }
      },
      event: { clearInstanceListeners: () => undefined },
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
  clusterers.length = 0;
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

describe('GoogleMapView with the maps API mocked', () => {
  it('loads the marker and geometry libraries in English, clusters coloured markers and fits the projects', async () => {
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
    // one clusterer on the map with every project's marker (blue 2+, green 1, grey 0)
    await waitFor(() => expect(clusterers).toHaveLength(1));
    const [clusterer] = clusterers;
    expect(clusterer!.map).toBe(fakeMap);
    expect(clusterer!.markers.map((m) => [m.options.title, m.options.icon.fillColor])).toEqual([
      ['Multi Tower', '#2563eb'],
      ['Single Bridge', '#16a34a'],
      ['Empty Mast', '#94a3b8'],
    ]);
    expect(screen.queryAllByTestId('marker-f')).toEqual([]);
    // titled, unoptimised markers are the maps service's keyboard-focusable ones
    expect(clusterer!.markers.every((m) => (m.options as { optimized?: boolean }).optimized === false)).toBe(true);
    await waitFor(() => expect(fakeMap.fitBounds).toHaveBeenCalled());
    expect(extended).toContainEqual({ lat: 43.47, lng: -80.54 });
    // a marker click opens the same popup as the key-less map
    act(() => clusterer!.markers[1]!.listeners.click!());
    fireEvent.click(screen.getByRole('button', { name: 'View Project' }));
    expect(viewed).toEqual(['s']);
    cleanup();
    expect(clusterer!.cleared).toBe(true);
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
