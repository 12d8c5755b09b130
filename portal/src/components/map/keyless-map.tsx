/**
 * The key-less map: the tile map (MapLibre over the configured raster tiles, a lazy
 * chunk) when the browser has WebGL, else — or when tiles cannot load, the chunk cannot be
 * fetched, or the map cannot start — the plain grid with the same points, clusters and popups
 * and a note saying why. Used by the project map and project detail's location map.
 */
import { Component, Suspense, lazy, useState, type ReactNode } from 'react';
import { useMapTilesUrl } from '../../lib/runtime-config.js';
import { GridMap } from './grid-map.js';
import type { Unavailable } from './tile-map.js';
import type { PointMapProps } from './types.js';
import { hasWebGL } from './webgl.js';

const TileMap = lazy(() => import('./tile-map.js'));

/** The grid's note for each reason. */
export const GRID_NOTES: Readonly<Record<Unavailable, string>> = {
  tiles: 'Map tiles could not be loaded; showing project locations on a plain grid.',
  webgl: 'This browser cannot draw the map (no WebGL); showing project locations on a plain grid.',
};

/** Catches a failed chunk load (or a crash while starting the map) and reports it. */
class MapBoundary extends Component<{ onError: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(error: unknown): void {
    console.error(error);
    this.props.onError();
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

export function KeylessMap(props: PointMapProps) {
  const tilesUrl = useMapTilesUrl();
  const [unavailable, setUnavailable] = useState<Unavailable | null>(() => (hasWebGL() ? null : 'webgl'));
  if (unavailable) return <GridMap {...props} note={GRID_NOTES[unavailable]} />;
  const placeholder = <div className="keyless-map" style={{ height: props.height }} aria-busy="true" data-testid="map-loading" />;
  return (
    <MapBoundary onError={() => setUnavailable('tiles')}>
      <Suspense fallback={placeholder}>
        <TileMap {...props} tilesUrl={tilesUrl} onUnavailable={setUnavailable} />
      </Suspense>
    </MapBoundary>
  );
}
