/**
 * Where a marker's popup goes: above the marker when there is room, else below it,
 * and kept inside the map horizontally, so 'View Project' is never clipped by the map's edge.
 */
import type { CSSProperties } from 'react';

/** Room a popup needs above its marker, px (its height plus the marker). */
const ROOM_ABOVE = 200;
/** Half a popup's width, px (min-width 220 px plus padding). */
const HALF_WIDTH = 130;

/**
 * The popup's position style for a marker at (x, y) in a map `width` px wide.
 * @returns left/top in px and the transform that hangs the popup above or below
 */
export function popupPlacement(x: number, y: number, width: number): CSSProperties {
  const left = width > 2 * HALF_WIDTH ? Math.min(Math.max(x, HALF_WIDTH), width - HALF_WIDTH) : width / 2;
  const below = y < ROOM_ABOVE;
  return { left, top: y, transform: below ? 'translate(-50%, 18px)' : 'translate(-50%, calc(-100% - 28px))' };
}
