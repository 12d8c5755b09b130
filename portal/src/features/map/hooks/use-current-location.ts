/**
 * The map's Current Location toggle:
 * off → locating → on (with the position); pressing it again turns it off and asks the map to
 * re-fit to the projects (`refit` increments). Errors give the message and end off.
 */
import { useCallback, useRef, useState } from 'react';
import { GEOLOCATION_OPTIONS } from '@shared/constants.js';
import { GeolocationMessages, geolocationErrorMessage } from '@shared/messages.js';
import type { LatLng } from '../../../components/map/viewport.js';

export type LocationStatus = 'off' | 'locating' | 'on';

export interface CurrentLocation {
  status: LocationStatus;
  position: LatLng | null;
  error: string | null;
  /** Increments whenever the toggle turns off: the map re-fits to the projects. */
  refit: number;
  toggle: () => void;
}

/** `geolocation` defaults to the browser's (undefined when unsupported). */
export function useCurrentLocation(geolocation: Geolocation | undefined = globalThis.navigator?.geolocation): CurrentLocation {
  const [status, setStatus] = useState<LocationStatus>('off');
  const [position, setPosition] = useState<LatLng | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refit, setRefit] = useState(0);
  const request = useRef(0);

  const toggle = useCallback(() => {
    if (status !== 'off') {
      request.current++;
      setStatus('off');
      setPosition(null);
      setRefit((n) => n + 1);
      return;
    }
    setError(null);
    if (!geolocation) {
      setError(GeolocationMessages.unsupported);
      return;
    }
    const current = ++request.current;
    setStatus('locating');
    geolocation.getCurrentPosition(
      (found) => {
        if (current !== request.current) return;
        setPosition({ lat: found.coords.latitude, lng: found.coords.longitude });
        setStatus('on');
      },
      (failure) => {
        if (current !== request.current) return;
        setError(geolocationErrorMessage(failure?.code));
        setStatus('off');
      },
      { ...GEOLOCATION_OPTIONS },
    );
  }, [geolocation, status]);

  return { status, position, error, refit, toggle };
}
