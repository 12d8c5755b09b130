/**
 * The measure tool in jsdom: the modes are toggle buttons; picks make a point, a
 * distance (a third pick starts again), a polyline or a height along the displayed up axis; the
 * value in model units and in metres with the model's scale (shared measure/formatMeasurement);
 * Clear keeps the focus, Escape clears; 'Save as finding' hands over the points, kind and up
 * axis; the viewport props merge the tool's pick mode, pick handler and markers into another's.
 */
import { act, cleanup, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Model, ModelPoint } from '@shared/types.js';
import type { PickResult, ViewerEngine, ViewerMarker } from '../lib/engine.js';
import { combineTools } from '../lib/viewport-tools.js';
import { MeasureTool, useMeasureTool, type MeasureToolProps } from './measure-tool.js';

afterEach(cleanup);

const p = (x: number, y: number, z: number): ModelPoint => ({ x, y, z });
const pick = (point: ModelPoint): PickResult => ({ point, part: 'mesh' });
const model = (unitsPerMetre: number | null) =>
  ({ id: 'm1', publicId: 'BOX-1', name: 'Box', metadata: { unitsPerMetre } }) as unknown as Model;
/** An engine that answers the up axis of a y-down splat (the viewer's flip undone). */
const picker = { modelUp: () => p(0, -1, 0), pickCentre: vi.fn() };
const engine = { picker } as unknown as ViewerEngine;

function props(overrides: Partial<MeasureToolProps> = {}): MeasureToolProps {
  return {
    mode: 'distance',
    onMode: vi.fn(),
    points: [],
    up: null,
    unitsPerMetre: null,
    onClear: vi.fn(),
    onUndo: vi.fn(),
    ...overrides,
  };
}

describe('MeasureTool', () => {
  it('shows the modes as toggle buttons and asks for points', () => {
    const onMode = vi.fn();
    render(<MeasureTool {...props({ onMode })} />);
    const modes = within(screen.getByRole('group', { name: 'Measure mode' })).getAllByRole('button');
    expect(modes.map((b) => [b.textContent, b.getAttribute('aria-pressed')])).toEqual([
      ['Pick point', 'false'],
      ['Distance', 'true'],
      ['Polyline', 'false'],
      ['Height', 'false'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Polyline' }));
    expect(onMode).toHaveBeenCalledWith('polyline');
    expect(screen.getByRole('status').textContent).toBe('Distance: pick two points.');
    expect(screen.getByText(/press P to pick the point under the centre cross/)).toBeTruthy();
  });

  it('reads a distance in model units and in metres with the model scale; none without it', () => {
    const { rerender } = render(<MeasureTool {...props({ points: [p(0, 0, 0), p(3, 4, 0)], unitsPerMetre: 2 })} />);
    expect(screen.getByRole('status').textContent).toBe('Distance: 5 units (2.5 m)');
    expect(screen.getByRole('status').dataset.modelUnits).toBe('5');
    expect(screen.getByRole('status').dataset.metres).toBe('2.5');
    expect(
      within(screen.getByRole('list', { name: 'Picked points (model units)' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['(0, 0, 0)', '(3, 4, 0)']);
    rerender(<MeasureTool {...props({ points: [p(0, 0, 0), p(3, 4, 0)], unitsPerMetre: null })} />);
    expect(screen.getByRole('status').textContent).toBe('Distance: 5 units');
    expect(screen.getByText('This model has no scale: values are in model units only.')).toBeTruthy();
  });

  it('reads a point, a polyline length and a signed height along the given up axis', () => {
    const { rerender } = render(<MeasureTool {...props({ mode: 'point', points: [p(1.23456, -0.5, 2)] })} />);
    expect(screen.getByRole('status').textContent).toBe('Point: (1.235, -0.5, 2) (model units)');
    rerender(<MeasureTool {...props({ mode: 'polyline', points: [p(0, 0, 0), p(1, 0, 0), p(1, 2, 0)] })} />);
    expect(screen.getByRole('status').textContent).toBe('Polyline length: 3 units');
    // y-down file: up is −y, so going from y = 0 to y = −2 is 2 higher.
    rerender(<MeasureTool {...props({ mode: 'height', points: [p(0, 0, 0), p(5, -2, 0)], up: p(0, -1, 0) })} />);
    expect(screen.getByRole('status').textContent).toBe('Height difference: 2 units');
  });

  it('Clear keeps the focus (aria-disabled once nothing is left), Escape clears, Save hands the measurement over', () => {
    const onClear = vi.fn();
    const onSave = vi.fn();
    const points = [p(0, 0, 0), p(0, 3, 0)];
    const { rerender } = render(<MeasureTool {...props({ mode: 'height', points, up: p(0, 1, 0), onClear, onSave })} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save as finding' }));
    expect(onSave).toHaveBeenCalledWith(points, 'height', p(0, 1, 0));
    const clear = screen.getByRole('button', { name: 'Clear' });
    clear.focus();
    fireEvent.click(clear);
    expect(onClear).toHaveBeenCalledTimes(1);
    rerender(<MeasureTool {...props({ mode: 'height', points: [], onClear, onSave })} />);
    expect(clear.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(clear);
    fireEvent.click(clear);
    expect(onClear).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Save as finding' })).toBeNull();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Height' }), { key: 'Escape' });
    expect(onClear).toHaveBeenCalledTimes(2);
  });
});

describe('useMeasureTool', () => {
  it('takes the picks while open: a distance starts again on a third pick, a polyline grows, a height keeps the up axis', () => {
    const onSave = vi.fn();
    const { result } = renderHook(() => useMeasureTool(model(4), onSave));
    const others: ViewerMarker[] = [{ id: 'f1', points: [p(9, 9, 9)], label: 'F-1', tone: 'finding' }];
    const otherPick = vi.fn();
    const otherEngine = vi.fn();
    const findings = { pickMode: true, onPick: otherPick, markers: others, onEngine: otherEngine };
    // Closed: nothing picks but the findings, and with them closed too nothing picks.
    expect(combineTools([{ ...findings, pickMode: false }, result.current.viewport]).pickMode).toBe(false);
    let viewport = combineTools([findings, result.current.viewport]);
    expect(viewport.pickMode).toBe(true);
    expect(viewport.onPick).toBe(otherPick);
    expect(viewport.markers).toBe(others);
    expect(result.current.tool).toBeNull();
    act(() => viewport.onEngine(engine));
    expect(otherEngine).toHaveBeenCalledWith(engine);
    act(() => result.current.toggle());
    // Open: the measure tool takes the picks, although the findings pick too.
    viewport = combineTools([findings, result.current.viewport]);
    expect(viewport.pickMode).toBe(true);
    act(() => viewport.onPick(pick(p(0, 0, 0))));
    act(() => combineTools([findings, result.current.viewport]).onPick(pick(p(0, 0, 8))));
    expect(result.current.tool?.points).toEqual([p(0, 0, 0), p(0, 0, 8)]);
    expect(otherPick).not.toHaveBeenCalled();
    expect(result.current.tool?.unitsPerMetre).toBe(4);
    const merged = combineTools([findings, result.current.viewport]).markers;
    expect(merged[0]).toBe(others[0]);
    expect(merged[1]).toMatchObject({ id: 'measure', tone: 'measure', points: [p(0, 0, 0), p(0, 0, 8)] });
    act(() => result.current.viewport.onPick(pick(p(1, 1, 1))));
    expect(result.current.tool?.points).toEqual([p(1, 1, 1)]);
    act(() => result.current.tool!.onMode('polyline'));
    for (const point of [p(2, 1, 1), p(2, 5, 1), p(0, 5, 1)]) act(() => result.current.viewport.onPick(pick(point)));
    expect(result.current.tool?.points).toHaveLength(4);
    act(() => result.current.tool!.onUndo());
    expect(result.current.tool?.points).toHaveLength(3);
    act(() => result.current.tool!.onMode('height'));
    expect(result.current.tool?.points).toEqual([p(1, 1, 1), p(2, 1, 1)]);
    expect(result.current.tool?.up).toEqual(p(0, -1, 0));
    act(() => result.current.tool!.onPickCentre?.());
    expect(picker.pickCentre).toHaveBeenCalled();
    act(() => result.current.tool!.onClear());
    expect(result.current.tool?.points).toEqual([]);
    // Closing gives the picks back.
    act(() => result.current.toggle());
    viewport = combineTools([findings, result.current.viewport]);
    expect(viewport.onPick).toBe(otherPick);
    expect(viewport.markers).toBe(others);
  });
});
