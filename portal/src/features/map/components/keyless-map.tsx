/**
 * The key-less project map (SPEC.md §2 Project map, for a lab without a Maps API key): a
 * Web-Mercator projection of the same markers, drawn over a latitude/longitude graticule with no
 * tiles and no network. Markers are coloured by §9 (blue multi-temporal, green initial assessment,
 * red current location); clicking one opens its popup with 'View Project'. The view fits the
 * projects, centres on the user at zoom 12 when the location turns on, and re-fits when it turns
 * off. + / − buttons zoom.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { MAP_USER_LOCATION_ZOOM } from '@shared/constants.js';
import { CURRENT_LOCATION_MARKER, projectMarker } from '../lib/marker-style.js';
import { MAX_ZOOM, MIN_ZOOM, fitView, graticuleStep, toScreen, unproject, project as toWorld, type MapView } from '../lib/viewport.js';
import { useLatest } from '../../../hooks/use-latest.js';
import type { MapRendererProps } from './map-types.js';
import { ProjectPopup } from './project-popup.js';

const HEIGHT = 500;
const FALLBACK_WIDTH = 900;

function useWidth(ref: React.RefObject<HTMLDivElement | null>): number {
  const [width, setWidth] = useState(FALLBACK_WIDTH);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth > 0 ? element.clientWidth : FALLBACK_WIDTH);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

function formatDegrees(value: number, positive: string, negative: string): string {
  const rounded = Math.round(Math.abs(value) * 1000) / 1000;
  return `${rounded}°${value >= 0 ? positive : negative}`;
}

export function KeylessMap({ projects, modelCount, currentLocation, refit, onViewProject }: MapRendererProps) {
  const container = useRef<HTMLDivElement>(null);
  const width = useWidth(container);
  const points = projects.map((p) => ({ lat: p.location.lat, lng: p.location.lng }));
  const pointsKey = points.map((p) => `${p.lat},${p.lng}`).join(';');
  const [view, setView] = useState<MapView>(() => fitView(points, width, HEIGHT));
  const [selected, setSelected] = useState<string | null>(null);

  // Fit to the projects on arrival, when they change, when the width changes and on re-fit
  // (the points are keyed by pointsKey: a new snapshot of the same places does not re-fit).
  const latestPoints = useLatest(points);
  useEffect(() => {
    setView(fitView(latestPoints.current, width, HEIGHT));
  }, [latestPoints, pointsKey, width, refit]);
  // Location on: centre on the user at the §9 zoom.
  const lat = currentLocation?.lat;
  const lng = currentLocation?.lng;
  useEffect(() => {
    if (lat !== undefined && lng !== undefined) setView({ center: { lat, lng }, zoom: MAP_USER_LOCATION_ZOOM });
  }, [lat, lng]);

  const step = graticuleStep(view.zoom);
  // The viewport's north-west and south-east corners bound the graticule lines.
  const centre = toWorld(view.center, view.zoom);
  const nw = unproject(centre.x - width / 2, centre.y - HEIGHT / 2, view.zoom);
  const se = unproject(centre.x + width / 2, centre.y + HEIGHT / 2, view.zoom);
  const lngLines: number[] = [];
  for (let lng = Math.ceil(nw.lng / step) * step; lng <= se.lng && lngLines.length < 60; lng += step) lngLines.push(lng);
  const latLines: number[] = [];
  for (let lat = Math.ceil(se.lat / step) * step; lat <= nw.lat && latLines.length < 60; lat += step) latLines.push(lat);

  const selectedProject = projects.find((p) => p.id === selected) ?? null;
  const zoomBy = (delta: number) => setView((v) => ({ ...v, zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, v.zoom + delta)) }));

  return (
    <div
      ref={container}
      className="keyless-map"
      style={{ height: HEIGHT }}
      data-testid="keyless-map"
      data-zoom={view.zoom}
      data-center={`${view.center.lat.toFixed(4)},${view.center.lng.toFixed(4)}`}
    >
      <svg className="keyless-map-svg" width={width} height={HEIGHT} aria-hidden="true">
        <rect width={width} height={HEIGHT} className="keyless-map-bg" />
        {lngLines.map((lng) => {
          const x = toScreen({ lat: view.center.lat, lng }, view, width, HEIGHT).x;
          return (
            <g key={`lng${lng}`}>
              <line x1={x} x2={x} y1={0} y2={HEIGHT} className="keyless-map-grid" />
              <text x={x + 4} y={HEIGHT - 6} className="keyless-map-label">
                {formatDegrees(lng, 'E', 'W')}
              </text>
            </g>
          );
        })}
        {latLines.map((lat) => {
          const y = toScreen({ lat, lng: view.center.lng }, view, width, HEIGHT).y;
          return (
            <g key={`lat${lat}`}>
              <line x1={0} x2={width} y1={y} y2={y} className="keyless-map-grid" />
              <text x={6} y={y - 4} className="keyless-map-label">
                {formatDegrees(lat, 'N', 'S')}
              </text>
            </g>
          );
        })}
      </svg>
      {projects.map((project) => {
        const { x, y } = toScreen(project.location, view, width, HEIGHT);
        const marker = projectMarker(modelCount(project.id));
        return [
          <span key={`${project.id}-label`} className="map-marker-label" style={{ left: x, top: y }} aria-hidden="true">
            {project.name}
          </span>,
          <button
            key={project.id}
            type="button"
            className="map-marker"
            style={{ left: x, top: y, background: marker.hex }}
            data-testid="map-marker"
            data-color={marker.color}
            aria-label={project.name}
            onClick={() => setSelected(project.id)}
          />,
        ];
      })}
      {currentLocation
        ? (() => {
            const { x, y } = toScreen(currentLocation, view, width, HEIGHT);
            return (
              <span
                className="map-marker map-marker-current"
                style={{ left: x, top: y, background: CURRENT_LOCATION_MARKER.hex }}
                data-testid="current-location-marker"
                data-color={CURRENT_LOCATION_MARKER.color}
                title="Current Location"
              />
            );
          })()
        : null}
      {selectedProject
        ? (() => {
            const { x, y } = toScreen(selectedProject.location, view, width, HEIGHT);
            return (
              <div className="map-popup" style={{ left: x, top: y }} role="dialog" aria-label={selectedProject.name}>
                <button type="button" className="map-popup-close" aria-label="Close" onClick={() => setSelected(null)}>
                  ×
                </button>
                <ProjectPopup
                  project={selectedProject}
                  modelCount={modelCount(selectedProject.id)}
                  onView={() => onViewProject(selectedProject.id)}
                />
              </div>
            );
          })()
        : null}
      <div className="map-zoom">
        <button type="button" aria-label="Zoom in" onClick={() => zoomBy(1)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoomBy(-1)}>
          −
        </button>
      </div>
      <p className="keyless-map-note">No Maps API key configured: offline map (no tiles)</p>
    </div>
  );
}
