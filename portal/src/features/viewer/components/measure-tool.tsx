/**
 * The measure tool of the single view: pick a point and read its coordinates, or
 * measure a distance (two points), a polyline's length (any number of points) or a height
 * difference (two points, along the displayed up axis), in model units and, when the model has a
 * scale (`metadata.unitsPerMetre`), in metres (shared/annotations.ts `measure` and
 * `formatMeasurement`). The picked points are drawn as 'measure' markers; a finished measurement
 * can be handed to 'Add finding' (`onSave`). Keyboard: the modes are toggle buttons; focus the 3D
 * view and press P to pick the point under the centre cross ('Pick at centre' does the same);
 * Escape or 'Clear' clears.
 *
 * `useMeasureTool` holds the state and hands the page its viewport tool (lib/viewport-tools.ts:
 * picks while open, the measure markers, the engine for centre picks and the up axis);
 * `MeasureTool` draws the panel.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatMeasurement, formatPoint, measure, MEASURE_LABELS } from '@shared/annotations.js';
import type { MeasureKind, Model, ModelPoint } from '@shared/types.js';
import type { PickResult, ViewerEngine, ViewerMarker } from '../lib/engine.js';
import type { ViewportTool } from '../lib/viewport-tools.js';
import './measure-tool.css';

/** What a pick does: show a point, or add to a measurement. */
export type MeasureMode = 'point' | MeasureKind;

/** The modes in the order of their buttons, with their labels. */
export const MEASURE_MODES: ReadonlyArray<{ mode: MeasureMode; label: string; hint: string }> = [
  { mode: 'point', label: 'Pick point', hint: 'Pick a point on the model to read its coordinates.' },
  { mode: 'distance', label: 'Distance', hint: 'Pick two points: the straight distance between them.' },
  { mode: 'polyline', label: 'Polyline', hint: 'Pick points one after another: the length along them.' },
  { mode: 'height', label: 'Height', hint: 'Pick two points: how much higher the second is, along the up axis as shown.' },
];

/** The keyboard's way of picking, as the tool shows it. */
export const MEASURE_KEYS_HINT = 'Keyboard: focus the 3D view and press P to pick the point under the centre cross; Escape clears.';

/** How many points a mode holds at most (a further pick starts again); Infinity for a polyline. */
function capacity(mode: MeasureMode): number {
  return mode === 'point' ? 1 : mode === 'polyline' ? Infinity : 2;
}

/** Hands a finished measurement to whoever saves findings: its points, kind and (for 'height') up axis, model coordinates. */
export type SaveMeasurement = (points: ModelPoint[], kind: MeasureKind, up: ModelPoint | null) => void;

/** What {@link useMeasureTool} gives the page. */
export interface MeasureToolState {
  open: boolean;
  toggle: () => void;
  /** What the tool wants from the viewport: the picks while open, its markers, the engine. */
  viewport: ViewportTool;
  /** The props of {@link MeasureTool}, or null while closed. */
  tool: MeasureToolProps | null;
}

/**
 * The measure tool's state.
 * @param model the model once found (its scale gives metres)
 * @param onSave where 'Save as finding' sends a measurement; without it the button is not shown
 */
export function useMeasureTool(model: Model | null, onSave?: SaveMeasurement): MeasureToolState {
  const [open, setOpen] = useState(false);
  const [mode, setMode] = useState<MeasureMode>('distance');
  const [points, setPoints] = useState<ModelPoint[]>([]);
  const [up, setUp] = useState<ModelPoint | null>(null);
  const [engine, setEngine] = useState<ViewerEngine | null>(null);
  const modeRef = useRef(mode);
  modeRef.current = mode;

  const onPick = useCallback(
    (pick: PickResult) => {
      const max = capacity(modeRef.current);
      setPoints((current) => (current.length >= max ? [pick.point] : [...current, pick.point]));
      if (modeRef.current === 'height') setUp(engine?.picker.modelUp() ?? null);
    },
    [engine],
  );
  const clear = useCallback(() => {
    setPoints([]);
    setUp(null);
  }, []);
  const choose = useCallback((next: MeasureMode) => {
    setMode(next);
    setPoints((current) => current.slice(0, capacity(next) === Infinity ? current.length : Math.min(current.length, capacity(next))));
  }, []);

  const markers = useMemo<ViewerMarker[]>(
    () =>
      open && points.length > 0
        ? [{ id: 'measure', points, label: mode === 'point' ? 'Picked point' : MEASURE_LABELS[mode], tone: 'measure' }]
        : [],
    [open, points, mode],
  );

  const viewport = useMemo<ViewportTool>(() => ({ pickMode: open, onPick, markers, onEngine: setEngine }), [open, onPick, markers]);

  return {
    open,
    toggle: () => {
      if (open) clear();
      setOpen(!open);
    },
    viewport,
    tool: open
      ? {
          mode,
          onMode: choose,
          points,
          up: mode === 'height' ? (up ?? engine?.picker.modelUp() ?? null) : null,
          unitsPerMetre: model?.metadata?.unitsPerMetre ?? null,
          onClear: clear,
          onUndo: () => setPoints((current) => current.slice(0, -1)),
          onPickCentre: engine ? () => void engine.picker.pickCentre() : undefined,
          onSave,
        }
      : null,
  };
}

export interface MeasureToolProps {
  mode: MeasureMode;
  onMode: (mode: MeasureMode) => void;
  /** Picked points, model coordinates. */
  points: readonly ModelPoint[];
  /** The up axis for 'height', model coordinates. */
  up: ModelPoint | null;
  /** The model's scale, or null: no metres. */
  unitsPerMetre: number | null;
  onClear: () => void;
  onUndo: () => void;
  /** Picks the point at the centre of the view (absent before the 3D view exists). */
  onPickCentre?: () => void;
  onSave?: SaveMeasurement;
}

/** The measure panel: modes, what to do, the points, the value, Clear and 'Save as finding'. */
export function MeasureTool({ mode, onMode, points, up, unitsPerMetre, onClear, onUndo, onPickCentre, onSave }: MeasureToolProps) {
  const rootRef = useRef<HTMLElement>(null);
  const titleId = useId();
  const hintId = useId();
  const kind: MeasureKind | null = mode === 'point' ? null : mode;
  const complete = kind !== null && points.length >= 2;
  const value = complete ? measure(kind, points, unitsPerMetre, up) : null;

  // Escape clears, from the panel or the 3D view (both are in the viewer's stage; not from other panels there).
  const clearRef = useRef(onClear);
  clearRef.current = onClear;
  useEffect(() => {
    const scope = rootRef.current?.closest('.viewer-stage') ?? rootRef.current;
    if (!scope) return;
    const onKeyDown = (event: Event) => {
      if ((event as KeyboardEvent).key !== 'Escape' || event.defaultPrevented) return;
      const from = event.target instanceof Element ? event.target : null;
      if (!from || !(rootRef.current?.contains(from) || from.closest('.viewport'))) return;
      clearRef.current();
    };
    scope.addEventListener('keydown', onKeyDown);
    return () => scope.removeEventListener('keydown', onKeyDown);
  }, []);

  const hint = MEASURE_MODES.find((m) => m.mode === mode)?.hint ?? '';
  const readout =
    mode === 'point'
      ? points[0]
        ? `Point: ${formatPoint(points[0])} (model units)`
        : 'No point picked yet.'
      : value
        ? `${MEASURE_LABELS[kind!]}: ${formatMeasurement(value)}`
        : `${MEASURE_LABELS[kind!]}: pick ${points.length === 0 ? 'two points' : 'one more point'}.`;

  return (
    <section ref={rootRef} className="measure-tool viewer-tool-panel" aria-labelledby={titleId} data-testid="measure-tool" data-mode={mode}>
      <h2 id={titleId} className="measure-title">
        Measure
      </h2>
      <div className="measure-modes" role="group" aria-label="Measure mode">
        {MEASURE_MODES.map((m) => (
          <button key={m.mode} type="button" aria-pressed={mode === m.mode} onClick={() => onMode(m.mode)}>
            {m.label}
          </button>
        ))}
      </div>
      <p id={hintId} className="measure-hint">
        {hint} {MEASURE_KEYS_HINT}
      </p>
      <p
        className="measure-readout"
        role="status"
        data-testid="measure-readout"
        data-model-units={value ? String(value.modelUnits) : undefined}
        data-metres={value?.metres != null ? String(value.metres) : undefined}
      >
        {readout}
      </p>
      {points.length > 0 && mode !== 'point' ? (
        <ol className="measure-points" aria-label="Picked points (model units)">
          {points.map((p, i) => (
            <li key={i}>{formatPoint(p)}</li>
          ))}
        </ol>
      ) : null}
      {value && value.metres === null ? <p className="measure-note">This model has no scale: values are in model units only.</p> : null}
      <div className="measure-actions">
        {onPickCentre ? (
          <button type="button" onClick={onPickCentre} aria-describedby={hintId}>
            Pick at centre
          </button>
        ) : null}
        {mode === 'polyline' && points.length > 0 ? (
          <button type="button" onClick={onUndo}>
            Undo point
          </button>
        ) : null}
        {/* aria-disabled, not disabled: the button keeps the focus once it has cleared. */}
        <button type="button" onClick={() => points.length > 0 && onClear()} aria-disabled={points.length === 0}>
          Clear
        </button>
        {onSave && complete && kind ? (
          <button type="button" className="button-primary" onClick={() => onSave([...points], kind, kind === 'height' ? up : null)}>
            Save as finding
          </button>
        ) : null}
      </div>
    </section>
  );
}
