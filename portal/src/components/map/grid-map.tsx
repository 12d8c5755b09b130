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
import Supercluster, { type ClusterProperties } from 'supercluster';
import { CLUSTER_COLOR, CLUSTER_MAX_ZOOM, CLUSTER_RADIUS_PX, CURRENT_LOCATION_COLOR, type MapPoint, type PointMapProps } from './types.js';
import {
  MAX_ZOOM,
  MIN_ZOOM,
  fitView,
  graticuleStep,
  panBy,
  toScreen,
  unproject,
  visibleBounds,
  project as toWorld,
  type MapView,
} from './viewport.js';
import { useLatest } from '../../hooks/use-latest.js';
import { MapPopup } from './map-popup.js';
import { popupPlacement } from './popup-place.js';
import './map.css';

const FALLBACK_WIDTH = 900;
/** Pixels a press may move and still count as a click, not a drag. */
const CLICK_SLOP = 4;
/** Pixels an arrow key pans the grid. */
const KEY_PAN_PX = 100;

/** The key of the item drawn nearest to (x, y) on screen, or null when there is none. */
export function nearestItemKey(
  items: readonly GridItem[],
  at: (p: { lat: number; lng: number }) => { x: number; y: number },
  x: number,
  y: number,
): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const item of items) {
    const place = at(item.kind === 'cluster' ? item : item.point);
    const distance = Math.hypot(place.x - x, place.y - y);
    if (best === null || distance < best.distance) best = { key: item.key, distance };
  }
  return best?.key ?? null;
}

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

/** The start view of `props.view` for a viewport. */
export function startView(view: PointMapProps['view'], points: readonly MapPoint[], width: number, height: number): MapView {
  if (view.kind === 'fixed') return { center: { ...view.center }, zoom: view.zoom };
  return fitView(points, width, height, 48, view.maxZoom ?? 15);
}

type PointProps = { id: string };
/** What the grid draws at a zoom: clusters (count, expansion zoom) and single points. */
export type GridItem =
  | { kind: 'cluster'; key: string; lat: number; lng: number; count: number; expansionZoom: number }
  | { kind: 'point'; key: string; point: MapPoint };

/**
 * The clusters and points of `points` inside a viewport (with a margin), at a whole zoom.
 * @param index supercluster over the points (null: no clustering)
 */
export function gridItems(
  index: Supercluster<PointProps> | null,
  byId: ReadonlyMap<string, MapPoint>,
  view: MapView,
  width: number,
  height: number,
): GridItem[] {
  const bounds = visibleBounds(view, width, height, 64);
  const [west, south, east, north] = bounds;
  if (!index) {
    return [...byId.values()]
      .filter((p) => p.lng >= west && p.lng <= east && p.lat >= south && p.lat <= north)
      .map((point) => ({ kind: 'point', key: point.id, point }));
  }
  const items: GridItem[] = [];
  for (const feature of index.getClusters(bounds, Math.round(view.zoom))) {
    const [lng, lat] = feature.geometry.coordinates as [number, number];
    const props = feature.properties as Partial<ClusterProperties> & Partial<PointProps>;
    if (props.cluster && typeof props.cluster_id === 'number') {
      items.push({
        kind: 'cluster',
        key: `c${props.cluster_id}`,
        lat,
        lng,
        count: props.point_count ?? 0,
        expansionZoom: Math.min(MAX_ZOOM, index.getClusterExpansionZoom(props.cluster_id)),
      });
    } else if (props.id !== undefined) {
      const point = byId.get(props.id);
      if (point) items.push({ kind: 'point', key: point.id, point });
    }
  }
  return items;
}

/** The ids of points whose labels fit without overlapping a label placed before (top to bottom). */
export function placeLabels(positions: ReadonlyArray<{ id: string; x: number; y: number; label: string }>): Set<string> {
  const placed: Array<{ left: number; right: number; top: number; bottom: number }> = [];
  const shown = new Set<string>();
  for (const p of [...positions].sort((a, b) => a.y - b.y || a.x - b.x)) {
    const half = (Math.min(p.label.length, 40) * 6.5 + 10) / 2;
    const rect = { left: p.x - half, right: p.x + half, top: p.y + 2, bottom: p.y + 22 };
    if (placed.some((r) => r.left < rect.right && rect.left < r.right && r.top < rect.bottom && rect.top < r.bottom)) continue;
    placed.push(rect);
    shown.add(p.id);
  }
  return shown;
}

/** Space kept between a marker label and the map's edge, px. */
const LABEL_EDGE_PX = 4;

/**
 * How far (px, from the left edge of a label centred on x) a label of `labelWidth` must move so
 * that it stays inside a map `mapWidth` wide: 0 when centred fits, else towards the inside; a
 * label wider than the map starts at its left edge (CSS ends it with an ellipsis).
 */
export function labelShift(x: number, labelWidth: number, mapWidth: number): number {
  const centred = x - labelWidth / 2;
  const left = Math.max(LABEL_EDGE_PX, Math.min(centred, mapWidth - labelWidth - LABEL_EDGE_PX));
  return left - x;
}

export interface GridMapProps extends PointMapProps {
  /** Why the grid is shown (tiles could not load, no WebGL). */
  note: string;
}

export function GridMap({
  points,
  height,
  view: viewSpec,
  cluster,
  showLabels = true,
  currentLocation = null,
  locationZoom = 12,
  refit = 0,
  renderPopup = null,
  testId = 'keyless-map',
  label,
  note,
}: GridMapProps) {
  const container = useRef<HTMLDivElement>(null);
  const width = useWidth(container);
  const pointsKey = points.map((p) => `${p.id}@${p.lat},${p.lng}`).join(';');
  const viewKey =
    viewSpec.kind === 'fixed' ? `${viewSpec.center.lat},${viewSpec.center.lng},${viewSpec.zoom}` : `fit${viewSpec.maxZoom ?? ''}`;
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
  const index = useMemo(() => {
    if (!cluster) return null;
    const sc = new Supercluster<PointProps>({ radius: CLUSTER_RADIUS_PX, extent: 256, maxZoom: CLUSTER_MAX_ZOOM, minZoom: 0 });
    sc.load(points.map((p) => ({ type: 'Feature', geometry: { type: 'Point', coordinates: [p.lng, p.lat] }, properties: { id: p.id } })));
    return sc;
  }, [cluster, points]);
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

  const step = graticuleStep(view.zoom);
  const centre = toWorld(view.center, view.zoom);
  const nw = unproject(centre.x - width / 2, centre.y - height / 2, view.zoom);
  const se = unproject(centre.x + width / 2, centre.y + height / 2, view.zoom);
  const lngLines: number[] = [];
  for (let l = Math.ceil(nw.lng / step) * step; l <= se.lng && lngLines.length < 60; l += step) lngLines.push(l);
  const latLines: number[] = [];
  for (let l = Math.ceil(se.lat / step) * step; l <= nw.lat && latLines.length < 60; l += step) latLines.push(l);

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
      <svg className="keyless-map-svg" width={width} height={height} aria-hidden="true">
        <rect width={width} height={height} className="keyless-map-bg" />
        {lngLines.map((l) => {
          const x = screen({ lat: view.center.lat, lng: l }).x;
          return (
            <g key={`lng${l}`}>
              <line x1={x} x2={x} y1={0} y2={height} className="keyless-map-grid" />
              <text x={x + 4} y={height - 6} className="keyless-map-label">
                {formatDegrees(l, 'E', 'W')}
              </text>
            </g>
          );
        })}
        {latLines.map((l) => {
          const y = screen({ lat: l, lng: view.center.lng }).y;
          return (
            <g key={`lat${l}`}>
              <line x1={0} x2={width} y1={y} y2={y} className="keyless-map-grid" />
              <text x={6} y={y - 4} className="keyless-map-label">
                {formatDegrees(l, 'N', 'S')}
              </text>
            </g>
          );
        })}
      </svg>
      {items.map((item) => {
        if (item.kind === 'cluster') {
          const { x, y } = screen(item);
          const size = item.count < 10 ? 30 : item.count < 100 ? 36 : 44;
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
