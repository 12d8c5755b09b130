/**
 * The plain-grid map's background: a latitude/longitude graticule over the viewport, a line
 * every few hundred pixels (the spacing of `graticuleStep`, at most 60 lines each way), each
 * labelled with its degrees. Drawn in one SVG, hidden from assistive technology.
 */
import { graticuleStep, toScreen, unproject, project as toWorld, type MapView } from './viewport.js';

/** Most lines drawn each way. */
const MAX_LINES = 60;

/** '12.5°E' of 12.5 with 'E'/'W': whole thousandths of a degree, the hemisphere by sign. */
function formatDegrees(value: number, positive: string, negative: string): string {
  const rounded = Math.round(Math.abs(value) * 1000) / 1000;
  return `${rounded}°${value >= 0 ? positive : negative}`;
}

/** The graticule of a `width`×`height` viewport showing `view`. */
export function GridGraticule({ view, width, height }: { view: MapView; width: number; height: number }) {
  const screen = (p: { lat: number; lng: number }) => toScreen(p, view, width, height);
  const step = graticuleStep(view.zoom);
  const centre = toWorld(view.center, view.zoom);
  const nw = unproject(centre.x - width / 2, centre.y - height / 2, view.zoom);
  const se = unproject(centre.x + width / 2, centre.y + height / 2, view.zoom);
  const lngLines: number[] = [];
  for (let l = Math.ceil(nw.lng / step) * step; l <= se.lng && lngLines.length < MAX_LINES; l += step) lngLines.push(l);
  const latLines: number[] = [];
  for (let l = Math.ceil(se.lat / step) * step; l <= nw.lat && latLines.length < MAX_LINES; l += step) latLines.push(l);

  return (
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
  );
}
