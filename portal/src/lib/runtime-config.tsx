/**
 * Runtime configuration of the portal ({ viewerUrl, mapsApiKey }): read once from the embedded
 * backend's public `GET /v1/config`, or, in a Firebase build (Hosting has no such endpoint),
 * taken from the build-time variables `VITE_VIEWER_URL` and `VITE_MAPS_API_KEY`.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { DEFAULT_VIEWER_URL } from '../../../shared/links.js';
import { failure, loading, success, type Resource } from './resource.js';

export interface RuntimeConfig {
  /** Base URL of the external 3D viewer (SPEC.md §7 viewer links). */
  viewerUrl: string;
  mapsApiKey: string | null;
}

/** Reads the runtime config from `{origin}/v1/config`. */
export async function loadRuntimeConfig(origin: string, fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  const response = await fetchImpl(new URL('/v1/config', origin));
  if (!response.ok) throw new Error(`GET /v1/config failed with HTTP ${response.status}`);
  const body = (await response.json()) as Partial<RuntimeConfig>;
  return { viewerUrl: typeof body.viewerUrl === 'string' ? body.viewerUrl : '', mapsApiKey: body.mapsApiKey ?? null };
}

/**
 * The configuration a Firebase build carries (`VITE_BACKEND=firebase`), or null for the embedded
 * backend, whose server answers `GET /v1/config`.
 */
export function buildTimeConfig(env: Record<string, unknown>): RuntimeConfig | null {
  if (env.VITE_BACKEND !== 'firebase') return null;
  const viewerUrl = typeof env.VITE_VIEWER_URL === 'string' && env.VITE_VIEWER_URL !== '' ? env.VITE_VIEWER_URL : DEFAULT_VIEWER_URL;
  const mapsApiKey = typeof env.VITE_MAPS_API_KEY === 'string' && env.VITE_MAPS_API_KEY !== '' ? env.VITE_MAPS_API_KEY : null;
  return { viewerUrl, mapsApiKey };
}

const ConfigContext = createContext<Resource<RuntimeConfig>>(loading);

/** Provides the runtime config; `value` lets tests and embedders pass a fixed config. */
export function RuntimeConfigProvider({ value: given, children }: { value?: RuntimeConfig; children: ReactNode }) {
  const [value] = useState(() => given ?? buildTimeConfig(import.meta.env) ?? undefined);
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
