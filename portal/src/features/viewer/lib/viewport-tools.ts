/**
 * The viewer's tools (measuring, findings, the photos of a point, alignment picking) each state
 * what they want from a viewport in one small shape: whether they take clicks on the model as
 * picks, what a pick does, the markers they draw and whether they want the engine. A page lists
 * its tools and `combineTools` gives the viewport their props, with one rule for which tool a pick
 * goes to.
 */
import type { PickResult, ViewerEngine, ViewerMarker } from './engine.js';

/** What a tool wants from a viewport (the ModelViewport props of the same names). */
export interface ViewportTool {
  /** True while the tool takes clicks on the model as picks (its panel is open, its step runs). */
  pickMode: boolean;
  /** What a pick does while the tool is the active one. */
  onPick: (pick: PickResult) => void;
  /** The markers the tool draws (drawn whether or not it is active). */
  markers: readonly ViewerMarker[];
  /** Handed the viewport's engine when it is made (null when it goes). */
  onEngine?: (engine: ViewerEngine | null) => void;
}

/** The viewport props that a page's tools set together. */
export interface ToolsViewportProps {
  pickMode: boolean;
  onPick: (pick: PickResult) => void;
  markers: readonly ViewerMarker[];
  onEngine: (engine: ViewerEngine | null) => void;
}

const NO_MARKERS: readonly ViewerMarker[] = [];
const ignore = (): void => undefined;

/**
 * The viewport props of a page's tools. The active tool is the last one in `tools` with
 * `pickMode` on, so a page lists its tools from the one that yields to the others to the one that
 * takes over (the measure tool after the findings: while it is open it takes the picks); only the
 * active tool gets picks. Every tool's markers are drawn, in the order of `tools`; the engine goes
 * to every tool that asks for it.
 * @param tools the page's tools, from lowest to highest priority
 * @returns pick mode (any tool picking), the pick handler of the active tool (a no-op when none),
 *   the markers of all tools and one engine handler
 */
export function combineTools(tools: readonly ViewportTool[]): ToolsViewportProps {
  const active = [...tools].reverse().find((tool) => tool.pickMode);
  const withMarkers = tools.filter((tool) => tool.markers.length > 0);
  return {
    pickMode: active !== undefined,
    onPick: active?.onPick ?? ignore,
    // One tool's array as it is: the viewport does not redraw markers for an equal new array.
    markers:
      withMarkers.length === 0
        ? NO_MARKERS
        : withMarkers.length === 1
          ? withMarkers[0]!.markers
          : withMarkers.flatMap((tool) => tool.markers),
    onEngine: (engine) => {
      for (const tool of tools) tool.onEngine?.(engine);
    },
  };
}
