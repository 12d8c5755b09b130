/// <reference types="google.maps" />
/**
 * The maps-service project map (the Maps script loaded with the marker and geometry libraries,
 * in English; the default centre and zoom). Loaded
 * lazily, only when a Maps API key is configured. Initialisation polls every 500 ms for the
 * loaded API and gives up after 10 s, when `onUnavailable` switches the screen to the key-less
 * map. The project markers are grouped by `@googlemaps/markerclusterer` (so 1,000 projects
 * stay readable; a cluster click zooms in), created once per set of projects and colours. The
 * tests mock the loader and the clusterer: there is no key and no network here.
 */
import { GoogleMap, InfoWindowF, MarkerF, useJsApiLoader, type Libraries } from '@react-google-maps/api';
import { MarkerClusterer } from '@googlemaps/markerclusterer';
import { useEffect, useState } from 'react';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM, MAP_USER_LOCATION_ZOOM } from '@shared/constants.js';
import { CURRENT_LOCATION_MARKER, projectMarker } from '../lib/marker-style.js';
import { pollUntil } from '../lib/poll.js';
import { useLatest } from '../../../hooks/use-latest.js';
import type { MapRendererProps } from './map-types.js';
import { ProjectPopup } from './project-popup.js';

const LIBRARIES: Libraries = ['marker', 'geometry'];
const CONTAINER_STYLE = { width: '100%', height: '500px' } as const;

function circleIcon(hex: string): google.maps.Symbol {
  return { path: google.maps.SymbolPath.CIRCLE, scale: 9, fillColor: hex, fillOpacity: 1, strokeColor: '#ffffff', strokeWeight: 2 };
}

export interface GoogleMapViewProps extends MapRendererProps {
  apiKey: string;
  onUnavailable: () => void;
}

export default function GoogleMapView({
  apiKey,
  onUnavailable,
  projects,
  modelCount,
  currentLocation,
  refit,
  onViewProject,
}: GoogleMapViewProps) {
  const { isLoaded, loadError } = useJsApiLoader({ id: 'maps-script', googleMapsApiKey: apiKey, libraries: LIBRARIES, language: 'en' });
  const [ready, setReady] = useState(false);
  const [map, setMap] = useState<google.maps.Map | null>(null);
  const [selected, setSelected] = useState<string | null>(null);

  useEffect(() => {
    if (loadError) {
      console.error(loadError);
      onUnavailable();
    }
  }, [loadError, onUnavailable]);

  useEffect(() => {
    if (!isLoaded) return;
    const controller = new AbortController();
    void pollUntil(() => typeof google !== 'undefined' && Boolean(google.maps?.Map) && Boolean(google.maps?.geometry), {
      signal: controller.signal,
    }).then((ok) => {
      if (controller.signal.aborted) return;
      if (ok) setReady(true);
      else onUnavailable();
    });
    return () => controller.abort();
  }, [isLoaded, onUnavailable]);

  // Keyed by the places: a new snapshot of the same places does not re-fit.
  const pointsKey = projects.map((p) => `${p.location.lat},${p.location.lng}`).join(';');
  const latestProjects = useLatest(projects);
  useEffect(() => {
    const located = latestProjects.current;
    if (!map || located.length === 0) return;
    const bounds = new google.maps.LatLngBounds();
    for (const p of located) bounds.extend({ lat: p.location.lat, lng: p.location.lng });
    map.fitBounds(bounds);
  }, [map, latestProjects, pointsKey, refit]);

  // The project markers, clustered: rebuilt when the places, names or colours change.
  const markersKey = projects.map((p) => `${p.id}@${p.location.lat},${p.location.lng},${p.name},${modelCount(p.id)}`).join(';');
  const latestView = useLatest({ projects, modelCount });
  useEffect(() => {
    if (!map) return;
    const { projects: located, modelCount: countOf } = latestView.current;
    const markers = located.map((project) => {
      const marker = new google.maps.Marker({
        position: { lat: project.location.lat, lng: project.location.lng },
        title: project.name,
        icon: circleIcon(projectMarker(countOf(project.id)).hex),
        // a titled, clickable, unoptimised marker is focusable (Tab, arrow keys) and Enter opens its info window
        optimized: false,
      });
      marker.addListener('click', () => setSelected(project.id));
      return marker;
    });
    const clusterer = new MarkerClusterer({ map, markers });
    return () => {
      clusterer.clearMarkers();
      clusterer.setMap(null);
      for (const marker of markers) {
        google.maps.event.clearInstanceListeners(marker);
        marker.setMap(null);
      }
    };
  }, [map, latestView, markersKey]);

  const lat = currentLocation?.lat;
  const lng = currentLocation?.lng;
  useEffect(() => {
    if (!map || lat === undefined || lng === undefined) return;
    map.panTo({ lat, lng });
    map.setZoom(MAP_USER_LOCATION_ZOOM);
  }, [map, lat, lng]);

  if (!ready) return <div className="keyless-map" style={{ height: 500 }} aria-busy="true" />;
  const selectedProject = projects.find((p) => p.id === selected) ?? null;
  return (
    <GoogleMap
      mapContainerStyle={CONTAINER_STYLE}
      center={currentLocation ?? MAP_DEFAULT_CENTER}
      zoom={currentLocation ? MAP_USER_LOCATION_ZOOM : MAP_DEFAULT_ZOOM}
      onLoad={setMap}
      onUnmount={() => setMap(null)}
    >
      {currentLocation ? (
        <MarkerF position={currentLocation} title="Current Location" icon={circleIcon(CURRENT_LOCATION_MARKER.hex)} />
      ) : null}
      {selectedProject ? (
        <InfoWindowF
          position={{ lat: selectedProject.location.lat, lng: selectedProject.location.lng }}
          onCloseClick={() => setSelected(null)}
        >
          <ProjectPopup
            project={selectedProject}
            modelCount={modelCount(selectedProject.id)}
            onView={() => onViewProject(selectedProject.id)}
          />
        </InfoWindowF>
      ) : null}
    </GoogleMap>
  );
}
