import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { GEOLOCATION_OPTIONS } from '@shared/constants.js';
import type { Project } from '@shared/types.js';
import { ProjectMapView } from './project-map.js';

afterEach(cleanup);

const projects: Project[] = [
  {
    id: 'multi',
    name: 'Multi Tower',
    structure_id: 'TWR-001',
    description: '',
    slug: 'm',
    location: { lat: 43.47, lng: -80.54, address: 'North Ridge' },
  },
  { id: 'single', name: 'Single Bridge', structure_id: 'BRG-002', description: '', slug: 's', location: { lat: 43.45, lng: -80.49 } },
  { id: 'empty', name: 'Empty Mast', structure_id: 'MST-003', description: '', slug: 'e', location: { lat: 43.5, lng: -80.6 } },
  {
    id: 'text',
    name: 'Text Coordinates',
    structure_id: 'X-1',
    description: '',
    slug: 't',
    location: { lat: '43.4' as unknown as number, lng: -80.5 },
  },
  { id: 'none', name: 'No Location', structure_id: 'X-2', description: '', slug: 'n' },
];
const counts = new Map([
  ['multi', 3],
  ['single', 1],
]);

/** A controllable stand-in for the browser's geolocation (mocked: headless jsdom has none). */
function fakeGeolocation() {
  const calls: Array<{ success: PositionCallback; error: PositionErrorCallback | null | undefined; options: PositionOptions | undefined }> =
    [];
  const geolocation = {
    getCurrentPosition: (success: PositionCallback, error?: PositionErrorCallback | null, options?: PositionOptions) => {
      calls.push({ success, error, options });
    },
    watchPosition: () => 0,
    clearWatch: () => undefined,
  } as Geolocation;
  const resolve = (lat: number, lng: number) =>
    act(() => calls.at(-1)?.success({ coords: { latitude: lat, longitude: lng } } as GeolocationPosition));
  const reject = (code: number) => act(() => calls.at(-1)?.error?.({ code, message: 'x' } as GeolocationPositionError));
  return { geolocation, calls, resolve, reject };
}

function renderMap(list: Project[], geolocation?: Geolocation) {
  return render(
    <MemoryRouter initialEntries={['/projects/map']}>
      <Routes>
        <Route
          path="/projects/map"
          element={<ProjectMapView projects={list} counts={counts} mapsApiKey={null} geolocation={geolocation} />}
        />
        <Route path="/projects/:id" element={<p>project page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const toggle = () => screen.getByTestId('location-toggle');

describe('ProjectMapView without a Maps API key', () => {
  it('shows the stat cards, the legend and only projects with numeric lat and lng, coloured by model count', () => {
    renderMap(projects, fakeGeolocation().geolocation);
    expect(within(screen.getByTestId('stat-with-location')).getByText('3')).toBeTruthy();
    expect(screen.getByText('Projects with Location')).toBeTruthy();
    expect(within(screen.getByTestId('stat-multi-temporal')).getByText('1')).toBeTruthy();
    expect(within(screen.getByTestId('stat-initial-assessment')).getByText('1')).toBeTruthy();
    const legend = screen.getByRole('list', { name: 'Legend' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Multi-Temporal', 'Initial Assessment', 'No Models', 'Current Location']);
    const markers = screen.getAllByTestId('map-marker');
    // 0 models has no badge, so its marker is grey, not green
    expect(markers.map((m) => [m.getAttribute('aria-label'), m.getAttribute('data-color')])).toEqual([
      ['Multi Tower', 'blue'],
      ['Single Bridge', 'green'],
      ['Empty Mast', 'grey'],
    ]);
    expect(screen.getByTestId('keyless-map')).toBeTruthy();
  });

  it("opens a popup whose 'View Project' goes to /projects/{id}", () => {
    renderMap(projects, fakeGeolocation().geolocation);
    fireEvent.click(screen.getByRole('button', { name: 'Multi Tower' }));
    const popup = screen.getByTestId('map-popup');
    expect(within(popup).getByText('ID: TWR-001')).toBeTruthy();
    expect(within(popup).getByText('Multi-Temporal')).toBeTruthy();
    expect(within(popup).getByText('3 models')).toBeTruthy();
    expect(within(popup).getByText('North Ridge')).toBeTruthy();
    fireEvent.click(within(popup).getByRole('button', { name: 'View Project' }));
    expect(screen.getByText('project page')).toBeTruthy();
  });

  it("by keyboard: named statistics and map, the popup a dialog with 'View Project' focused, Escape back to the marker", () => {
    renderMap(projects, fakeGeolocation().geolocation);
    const stats = screen.getByRole('list', { name: 'Map statistics' });
    expect(within(stats).getAllByRole('listitem')).toHaveLength(3);
    expect(screen.getByRole('region', { name: 'Project map' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Current Location' }).getAttribute('aria-pressed')).toBe('false');
    // the alert region is there before any geolocation message
    expect(screen.getByRole('alert').textContent).toBe('');
    const marker = screen.getByRole('button', { name: 'Multi Tower' });
    marker.focus();
    fireEvent.click(marker);
    const dialog = screen.getByRole('dialog', { name: 'Multi Tower' });
    expect(within(dialog).getByRole('heading', { level: 2, name: 'Multi Tower' })).toBeTruthy();
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'View Project' }));
    expect(marker.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(marker);
    expect(marker.getAttribute('aria-expanded')).toBe('false');
  });

  it('toggles Current Location off → locating → on (red marker, zoom 12), again → off and re-fit', () => {
    const geo = fakeGeolocation();
    renderMap(projects, geo.geolocation);
    const map = screen.getByTestId('keyless-map');
    const fitted = { zoom: map.getAttribute('data-zoom'), center: map.getAttribute('data-center') };
    expect(toggle().getAttribute('data-status')).toBe('off');
    fireEvent.click(toggle());
    expect(toggle().getAttribute('data-status')).toBe('locating');
    expect(geo.calls[0]?.options).toEqual(GEOLOCATION_OPTIONS);
    expect(GEOLOCATION_OPTIONS).toEqual({ enableHighAccuracy: true, timeout: 10_000, maximumAge: 600_000 });
    geo.resolve(43.4, -80.45);
    expect(toggle().getAttribute('data-status')).toBe('on');
    expect(toggle().getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('current-location-marker').getAttribute('data-color')).toBe('red');
    expect(map.getAttribute('data-zoom')).toBe('12');
    expect(map.getAttribute('data-center')).toBe('43.4000,-80.4500');
    fireEvent.click(toggle());
    expect(toggle().getAttribute('data-status')).toBe('off');
    expect(screen.queryByTestId('current-location-marker')).toBeNull();
    expect({ zoom: map.getAttribute('data-zoom'), center: map.getAttribute('data-center') }).toEqual(fitted);
  });

  it('shows every geolocation message', () => {
    const geo = fakeGeolocation();
    renderMap(projects, geo.geolocation);
    const cases: Array<[number, string]> = [
      [1, 'Location access denied by user.'],
      [2, 'Location information is unavailable.'],
      [3, 'Location request timed out.'],
      [99, 'Unable to retrieve your location.'],
    ];
    for (const [code, message] of cases) {
      fireEvent.click(toggle());
      geo.reject(code);
      expect(screen.getByRole('alert').textContent).toBe(message);
      expect(toggle().getAttribute('data-status')).toBe('off');
    }
    cleanup();
    renderMap(projects, undefined);
    fireEvent.click(toggle());
    expect(screen.getByRole('alert').textContent).toBe('Geolocation is not supported by this browser.');
  });

  it("shows 'No Projects with Location Data' with 'Browse All Projects' to /catalog", () => {
    renderMap([projects[3] as Project, projects[4] as Project], fakeGeolocation().geolocation);
    expect(screen.getByText('No Projects with Location Data')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Browse All Projects' }).getAttribute('href')).toBe('/catalog');
    expect(screen.queryByTestId('keyless-map')).toBeNull();
  });
});
