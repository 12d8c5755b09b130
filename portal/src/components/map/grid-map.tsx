/**
 * The plain-grid map: what the key-less map falls back to when tiles cannot load
 * (offline) or the browser has no WebGL. A Web-Mercator projection of the points over a
 * latitude/longitude graticule, with no tiles and no network, and a note saying why. Points are
 * clustered with supercluster (the same radius and colours as the tile map), so the DOM stays
 * bounded: only the clusters and points inside the viewport are drawn, and a label is left out
 * when it would overlap one already placed. Drag pans (pointer events, mouse and touch), + / −
 * zoom, a cluster click zooms to where it splits, a point click opens its popup.
 *
 * Keyboard: the map is a named region that takes focus (arrow keys pan, + and − zoom);
 * every cluster and point is a button in Tab order; a cluster zooms in and hands focus to the
 * nearest cluster or point of the new view; a point opens its popup, a dialog (see `MapPopup`)
 * whose Escape gives focus back to the marker.
 */
import {
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type PointerEvent as ReactPointerEvent,
} from 'react';
import { CLUSTER_COLOR, CURRENT_LOCATION_COLOR, clusterDiameter, withMapDefaults, type PointMapProps } from './types.js';
import { MAX_ZOOM, MIN_ZOOM, panBy, toScreen, type MapView } from './viewport.js';
import { useLatest } from '../../hooks/use-latest.js';
import { GridGraticule } from './grid-graticule.js';
import { clusterIndex, gridItems, nearestItemKey } from './grid-items.js';
import { labelShift, placeLabels } from './marker-labels.js';
import { MapPopup } from './map-popup.js';
import { popupPlacement } from './popup-place.js';
import { startView, viewKey as viewKeyOf } from './start-view.js';
import './map.css';

const FALLBACK_WIDTH = 900;
/** Pixels a press may move and still count as a click, not a drag. */
const CLICK_SLOP = 4;
/** Pixels an arrow key pans the grid. */
const KEY_PAN_PX = 100;

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

export interface GridMapProps extends PointMapProps {
  /** Why the grid is shown (tiles could not load, no WebGL). */
  note: string;
}

export function GridMap(props: GridMapProps) {
  const {
    points,
    height,
    view: viewSpec,
    cluster,
    showLabels,
    currentLocation,
    locationZoom,
    refit,
    renderPopup,
    testId = 'keyless-map',
    label,
    note,
  } = withMapDefaults(props);
  const container = useRef<HTMLDivElement>(null);
  const width = useWidth(container);
  const pointsKey = points.map((p) => `${p.id}@${p.lat},${p.lng}`).join(';');
  const viewKey = viewKeyOf(viewSpec);
  const [view, setView] = useState<MapView>(() => startView(viewSpec, points, width, height));
  const [selected, setSelected] = useState<string | null>(null);
  const drag = useRef<{ id: number; x: number; y: number; start: MapView; moved: boolean } | null>(null);
  /** After a cluster button zoomed in: focus goes to the item nearest this place once drawn. */
  const [focusNear, setFocusNear] = useState<{ lat: number; lng: number } | null>(null);
  const hintId = useId();

  const latest = useLatest({ viewSpec, points });
  // Start (fit or fixed) on arrival, when the places or the width change and on re-fit (keyed by
  // pointsKey: a new snapshot of the same places does not move the view).
  useEffect(() => {
    setView(startView(latest.current.viewSpec, latest.current.points, width, height));
  }, [latest, pointsKey, viewKey, width, height, refit]);
  const lat = currentLocation?.lat;
  const lng = currentLocation?.lng;
  useEffect(() => {
    if (lat !== undefined && lng !== undefined) setView({ center: { lat, lng }, zoom: locationZoom });
  }, [lat, lng, locationZoom]);

  const byId = useMemo(() => new Map(points.map((p) => [p.id, p])), [points]);
  const index = useMemo(() => (cluster ? clusterIndex(points) : null), [cluster, points]);
  const items = useMemo(() => gridItems(index, byId, view, width, height), [index, byId, view, width, height]);
  const screen = (p: { lat: number; lng: number }) => toScreen(p, view, width, height);
  useLayoutEffect(() => {
    if (focusNear === null) return;
    setFocusNear(null);
    const place = toScreen(focusNear, view, width, height);
    const key = nearestItemKey(items, (p) => toScreen(p, view, width, height), place.x, place.y);
    const button = [...(container.current?.querySelectorAll<HTMLElement>('[data-key]') ?? [])].find((b) => b.dataset.key === key);
    (button ?? container.current)?.focus();
  }, [focusNear, items, view, width, height]);
  // Labels centred under markers near an edge are moved inward, so none is cut by the map's edge.
  useLayoutEffect(() => {
    for (const element of container.current?.querySelectorAll<HTMLElement>('.map-marker-label') ?? []) {
      element.style.transform = `translate(${labelShift(parseFloat(element.style.left), element.offsetWidth, width)}px, 4px)`;
    }
  });
  const labelled = placeLabels(
    showLabels
      ? items.flatMap((item) => (item.kind === 'point' ? [{ id: item.point.id, label: item.point.label, ...screen(item.point) }] : []))
      : [],
  );

  const zoomTo = (zoom: number, center?: { lat: number; lng: number }) =>
    setView((v) => ({ center: center ?? v.center, zoom: Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom)) }));

  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    const target = event.target as HTMLElement;
    if (target.closest('button, a, .map-popup') || (event.pointerType === 'mouse' && event.button !== 0)) return;
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY, start: view, moved: false };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
    d.moved = true;
    setView(panBy(d.start, dx, dy));
  };
  const onPointerUp = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (drag.current?.id !== event.pointerId) return;
    drag.current = null;
    event.currentTarget.releasePointerCapture?.(event.pointerId);
  };

  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey) return;
    const pan: Record<string, [number, number]> = {
      ArrowLeft: [KEY_PAN_PX, 0],
      ArrowRight: [-KEY_PAN_PX, 0],
      ArrowUp: [0, KEY_PAN_PX],
      ArrowDown: [0, -KEY_PAN_PX],
    };
    const by = pan[event.key];
    if (by) setView((v) => panBy(v, by[0], by[1]));
    else if (event.key === '+' || event.key === '=') zoomTo(view.zoom + 1);
    else if (event.key === '-' || event.key === '_') zoomTo(view.zoom - 1);
    else return;
    event.preventDefault();
  };

  const selectedPoint = selected !== null ? (byId.get(selected) ?? null) : null;
  return (
    <div
      ref={container}
      className="keyless-map grid-map"
      style={{ height }}
      role="region"
      aria-label={label}
      aria-describedby={hintId}
      tabIndex={0}
      onKeyDown={onKeyDown}
      data-testid={testId}
      data-renderer="grid"
      data-zoom={view.zoom}
      data-center={`${view.center.lat.toFixed(4)},${view.center.lng.toFixed(4)}`}
      data-clusters={items.filter((i) => i.kind === 'cluster').length}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
    >
      <GridGraticule view={view} width={width} height={height} />
      {items.map((item) => {
        if (item.kind === 'cluster') {
          const { x, y } = screen(item);
          const size = clusterDiameter(item.count);
          return (
            <button
              key={item.key}
              type="button"
              className="map-cluster"
              style={{ left: x, top: y, width: size, height: size, background: CLUSTER_COLOR }}
              data-testid="map-cluster"
              data-count={item.count}
              data-key={item.key}
              aria-label={`${item.count} projects: zoom in`}
              onClick={() => {
                zoomTo(Math.max(item.expansionZoom, Math.round(view.zoom) + 1), { lat: item.lat, lng: item.lng });
                setFocusNear({ lat: item.lat, lng: item.lng });
              }}
            >
              {item.count}
            </button>
          );
        }
        const { point } = item;
        const { x, y } = screen(point);
        return [
          labelled.has(point.id) ? (
            <span key={`${point.id}-label`} className="map-marker-label" style={{ left: x, top: y }} aria-hidden="true">
              {point.label}
            </span>
          ) : null,
          <button
            key={point.id}
            type="button"
            className="map-marker"
            style={{ left: x, top: y, background: point.color }}
            data-testid="map-marker"
            data-color={point.colorName}
            data-key={item.key}
            aria-label={point.label}
            aria-haspopup={renderPopup ? 'dialog' : undefined}
            aria-expanded={renderPopup ? selected === point.id : undefined}
            onClick={renderPopup ? () => setSelected(point.id) : undefined}
          />,
        ];
      })}
      {currentLocation
        ? (() => {
            const { x, y } = screen(currentLocation);
            return (
              <span
                className="map-marker map-marker-current"
                style={{ left: x, top: y, background: CURRENT_LOCATION_COLOR.hex }}
                data-testid="current-location-marker"
                data-color={CURRENT_LOCATION_COLOR.name}
                title="Current Location"
                role="img"
                aria-label="Current Location"
              />
            );
          })()
        : null}
      {selectedPoint && renderPopup
        ? (() => {
            const { x, y } = screen(selectedPoint);
            return (
              <MapPopup
                key={selectedPoint.id}
                label={selectedPoint.label}
                style={popupPlacement(x, y, width)}
                onClose={() => setSelected(null)}
                fallbackFocus={() => container.current}
              >
                {renderPopup(selectedPoint.id)}
              </MapPopup>
            );
          })()
        : null}
      <div className="map-zoom">
        <button type="button" aria-label="Zoom in" onClick={() => zoomTo(view.zoom + 1)}>
          +
        </button>
        <button type="button" aria-label="Zoom out" onClick={() => zoomTo(view.zoom - 1)}>
          −
        </button>
      </div>
      <p className="keyless-map-note" data-testid="map-note">
        {note}
      </p>
      <span id={hintId} className="visually-hidden">
        Arrow keys pan the map, + and − zoom; Tab reaches its projects and clusters.
      </span>
    </div>
  );
}
