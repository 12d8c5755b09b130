/**
 * The project map screen: three stat cards (Projects with Location,
 * Multi-Temporal, Initial Assessment), the legend, the 'Current Location' toggle (off →
 * locating → on, again → off and re-fit; the geolocation messages), and the map: the maps-service
 * map (lazily loaded) when a Maps API key is configured, else — or when it cannot initialise —
 * the key-less map (MapLibre over OpenStreetMap tiles, the plain grid offline) with the
 * same markers, clusters and popups. Only projects with numeric lat and lng are shown;
 * without any, the 'No Projects with Location Data' state.
 *
 * Marker colour, stat cards and the popup's badge come from one count per project: the models
 * the viewer can see (the project summaries the route hands in: hidden models counted for admins only). A project without
 * models is grey (no badge); the legend names grey only when such a marker is on the map, so
 * every colour shown is explained and the legend keeps its usual three items otherwise.
 *
 * For keyboard and screen readers: the stat cards are a list named 'Map statistics', the legend a
 * list named 'Legend'; the geolocation message lands in an alert region that is there before it;
 * the map region is named 'Project map' and reachable by keyboard (see `components/map`).
 */
import { Suspense, lazy, useCallback, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { ProjectSummary } from '@shared/ports/catalog.js';
import { mapStats, modelCountOf, projectsOnMap, summaryCounts } from '@shared/projects.js';
import type { Project } from '@shared/types.js';
import { EmptyState } from '../../../components/ui/empty-state.js';
import { LoadingState, Spinner } from '../../../components/ui/spinner.js';
import { paths } from '../../../config/paths.js';
import type { Resource } from '../../../lib/resource.js';
import { useRuntimeConfig } from '../../../lib/runtime-config.js';
import { useCurrentLocation } from '../hooks/use-current-location.js';
import { CURRENT_LOCATION_MARKER, MARKER_HEX, projectMarker } from '../lib/marker-style.js';
import { KeylessMap } from '../../../components/map/keyless-map.js';
import type { MapPoint } from '../../../components/map/types.js';
import { MAP_USER_LOCATION_ZOOM } from '@shared/constants.js';
import { ProjectPopup } from './project-popup.js';
import '../map.css';

const GoogleMapView = lazy(() => import('./google-map-view.js'));
const FIT_PROJECTS = { kind: 'fit', maxZoom: 15 } as const;

export interface ProjectMapViewProps {
  projects: Project[];
  counts: ReadonlyMap<string, number>;
  /** null: no key configured, the key-less map. */
  mapsApiKey: string | null;
  /** The browser's geolocation (injectable for tests; undefined = unsupported). */
  geolocation?: Geolocation | undefined;
}

function LegendItem({ hex, label }: { hex: string; label: string }) {
  return (
    <li className="legend-item">
      <span className="legend-dot" style={{ background: hex }} aria-hidden="true" />
      {label}
    </li>
  );
}

export function ProjectMapView({ projects, counts, mapsApiKey, geolocation = globalThis.navigator?.geolocation }: ProjectMapViewProps) {
  const navigate = useNavigate();
  const location = useCurrentLocation(geolocation);
  const [keyedUnavailable, setKeyedUnavailable] = useState(false);
  const onUnavailable = useCallback(() => setKeyedUnavailable(true), []);
  const located = useMemo(() => projectsOnMap(projects), [projects]);
  const stats = mapStats(projects, counts);
  const modelCount = useCallback((id: string) => modelCountOf(counts, id), [counts]);

  const points = useMemo<MapPoint[]>(
    () =>
      located.map((p) => {
        const marker = projectMarker(modelCount(p.id));
        return { id: p.id, lat: p.location.lat, lng: p.location.lng, label: p.name, color: marker.hex, colorName: marker.color };
      }),
    [located, modelCount],
  );
  const renderPopup = useCallback(
    (id: string) => {
      const project = located.find((p) => p.id === id);
      return project ? (
        <ProjectPopup project={project} modelCount={modelCount(id)} onView={() => navigate(paths.project.getHref(id))} />
      ) : null;
    },
    [located, modelCount, navigate],
  );

  if (located.length === 0) {
    return (
      <EmptyState title="No Projects with Location Data">
        <Link className="button button-secondary" to={paths.catalog.getHref()}>
          Browse All Projects
        </Link>
      </EmptyState>
    );
  }

  const renderer = {
    projects: located,
    modelCount,
    currentLocation: location.status === 'on' ? location.position : null,
    refit: location.refit,
    onViewProject: (id: string) => navigate(paths.project.getHref(id)),
  };
  const useKeyed = mapsApiKey !== null && mapsApiKey !== '' && !keyedUnavailable;

  return (
    <>
      <div className="stat-grid map-stats" role="list" aria-label="Map statistics">
        <div className="stat-card" data-testid="stat-with-location" role="listitem">
          <div className="stat-value">{stats.withLocation}</div>
          <div className="stat-label">Projects with Location</div>
        </div>
        <div className="stat-card" data-testid="stat-multi-temporal" role="listitem">
          <div className="stat-value" style={{ color: MARKER_HEX.blue }}>
            {stats.multiTemporal}
          </div>
          <div className="stat-label">Multi-Temporal</div>
        </div>
        <div className="stat-card" data-testid="stat-initial-assessment" role="listitem">
          <div className="stat-value" style={{ color: MARKER_HEX.green }}>
            {stats.initialAssessment}
          </div>
          <div className="stat-label">Initial Assessment</div>
        </div>
      </div>
      <div className="map-toolbar">
        <ul className="legend" aria-label="Legend">
          <LegendItem hex={MARKER_HEX.blue} label="Multi-Temporal" />
          <LegendItem hex={MARKER_HEX.green} label="Initial Assessment" />
          {points.some((p) => p.colorName === 'grey') ? <LegendItem hex={MARKER_HEX.grey} label="No Models" /> : null}
          <LegendItem hex={CURRENT_LOCATION_MARKER.hex} label="Current Location" />
        </ul>
        <button
          type="button"
          className={`button ${location.status === 'on' ? 'button-primary' : 'button-secondary'}`}
          aria-pressed={location.status === 'on'}
          data-status={location.status}
          data-testid="location-toggle"
          onClick={location.toggle}
        >
          {location.status === 'locating' ? <Spinner size="sm" /> : null} Current Location
        </button>
      </div>
      <div role="alert">{location.error ? <p className="alert alert-error">{location.error}</p> : null}</div>
      <div className="map-frame">
        {useKeyed ? (
          <Suspense fallback={<LoadingState label="Loading map..." />}>
            <GoogleMapView apiKey={mapsApiKey} onUnavailable={onUnavailable} {...renderer} />
          </Suspense>
        ) : (
          <KeylessMap
            points={points}
            height={500}
            view={FIT_PROJECTS}
            cluster
            currentLocation={renderer.currentLocation}
            locationZoom={MAP_USER_LOCATION_ZOOM}
            refit={renderer.refit}
            renderPopup={renderPopup}
            label="Project map"
          />
        )}
      </div>
    </>
  );
}

/** The screen on the live projects and project summaries the app's route hands in. */
export function ProjectMap({ projects, summaries }: { projects: Resource<Project[]>; summaries: Resource<ProjectSummary[]> }) {
  const config = useRuntimeConfig();
  const counts = useMemo(() => summaryCounts(summaries.data ?? []), [summaries.data]);
  if (projects.status === 'loading' || config.status === 'loading') return <LoadingState label="Loading projects..." />;
  if (projects.status === 'error') console.error(projects.error);
  return (
    <ProjectMapView
      projects={projects.data ?? []}
      counts={counts}
      mapsApiKey={config.status === 'success' ? config.data.mapsApiKey : null}
    />
  );
}
