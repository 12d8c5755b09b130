/** Marker colours of the project map (SPEC.md §9: blue multi-temporal, green initial assessment, red current location). */
import { MARKER_COLORS } from '@shared/constants.js';
import { projectMarkerColor } from '@shared/projects.js';

/** CSS colours of the §9 marker colour names. */
export const MARKER_HEX: Readonly<Record<(typeof MARKER_COLORS)[keyof typeof MARKER_COLORS], string>> = {
  blue: '#2563eb',
  green: '#16a34a',
  red: '#dc2626',
};

/** The marker colour name and CSS colour of a project with `modelCount` models. */
export function projectMarker(modelCount: number): { color: 'blue' | 'green'; hex: string } {
  const color = projectMarkerColor(modelCount);
  return { color, hex: MARKER_HEX[color] };
}

/** The current-location marker (red). */
export const CURRENT_LOCATION_MARKER = { color: MARKER_COLORS.currentLocation, hex: MARKER_HEX[MARKER_COLORS.currentLocation] } as const;
