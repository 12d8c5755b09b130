/**
 * Marker colours of the project map (blue multi-temporal, green initial assessment, red current
 * location; grey for a project without models, which has no badge).
 */
import { MARKER_COLORS } from '@shared/constants.js';
import { projectMarkerColor, type ProjectMarkerColor } from '@shared/projects.js';

/** CSS colours of the marker colour names. */
export const MARKER_HEX: Readonly<Record<ProjectMarkerColor | (typeof MARKER_COLORS)['currentLocation'], string>> = {
  blue: '#2563eb',
  green: '#16a34a',
  grey: '#94a3b8',
  red: '#dc2626',
};

/** The marker colour name and CSS colour of a project with `modelCount` models. */
export function projectMarker(modelCount: number): { color: ProjectMarkerColor; hex: string } {
  const color = projectMarkerColor(modelCount);
  return { color, hex: MARKER_HEX[color] };
}

/** The current-location marker (red). */
export const CURRENT_LOCATION_MARKER = { color: MARKER_COLORS.currentLocation, hex: MARKER_HEX[MARKER_COLORS.currentLocation] } as const;
