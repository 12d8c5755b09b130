/**
 * Runtime configuration of the portal: read once from the embedded backend's public
 * `GET /v1/config`, or, in a Firebase build (Hosting has no such endpoint), taken from the
 * build-time variables `VITE_VIEWER_URL`, `VITE_MAPS_API_KEY`, `VITE_SPLAT_VIEWER_URL`,
 * `VITE_DUAL_VIEWER_URL` and `VITE_MAP_TILES_URL`. Without an external viewer, the viewer links point at the portal's own
 * viewer route (`shared/links.ts` resolveViewerBase).
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { resolveViewerBase } from '@shared/links.js';
import { CONFIG_PATH, DEFAULT_MAP_TILES_URL, isMapTilesUrl } from '@shared/wire/config.js';
import { failure, loading, success, type Resource } from './resource.js';

export interface RuntimeConfig {
  /** Base URL the viewer links are built on: an external viewer, or the built-in `{origin}/viewer`. */
  viewerUrl: string;
  mapsApiKey: string | null;
  /** Hosts of the landing page's experimental tool cards; null: the built-in viewer. */
  toolViewerUrls: { splatViewer: string | null; dualViewer: string | null };
  /** Raster tile URL template of the key-less map; unset: OpenStreetMap's ({@link mapTilesUrlOf}). */
  mapTilesUrl?: string | null;
}

/** The key-less map's tile URL template of a config: its own when usable, else OpenStreetMap's. */
export function mapTilesUrlOf(config: Pick<RuntimeConfig, 'mapTilesUrl'> | null | undefined): string {
  const given = config?.mapTilesUrl;
  return typeof given === 'string' && isMapTilesUrl(given) ? given : DEFAULT_MAP_TILES_URL;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/**
 * Reads the runtime config from `{origin}/v1/config`.
 * @throws Error when the request fails
 */
export async function loadRuntimeConfig(origin: string, fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl(new URL(CONFIG_PATH, origin));
  if (!response.ok) throw new Error(`GET ${CONFIG_PATH} failed with HTTP ${response.status}`);
  const body = (await response.json()) as Record<string, unknown>;
  return {
    viewerUrl: resolveViewerBase(text(body.viewerUrl), origin),
    mapsApiKey: text(body.mapsApiKey),
    toolViewerUrls: { splatViewer: text(body.splatViewerUrl), dualViewer: text(body.dualViewerUrl) },
    mapTilesUrl: text(body.mapTilesUrl),
  };
}

/**
 * The configuration a Firebase build carries (`VITE_BACKEND=firebase`), or null for the embedded
 * backend, whose server answers `GET /v1/config`.
 * @param origin the portal's origin (for the built-in viewer's links)
 */
export function buildTimeConfig(env: Record<string, unknown>, origin: string): RuntimeConfig | null {
  if (env.VITE_BACKEND !== 'firebase') return null;
  return {
    viewerUrl: resolveViewerBase(text(env.VITE_VIEWER_URL), origin),
    mapsApiKey: text(env.VITE_MAPS_API_KEY),
    toolViewerUrls: { splatViewer: text(env.VITE_SPLAT_VIEWER_URL), dualViewer: text(env.VITE_DUAL_VIEWER_URL) },
    mapTilesUrl: text(env.VITE_MAP_TILES_URL),
  };
}

const ConfigContext = createContext<Resource<RuntimeConfig>>(loading);

/** Provides the runtime config; `value` lets tests and embedders pass a fixed config. */
export function RuntimeConfigProvider({ value: given, children }: { value?: RuntimeConfig; children: ReactNode }) {
  const [value] = useState(() => given ?? buildTimeConfig(import.meta.env, window.location.origin) ?? undefined);
  const [state, setState] = useState<Resource<RuntimeConfig>>(value ? success(value) : loading);
  useEffect(() => {
    if (value) return;
    let active = true;
    loadRuntimeConfig(window.location.origin).then(
      (config) => active && setState(success(config)),
      (error: unknown) => {
        console.error(error);
        if (active) setState(failure(error));
      },
    );
    return () => {
      active = false;
    };
  }, [value]);
  return <ConfigContext.Provider value={state}>{children}</ConfigContext.Provider>;
}

/** The runtime config as a Resource. */
export function useRuntimeConfig(): Resource<RuntimeConfig> {
  return useContext(ConfigContext);
}

/** The viewer base URL, or null while the config loads (or failed to load). */
export function useViewerUrl(): string | null {
  const config = useRuntimeConfig();
  return config.status === 'success' ? config.data.viewerUrl : null;
}

/** The key-less map's tile URL template (OpenStreetMap's until the config says otherwise). */
export function useMapTilesUrl(): string {
  const config = useRuntimeConfig();
  return mapTilesUrlOf(config.status === 'success' ? config.data : null);
}
