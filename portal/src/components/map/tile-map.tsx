/**
 * The key-less tile map: MapLibre GL JS over raster tiles (OpenStreetMap's by default,
 * the runtime config's `mapTilesUrl` otherwise) with their attribution, drag-pan and zoom.
 * Loaded lazily (its own chunk, with MapLibre's worker file beside it: `setWorkerUrl`).
 *
 * Points are a GeoJSON source clustered by MapLibre (its supercluster, the grid's radius), drawn
 * on the canvas as circle layers — no DOM element per point (the style: `tile-style.ts`). Text
 * needs glyph files, which would come from the network, so cluster counts and point labels are
 * images drawn on a 2D canvas on demand (`setMissingStyleImageResolver`, `tile-text-image.ts`) in
 * symbol layers; the label layer's collision leaves out labels that would overlap. The DOM holds
 * only the canvas, the controls, the popup and the current-location marker.
 *
 * Zoom levels: MapLibre zoom = portal zoom − 1 (`ZOOM_OFFSET`); `data-zoom` reports the portal's.
 *
 * When no tile has loaded and a tile fails, none arrives within 12 s, the map cannot start (no
 * WebGL) or its context is lost, `onUnavailable` asks for the plain grid.
 *
 * Keyboard: MapLibre's own keyboard pan and zoom on the focused canvas (named after
 * the map); beside it a list of the clusters and points the map shows, hidden until it holds
 * focus (`shownOnMap`): a cluster's entry zooms in and focus moves to the list's first
 * entry of the new view, a point's entry opens its popup (`MapPopup`, whose Escape returns there).
 */
import { AttributionControl, Map as MapLibreMap, NavigationControl, setWorkerUrl } from 'maplibre-gl';
import type { GeoJSONSource, MapGeoJSONFeature } from 'maplibre-gl';
import workerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?url';
import 'maplibre-gl/dist/maplibre-gl.css';
import { useEffect, useRef, useState } from 'react';
import { MapPopup } from './map-popup.js';
import { shownOnMap, type ShownItem } from './shown-on-map.js';
import { CURRENT_LOCATION_COLOR, withMapDefaults, type PointMapProps } from './types.js';
import { useLatest } from '../../hooks/use-latest.js';
import { popupPlacement } from './popup-place.js';
import { FIT_PADDING_PX, fitMaxZoom, viewKey as viewKeyOf } from './start-view.js';
import { textImage, textImageRatio } from './tile-text-image.js';
import { ZOOM_OFFSET, featureCollection, style } from './tile-style.js';
import './map.css';

setWorkerUrl(workerUrl);

/** How long the first tile may take before the grid is shown instead. */
const FIRST_TILE_TIMEOUT_MS = 12_000;

export type Unavailable = 'tiles' | 'webgl';

export interface TileMapProps extends PointMapProps {
  /** Raster tile URL template ({z}/{x}/{y}, 256 px tiles). */
  tilesUrl: string;
  onUnavailable: (why: Unavailable) => void;
}

function isTileError(event: { sourceId?: unknown; tile?: unknown; error?: unknown }): boolean {
  return event.sourceId === 'tiles' || event.tile !== undefined;
}

export default function TileMap(props: TileMapProps) {
  const { points, height, view, cluster, showLabels, currentLocation, locationZoom, refit, renderPopup, label, tilesUrl, onUnavailable } =
    withMapDefaults(props);
  const element = useRef<HTMLDivElement>(null);
  const root = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [, setFrame] = useState(0);
  const [shown, setShown] = useState<ShownItem[]>([]);
  /** A cluster entry zoomed in: the list's first entry takes focus once the new view is reported. */
  const focusListAfterZoom = useRef(false);
  /** Bumped when the list's first entry should take focus (after the render that shows the new entries). */
  const [focusRequest, setFocusRequest] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const latest = useLatest({ points, view, onUnavailable, cluster, showLabels });

  // The map: created once per tile URL and clustering choice, removed on unmount.
  useEffect(() => {
    const container = element.current;
    if (!container) return;
    const { points: initial, cluster: clustered, showLabels: labelled } = latest.current;
    let instance: MapLibreMap;
    try {
      instance = new MapLibreMap({
        container,
        style: style(tilesUrl, initial, clustered, labelled),
        attributionControl: false,
        center: [-80.54, 43.47],
        zoom: 9,
        maxZoom: 19 - ZOOM_OFFSET,
        // symbols (counts, labels) follow the circles at once instead of fading
        fadeDuration: 0,
        dragRotate: false,
        pitchWithRotate: false,
        touchPitch: false,
      });
    } catch (error) {
      console.error(error);
      latest.current.onUnavailable('webgl');
      return;
    }
    instance.touchZoomRotate.disableRotation();
    instance.keyboard.disableRotation();
    instance.addControl(new AttributionControl({ compact: false }), 'bottom-right');
    instance.addControl(new NavigationControl({ showCompass: false }), 'top-right');

    let tilesLoaded = 0;
    let gaveUp = false;
    const giveUp = (why: Unavailable) => {
      if (gaveUp) return;
      gaveUp = true;
      latest.current.onUnavailable(why);
    };
    const timer = setTimeout(() => {
      if (tilesLoaded === 0) giveUp('tiles');
    }, FIRST_TILE_TIMEOUT_MS);
    instance.on('data', (event) => {
      if (event.dataType === 'source' && 'sourceId' in event && event.sourceId === 'tiles' && 'tile' in event && event.tile) {
        tilesLoaded++;
        root.current?.setAttribute('data-tiles-loaded', String(tilesLoaded));
      }
    });
    instance.on('error', (event) => {
      const detail = event as unknown as { sourceId?: unknown; tile?: unknown; error?: unknown };
      if (tilesLoaded === 0 && isTileError(detail)) giveUp('tiles');
      else console.warn('map:', detail.error);
    });
    instance.on('webglcontextlost', () => giveUp('webgl'));
    instance.setMissingStyleImageResolver((id) => {
      const kind = id.startsWith('count:') ? 'count' : id.startsWith('label:') ? 'label' : null;
      if (!kind) return;
      const image = textImage(id.slice(kind.length + 1), kind);
      if (image) instance.addImage(id, image, { pixelRatio: textImageRatio() });
    });

    // State for tests and the overlays: the view in portal zooms, clusters and points drawn.
    // `settled`: the map is idle (tiles drawn, the source's clusters recomputed for this zoom); at
    // `moveend` the clusters may still be the previous zoom's, and the list changes again after.
    const report = (settled: boolean) => {
      const node = root.current;
      if (!node) return;
      const c = instance.getCenter();
      node.setAttribute('data-zoom', (instance.getZoom() + ZOOM_OFFSET).toFixed(2));
      node.setAttribute('data-center', `${c.lat.toFixed(4)},${c.lng.toFixed(4)}`);
      if (!instance.getLayer('clusters')) return;
      const clusters = instance.queryRenderedFeatures({ layers: ['clusters'] });
      const single = instance.queryRenderedFeatures({ layers: ['points'] });
      node.setAttribute('data-clusters', String(clusters.length));
      node.setAttribute('data-points', String(single.length));
      const items = shownOnMap(clusters, single);
      // At the end of a move the source may not have clustered the new zoom yet (nothing drawn):
      // the list keeps its entries until the map is idle, so a keyboard user never finds it gone.
      if (settled || items.length > 0)
        setShown((previous) => (previous.map((i) => i.key).join() === items.map((i) => i.key).join() ? previous : items));
      if (settled && focusListAfterZoom.current) {
        focusListAfterZoom.current = false;
        setFocusRequest((n) => n + 1);
      }
      const biggest = [...clusters].sort((a, b) => Number(b.properties.point_count) - Number(a.properties.point_count))[0];
      if (biggest && biggest.geometry.type === 'Point') {
        const at = instance.project(biggest.geometry.coordinates as [number, number]);
        node.setAttribute('data-cluster-at', `${Math.round(at.x)},${Math.round(at.y)},${String(biggest.properties.point_count)}`);
      } else node.removeAttribute('data-cluster-at');
      const first = single[0];
      if (first && first.geometry.type === 'Point') {
        const at = instance.project(first.geometry.coordinates as [number, number]);
        node.setAttribute('data-point-at', `${Math.round(at.x)},${Math.round(at.y)}`);
      } else node.removeAttribute('data-point-at');
    };
    instance.on('idle', () => report(true));
    instance.on('moveend', () => report(false));
    let raf = 0;
    instance.on('move', () => {
      if (raf) return;
      raf = requestAnimationFrame(() => {
        raf = 0;
        setFrame((n) => n + 1);
      });
    });

    instance.on('click', 'clusters', (event) => {
      const feature = event.features?.[0] as MapGeoJSONFeature | undefined;
      if (!feature || feature.geometry.type !== 'Point') return;
      const source = instance.getSource<GeoJSONSource>('points');
      const center = feature.geometry.coordinates as [number, number];
      void source?.getClusterExpansionZoom(Number(feature.properties.cluster_id)).then(
        (zoom) => instance.easeTo({ center, zoom: Math.max(zoom, instance.getZoom() + 1), duration: 300 }),
        (error: unknown) => console.warn(error),
      );
    });
    instance.on('click', 'points', (event) => {
      const id = event.features?.[0]?.properties.id;
      if (typeof id === 'string') setSelected(id);
    });
    for (const layer of ['clusters', 'points']) {
      instance.on('mouseenter', layer, () => (instance.getCanvas().style.cursor = 'pointer'));
      instance.on('mouseleave', layer, () => (instance.getCanvas().style.cursor = ''));
    }
    setMap(instance);
    return () => {
      clearTimeout(timer);
      if (raf) cancelAnimationFrame(raf);
      setMap(null);
      instance.remove();
    };
  }, [latest, tilesUrl]);

  useEffect(() => {
    if (focusRequest > 0) list.current?.querySelector('button')?.focus();
  }, [focusRequest]);

  // The canvas (MapLibre's keyboard target) is named after the map, with its keys.
  useEffect(() => {
    map?.getCanvas().setAttribute('aria-label', `${label}: arrow keys pan, + and − zoom`);
  }, [map, label]);

  // New places or colours: new data for the source (clustering recomputes in the worker).
  const pointsKey = points.map((p) => `${p.id}@${p.lat},${p.lng},${p.color},${p.label}`).join(';');
  useEffect(() => {
    if (!map) return;
    const source = map.getSource<GeoJSONSource>('points');
    source?.setData(featureCollection(latest.current.points));
  }, [map, latest, pointsKey]);

  // The start view (fit or fixed), again on re-fit and when the places move.
  const placesKey = points.map((p) => `${p.lat},${p.lng}`).join(';');
  const viewKey = viewKeyOf(view);
  useEffect(() => {
    if (!map) return;
    const { points: located, view: spec } = latest.current;
    if (spec.kind === 'fixed') {
      map.jumpTo({ center: [spec.center.lng, spec.center.lat], zoom: spec.zoom - ZOOM_OFFSET });
      return;
    }
    const maxZoom = fitMaxZoom(spec) - ZOOM_OFFSET;
    if (located.length === 0) return;
    const lngs = located.map((p) => p.lng);
    const lats = located.map((p) => p.lat);
    const bounds: [[number, number], [number, number]] = [
      [Math.min(...lngs), Math.min(...lats)],
      [Math.max(...lngs), Math.max(...lats)],
    ];
    map.fitBounds(bounds, { padding: FIT_PADDING_PX, maxZoom, duration: 0 });
  }, [map, latest, placesKey, viewKey, refit]);

  const lat = currentLocation?.lat;
  const lng = currentLocation?.lng;
  useEffect(() => {
    if (!map || lat === undefined || lng === undefined) return;
    map.jumpTo({ center: [lng, lat], zoom: locationZoom - ZOOM_OFFSET });
  }, [map, lat, lng, locationZoom]);

  const at = (p: { lat: number; lng: number }) => (map ? map.project([p.lng, p.lat]) : null);
  // points are listed when they open a popup (the project map), clusters always
  const listed = renderPopup ? shown : shown.filter((item) => item.kind === 'cluster');
  const zoomIntoCluster = (item: Extract<ShownItem, { kind: 'cluster' }>) => {
    const source = map?.getSource<GeoJSONSource>('points');
    if (!map || !source) return;
    void source.getClusterExpansionZoom(item.clusterId).then(
      (zoom) => {
        // Armed only as the move starts: an 'idle' from before it (the worker's answer takes a
        // while) would otherwise focus the old list, whose entries the zoom then removes.
        focusListAfterZoom.current = true;
        map.easeTo({ center: [item.lng, item.lat], zoom: Math.max(zoom, map.getZoom() + 1), duration: 300 });
      },
      (error: unknown) => console.warn(error),
    );
  };
  const selectedPoint = selected !== null ? (points.find((p) => p.id === selected) ?? null) : null;
  const popupAt = selectedPoint ? at(selectedPoint) : null;
  const locationAt = currentLocation ? at(currentLocation) : null;
  return (
    <div
      ref={root}
      className="keyless-map tile-map"
      style={{ height }}
      data-testid="tile-map"
      data-renderer="tiles"
      role="region"
      aria-label={label}
    >
      <div ref={element} className="tile-map-canvas" />
      {locationAt ? (
        <span
          className="map-marker map-marker-current"
          style={{ left: locationAt.x, top: locationAt.y, background: CURRENT_LOCATION_COLOR.hex, zIndex: 2 }}
          data-testid="current-location-marker"
          data-color={CURRENT_LOCATION_COLOR.name}
          title="Current Location"
        />
      ) : null}
      {listed.length > 0 ? (
        <div className="map-keyboard-list">
          <ul ref={list} aria-label={`${label}: what the map shows`}>
            {listed.map((item) => (
              <li key={item.key}>
                {item.kind === 'cluster' ? (
                  <button type="button" onClick={() => zoomIntoCluster(item)}>
                    {item.count} projects: zoom in
                  </button>
                ) : (
                  <button type="button" aria-haspopup="dialog" onClick={() => setSelected(item.id)}>
                    {item.label}
                  </button>
                )}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {selectedPoint && popupAt && renderPopup ? (
        <MapPopup
          key={selectedPoint.id}
          label={selectedPoint.label}
          style={popupPlacement(popupAt.x, popupAt.y, root.current?.clientWidth ?? 0)}
          onClose={() => setSelected(null)}
          fallbackFocus={() => map?.getCanvas() ?? null}
        >
          {renderPopup(selectedPoint.id)}
        </MapPopup>
      ) : null}
    </div>
  );
}
