/**
 * Point labels on the key-less maps: how long a label may be before it is cut short (the tile
 * map's label images and the grid's width estimate agree), which labels the grid leaves out so
 * that none overlaps another, and how far a label moves inward so the map's edge never cuts it.
 */

/** Characters of a label drawn at most; a longer one ends with an ellipsis. */
export const LABEL_MAX_CHARS = 40;

/** Space kept between a marker label and the map's edge, px. */
const LABEL_EDGE_PX = 4;

/** The ids of points whose labels fit without overlapping a label placed before (top to bottom). */
export function placeLabels(positions: ReadonlyArray<{ id: string; x: number; y: number; label: string }>): Set<string> {
  const placed: Array<{ left: number; right: number; top: number; bottom: number }> = [];
  const shown = new Set<string>();
  for (const p of [...positions].sort((a, b) => a.y - b.y || a.x - b.x)) {
    const half = (Math.min(p.label.length, LABEL_MAX_CHARS) * 6.5 + 10) / 2;
    const rect = { left: p.x - half, right: p.x + half, top: p.y + 2, bottom: p.y + 22 };
    if (placed.some((r) => r.left < rect.right && rect.left < r.right && r.top < rect.bottom && rect.top < r.bottom)) continue;
    placed.push(rect);
    shown.add(p.id);
  }
  return shown;
}

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
